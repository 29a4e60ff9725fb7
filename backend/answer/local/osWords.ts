/**
 * The operating system's words in a message (split from osCondition.ts so that remedyWhere.ts,
 * which findingText.ts reads, can use them without an import circle): which condition a message is
 * (a path refused, a read-only file or mount, no space, a missing path, a refused connection), the
 * path or address it names, and which directories are the system's. The OS errors' names and spellings are
 * core/finding/errno.ts's table (OS_ERRORS), which the finding reads too.
 */
import { OS_ERRORS, osErrorWords, osKindWords, type OsKind } from '../../../core/finding/errno.js';
import { addressPorts } from '../../../core/log/values.js';

export type { OsKind } from '../../../core/finding/errno.js';

export interface OsCondition {
  kind: OsKind;
  /** The path (or `host:port`) the message names, when it names one. */
  what?: string;
  /** A read-only condition the kernel gave for the whole mount (EROFS, `Read-only file system`): no owner or mode can change it. */
  mount?: boolean;
}

/** The kernel's read-only mount (EROFS's own words), as against a file or database the step's user may not write. */
export const READ_ONLY_MOUNT = new RegExp(OS_ERRORS.filter((e) => e.errno === 'EROFS').map(osErrorWords).join('|'), 'i');

/** A refusal of a credential or a database grant, not of a file: never read as an OS condition. */
const NOT_THE_OS = /\b40[13]\b|Unauthori[sz]ed|Forbidden|publickey|password|credential|\btoken\b|permission denied for (?:schema|table|relation|database|sequence|function)|access denied for user/i;

/** The conditions in the order they are tried: the first whose words the message holds is its condition. */
const KINDS: { kind: OsKind; re: RegExp }[] = (['read-only', 'permission', 'no-space', 'refused', 'missing-path'] as const).map((kind) => ({ kind, re: osKindWords(kind) }));

/** The path a message names: quoted, after `open`/`create`/`stat`, or before the OS's words; never a URL. */
function pathOf(message: string): string | undefined {
  // Not a URL, not a socket the program connected to (`docker.sock`: its group, not a directory's owner, decides).
  const ok = (p: string | undefined): string | undefined => (p && !/:\/\/|%2F/i.test(p) && !(/\.sock$/.test(p) && /\bconnect\b/.test(message)) && /[/.]/.test(p) ? p : undefined);
  return (
    // nginx's `open() "/var/log/x.log" failed (13: Permission denied)`
    ok(/\b\w+\(\) "([^"]+)" failed \(\d+: /.exec(message)?.[1]) ??
    ok(/(?:No such file or directory|Permission denied|FileNotFoundError|PermissionError|ENOENT|EACCES|EPERM|EROFS|Read-only file system)[^'"`‘]*['"`‘]([^'"`’\s]+)['"`’]/i.exec(message)?.[1]) ??
    ok(/\b(?:open|opening|create|creating|stat|lstat|mkdir|unlink|unlinkat|rename|remove|write|writing|read|reading|chmod|access)\b\s*['"`]?([\w.~/-]*[\w~/][\w.~/-]*?)['"`]?\s*[:,]\s*(?:No such file|Permission denied|Operation not permitted|Read-only|permission denied|no such file|read-only)/.exec(message)?.[1]) ??
    ok(/(\/[\w.@+-]+(?:\/[\w.@+-]+)*)['"`]?:? (?:No such file|Permission denied|permission denied|Operation not permitted|Read-only file system)/.exec(message)?.[1]) ??
    // Else the first absolute path (`could not open /x/y.info for writing`, `file_put_contents(/x/y.xml)`).
    ok(/(?:^|[\s'"`(])(\/[\w.@+-]+(?:\/[\w.@+-]+)+)/.exec(message)?.[1])
  );
}

/** The OS condition a message is, with the path (or address) it names. Credentials and grants are not. */
export function osConditionOf(message: string): OsCondition | undefined {
  if (NOT_THE_OS.test(message)) return undefined;
  for (const { kind, re } of KINDS) {
    if (!re.test(message)) continue;
    const what = kind === 'refused' ? addressPorts(message)[0]?.text : pathOf(message);
    return { kind, ...(what ? { what } : {}), ...(kind === 'read-only' && READ_ONLY_MOUNT.test(message) ? { mount: true } : {}) };
  }
  return undefined;
}

/** A directory of the system (`/usr/local/bin`, `/var/cache`, `/run/x`, `/etc/x`), never to hand to the build's user. */
export function systemDir(d: string): boolean {
  const parts = d.split('/').filter((x) => x !== '');
  if (parts.length <= 1) return true;
  if (/^(?:etc|bin|sbin|lib\w*|boot|proc|sys|dev|root|usr)$/.test(parts[0] as string)) return true;
  return /^(?:var|run)$/.test(parts[0] as string) && parts.length <= 2;
}

/** A path's directory (`.` for a bare name). */
export const dirOf = (p: string): string => (p.includes('/') ? p.slice(0, p.replace(/\/+$/, '').lastIndexOf('/')) || '/' : '.');
