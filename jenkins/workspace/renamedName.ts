/**
 * A name a tool says is not defined, and the project file that defines a name like it (issue 25 point 3, session 49,
 * helper fx11): the usual trace of a rename that missed a use (`CelsiusToF` -> `CelsiusToFahrenheit` in another unit,
 * `slo_ms` -> `slo_p95_ms` in a settings file, `$text-muted` -> `$color-text-muted` in a partial, `be_apiv2` against
 * `backend be_api_v2`). Whatever the tool: the name is read from the message's usual shapes, the definitions from
 * the usual declaration forms of a line (a keyword before the name, an assignment, a Lisp `(defun`, a Prolog head),
 * and, when the message names no place, the project lines that still use the old name.
 */
import { definitionsIn, missingSymbolOf, namesAlike } from '../../core/log/symbols.js';

/** One line to show and the snippet's message (without the clue mark). */
export interface RenamedHit {
  rel: string;
  /** 0-based. */
  index: number;
  message: string;
}

/** The undefined name a message carries, in the shapes tools print it (beyond symbols.ts's compilers). */
export function undefinedNameOf(message: string): string | undefined {
  const shapes = [
    /\bIdentifier not found "([^"]+)"/,
    /\bundefined variable:?\s+['"`]?([$\w*.-]+)/i,
    /\bundefined function:?\s+['"`]?([\w*.:-]+)/i,
    /\bexistence_error\(procedure,\s*([a-z]\w*)\/\d+\)/,
    /\bunable to find required (?:use_backend|default_backend)?:?\s*'([\w.-]+)'/,
    /\bCould not find factory method \[(\w+)\]/,
    /\buninitialized constant (?:[\w]+::)*(\w+)/,
    /\bThe variable (?:[\w-]+::)?([*\w-]+) is unbound/,
    /\bModule `\\?(\w+)' referenced in module/,
    /\bfield designator '(\w+)' does not refer to any field/,
    /\bunknown (?:variable|identifier|function|procedure|macro|mixin)\s+['"`]([$\w.-]+)['"`]/i,
  ];
  for (const re of shapes) {
    const m = re.exec(message);
    if (m?.[1]) return m[1];
  }
  return missingSymbolOf(message);
}

/** The words of a name (`CelsiusToF` -> celsius, to, f; `slo_p95_ms` -> slo, p95, ms; `*vat-rate*` -> vat, rate). */
const wordsOf = (name: string): string[] => name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);

/**
 * Whether `name` looks like the `missing` one a rename left behind: symbols.ts's likeness, or every word of the
 * shorter name starts a word of the longer, in order, with at least two words (`CelsiusToF` / `CelsiusToFahrenheit`,
 * `slo_ms` / `slo_p95_ms`). The same name in another case is not a rename.
 */
export function renamedLike(missing: string, name: string): boolean {
  if (missing.toLowerCase() === name.toLowerCase()) return false;
  // A much shorter name is a word of the missing one, not its rename (`write` in `CsvWriter`); a test function is not
  // what a use of `parseHeader` meant (`TestParseHeader`); nor a type (`Distance`) a lower-case method's (`distanceKm`).
  if (name.length < missing.length - 3) return false;
  if (/^(?:Test|test_)/.test(name) && !/^(?:Test|test_)/.test(missing)) return false;
  if (/[a-z]/.test(missing) && /^[a-z]/.test(missing) !== /^[a-z]/.test(name)) return false;
  if (namesAlike(missing, name)) return true;
  const a = wordsOf(missing);
  const b = wordsOf(name);
  // A type renamed around its last word (`CsvWriter` -> `TableWriter`): both capitalised, two words or more each.
  if (/^[A-Z]/.test(missing) && /^[A-Z]/.test(name) && a.length >= 2 && a.length === b.length && a[a.length - 1] === b[b.length - 1]) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  if (short.length < 2) return false;
  let k = 0;
  for (const w of long) if (k < short.length && w.startsWith(short[k] as string)) k++;
  return k === short.length;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length] as number;
}

/** Names a line defines, in the declaration forms most languages share (symbols.ts's rules first). */
function definedOn(line: string): string[] {
  const out = definitionsIn([line]).map((d) => d.name);
  const forms = [
    /^\s*\((?:defun|defmacro|defparameter|defvar|defconstant|defgeneric|defmethod)\s+([^\s()]+)/i,
    /^\s*(?:(?:export|public|private|protected|static|final|abstract|async|pub|local|global|declare)\s+)*(?:def|function|func|fn|sub|proc|procedure|class|module|struct|enum|interface|trait|type|const|let|var|val|backend|frontend|listen|macro|mixin|task|rule|template|namespace|package)\s+([$A-Za-z_][\w$*.-]*)/,
    /^\s*(\$[\w-]+)\s*:/,
    /^\s*([A-Za-z_][\w-]*)\s*:?=(?!=)/,
    /^([a-z]\w*)\s*\([^)]*\)\s*(?::-|\.\s*$)/,
    /^\s*(?:[\w<>[\],.]+\s+)+([A-Za-z_]\w*)\s*\([^;]*\)\s*(?:\{|throws\b|$)/,
    /^\s*#\s*define\s+([A-Za-z_]\w*)/,
  ];
  for (const re of forms) {
    const name = re.exec(line)?.[1];
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

const DOC = /\.(?:md|markdown|rst|adoc|txt|html?|svg|csv|tsv|log|out|json|lock|sum)$/i;
const extOf = (rel: string): string => /\.[^./]+$/.exec(rel)?.[0].toLowerCase() ?? '';

/**
 * The definitions like `missing` in the project's files (the failing file's extension first, else any source-like
 * file), at most two, and, when `place` is unknown, the first line that still uses `missing`. Empty when no
 * definition is like it, or more than two are (then no one is the rename).
 */
export function renamedHits(files: readonly { rel: string; lines: readonly string[] }[], missing: string, place?: { rel: string; line: number }): RenamedHit[] {
  const ext = place ? extOf(place.rel) : undefined;
  const family = (rel: string): boolean => (ext ? extOf(rel) === ext || (ext === '.c' && extOf(rel) === '.h') || (ext === '.scss' && extOf(rel) === '.scss') : !DOC.test(rel));
  const defs: RenamedHit[] = [];
  const seen = new Set<string>();
  for (const f of files.filter((x) => family(x.rel) || (ext !== undefined && !DOC.test(x.rel)))) {
    // A name the failing file's own language defines counts first; other files only when it has none.
    f.lines.forEach((line, index) => {
      for (const name of definedOn(line)) {
        if (!renamedLike(missing, name) || seen.has(name.toLowerCase())) continue;
        seen.add(name.toLowerCase());
        defs.push({ rel: f.rel, index, message: `defines ${name}, a name like ${missing}, which the error says is not defined` });
      }
    });
  }
  // Preferred: the failing file's own kind of file.
  const own = ext ? defs.filter((d) => family(d.rel)) : defs;
  let picked = own.length > 0 ? own : defs;
  // One within a letter of it, the others farther: that one (`be_apiv2` -> `be_api_v2`, not `be_api`).
  const far = (d: RenamedHit): number => editDistance(missing.toLowerCase(), (/^defines (\S+),/.exec(d.message)?.[1] ?? '').toLowerCase());
  const best = picked.filter((d) => far(d) <= 1);
  if (best.length === 1) picked = best;
  if (picked.length === 0 || picked.length > 2) return [];
  const out = picked.map((d) => (picked.length > 1 ? { ...d, message: `${d.message}; one of two` } : d));
  if (!place) {
    // The line that still uses the old name (the message names no place): the first outside the definitions.
    const use = new RegExp(`(?:^|[^\\w$*-])${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, /[a-z]/.test(missing) ? '' : 'i');
    for (const f of files.filter((x) => !DOC.test(x.rel))) {
      const index = f.lines.findIndex((l) => use.test(l) && !/^\s*(?:#|\/\/|;|--|%)/.test(l));
      if (index >= 0) {
        out.push({ rel: f.rel, index, message: `uses ${missing}, which the error says is not defined` });
        break;
      }
    }
  }
  return out;
}
