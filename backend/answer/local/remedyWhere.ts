/**
 * What the lines before a network or disk error say the failing step was talking to, for the
 * remedy: the package index a refused connection was for (pip's `Looking in indexes: URL`, an
 * `--index-url`, npm's `--registry`, Maven's `Downloading from central: URL`, `GOPROXY=`), and a
 * write that went to `/dev/full` (a device every write to fails with "No space left on device",
 * whatever the free space). Only what the log prints counts; nothing is guessed from the tool.
 */
import type { Finding } from '../../../protocol/types.js';
import { osConditionOf } from './osWords.js';
import { escapeRegExp } from '../facts.js';

/** A log line's text by its number (findingText.ts LineText; not imported: findingText uses this module). */
type LineText = (line: number) => string | undefined;

/** How far above the error the step's own lines are looked for. */
const INDEX_LINES_ABOVE = 12;
const DEVICE_LINES_ABOVE = 200;

/** A resolver's message that says it ran offline (`--offline`, `offline mode`, npm's `only-if-cached`). */
const OFFLINE_MESSAGE = /offline|only-if-cached/i;

/**
 * The resolver's own words that it used its local cache alone, under its error (cargo's `As a
 * reminder, you're using offline mode`). Not the command's `--offline` flag: a build run offline
 * fails for other reasons too (a cycle, a renamed path dependency), and then the cache is not why.
 */
const OFFLINE_LINE = /\boffline mode\b|only-if-cached/;

/**
 * The line that shows the resolver ran offline: the message itself, else one of the few lines
 * the tool printed under it (ux6: cargo's reminder). Undefined when nothing there says so. The one
 * reader of it: the why answer (findingText.ts), the fix's steps (dependencySteps.ts, clues.ts) and
 * "infrastructure or code?" (blame.ts) say "ran offline" for the same builds.
 */
export function offlineLine(f: Finding, lineText?: LineText): number | undefined {
  if (OFFLINE_MESSAGE.test(f.message)) return f.message_line;
  if (!lineText) return undefined;
  for (let n = f.message_line + 1; n <= f.message_line + 6; n++) {
    const t = lineText(n) ?? '';
    // cargo searched a local path (a path dependency), not its registry cache: offline is not why.
    if (/location searched: (?!.*\b(?:index|registry)\b)/.test(t)) return undefined;
    if (OFFLINE_LINE.test(t)) return n;
  }
  return undefined;
}

/**
 * The port a network error names for `host` (`port 80`, urllib3's `port=80`, `host:80`), when it names one: a
 * refused port the message gives is never replaced by another port a line above gives the same host.
 */
export function portInMessage(message: string, host: string | undefined): string | undefined {
  return /\bport[= ](\d+)\b/.exec(message)?.[1] ?? (host ? new RegExp(`${escapeRegExp(host)}:(\\d+)`).exec(message)?.[1] : undefined);
}

export interface PackageIndex {
  /** The index URL as the log prints it. */
  url: string;
  /** The log line that names it. */
  line: number;
  /** What it is (`the package index pip installs from`). */
  what: string;
  /** Where a build sets it, by the tool's own names. */
  settings: string;
  /** The line above that sets it on the command line or in the environment (`--index-url URL`), when one does. */
  setAt?: number;
}

/** A command line or an assignment that sets an index. */
const SETS_INDEX = /--(?:extra-)?index-url[= ]|--registry[= ]|\b[A-Za-z_]*(?:INDEX_URL|registry|GOPROXY)=/i;


/** Lines naming an index by the tool's own words, each with what it is and where it is set. */
const INDEX_LINES: { re: RegExp; what: string; settings: string }[] = [
  { re: /\bLooking in indexes: |--(?:extra-)?index-url[= ]|\bPIP_(?:EXTRA_)?INDEX_URL=/, what: 'the package index pip installs from', settings: '`--index-url`, `PIP_INDEX_URL` or `pip.conf`' },
  { re: /--registry[= ]|\bnpm_config_registry=|^\s*registry\s*=/i, what: 'the npm registry the step installs from', settings: '`--registry` or `.npmrc`' },
  { re: /\bDownloading from [\w.-]+: |\bCould not transfer artifact\b/, what: 'the Maven repository the build downloads from', settings: 'the mirror in `settings.xml` or the POM\'s `<repositories>`' },
  { re: /\bGOPROXY=/, what: 'the Go module proxy', settings: '`GOPROXY`' },
];

/**
 * The package index at `host:port` (or `host` when no port is known) that a line just above the
 * error names, when one does: undefined when none does, or two name different indexes there.
 */
export function packageIndexAbove(lineText: LineText | undefined, errorLine: number, host: string, port: string | undefined): PackageIndex | undefined {
  if (!lineText) return undefined;
  const url = new RegExp(`\\b(?:https?|file)://(?:[^\\s/@]+@)?${escapeRegExp(host)}${port ? `:${port}` : '(?::\\d{2,5})?'}(?:/[^\\s,'"]*)?`, 'i');
  let found: PackageIndex | undefined;
  for (let n = errorLine; n >= Math.max(1, errorLine - INDEX_LINES_ABOVE); n--) {
    const text = lineText(n) ?? '';
    const u = url.exec(text)?.[0];
    if (!u) continue;
    const kind = INDEX_LINES.find((k) => k.re.test(text));
    if (!kind) continue;
    if (found && found.url !== u) return undefined;
    // The nearest line that names it by the tool's words; an earlier line with the same URL is the command that set it.
    found ??= { url: u, line: n, what: kind.what, settings: kind.settings };
    if (SETS_INDEX.test(text)) found.setAt = n;
  }
  return found;
}

export interface DeviceWrite {
  /** The line that shows the write's target is `/dev/full`. */
  line: number;
  /** The variable set to it, when a line sets one (`export DOCS_ARCHIVE=/dev/full`), and that line. */
  variable?: { name: string; line: number };
}

/**
 * A disk-full error whose step wrote to `/dev/full`: a line of the step above the error names it
 * (the command, a variable set to it, the program saying where it writes). The disk need not be full.
 */
export function devFullAbove(f: Finding, lineText: LineText | undefined): DeviceWrite | undefined {
  if (/\/dev\/full\b/.test(f.message)) return { line: f.message_line };
  // The error names the file it wrote (`No space left on device: '/var/tmp/out.bin'`): that file, not
  // an earlier write to the device, is what failed, and its disk may well be full.
  if (!lineText || osConditionOf(f.message)?.what !== undefined) return undefined;
  let line: number | undefined;
  let variable: DeviceWrite['variable'];
  for (let n = f.message_line - 1; n >= Math.max(1, f.message_line - DEVICE_LINES_ABOVE); n--) {
    const text = lineText(n) ?? '';
    if (!/(?:^|[\s'"=:>])\/dev\/full\b/.test(text)) continue;
    line ??= n;
    const set = /(?:^|[\s;])(?:export\s+)?([A-Za-z_]\w*)=['"]?\/dev\/full\b/.exec(text);
    if (set?.[1] && !variable) variable = { name: set[1], line: n };
  }
  return line === undefined ? undefined : { line, ...(variable ? { variable } : {}) };
}
