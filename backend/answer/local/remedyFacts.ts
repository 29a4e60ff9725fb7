/**
 * The log's own facts a remedy rests on, beyond the finding (moved out of findingText.ts, which
 * keeps the finding's words): each a bullet that cites its line.
 */
import type { Finding } from '../../../protocol/types.js';
import type { ChatContext } from '../engine.js';
import { cite, clip, inlineCode, storedLogSpan, withoutStamp, type LogSpan } from '../logtext.js';
import type { RemedyRule, RemedyStep } from './remedyShape.js';
import { at } from './findingText.js';
import { dirOf, osConditionOf, stepUserIn, systemDir } from './osCondition.js';

/** The first absolute path of a message (`... directory: /x/build/CMakeFiles/pkgRedirects`). */
const pathIn = (message: string): string | undefined => /(?:^|[\s'"`(])(\/[\w.@+-]+(?:\/[\w.@+-]+)+)/.exec(message)?.[1];

/**
 * Lines of the stored log a remedy rests on, beyond the finding's own: the tool version the agent
 * printed before a wrong-version failure (`go version go1.19.8`, `openjdk version "17.0.15"`), the
 * script a `bash -e` step ran, pip's account of a conflict (`pydantic 2.13.5 depends on
 * pydantic-core==2.46.5`). Each as a bullet citing its line.
 */
export function logFacts(ctx: ChatContext, f: Finding): { text: string; line?: number; also?: number }[] {
  return factsOf(storedLogSpan(ctx), f);
}

const asSteps = (facts: { text: string; line?: number; also?: number }[]): RemedyStep[] => facts.map((x) => ({ text: x.text, lines: [x.line, x.also].filter((n): n is number => n !== undefined) }));

/**
 * The facts as remedy rules (remedyShape.ts): the names a tool lists under its refusal are the
 * tool's own words (level `wording`, before the tables that pick one of them); the other facts
 * come last, after the general steps they support.
 */
export const CHOICE_REMEDIES: RemedyRule[] = [{ id: 'facts/choices', specificity: 'wording', steps: ({ f, stored }) => asSteps(factsOf(stored, f, 'choices')) }];
export const FACT_REMEDIES: RemedyRule[] = [{ id: 'facts', specificity: 'fact', steps: ({ f, stored }) => asSteps(factsOf(stored, f, 'other')) }];

function factsOf(log: LogSpan | undefined, f: Finding, which: 'choices' | 'other' | 'all' = 'all'): { text: string; line?: number; also?: number }[] {
  const others = which !== 'choices';
  const wantVersion = others && f.class === 'missing-tool';
  const wantScript = others && f.class === 'ci-script' && (f.tool === 'bash' || f.tool === 'sh') && !f.location;
  const wantConflict = others && f.class === 'dependency-resolution' && f.tool === 'pip' && /conflicting dependencies/.test(f.message);
  const wantPeer = others && f.class === 'dependency-resolution' && f.tool === 'npm' && (f.code === 'ERESOLVE' || /ERESOLVE/.test(f.message));
  // A failed check whose finding holds no values, where the runner printed them labelled (TAP's `got:` / `expected:`, `Actual:`...).
  const wantValues = others && f.class === 'test-assertion' && (f.expected === undefined || f.actual === undefined);
  // A path the OS refused (any class: a program's `sqlite3.OperationalError: attempt to write a readonly database`, osCondition.ts),
  // or a permission finding that is not about a credential (`Unable to (re)create ... directory`).
  const os = osConditionOf(f.message);
  const wantUser = others && ((os !== undefined && (os.kind === 'permission' || (os.kind === 'read-only' && !os.mount))) || (f.class === 'permission-credentials' && /Permission denied|EACCES|EPERM|Operation not permitted|Access is denied|[Uu]nable to (?:\(re\))?create|cannot create|could not create|insufficient permission|not writable/.test(f.message) && !/publickey/.test(f.message)));
  // A refusal of a name the tool then lists its choices for (`No such preset ... Available configure presets:`, `Valid choices are:`).
  const wantChoices = which !== 'other' && /\b(?:No such|[Uu]nknown|[Ii]nvalid|not found|does not exist|[Uu]nrecognized)\b/.test(f.message);
  // A full disk whose message names no file: the output of the command that hit it.
  const wantOutput = others && f.class === 'disk-full';
  if (!wantOutput && !wantVersion && !wantScript && !wantConflict && !wantPeer && !wantUser && !wantValues && !wantChoices) return [];
  if (!log) return [];
  const lines = log.text.split('\n');
  const text = (n: number): string => withoutStamp(lines[n - log.start_line] ?? '').trim();
  const out: { text: string; line?: number; also?: number }[] = [];
  if (wantOutput) {
    for (let n = f.message_line - 1; n >= Math.max(log.start_line, f.message_line - 5); n--) {
      const target = /(?:^|\s)(?:-o\s*|--output[= ]|--out-file[= ]|-O\s+)([^\s;|&'"]+)/.exec(text(n))?.[1];
      if (target && !f.message.includes(target)) {
        const dir = target.includes('/') ? target.slice(0, target.lastIndexOf('/')) || '/' : '.';
        out.push({ text: `The command before the error writes ${inlineCode(target)} (its output option) ${at(n)}. On the agent, ${inlineCode(`df -h ${dir}`)} shows the filesystem that holds it.`, line: n });
        break;
      }
    }
    // What a `df` the step ran showed, and the variable that names that filesystem: fixNamed.ts.
  }
  if (wantChoices) {
    const choices = choicesAfter(text, f.message_line, Math.min(log.end_line, f.message_line + 30));
    if (choices) out.push({ text: `The tool lists what it has: ${choices.names.map((c) => inlineCode(c)).join(', ')}${choices.more ? ', ...' : ''} ${cite({ start_line: choices.head, end_line: choices.last })}. Use one of them where the command names the missing one, or add that name where the tool reads its list from.`, line: choices.head, also: choices.last });
  }
  if (wantVersion) {
    for (let n = f.message_line - 1; n >= Math.max(log.start_line, f.message_line - 200); n--) {
      const t = text(n);
      if (/^(?:go version go[\d.]+|(?:openjdk|java) version "[^"]+"|Apache Maven \d|Python \d+\.\d+|v\d+\.\d+\.\d+$|rustc \d+\.\d+|cargo \d+\.\d+|cmake version \d|gcc \(.*\) \d)/.test(t)) {
        out.push({ text: `The version on the agent: ${inlineCode(clip(t, 120))} ${at(n)}.`, line: n });
        break;
      }
    }
  }
  if (wantValues) {
    // Rust's assert_eq!/assert_ne! print `left:`/`right:`; so do ExUnit's `assert a == b` and others, named as a comparison.
    const rustAssertion = (near: string): string => (/left != right|assert_ne!/.test(near) ? '`assert_ne!`' : /left == right|assert_eq!/.test(near) ? '`assert_eq!`' : 'the comparison');
    let got: { v: string; n: number } | undefined;
    let want: { v: string; n: number } | undefined;
    let left: { v: string; n: number } | undefined;
    let right: { v: string; n: number } | undefined;
    const value = (v: string): string => v.trim().replace(/,$/, '');
    // Labelled values (TAP's `got:`, node's `actual:`/`expected:` under its diff), go's Example
    // output (`got:` and `want:` alone, the output on the line under each), Rust's assert_eq!
    // (`left: X` / `right: Y`); within the 30 lines after the message.
    for (let n = f.message_line; n <= Math.min(log.end_line, f.message_line + 30) && !(got && want) && !(left && right); n++) {
      const t = text(n).replace(/^#\s*/, '');
      const g = /^(?:got|actual|received|but was|Actual(?: value)?)\s*[:=]\s*(.+)$/i.exec(t);
      const e = /^(?:expected|want(?:ed)?|Expected(?: value)?)\s*[:=]\s*(.+)$/i.exec(t);
      const bare = /^(got|want):$/.exec(t);
      const side = /^(left|right): (.+)$/.exec(t);
      if (g && !got) got = { v: value(g[1] as string), n };
      if (e && !want) want = { v: value(e[1] as string), n };
      // (Not a column layout: inline code would collapse its runs of spaces, and the quote would not be the line's.)
      if (bare && text(n + 1).trim() !== '' && !/\S\s{2,}\S/.test(text(n + 1).trim()) && n + 1 <= log.end_line) {
        const under = { v: value(text(n + 1)), n: n + 1 };
        if (bare[1] === 'got' && !got) got = under;
        if (bare[1] === 'want' && !want) want = under;
      }
      if (side?.[1] === 'left' && !left) left = { v: value(side[2] as string), n };
      if (side?.[1] === 'right' && !right && left) right = { v: value(side[2] as string), n };
    }
    if (got && want) {
      const endings = lineEndingsOnly(want.v, got.v, f.message);
      // As printed: a value's runs of spaces are part of it (a table row), so they are kept, not collapsed.
      const shown = (v: string): string => inlineCode(v.length <= 80 ? v : `${v.slice(0, 79)}…`);
      out.push({ text: `The runner printed the values: expected ${shown(want.v)} ${at(want.n)}, got ${shown(got.v)} ${at(got.n)}. ${endings ? `The two differ only in line endings: ${endings}.` : `If ${shown(want.v)} is the intended result, fix the code under test; if ${shown(got.v)} is now right, update the test.`}`, line: want.n, also: got.n });
    } else if (left && right) {
      out.push({ text: `The assertion compared ${inlineCode(clip(left.v, 80))} ${at(left.n)} (left) with ${inlineCode(clip(right.v, 80))} ${at(right.n)} (right), the two values of ${rustAssertion(`${f.message}\n${text(f.message_line + 1)}`)} in the order the test passes them: one is what the code under test returned, the other what the test expects; fix the code if the test's value is the intended one, else update the test.`, line: left.n, also: right.n });
    }
  }
  if (wantUser) {
    // The user the step ran as, when the log shows it (`uid=65534(nobody)`, `+ whoami`'s answer, `setpriv --reuid=nobody`, `sudo -u x`).
    const who = stepUserIn(log, f.message_line);
    if (who) {
      const path = os ? os.what : pathIn(f.message);
      // Never `chown` a system directory (`/usr/local/bin`): there the step must write elsewhere.
      const dir = path && !systemDir(dirOf(path)) ? dirOf(path) : undefined;
      out.push({
        text: path && !dir
          ? `The step ran as ${inlineCode(who.user)} ${at(who.line)}, and ${inlineCode(dirOf(path))} is a system directory: rather than give that user access there (${inlineCode(`ls -ld ${dirOf(path)}`)} shows its owner and mode), have the step use a path that user owns.`
          : dir
          ? `The step ran as ${inlineCode(who.user)} ${at(who.line)}: that user needs access to ${inlineCode(dir)} (${inlineCode(`ls -ld ${dir}`)} shows its owner and mode; ${inlineCode(`chown -R ${who.user} ${dir}`)} gives it to that user), or the step must write somewhere that user owns.`
          : `The step ran as ${inlineCode(who.user)} ${at(who.line)}: that user needs access to the path (its owner and mode: \`ls -ld <path>\`; \`chown -R ${who.user} <path>\` gives it to that user), or the step must write somewhere that user owns.`,
        line: who.line,
      });
    }
  }
  if (wantScript) {
    for (let n = f.message_line - 1; n >= Math.max(log.start_line, f.message_line - 400); n--) {
      const script = /(?:^|\s|\$ )(?:\/(?:usr\/)?bin\/)?(?:ba)?sh -\w*e\w* ([\w./-]+\.sh)\b/.exec(text(n))?.[1];
      if (script) {
        out.push({ text: `The step runs ${inlineCode(script)} ${at(n)}: the command is in it.`, line: n });
        break;
      }
    }
  }
  if (wantConflict) {
    const head = lines.findIndex((l, i) => i + log.start_line > f.message_line && /The conflict is caused by:/.test(l));
    if (head >= 0) {
      for (let k = head + 1; k < Math.min(lines.length, head + 8); k++) {
        const t = text(k + log.start_line);
        if (!/depends on|requested/.test(t)) break;
        out.push({ text: `pip: ${inlineCode(t)} ${at(k + log.start_line)}.`, line: k + log.start_line });
      }
      if (out.length > 0) out.push({ text: 'Pin versions that agree (the one the dependency asks for), or move both to releases that fit together.' });
    }
  }
  if (wantPeer) {
    // npm's account of the tree: `Found: react@17.0.2` and `Could not resolve dependency:` over `peer react@"^18.3.1" from react-dom@18.3.1`.
    for (let n = f.message_line + 1; n <= Math.min(log.end_line, f.message_line + 30); n++) {
      const t = text(n).replace(/^npm (?:ERR!|error) ?/, '');
      if (/^(?:Found: \S+|peer \S+ from \S+|Conflicting peer dependency: \S+|While resolving: \S+)$/.test(t)) out.push({ text: `npm: ${inlineCode(t)} ${at(n)}.`, line: n });
    }
    if (out.length > 0) out.push({ text: 'Make the versions in `package.json` agree with that peer range (upgrade the package the peer names together with the one that asks for it, or keep the older one); `--force` / `--legacy-peer-deps` only hide the conflict.' });
  }
  return out;
}

/**
 * Two printed values (escaped as the runner quotes them: Go's `%q`, Python's repr, a JS string) that are the
 * same once the carriage returns are taken out: which side has CRLF line endings (`\r\n`), said as the
 * step to take; a data file the message names (`differs from testdata/x.golden`) is named as the place.
 * Undefined when they differ otherwise, or neither holds a `\r`.
 */
export function lineEndingsOnly(expected: string, actual: string, message = ''): string | undefined {
  const cr = (v: string): boolean => v.includes('\\r');
  const bare = (v: string): string => v.replace(/\\r(?=\\n|$|["'`])/g, '');
  if (cr(expected) === cr(actual) || bare(expected) !== bare(actual)) return undefined;
  const file = /(?:^|[\s'"`(])((?:[\w.-]+\/)*[\w-]+\.(?:golden|snap|txt|out|expected|json|ya?ml|csv|tsv|xml|html?|md))\b/.exec(message)?.[1];
  return cr(expected)
    ? `the expected value has CRLF (\`\\r\\n\`) where the program writes LF (\`\\n\`). If the expected value is read from a file (a golden file, a fixture${file ? `; the message names ${inlineCode(file)}` : ''}), that file has Windows line endings: convert it to LF (${inlineCode(`dos2unix ${file ?? 'FILE'}`)}) and keep it so with a \`.gitattributes\` rule (${inlineCode(`${file ?? 'FILE'} -text`)} or \`eol=lf\`)`
    : 'the program wrote CRLF (`\\r\\n`) where the test expects LF (`\\n`): find where the code (or a file it copies) adds the `\\r`, or compare with the line endings normalised';
}

/**
 * The list a tool prints under its refusal: a heading line (`Available configure presets:`, `Valid
 * choices are:`, `Possible values:`) within two lines of the message, then one name per line
 * (quoted or bare, indented or after `-`/`*`), blank lines skipped; at most 12 names.
 */
export function choicesAfter(text: (n: number) => string, from: number, to: number): { head: number; last: number; names: string[]; more: boolean } | undefined {
  for (let n = from; n <= Math.min(to, from + 2); n++) {
    if (!/^(?:Available|Valid|Possible|Known|Supported|Defined)\b[\w ()-]*(?:are|is)?:$/i.test(text(n).trim())) continue;
    const names: string[] = [];
    let last = n;
    for (let k = n + 1; k <= to; k++) {
      const t = text(k).trim();
      if (t === '') continue;
      const name = /^(?:[-*]\s+)?"([^"]+)"$|^(?:[-*]\s+)?'([^']+)'$|^(?:[-*]\s+)?([\w.:/@+-]+)$/.exec(t);
      if (!name || /^(?:##\[|\+ |Finished:|ERROR:|\[Pipeline\])/.test(t)) break;
      if (names.length === 12) return { head: n, last, names, more: true };
      names.push((name[1] ?? name[2] ?? name[3]) as string);
      last = k;
    }
    return names.length > 0 ? { head: n, last, names, more: false } : undefined;
  }
  return undefined;
}
