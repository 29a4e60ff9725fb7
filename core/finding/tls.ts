/**
 * A TLS certificate the client refused, read per client's grammar (issue 25, session 53, helper ux15): the server
 * answered, and its certificate failed verification for a reason the client names. Not "could not reach a host"
 * (network words elsewhere): the fix is the certificate's, the URL's host or the agent's trust, by that reason.
 * Outputs each made real on this machine (docs/notes/ux15.md): Node (`Hostname/IP does not match certificate's
 * altnames: Host: localhost. is not in the cert's altnames: DNS:gateway.acme.internal`, `certificate has expired`,
 * `self-signed certificate`, `unable to verify the first certificate`), Python (`[SSL: CERTIFICATE_VERIFY_FAILED]
 * certificate verify failed: Hostname mismatch, certificate is not valid for 'localhost'.`), curl (`SSL: no alternative
 * certificate subject name matches target host name 'localhost'`, `SSL certificate problem: unable to get local issuer
 * certificate`), Go (`x509: certificate is valid for gateway.acme.internal, not localhost`, `x509: certificate signed
 * by unknown authority`), Java (`No subject alternative DNS name matching localhost found.`, `PKIX path building
 * failed`), wget (`The certificate's owner does not match hostname 'localhost'`, `doesn't have a known issuer`),
 * OpenSSL's `verify error:num=10:certificate has expired`.
 */

/** Why the certificate was refused: it names another host, it is past (or before) its dates, or its issuer is not trusted. */
export type TlsReason = 'name' | 'expired' | 'not-yet-valid' | 'self-signed' | 'untrusted';

export interface TlsRefusal {
  reason: TlsReason;
  /** The host or address the client asked for, as the line names it. */
  asked?: string;
  /** The names the certificate holds, as the line lists them (`DNS:gateway.acme.internal`, `a, b`). */
  names?: string;
}

/**
 * The words that say why a certificate was refused, each spelled once: the READERS below read the reason (and the
 * names) from them, and rules.ts' network rule at priority 39 (`TLS_REASON_LINE`) gives the class to a line that holds
 * one (a line that states the reason says more than the `certificate verify failed` after it).
 */
const W = {
  nodeAltnames: String.raw`Hostname\/IP does not match certificate's altnames`,
  nodeCode: String.raw`ERR_TLS_CERT_ALTNAME_INVALID`,
  curlNoAlt: String.raw`no alternative certificate subject name matches`,
  javaNoAlt: String.raw`No subject alternative (?:DNS )?names? matching`,
  wgetOwner: String.raw`certificate's owner does not match hostname`,
  notYetValid: String.raw`certificate is not yet valid`,
  localIssuer: String.raw`unable to get local issuer certificate`,
  firstCert: String.raw`unable to verify the first certificate`,
};

/** Each client's wording, most specific first: the first reader that matches a line decides. */
const READERS: readonly { re: RegExp; reason: TlsReason; asked?: number; names?: number }[] = [
  // Node (ERR_TLS_CERT_ALTNAME_INVALID): its reason names both sides.
  { re: new RegExp(String.raw`${W.nodeAltnames}: (?:Host|IP): (\S+?)\.? is not in the cert's (?:altnames|list): (.+?)\s*$`), reason: 'name', asked: 1, names: 2 },
  { re: new RegExp(String.raw`\b${W.nodeCode}\b`), reason: 'name' },
  // Go's crypto/x509.
  { re: /x509: certificate is valid for (.+?), not ([^\s"]+)/, reason: 'name', names: 1, asked: 2 },
  { re: /x509: certificate is not valid for any names, but wanted to match ([^\s"]+)/, reason: 'name', asked: 1 },
  // Python's ssl (`Hostname mismatch` / `IP address mismatch, certificate is not valid for 'x'.`).
  { re: /\b(?:Hostname|IP address) mismatch, certificate is not valid for '([^']+)'/, reason: 'name', asked: 1 },
  // curl.
  { re: new RegExp(String.raw`${W.curlNoAlt} target host name '([^']+)'`), reason: 'name', asked: 1 },
  { re: /certificate subject name '([^']+)' does not match target host(?: name)? '([^']+)'/, reason: 'name', names: 1, asked: 2 },
  // Java (JSSE).
  { re: new RegExp(String.raw`${W.javaNoAlt} (?:IP address )?(\S+?) found`), reason: 'name', asked: 1 },
  { re: /No name matching (\S+) found/, reason: 'name', asked: 1 },
  // wget.
  { re: new RegExp(String.raw`${W.wgetOwner} ['‘]([^'’]+)['’]`), reason: 'name', asked: 1 },
  // Dates.
  { re: /\bcertificate (?:has )?expired\b|\bCERT_HAS_EXPIRED\b|CertificateExpiredException|x509: certificate has expired or is not yet valid: current time \S+ is after|\bThe certificate of .+ has expired\b/i, reason: 'expired' },
  { re: new RegExp(String.raw`\b${W.notYetValid}\b|\bCERT_NOT_YET_VALID\b|CertificateNotYetValidException|x509: certificate has expired or is not yet valid: current time \S+ is before`, 'i'), reason: 'not-yet-valid' },
  // The issuer.
  { re: /\bself[- ]signed certificate\b|\bDEPTH_ZERO_SELF_SIGNED_CERT\b|\bSELF_SIGNED_CERT_IN_CHAIN\b/i, reason: 'self-signed' },
  {
    re: new RegExp(String.raw`${W.localIssuer}|${W.firstCert}|\bUNABLE_TO_VERIFY_LEAF_SIGNATURE\b|\bUNABLE_TO_GET_ISSUER_CERT(?:_LOCALLY)?\b|x509: certificate signed by unknown authority|PKIX path building failed|unable to find valid certification path|doesn't have a known issuer|certificate verify failed|CERTIFICATE_VERIFY_FAILED|SSL certificate problem`, 'i'),
    reason: 'untrusted',
  },
];

/**
 * A line that says why a certificate was refused (rules.ts' network rule at priority 39): openssl's `verify
 * error:num=N:`, or one of the reasons (W, and the dates', the issuer's and Go's reasons in the rule's own spelling).
 */
export const TLS_REASON_LINE = new RegExp(
  String.raw`^verify error:num=\d+:|\b(?:certificate has expired|${W.notYetValid}|self[- ]signed certificate(?: in certificate chain)?|${W.localIssuer}|[Hh]ostname mismatch|certificate is not valid for|x509: certificate (?:signed by unknown authority|is valid for \S+, not \S+|is not valid for any names|relies on legacy Common Name field|has expired or is not yet valid)|${W.nodeAltnames}|${W.nodeCode}|${W.firstCert}|${W.curlNoAlt}|${W.javaNoAlt}|${W.wgetOwner})\b`,
);

/** Any client's words for a refused certificate (one line): the union of READERS, for a rule's class. */
export const TLS_REFUSED = new RegExp(READERS.map((r) => r.re.source).join('|'), 'i');

/** The refusal one line states, when it states one. */
export function tlsRefusalOf(line: string): TlsRefusal | undefined {
  for (const r of READERS) {
    const m = r.re.exec(line);
    if (!m) continue;
    const asked = r.asked !== undefined ? m[r.asked] : undefined;
    const names = r.names !== undefined ? m[r.names] : undefined;
    return { reason: r.reason, ...(asked ? { asked } : {}), ...(names ? { names } : {}) };
  }
  return undefined;
}

/**
 * The refusal the lines from a message down state, the most specific reason first: a message that says only
 * `certificate verify failed` over (or under) the line that says why (Node's `code:`/`reason:` properties, OpenSSL's
 * `verify error:num=10:` above it) takes that line's reason; the names it lists too (Node's `host:`, `subjectaltname:`).
 */
export function tlsRefusalIn(lines: readonly string[]): (TlsRefusal & { index: number }) | undefined {
  let best: (TlsRefusal & { index: number }) | undefined;
  for (let i = 0; i < lines.length; i++) {
    const found = tlsRefusalOf(lines[i] ?? '');
    if (!found) continue;
    if (!best || (best.reason === 'untrusted' && found.reason !== 'untrusted') || (best.reason === found.reason && !best.asked && found.asked)) best = { ...found, index: i };
  }
  if (best?.reason === 'name') {
    const prop = (name: string): string | undefined => lines.map((l) => new RegExp(`^\\s*${name}: '([^']+)',?$`).exec(l)?.[1]).find((v) => v !== undefined);
    best = { ...best, ...(best.asked ? {} : prop('host') ? { asked: prop('host') } : {}), ...(best.names ? {} : prop('subjectaltname') ? { names: prop('subjectaltname') } : {}) };
  }
  return best;
}
