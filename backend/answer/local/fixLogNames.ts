/**
 * Remedies that name what the log itself lists next to the error (issue 25 point 3, "the fix
 * names the concrete thing in evidence"): the name a tool suggests under its refusal (`Did you
 * mean?  ci:test`), the rules an ESLint run warned about when warnings fail the step, the files a
 * coverage table shows least covered when coverage is under its threshold, the C++ source a
 * build compiled for a class whose member the linker did not find. Keyed on each tool's printed
 * format, never on a project's names; every quoted name is on the line cited with it.
 */
import type { Finding } from '../../../protocol/types.js';
import { inlineCode, type LogSpan } from '../logtext.js';
import { at } from './findingText.js';
import { around, nearby, rule, type RemedyRule } from './remedyShape.js';

/** `JsonReporter` -> the file base names a C++ project gives it: json_reporter, jsonreporter, JsonReporter, json-reporter. */
function fileNamesOfClass(cls: string): string[] {
  const words = cls.replace(/([a-z\d])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2').toLowerCase().split(' ');
  return [...new Set([words.join('_'), words.join(''), words.join('-'), cls])];
}


/**
 * A native program that crashed, aborted or hung with no frame in the log: the command that ran it last before the
 * error (`./csvhead x.csv`, make's echo or `+ ./x`) and the build line above that wrote it (`cc ... -o csvhead
 * src/csvhead.c`), with its sources (on the link line, or the `-c` lines that compiled the objects it links).
 * Shared by the `lognames/program-sources` rule and the change block (fix.ts: a changed source of that program).
 */
export function programBuild(f: Finding, stored: LogSpan | undefined): { run: { text: string; line: number }; link: number; sources: { file: string; line: number }[] } | undefined {
  const m0 = f.message_line;
  if (!stored || f.location?.line !== undefined || !['runtime-exception', 'timeout-aborted', 'out-of-memory'].includes(f.class) || f.test) return undefined;
  const above = around(stored, m0, 200, 0).reverse();
  const runIdx = above.findIndex((l, n) => n <= 12 && /^(?:\+ )?(?:timeout \d+\S* )?\.?\.?\/?[\w.-]+\/[\w.-]+(?:\s|$)/.test(l.text.trim()) && !/^(?:\+ )?\/(?:usr|bin)\//.test(l.text.trim()));
  const run = above[runIdx];
  if (!run) return undefined;
  const program = (run.text.trim().replace(/^\+ /, '').replace(/^timeout \d+\S* /, '').split(/\s+/)[0] as string).replace(/^\.\//, '');
  for (const l of above.slice(runIdx + 1)) {
    const words = l.text.trim().replace(/^\+ /, '').split(/\s+/);
    const o = words.findIndex((w, n) => w === '-o' && (words[n + 1] ?? '').replace(/^\.\//, '') === program);
    if (o < 0 || !/^(?:\S*\/)?(?:cc|gcc|g\+\+|c\+\+|clang|clang\+\+|gplc|gfortran)(?:-[\d.]+)?$/.test(words[0] ?? '')) continue;
    // Sources on the link line itself, or the objects it links traced to the `-c` lines that compiled them.
    const objects = words.filter((w, n) => n !== o + 1 && /\.o$/.test(w));
    const compiledFrom = (obj: string): { file: string; line: number } | undefined => {
      for (const c of above.slice(runIdx + 1)) {
        const cw = c.text.trim().replace(/^\+ /, '').split(/\s+/);
        if (!cw.includes('-c')) continue;
        const src = cw.find((w) => /\.(?:c|cc|cpp|cxx|C|m|f90|f)$/.test(w));
        const out = cw[cw.indexOf('-o') + 1];
        if (src && (cw.includes('-o') ? out === obj : src.replace(/^.*\//, '').replace(/\.\w+$/, '.o') === obj.replace(/^.*\//, ''))) return { file: src, line: c.line };
      }
      return undefined;
    };
    const sources = [...words.filter((w, n) => n !== o + 1 && /\.(?:c|cc|cpp|cxx|C|m|f90|f|pl|pro)$/.test(w)).map((w) => ({ file: w, line: l.line })), ...objects.flatMap((x) => compiledFrom(x) ?? [])];
    if (sources.length === 0 || sources.length > 6) return undefined;
    return { run, link: l.line, sources };
  }
  return undefined;
}

export const LOG_NAME_REMEDIES: RemedyRule[] = [
  // A tool that refuses a name and prints the one it would take (rake's `Did you mean?  ci:test`,
  // Thor's and Ruby's did_you_mean, `Did you mean 'x'?` on the next line): that name, quoted from its line.
  rule('lognames/did-you-mean', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (/Did you mean/i.test(f.message)) return;
    const hit = nearby(around(stored, m0, 0, 4).slice(1), /^\s*(?:\S+ (?:error|ERR!) )?Did you mean(?: one of these)?\??:?\s+[`'"‘]?([\w:./@-]+)[`'"’]?\??\s*$/i);
    if (!hit) return;
    out.push({ text: `The tool suggests ${inlineCode(hit.m[1] as string)} ${at(hit.line)} for the name it does not know: if that is the one meant, use it where the command or script names the unknown one.`, lines: [hit.line] });
  }),

  // ESLint with `--max-warnings`: the warnings are the failure; the rules it warned about, from its stylish report above.
  rule('lognames/eslint-max-warnings', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (!/ESLint found too many warnings/.test(f.message)) return;
    const rules = new Map<string, number>();
    for (const l of around(stored, m0, 80, 0)) {
      const m = /^\s+\d+:\d+\s+warning\s+.+?\s{2,}(@?[\w/-]+)\s*$/.exec(l.text);
      if (m && !rules.has(m[1] as string)) rules.set(m[1] as string, l.line);
    }
    if (rules.size === 0) return;
    const listed = [...rules].slice(0, 5);
    out.push({
      text: `The warnings that count against \`--max-warnings\` are of ${listed.map(([r, n]) => `${inlineCode(r)} ${at(n)}`).join(', ')}: fix those lines (\`npx eslint --fix\` fixes what it can), or, if a rule does not fit the project, turn it off or down in the ESLint config rather than raising the limit.`,
      lines: listed.map(([, n]) => n),
    });
  }),

  // Coverage under its threshold (coverage.py's `Name Stmts Miss Cover` table, istanbul's `File | % Stmts | ...`): the least covered files.
  rule('lognames/coverage-least-covered', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (!/coverage|Coverage/.test(f.message) || !/not (?:reached|met)|fail[- ]under|threshold|below/i.test(f.message)) return;
    const rows: { file: string; pct: number; line: number }[] = [];
    for (const l of around(stored, m0, 60, 0)) {
      const py = /^\s*([\w./-]+\.\w+)\s+\d+\s+\d+(?:\s+\d+\s+\d+)?\s+(\d+(?:\.\d+)?)%/.exec(l.text);
      const js = /^\s*([\w./-]+\.\w+)\s*\|\s*(\d+(?:\.\d+)?)\s*\|/.exec(l.text);
      const row = py ?? js;
      if (row) rows.push({ file: row[1] as string, pct: Number(row[2]), line: l.line });
    }
    const low = rows.filter((r) => r.pct < 100).sort((a, b) => a.pct - b.pct).slice(0, 3);
    if (low.length === 0) return;
    out.push({
      text: `The least covered files in the report: ${low.map((r) => `${inlineCode(r.file)} (${r.pct}%) ${at(r.line)}`).join(', ')}: tests for the code there raise the total most.`,
      lines: low.map((r) => r.line),
    });
  }),

  // The linker found no member (or vtable) of a C++ class: the source this build compiled under the class's name.
  rule('lognames/cxx-class-source', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (f.class !== 'link-error') return;
    const cls = /undefined (?:reference to|symbol:) [`'‘"]?(?:vtable for |typeinfo for )?((?:\w+::)*?)([A-Z]\w*)(?:::~?\w+\(|[`'’"])/.exec(f.message)?.[2];
    if (!cls) return;
    const names = new Set(fileNamesOfClass(cls).map((n) => n.toLowerCase()));
    let compiled: { line: number; src: string } | undefined;
    for (const l of around(stored, m0, 80, 0).reverse()) {
      if (!/\s-c(?:\s|$)/.test(l.text)) continue;
      const src = l.text.split(/\s+/).find((w) => /\.(?:cpp|cc|cxx|C)$/.test(w) && names.has((w.split('/').pop() as string).replace(/\.\w+$/, '').toLowerCase()));
      if (src) {
        compiled = { line: l.line, src };
        break;
      }
    }
    if (!compiled) return;
    out.push({
      text: `${inlineCode(compiled.src)} is compiled ${at(compiled.line)} and is named after ${inlineCode(cls)}: that is where its members are most likely defined. Check that it defines ${f.symbol && f.symbol.includes(`${cls}::`) ? inlineCode(f.symbol) : 'what the linker names'}, with the same signature and class qualification (\`${cls}::\`), and that its object is on the link line.`,
      lines: [compiled.line],
    });
  }),

  // A native program that crashed, aborted or hung with no frame in the log: the command that ran
  // it last before the error (`./csvhead x.csv`, make's echo or `+ ./x`) and the build line above
  // that wrote it (`cc ... -o csvhead src/csvhead.c`): its sources are the code to look at.
  rule('lognames/program-sources', 'wording', (i, out) => {
    const built = programBuild(i.f, i.stored);
    if (!built) return;
    const { run, link, sources } = built;
    const linked = sources.some((x) => x.line !== link);
    out.push({
      text: `The program that ran last before the error, ${inlineCode(run.text.trim().replace(/^\+ /, ''))} ${at(run.line)}, was built from ${sources.map((x) => `${inlineCode(x.file)} ${at(x.line)}`).join(', ')}${linked ? ` (linked ${at(link)})` : ''}: the log names no line in it, so that code is where to look (a debugger or \`-fsanitize=address,undefined\` gives the line).`,
      lines: [run.line, link, ...sources.map((x) => x.line)],
    });
  }),

  // `sha256sum -c` (and md5sum, sha1sum, sha512sum, shasum): the files it printed `FAILED` for, and the list it read.
  rule('lognames/checksum-failed', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (!/computed checksums? did NOT match/.test(f.message)) return;
    const above = around(stored, m0, 20, 0).reverse();
    const failed = above.filter((l) => /^\S.*: FAILED$/.test(l.text.trim())).slice(0, 3);
    if (failed.length === 0) return;
    const list = nearby(above, /(?:sha\d*sum|md5sum|shasum)\b.*\s(?:-c|--check)\s+(\S+)/);
    const names = failed.map((l) => `${inlineCode(l.text.trim().replace(/: FAILED$/, ''))} ${at(l.line)}`).join(', ');
    out.push({
      text: `${names} ${failed.length > 1 ? 'do' : 'does'} not match ${failed.length > 1 ? 'their' : 'its'} checksum${list ? ` in ${inlineCode(list.m[1] as string)}, the list the check read ${at(list.line)}` : ''}. If the file changed on purpose (a new release), update its line in that list from a trusted source; if not, the file fetched is not the one meant (another version behind the URL, a tampered copy): fetch it again and do not skip the check.`,
      lines: [...failed.map((l) => l.line), ...(list ? [list.line] : [])],
    });
  }),

  // A Node process out of heap under npm: the command npm echoed for the script it ran (`> node scripts/gen.mjs`).
  rule('lognames/npm-script-oom', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (f.class !== 'out-of-memory' || !/heap out of memory|Reached heap limit/i.test(f.message)) return;
    const above = around(stored, m0, 40, 0);
    for (let n = above.length - 1; n > 0; n--) {
      const cmd = /^> (\S.*)$/.exec((above[n] as { text: string }).text.trim());
      const script = /^> \S+@\S+ ([\w:.-]+)$/.exec((above[n - 1] as { text: string }).text.trim());
      if (!cmd || !script) continue;
      const line = (above[n] as { line: number }).line;
      out.push({ text: `npm was running ${inlineCode(cmd[1] as string)} ${at(line)} (the script ${inlineCode(script[1] as string)}): that is the Node process whose heap ran out, so its memory limit or what it holds at once is what to change.`, lines: [line] });
      return;
    }
  }),

  // jest/vitest's object diff under a failed check (`- Expected` / `+ Received`, then the lines): the first pair that differs.
  rule('lognames/expected-received-diff', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (f.class !== 'test-assertion' || (f.expected !== undefined && f.actual !== undefined)) return;
    const plain = (t: string): string => t.replace(/\x1b\[[\d;]*m/g, '');
    const after = around(stored, m0, 0, 50).map((l) => ({ line: l.line, text: plain(l.text) }));
    const head = after.findIndex((l) => /^\s*- Expected\s*$/.test(l.text));
    if (head < 0 || head > 12 || !/^\s*\+ Received\s*$/.test(after[head + 1]?.text ?? '')) return;
    const body = after.slice(head + 2);
    const minus = body.find((l) => /^\s*-\s+\S/.test(l.text));
    const plus = body.find((l) => /^\s*\+\s+\S/.test(l.text));
    if (!minus || !plus) return;
    const quote = (t: string): string => t.trim().replace(/^[-+]\s+/, '');
    if (/\s{2,}/.test(quote(minus.text)) || /\s{2,}/.test(quote(plus.text))) return;
    out.push({ text: `The diff under the check: the test expects ${inlineCode(quote(minus.text))} ${at(minus.line)} where the code gave ${inlineCode(quote(plus.text))} ${at(plus.line)} (the first lines that differ).`, lines: [minus.line, plus.line] });
  }),

  // pytest's explanation of a failed `==` on dicts or sequences (its assertrepr_compare: `Differing items:`
  // then `{'k': a} != {'k': b}`, or `At index N diff: a != b`): the first place the two sides differ.
  // pytest prints the `==`'s left operand first; which side the test meant as expected is the test's.
  rule('lognames/pytest-compare-diff', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (f.class !== 'test-assertion' || (f.expected !== undefined && f.actual !== undefined)) return;
    const after = around(stored, m0, 0, 30);
    const items = after.findIndex((l) => /^E\s+Differing items:\s*$/.test(l.text));
    const pair = items >= 0 ? after.slice(items + 1, items + 4).map((l) => ({ line: l.line, m: /^E\s+\{(.+?): (.+)\} != \{\1: (.+)\}\s*$/.exec(l.text) })).find((x) => x.m) : undefined;
    if (pair?.m) {
      out.push({ text: `pytest's comparison ${at(pair.line)}: at the key ${inlineCode(pair.m[1] as string)} the left side of the \`==\` holds ${inlineCode(pair.m[2] as string)} and the right side ${inlineCode(pair.m[3] as string)}.`, lines: [pair.line] });
      return;
    }
    const index = nearby(after, /^E\s+At index (\d+) diff: (.+?) != (.+?)\s*$/);
    if (index) out.push({ text: `pytest's comparison ${at(index.line)}: the two sides first differ at index ${index.m[1] as string}, where the left side of the \`==\` holds ${inlineCode(index.m[2] as string)} and the right side ${inlineCode(index.m[3] as string)}.`, lines: [index.line] });
  }),

  // pyenv's shim for a command the selected Python lacks: the versions pyenv lists as having it.
  rule('lognames/pyenv-versions', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    const cmd = /^pyenv: ([\w.-]+): command not found/.exec(f.message)?.[1];
    if (!cmd) return;
    const lines = around(stored, m0, 0, 8);
    const head = nearby(lines, /^The `[\w.-]+' command exists in these Python versions:$/);
    const version = head ? nearby(lines.filter((l) => l.line > head.line), /^\s+(\d+\.\d+(?:\.\d+)?\S*)\s*$/) : undefined;
    if (!version) return;
    const v = version.m[1] as string;
    out.push({ text: `pyenv has ${inlineCode(cmd)} in Python ${inlineCode(v)} ${at(version.line)}, which is not the version the step selected: select it for the job (${inlineCode(`pyenv local ${v}`)} writes \`.python-version\`, or ${inlineCode(`PYENV_VERSION=${v}`)} in the step), or list both with ${inlineCode(`pyenv global <current> ${v}`)}.`, lines: [version.line] });
  }),

  // Go's flag package: an undefined flag, then `Usage of <program>:` and the flags it defines (`  -name type`).
  rule('lognames/go-flag-usage', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    const asked = /flag provided but not defined: -+([\w.-]+)/.exec(f.message)?.[1];
    if (!asked) return;
    const lines = around(stored, m0, 0, 60);
    const usage = nearby(lines.slice(0, 4), /^Usage of \S+:$/);
    if (!usage) return;
    const defined: { name: string; line: number }[] = [];
    for (const l of lines.filter((x) => x.line > usage.line)) {
      const d = /^ {2}-([\w.-]+)(?: \S+)?$/.exec(l.text);
      if (d) defined.push({ name: d[1] as string, line: l.line });
      else if (!/^\s{3,}|^\t/.test(l.text)) break;
    }
    const own = defined.filter((d) => !d.name.startsWith('test.'));
    if (own.length === 0) return;
    const words = asked.toLowerCase().split(/[-_.]/);
    const ranked = [...own].sort((a, b) => Number(b.name.toLowerCase().split(/[-_.]/).some((w) => words.includes(w))) - Number(a.name.toLowerCase().split(/[-_.]/).some((w) => words.includes(w))));
    const shown = ranked.slice(0, 4);
    out.push({ text: `The program defines no ${inlineCode(`-${asked}`)}; the flags it lists ${at(usage.line)} are ${shown.map((d) => `${inlineCode(`-${d.name}`)} ${at(d.line)}`).join(', ')}${own.length > 4 ? ', ...' : ''}: pass the one meant (a renamed flag keeps its value's form), or define ${inlineCode(`-${asked}`)} again where the program declares its flags.`, lines: shown.map((d) => d.line) });
  }),

  // A compiler that ran out of memory: the file it was compiling (the command just above, or LLVM's `Program arguments:`).
  rule('lognames/compiler-oom-file', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (f.class !== 'out-of-memory') return;
    const near = [...around(stored, m0, 0, 8).slice(1), ...around(stored, m0, 4, 0).reverse()];
    for (const l of near) {
      const t = l.text.trim().replace(/^\d+\.\s+Program arguments: /, '').replace(/^\+ /, '');
      const w = t.split(/\s+/);
      if (!/^(?:\S*\/)?(?:cc|gcc|g\+\+|c\+\+|clang|clang\+\+|clang-\d+|cc1plus|cc1)$/.test(w[0] ?? '') || !w.includes('-c')) continue;
      const src = w.find((x) => /\.(?:c|cc|cpp|cxx|C|m|mm)$/.test(x));
      if (!src) continue;
      out.push({ text: `The compiler was compiling ${inlineCode(src)} ${at(l.line)} when memory ran out: that file (its size, a huge generated table or initializer, heavy templates or macros) is what needs the memory; compile it with less optimisation, split it, or give the step more memory.`, lines: [l.line] });
      return;
    }
    // A JVM compiler's own account of the expression it was on (kotlinc's `Exception while analyzing expression at (4,45) in /ws/src/T.kt`), above the error's cause.
    for (const l of around(stored, m0, 120, 0).reverse()) {
      const m = /\bwhile (?:analy[sz]ing|compiling|generating code for)\b.*?\bin (\S+\.(?:kt|kts|java|scala|groovy|swift|cs))\s*$/.exec(l.text.trim());
      if (!m) continue;
      const file = m[1] as string;
      out.push({ text: `The compiler was on ${inlineCode(file.slice(file.lastIndexOf('/') + 1))} ${at(l.line)} when memory ran out: that file (a huge literal, table or initializer in it) is most likely what needs the memory; split it or load the data at run time, or give the compiler more heap.`, lines: [l.line] });
      return;
    }
  }),

  // A refused connection on the agent itself while the log shows a service on another port (`stub listening on 127.0.0.1:47710`, `... on 47851`).
  rule('lognames/listening-elsewhere', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (f.class !== 'network') return;
    const addr = /(?:127\.0\.0\.1|localhost|\[::1\]|0\.0\.0\.0)(?::|', |\s+port\s+)(\d{2,5})\b/;
    const said = [{ line: m0, text: f.message }, ...around(stored, m0, 40, 20)];
    const refusedAt = said.find((l) => /refused|ECONNREFUSED|Couldn't connect|Failed to connect/i.test(l.text) && addr.test(l.text)) ?? said.find((l) => addr.test(l.text) && l.line >= m0 - 40);
    const refused = refusedAt ? addr.exec(refusedAt.text)?.[1] : undefined;
    if (!refused || !/refused|ECONNREFUSED|Couldn't connect|Failed to connect/i.test(f.message + (refusedAt?.text ?? ''))) return;
    // Above the error (a service the step started), else in the output printed after it (pytest's captured stdout).
    const listening = [...around(stored, m0, 2000, 0).reverse(), ...around(stored, m0, 0, 100)].find((l) => {
      const m = /\b(?:listen(?:ing|s)?|serving|started|running|ready|up)\b[^\n]*?\bon (?:(?:https?:\/\/)?(?:127\.0\.0\.1|localhost|0\.0\.0\.0|\[?::1?\]?):)?(\d{2,5})\/?\s*$|^\S+(?: \S+)? on (?:(?:127\.0\.0\.1|localhost|0\.0\.0\.0):)?(\d{4,5})\s*$/i.exec(l.text.trim());
      return m !== null && (m[1] ?? m[2]) !== refused;
    });
    if (!listening) return;
    const port = /(\d{2,5})\/?\s*$/.exec(listening.text.trim())?.[1] as string;
    out.push({ text: `The log shows a service on port ${inlineCode(port)} ${at(listening.line)} (${inlineCode(listening.text.trim())}), and the step connected to port ${inlineCode(refused)} ${at(refusedAt?.line ?? m0)}: if that service is the one the step meant, the two ports differ; make the port the client uses (its setting or variable) and the port the service listens on the same.`, lines: [listening.line, refusedAt?.line ?? m0] });
  }),

  // A C++ exception nothing caught: the runtime prints its what() on the next line; std::sto* name themselves there.
  rule('lognames/cxx-terminate-what', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    const type = /terminate called after throwing an instance of '([\w:<>, ]+)'/.exec(f.message)?.[1];
    if (!type) return;
    const what = nearby(around(stored, m0, 0, 2).slice(1), /^\s*what\(\):\s+(.+?)\s*$/);
    if (!what) return;
    const said = what.m[1] as string;
    const sto = /^(sto(?:i|l|ll|ul|ull|f|d|ld))$/.exec(said)?.[1];
    out.push({
      text: sto
        ? `The uncaught ${inlineCode(type)} came from ${inlineCode(`std::${sto}`)} (its what() is ${inlineCode(said)} ${at(what.line)}): it was given text that ${type.endsWith('out_of_range') ? 'is a number too large for its type' : 'does not start with a number'}. Check the string passed to ${inlineCode(`std::${sto}`)} (the input, variable or argument it comes from) and catch ${inlineCode(type)} where a bad value is possible.`
        : `The uncaught ${inlineCode(type)} says ${inlineCode(said)} ${at(what.line)}: find where that is thrown (a debugger's \`catch throw\` stops there) and handle it, or fix the value that caused it.`,
      lines: [what.line],
    });
  }),

  // Exit status 141 (128 + SIGPIPE 13) under `set -o pipefail`: a pipeline whose reader stopped early (`head`, `grep -q`).
  rule('lognames/sigpipe-pipefail', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (!/\b(?:exit code|exit status|returned exit code)\s*:?\s*141\b/i.test(f.message)) return;
    const above = around(stored, m0, 80, 0).reverse();
    const pipefail = nearby(above, /^\+{1,2} set -\w*o pipefail\b|^\+{1,2} set -o pipefail\b|^\+{1,2} set -\w+ pipefail\b/);
    const reader = nearby(above, /^\+{1,2} ((?:head|grep -\w*[qm]\w*|sed -n \d+q)\b.*)$/);
    if (!pipefail || !reader) return;
    out.push({
      text: `Exit status 141 is 128 + 13, SIGPIPE: a command wrote into a pipe whose reader had stopped (${inlineCode(reader.m[1] as string)} ${at(reader.line)} stops reading after what it needs), and with pipefail set ${at(pipefail.line)} the writer's status fails the step. Let the reader read to the end (\`sed -n 1p\` or \`awk 'NR==1'\` instead of \`head -n 1\`), or accept 141 for that pipeline (\`|| [ $? -eq 141 ]\`).`,
      lines: [reader.line, pipefail.line],
    });
  }),

  // rustc's `note: function defined here` under an argument-count error: the definition line it prints.
  rule('lognames/rustc-defined-here', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    if (f.tool !== 'rustc' && !/^error\[E0\d+\]/.test(f.message)) return;
    const after = around(stored, m0, 0, 30);
    const note = nearby(after.slice(1), /^note: (?:associated )?(?:function|method|struct|enum|variant|field) defined here$/);
    if (!note) return;
    const code = nearby(after.filter((l) => l.line > note.line && l.line <= note.line + 4), /^\s*\d+\s*\|\s*(\S.*?)\s*$/);
    if (!code) return;
    out.push({ text: `rustc shows the definition the call must match: ${inlineCode(code.m[1] as string)} ${at(code.line)}; pass what each of its parameters asks for, in that order.`, lines: [code.line] });
  }),

  // cargo: a vendored crate's file no longer matches `.cargo-checksum.json`.
  rule('lognames/cargo-vendor-edited', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    const file = /the listed checksum of `(?:\S*?\/)?(vendor\/[^`]+)` has changed/.exec(f.message)?.[1];
    if (!file) return;
    const patch = nearby(around(stored, m0, 0, 6), /`\[patch\]` is used/);
    out.push({ text: `${inlineCode(file)} was edited after \`cargo vendor\` wrote it ${at(m0)}, and cargo checks vendored files against their \`.cargo-checksum.json\`. Undo the edit (\`git checkout -- ${file}\`, or run \`cargo vendor\` again); to change the dependency, use a fork through \`[patch]\` in \`Cargo.toml\`${patch ? ` as cargo recommends ${at(patch.line)}` : ''}.`, lines: [m0, ...(patch ? [patch.line] : [])] });
  }),

  // go: a module whose download does not hash to what go.sum records (`verifying m@v: checksum mismatch`).
  rule('lognames/go-sum-mismatch', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    const mod = /verifying (\S+@\S+?):? checksum mismatch/.exec(f.message)?.[1];
    if (!mod) return;
    const sum = nearby(around(stored, m0, 0, 12), /^\s*go\.sum:\s+(h1:\S+)/);
    out.push({ text: `The hash of ${inlineCode(mod)} ${at(m0)} is not the one \`go.sum\` records${sum ? ` (${inlineCode(sum.m[1] as string)} ${at(sum.line)})` : ''}. If \`go.sum\` was edited or merged by hand, restore its line from the last green commit or regenerate it (\`go mod tidy\`, after \`go clean -modcache\` if a bad copy is cached); if the published module changed under the same version, do not accept the new hash silently: pin another version and ask its owner.`, lines: [m0, ...(sum ? [sum.line] : [])] });
  }),
  // A header the compiler did not find that a command of the build generates (`./tools/gen.sh build/version.h`):
  // under `make -j` the compile can run before the generator; the object needs the header as a prerequisite.
  rule('lognames/generated-header-race', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    const header = /fatal error: ([\w./-]+\.h(?:pp|h)?): No such file or directory/.exec(f.message)?.[1];
    if (f.class !== 'compile-error' || !header) return;
    const lines = around(stored, m0, 60, 12);
    const gen = lines.find((l) => l.line !== m0 && !/error|warning|#include/.test(l.text) && l.text.trim().split(/\s+/).slice(1).some((w) => w === header || w.endsWith(`/${header}`)));
    if (!gen) return;
    const made = gen.text.trim().split(/\s+/).slice(1).find((w) => w === header || w.endsWith(`/${header}`)) as string;
    const rule = nearby(lines.filter((l) => l.line > m0), /^make(?:\[\d+\])?: \*\*\* \[(\S*[Mm]akefile):(\d+): (\S+)\] Error/);
    const parallel = lines.some((l) => /^\+ make\b.*\s-j\s*\d*|^\+ make\b.*--jobs/.test(l.text.trim()));
    out.push({
      text: `The build generates ${inlineCode(made)} ${at(gen.line)}${rule ? `, and the rule for ${inlineCode(rule.m[3] as string)} in ${inlineCode(`${rule.m[1] as string}:${rule.m[2] as string}`)} ${at(rule.line)} compiled before it existed` : ''}${parallel ? ' (make ran jobs in parallel)' : ''}: make the object depend on the generated header${rule ? ` (${inlineCode(`${rule.m[3] as string}: ${made}`)} in \`${rule.m[1] as string}\`)` : ''}, so make runs the generator first, whatever the job count.`,
      lines: [gen.line, ...(rule ? [rule.line] : [])],
    });
  }),

  // A JVM exception with a `Caused by:` chain: the root cause the trace ends with, and the test class Surefire was running.
  rule('lognames/jvm-root-cause', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    const caused = /^Caused by: /.test(f.message);
    if ((f.class !== 'test-error' && f.class !== 'runtime-exception') || !/^(?:Caused by: )?(?:[\w$]+\.)+[\w$]*(?:Exception|Error)\b/.test(f.message)) return;
    const frame = (t: string): boolean => /^\s*(?:at |\.\.\. \d+ more|Caused by: |Suppressed: )/.test(t);
    // The message is a `Caused by:`: the trace's first line (the exception the runner reported) is above it.
    let head: { line: number; text: string } | undefined;
    if (caused) {
      const above = around(stored, m0, 150, 0).reverse().slice(1);
      for (const [n, l] of above.entries()) {
        if (frame(l.text)) continue;
        if (/^(?:[\w$]+\.)+[\w$]*(?:Exception|Error)\b/.test(l.text.trim()) && frame(above[n - 1]?.text ?? '')) head = { line: l.line, text: l.text.trim() };
        break;
      }
    }
    let root: { line: number; text: string } | undefined;
    for (const l of caused ? [] : around(stored, m0, 0, 150).slice(1)) {
      if (/^Caused by: /.test(l.text.trim())) root = { line: l.line, text: l.text.trim().replace(/^Caused by: /, '') };
      else if (!frame(l.text) && l.text.trim() !== '') break;
    }
    const running = f.test ? undefined : nearby(around(stored, head?.line ?? m0, 12, 0).reverse(), /^\[INFO\] Running ((?:[\w$]+\.)*([\w$]+))\s*$/);
    const clipped = (t: string): string => (t.length > 200 ? `${t.slice(0, 199)}…` : t);
    const parts: string[] = [];
    if (root) parts.push(`The trace ends with its root cause, ${inlineCode(clipped(root.text))} ${at(root.line)}: the exceptions above it wrap this one, so it is the one to fix.`);
    if (head) parts.push(`That cause ends the trace that starts with ${inlineCode(clipped(head.text))} ${at(head.line)}, what the runner reported.`);
    if (running) parts.push(`Surefire was running ${inlineCode(running.m[1] as string)} ${at(running.line)}; ${inlineCode(`mvn test -Dtest=${running.m[2] as string}`)} runs it alone.`);
    if (parts.length === 0) return;
    out.push({ text: parts.join(' '), lines: [...(root ? [root.line] : []), ...(head ? [head.line] : []), ...(running ? [running.line] : [])] });
  }),

  // `cannot stat 'dir/x'` (cp, mv, tar) where the step wrote a file of that name elsewhere (`tar czf dist/x src`).
  rule('lognames/same-name-elsewhere', 'wording', (i, out) => {
    const { f, stored, m0 } = i;
    const missing = /(?:cannot stat|cannot access|cannot open) '([^']+)': No such file or directory/.exec(f.message)?.[1];
    if (!missing || !missing.includes('.')) return;
    const base = missing.replace(/^.*\//, '');
    const same = (w: string): boolean => w !== missing && (w === base || w.endsWith(`/${base}`));
    const wrote = around(stored, m0, 60, 0).reverse().find((l) => l.line !== m0 && l.text.trim().replace(/^\++ /, '').split(/\s+/).some(same));
    if (!wrote) return;
    const path = wrote.text.trim().replace(/^\++ /, '').split(/\s+/).find(same) as string;
    out.push({ text: `The step made ${inlineCode(path)} ${at(wrote.line)}, a file of the same name in another place than ${inlineCode(missing)} ${at(m0)}: if it is the one meant, use that path where the step reads it (or write it where the step looks).`, lines: [wrote.line, m0] });
  }),
];
