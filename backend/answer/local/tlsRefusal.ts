/**
 * A certificate the client refused, as the answers say it (session 53, helper ux15; core/finding/tls.ts reads it): the
 * server answered, so never "could not reach a host" nor "re-run if it answers now"; the verification's own reason, the
 * host the client asked for and the names the certificate holds, as the log prints them.
 */
import { tlsRefusalIn, type TlsRefusal } from '../../../core/finding/tls.js';
import type { Finding } from '../../../protocol/types.js';
import { at, inlineCode } from '../logtext.js';

type LineText = (n: number) => string | undefined;

/** The refusal the finding's message states, read with the lines under it (Node's `code:`, `host:`, `subjectaltname:`); its line. */
export function tlsRefusalFor(f: Finding, lineText: LineText | undefined): (TlsRefusal & { line: number }) | undefined {
  if (f.class !== 'network') return undefined;
  const from = f.message_line;
  const lines = [f.message, ...Array.from({ length: 30 }, (_, k) => lineText?.(from + 1 + k) ?? '')];
  const found = tlsRefusalIn(lines);
  return found ? { ...found, line: found.index === 0 ? from : from + found.index } : undefined;
}

/** What was wrong with the certificate, in words: its reason, and the names on each side when the log prints them. */
export function refusalWords(r: TlsRefusal): string {
  switch (r.reason) {
    case 'name':
      return `it does not name the host the client asked for${r.asked ? ` (${inlineCode(r.asked)})` : ''}${r.names ? `: the certificate holds ${inlineCode(r.names)}` : ''}`;
    case 'expired':
      return 'it is past its end date';
    case 'not-yet-valid':
      return 'it is not valid yet (its start date is ahead of the agent\'s clock)';
    case 'self-signed':
      return 'it is self-signed, and the client does not trust it';
    case 'untrusted':
      return 'the client could not verify it against a CA it trusts';
  }
}

/** "What it means" for a refused certificate. */
export function refusalMeaning(r: TlsRefusal & { line: number }): string {
  return `The server answered, but the client refused its TLS certificate ${at(r.line)}: ${refusalWords(r)}. The connection itself worked; the certificate's verification failed.`;
}
