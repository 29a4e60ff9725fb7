/**
 * The URL, path or file name an error quotes, on a line the checkout's change wrote (session 56, helper fx20; issue
 * 25): R's `cannot open URL 'http://host/x-2.4.0.csv'`, wget's `--DATE--  URL` over its `ERROR 404`, a traced
 * `+ curl -fsSL URL`, pip's `HTTP error 404 while getting URL`, `cp: cannot stat 'dist/app.js'`. When an added line of
 * the change holds that string and the lines it replaced did not, the change wrote what the failing command asked for:
 * the change block shows that hunk, with what the line held before, instead of "Nothing here shows it caused the failure".
 */
/** A changed block's lines (changeDiff.ts `ChangedBlock`): what it removed and what it added. */
interface Hunk {
  removed: string[];
  added: string[];
}

/** A URL, path or file name one of the error's lines quotes, with the log line that quotes it. */
export interface QuotedOperand {
  text: string;
  line: number;
  kind: 'URL' | 'path' | 'file name';
  /** The text of the log line that quotes it. */
  said: string;
}

/** A changed block whose added lines hold a quoted operand its removed lines did not, and what those held instead. */
export interface QuotedWrite<B extends Hunk = Hunk> {
  b: B;
  q: QuotedOperand;
  /** The URL or path of the removed lines the new one replaced (`http://host/x-2.3.0.csv`), when one differs. */
  was?: string | undefined;
}

const URL_RE = /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"`<>()[\]{}‘’]+/gi;
/** A quoted word: '...', "...", ‘...’, `...` without spaces. */
const QUOTED_RE = /(['"`‘])([^\s'"`‘’]{4,200})['"`’]/g;
/** A line that says a step failed, by its tool's words. */
const FAILURE_WORDS = /\b(?:cannot|can't|could not|couldn't|unable|failed|failure|error|not found|no such|denied|refused|forbidden|unauthori[sz]ed)\b|\b[45]\d\d\b/i;
/** The request line of a download right above its failure: R's `trying URL '...'`, wget's `--2026-12-01 03:00:00--  URL`, a traced `+ curl`/`+ wget`. */
const REQUEST_LINE = /^(?:trying URL\b|--\d{4}-\d\d-\d\d \d\d:\d\d:\d\d--\s|\++ (?:\S*\/)?(?:curl|wget|Rscript|pip3?|python3? -m pip)\b)/;
/** A path (a slash), or a file name by a data, archive, source or config file's extension (`x-2.4.0.csv`), not a package's dotted name (`data.table`). */
const PATHLIKE = /\/|^[\w.+-]*\w\.(?:csv|tsv|json|ya?ml|xml|txt|gz|tgz|zip|tar|bz2|xz|zst|7z|whl|jar|war|ear|so|dll|dylib|a|sql|sh|py|[Rr]|rb|pl|js|mjs|cjs|ts|lock|toml|ini|cfg|conf|properties|md|html?|bin|dat|parquet|pdf|log|pem|crt|key|db|sqlite|deb|rpm|exe|msi|dmg|iso|img|nc|h5|rds|RData)$/;
/** An error's words for what is not there (a 404, a missing file): the quoted operand is what the command did not find. */
export const NOT_THERE_WORDS = /\b(?:404|410)\b|[Nn]ot [Ff]ound|[Nn]o such file|does(?: not|n't) exist|cannot (?:open|stat|access|find)|can't (?:open|stat|access|find)|could(?: not|n't) (?:open|find)|[Cc]annot open URL/;

const trimTail = (s: string): string => s.replace(/[.,;:!?]+$/, '');

/** The operand's last path segment, when it names a file (`x-2.4.0.csv`), else undefined. */
function basenameOf(s: string): string | undefined {
  const last = s.replace(/[?#].*$/, '').split('/').pop() ?? '';
  return last.length >= 5 && last !== s && PATHLIKE.test(last) ? last : undefined;
}

/**
 * The URLs, paths and file names the error's lines quote: on the finding's own lines, on lines in `window` that say a
 * failure, and on the last download request line above the error; most telling first (URLs, then paths, then the
 * file names they end in).
 */
export function quotedOperands(window: readonly { line: number; text: string }[], own: { first: number; last: number }): QuotedOperand[] {
  const lastRequest = [...window].reverse().find((l) => l.line <= own.last && REQUEST_LINE.test(l.text.trim()));
  // The finding's own lines first: the line cited is the error's, where it quotes the operand.
  const isOwn = (l: { line: number }): boolean => l.line >= own.first && l.line <= own.last;
  const telling = [...window.filter(isOwn), ...window.filter((l) => !isOwn(l) && (FAILURE_WORDS.test(l.text) || l === lastRequest))];
  const urls: QuotedOperand[] = [];
  const paths: QuotedOperand[] = [];
  const names: QuotedOperand[] = [];
  let said = '';
  const add = (xs: QuotedOperand[], text: string, line: number, kind: QuotedOperand['kind']): void => {
    if (![...urls, ...paths, ...names].some((q) => q.text === text)) xs.push({ text, line, kind, said });
  };
  for (const l of telling) {
    said = l.text;
    for (const m of l.text.matchAll(URL_RE)) {
      const url = trimTail(m[0]);
      if (!/:\/\/[^/]+\.[^/]|:\/\/(?:localhost|\d)/.test(url) && !url.startsWith('file://')) continue;
      add(urls, url, l.line, 'URL');
      const base = basenameOf(url);
      if (base) add(names, base, l.line, 'file name');
    }
    for (const m of l.text.matchAll(QUOTED_RE)) {
      const s = trimTail(m[2] as string);
      if (/:\/\//.test(s) || !PATHLIKE.test(s) || /^\.+\/?$/.test(s)) continue;
      add(s.includes('/') ? paths : names, s, l.line, s.includes('/') ? 'path' : 'file name');
      const base = basenameOf(s);
      if (base) add(names, base, l.line, 'file name');
    }
  }
  return [...urls, ...paths, ...names].slice(0, 12);
}

/** Whether `line` holds `s` as a whole operand: not glued to more of a name or path on either side. */
function holds(line: string, s: string, kind: QuotedOperand['kind']): boolean {
  const edge = kind === 'URL' ? '' : kind === 'path' ? '\\w.\\-/' : '\\w.\\-';
  const esc = s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return edge === '' ? line.includes(s) : new RegExp(`(?<![${edge}])${esc}(?![${edge}])`).test(line);
}

/** What the removed lines held where the added one holds `q`: a URL or path of them that the added lines do not hold. */
function wasOf(b: Hunk, q: QuotedOperand): string | undefined {
  const pick = (l: string): string[] => (q.kind === 'URL' ? [...l.matchAll(URL_RE)].map((m) => trimTail(m[0])) : [...l.matchAll(QUOTED_RE)].map((m) => m[2] as string).filter((s) => PATHLIKE.test(s)));
  const added = b.added.join('\n');
  const olds = b.removed.flatMap(pick).filter((s) => !added.includes(s));
  if (olds.length > 0) return olds[0];
  if (q.kind === 'file name') {
    // The file name alone: a name of the removed lines with the same extension (`x-2.3.0.csv` where `x-2.4.0.csv` is now).
    const ext = /\.[A-Za-z0-9]+$/.exec(q.text)?.[0] ?? '';
    return b.removed.join('\n').match(/[\w.+-]+\.[A-Za-z0-9]{1,8}\b/g)?.find((s) => s !== q.text && ext !== '' && s.endsWith(ext) && !added.includes(s));
  }
  return undefined;
}

/** The first block (of `blocks`, in order) whose added lines write an operand the error quotes, most telling operand first. */
export function blockWritingQuoted<B extends Hunk>(blocks: readonly B[], quoted: readonly QuotedOperand[]): QuotedWrite<B> | undefined {
  for (const q of quoted) {
    for (const b of blocks) {
      if (!b.added.some((l) => holds(l, q.text, q.kind)) || b.removed.some((l) => holds(l, q.text, q.kind))) continue;
      return { b, q, was: wasOf(b, q) };
    }
  }
  return undefined;
}
