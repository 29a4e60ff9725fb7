/**
 * The remedy an everyday tool's own words point to (issue 25, helper ta10): the version a package
 * asks for and where it is set (cargo's `rust-version`), the package the registry does not have
 * or has no such version of, a package a module imports that the project does not install, the
 * command the tool itself says to run (`go mod vendor`), the preset or imported target CMake
 * names, an install path the step may not write, the form go vet wants (a pointer for a lock, a
 * struct tag's quotes), a JSON trailing comma, a Java file named after another class, a variable
 * a path leaves unset, a script with Windows line endings, code not built position-independent.
 * Keyed on the tool's message, never on a project's names; every quote is from a line it cites.
 */
import type { Finding } from '../../../protocol/types.js';
import { cite, inlineCode, type LogSpan } from '../logtext.js';
import { at } from './findingText.js';
import { around, nearby, rule, type RemedyInput, type RemedyRule } from './remedyShape.js';
import { reportsOnly } from './logHelpers.js';
import { aliasUnseenOf, aliasUnseenRemedy } from './aliasUnseen.js';

/** The finding's message line and the lines after it (a tool prints its details there); above too when the message only reports an exit status. */
function linesNear(f: Finding, stored: LogSpan | undefined): { line: number; text: string }[] {
  const after = around(stored, f.message_line, 0, 10);
  const own = after.length > 0 ? after : [{ line: f.message_line, text: f.message }];
  if (!reportsOnly(f.message) && f.class !== 'unknown') return own;
  return [...own, ...around(stored, f.message_line, 15, 0).reverse().filter((l) => l.line !== f.message_line)];
}

/** vitest's own reporters, loaded by name (vitest's docs, "Reporters"); any other name is loaded as a package. */
const VITEST_REPORTERS = ['default', 'basic', 'verbose', 'dot', 'json', 'junit', 'tap', 'tap-flat', 'hanging-process', 'github-actions', 'html', 'blob'];

/** Edits (insert, delete, replace) that turn `a` into `b`. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length] as number;
}

/**
 * A reporter name vitest could not load: where the name was given (the traced command's `--reporter`), the built-in
 * reporter it is one or two letters from, and only then a package to install.
 */
function reporterNotFound(name: string, loadLine: number, cannotLine: number, above: { line: number; text: string }[]): { text: string; lines: number[] } {
  const flag = [...above].reverse().find((l) => new RegExp(`--reporter[= ]${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:\\s|$)`).test(l.text));
  const near = VITEST_REPORTERS.filter((r) => r !== name && editDistance(r, name) <= 2).sort((a, b) => editDistance(a, name) - editDistance(b, name))[0];
  const where = flag ? `the step's command gives it as \`--reporter=${name}\` ${at(flag.line)}` : 'the name comes from `--reporter` on the command line or `reporters` in the vitest config';
  const builtIn = near
    ? ` ${inlineCode(near)} is one of vitest's own reporters, ${editDistance(near, name)} letter${editDistance(near, name) === 1 ? '' : 's'} from it: if that is the one meant, correct the name there.`
    : ' Check the name there against vitest\'s own reporters (`default`, `verbose`, `dot`, `json`, `junit`, `github-actions`, ...).';
  return {
    text: `vitest loads ${inlineCode(name)} as a custom reporter ${at(loadLine)} because it is not one of its own reporters, and no package of that name is installed ${at(cannotLine)}; ${where}.${builtIn} Only if it is meant to be a reporter package, add it as a dev dependency (\`npm install --save-dev ${name}\`) and commit \`package.json\` and the lock file.`,
    lines: [loadLine, cannotLine, ...(flag ? [flag.line] : [])],
  };
}

const LINES = new WeakMap<RemedyInput, { line: number; text: string }[]>();
/** linesNear, read once per finding. */
function linesNearOf(i: RemedyInput): { line: number; text: string }[] {
  let v = LINES.get(i);
  if (!v) LINES.set(i, (v = linesNear(i.f, i.stored)));
  return v;
}

/** A line of advice a tool prints under its error (`x may help here`, not rclone's `(retrying may help)`; `Either remove x or choose y.`; `hint:` lines are read by the rule). */
/** A sentence that asks the user to do something (npm's `Please update your lock file with ...`). */
const PLEASE = /(?:^|[.!?:]\s+|\S+ error\s+)(Please (?:update|run|install|use|set|add|remove|check|upgrade|downgrade|specify|provide|commit|delete|rename|move)\b[^.!?]*[.!?]?)/;
/** A hint that only points to a manual or a page, not at what to do. */
const POINTER = /^See |for details|--help\b|https?:\/\//;
const TOOL_ADVICE = /(?<!\(retrying )\bmay help\b|^Either .{6,} or .{4,}/;

/** Words of a name (`ci-release` -> ci, release). */
const wordsOf = (s: string): string[] => s.toLowerCase().split(/[-_.\s]+/).filter(Boolean);

/** gcc/clang's note that a redefined name was first defined at `file:line` (the same place as the error: one header read twice). */
export const SAME_PLACE_NOTE = /^(\S+):(\d+):\d+: note: (?:originally defined here|previous definition of )/;

/**
 * A name redefined where it was first defined (fx9, "two names that collide"): the compiler's note points to the
 * error's own file and line, so one header was read twice in one compilation (its `In file included from` chains
 * say through which files) and nothing stops the second copy: an include guard named after the header.
 */
function headerReadTwice(i: RemedyInput): { text: string; lines: number[] } | undefined {
  const { f, stored } = i;
  const loc = f.location;
  const name = /redefinition of [‘'`](.+?)[’'`]/.exec(f.message)?.[1];
  if (f.class !== 'compile-error' || !name || !loc?.line || !/\.(?:h|hh|hpp|hxx|inl)$/i.test(loc.file)) return undefined;
  const after = around(stored, f.message_line, 0, 8);
  const note = after.find((l) => {
    const m = SAME_PLACE_NOTE.exec(l.text.trim());
    return m !== null && m[1] === loc.file && Number(m[2]) === loc.line;
  });
  if (!note) return undefined;
  // The include chains printed above the error and above the note: `In file included from src/shape.h:4,` / `from src/main.c:3:`.
  const chain = (to: number): { line: number; place: string }[] => {
    const out: { line: number; place: string }[] = [];
    for (const l of around(stored, to, 4, 0).reverse().slice(1)) {
      const m = /^\s*(?:In file included from|from) (\S+?:\d+)[,:]?\s*$/.exec(l.text);
      if (!m) break;
      out.unshift({ line: l.line, place: m[1] as string });
    }
    return out;
  };
  const first = chain(f.message_line)[0];
  const second = chain(note.line)[0];
  const base = loc.file.slice(loc.file.lastIndexOf('/') + 1);
  const guard = base.toUpperCase().replace(/[^A-Z0-9]/g, '_');
  const via = first && second ? ` (included from ${inlineCode(first.place)} ${at(first.line)} and from ${inlineCode(second.place)} ${at(second.line)})` : '';
  return {
    text: `${inlineCode(name)} is redefined at ${inlineCode(`${loc.file}:${loc.line}`)} ${i.here}, and the compiler's note says it was first defined at that same line ${at(note.line)}: ${inlineCode(loc.file)} was read twice in one compilation${via}, and nothing stops the second copy. Give it an include guard: ${inlineCode(`#ifndef ${guard}`)} and ${inlineCode(`#define ${guard}`)} at its top, ${inlineCode('#endif')} at its end (or ${inlineCode('#pragma once')}).`,
    lines: [f.message_line, note.line, ...(first && second ? [first.line, second.line] : [])],
  };
}

/** `ContactEmail` -> `contact_email`: a field's name in the snake case JSON keys are often written in. */
const snakeCase = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/**
 * Two names that collide, each place named (fx9): go vet's `struct field ContactEmail repeats json tag "email" also at
 * user.go:7`, and Go's `Open redeclared in this block` with its `other declaration of Open` line. Which of the two the
 * change meant to keep the log does not say: both places are named and the reader is told so.
 */
function namesCollide(i: RemedyInput): { text: string; lines: number[] } | undefined {
  const { f, stored } = i;
  const tag = /struct field (\w+) repeats (\w+) tag "([^"]*)" also at (\S+?:\d+)/.exec(f.message);
  if (tag) {
    const [, field, kind, name, other] = tag as unknown as [string, string, string, string, string];
    const json = kind === 'json' ? ' (encoding/json then leaves both fields out of the object)' : '';
    return {
      text: `Two fields carry the ${inlineCode(kind)} tag ${inlineCode(name)}: ${inlineCode(field)} ${i.here} and the field at ${inlineCode(other)}${json}. Give one of them its own name, for example ${inlineCode(`${kind}:"${snakeCase(field)}"`)} on ${inlineCode(field)}; I can't tell which of the two the change meant to keep as ${inlineCode(name)}.`,
      lines: [f.message_line],
    };
  }
  const redeclared = /\b([A-Za-z_]\w*) redeclared in this block/.exec(f.message);
  const other = redeclared ? nearby(around(stored, f.message_line, 0, 3), new RegExp(`^\\s*(\\S+?:\\d+)(?::\\d+)?: other declaration of ${redeclared[1] as string}\\s*$`)) : undefined;
  if (redeclared && other && f.location?.line) {
    const name = redeclared[1] as string;
    return {
      // "This block" is the scope both are in: a function's body for a variable, the package (all its files) for a top-level name.
      text: `${inlineCode(name)} is declared twice in one block: at ${inlineCode(`${f.location.file}:${f.location.line}`)} ${i.here} and at ${inlineCode(other.m[1] as string)} ${at(other.line)}. Rename one or delete the copy (a variable declared again with ${inlineCode(':=')} is assigned with ${inlineCode('=')}); I can't tell which of the two the change meant to keep.`,
      lines: [f.message_line, other.line],
    };
  }
  return undefined;
}

export const TOOL_WORD_REMEDIES: RemedyRule[] = [
  rule('toolwords/names-collide', 'wording', (i, out) => {
    const step = namesCollide(i);
    if (step) out.push(step);
  }),
  rule('toolwords/header-read-twice', 'wording', (i, out) => {
    const step = headerReadTwice(i);
    if (step) out.push(step);
  }),
  // cargo: a package's `rust-version` above the agent's rustc.
  rule('toolwords/cargo-rust-version', 'wording', (i, out) => {
    const { stored } = i;
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/rustc ([\d.]+) is not supported by the following packages?:/))) {
      const need = nearby(around(stored, hit.line, 0, 6), /^\s*(\S+?)@(\S+) requires rustc ([\d.]+)/);
      const pkg = need ? `${need.m[1] as string}@${need.m[2] as string}` : undefined;
      const version = need?.m[3];
      out.push({
        text: `${pkg ? `${inlineCode(pkg)} requires rustc ${inlineCode(version as string)} ${at(need!.line)}` : 'A package requires a newer rustc'} and the agent's is ${inlineCode(hit.m[1] as string)} ${at(hit.line)}: that minimum is the package's \`rust-version\` in its \`Cargo.toml\`. Build with Rust ${version ?? 'that version'} or newer (\`rustup toolchain install ${version ?? '<version>'}\`, or a CI image that has it), or, if the package is the project's own and does not need it, lower \`rust-version\` in its \`Cargo.toml\`; for a dependency, pin a release that supports the agent's rustc (\`cargo update -p ${need ? (need.m[1] as string) : '<crate>'} --precise <older version>\`).`,
        lines: [hit.line, ...(need ? [need.line] : [])],
      });
    }
  }),
  // npm: the registry has no package of that name.
  // npm 7+ prints the name as asked (`'@types/x@^4' could not be found`); the GET line has it URL-encoded.
  rule('toolwords/npm-404', 'wording', (i, out) => {
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/\b404\b.*?The requested resource '(.+?)@([^'@]*)' could not be found/) ?? said(/\b404 Not Found - GET \S+\/((?:@|%40)[^/\s]+(?:%2[fF]|\/)[^/\s]+|[^/@\s][^/\s]*)\s*$/))) {
      const raw = hit.m[1] as string;
      const name = decodeURIComponent(raw.replace(/%2f/gi, '/'));
      out.push({
        text: `The registry has no package named ${inlineCode(name)} ${name === raw ? at(hit.line) : `(the request for it ${at(hit.line)})`}: most often a misspelt name in \`package.json\` (or a private package the registry setting does not reach). Correct the name in \`package.json\` (\`npm view ${name}\` answers 404 for a name that does not exist; \`npm search\` finds the right one), then \`npm install\` to update the lock file.`,
        lines: [hit.line],
      });
    }
  }),
  // npm: the package exists, but no version in the asked range.
  rule('toolwords/npm-no-matching-version', 'wording', (i, out) => {
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/No matching version found for (\S+?)@(\S+?)\.?$/))) {
      const [name, range] = [hit.m[1] as string, hit.m[2] as string];
      out.push({
        text: `The registry has ${inlineCode(name)} but no version in ${inlineCode(range)} ${at(hit.line)}. The command \`npm view ${name} versions\` lists the ones it has. Change the range in \`package.json\` to one that exists (or, when \`package.json\` does not name ${inlineCode(name)}, \`npm ls ${name}\` shows which dependency asks for it), then \`npm install\` to update the lock file.`,
        lines: [hit.line],
      });
    }
  }),
  // Node: a bare package an ES module or require() loads is not installed.
  rule('toolwords/node-package-not-installed', 'wording', (i, out) => {
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/Cannot find (?:package|module) '((?:@[\w.-]+\/)?[\w.-][\w.-]*)' (?:imported from|from|Require stack)|Cannot find (?:package|module) '((?:@[\w.-]+\/)?[\w][\w.-]*)'$/))) {
      const name = (hit.m[1] ?? hit.m[2]) as string;
      const from = /imported from (\S+)/.exec(hit.m[0] + (lines.find((l) => l.line === hit!.line)?.text ?? ''))?.[1];
      // vitest loads a `--reporter` name that is not one of its own as a package (`Failed to load custom Reporter from
      // NAME`, its cause `Cannot find package 'NAME'`): nothing imported it, the name was given to the tool.
      const reporter = said(new RegExp(`Failed to load custom Reporter from ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`));
      if (reporter && !name.startsWith('.')) {
        out.push(reporterNotFound(name, reporter.line, hit.line, around(i.stored, i.f.message_line, 40, 0)));
      } else if (!name.startsWith('.') && !/^node:/.test(name)) {
        out.push({
          text: `${inlineCode(name)} is imported${from ? ` by ${inlineCode(from.replace(/^.*\/ws\/[^/]+\//, ''))}` : ''} ${at(hit.line)} but is not installed: add it to \`package.json\` (\`npm install --save-dev ${name}\` for a build, test or lint tool and its plugins, in \`devDependencies\`; \`npm install ${name}\` if the program needs it when it runs), commit \`package.json\` and the lock file, and let the job run \`npm ci\` before this step.`,
          lines: [hit.line],
        });
      }
    }
  }),
  // go: vendor/modules.txt out of step with go.mod; go prints the command that syncs them.
  rule('toolwords/go-inconsistent-vendoring', 'wording', (i, out) => {
    const { stored } = i;
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/^go: inconsistent vendoring in /))) {
      const run = nearby(around(stored, hit.line, 0, 12), /^\s*(go mod vendor)\s*$/);
      out.push({
        text: `\`go.mod\` and \`vendor/modules.txt\` disagree ${at(hit.line)}: the requirements changed and the vendor directory was not regenerated. Run ${inlineCode('go mod vendor')}${run ? ` as go says ${at(run.line)}` : ''} and commit \`vendor/\` with \`go.mod\`; or, if the project should not vendor, delete \`vendor/\` (or build with \`-mod=mod\`).`,
        lines: [hit.line, ...(run ? [run.line] : [])],
      });
    }
  }),
  // CMake: a preset the command names is not in CMakePresets.json. CMake lists the ones it has (the
  // list itself is remedyFacts' choices); the one that shares a word with the missing name is likely the one meant.
  rule('toolwords/cmake-no-such-preset', 'wording', (i, out) => {
    const { stored } = i;
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/No such preset in \S+: "([^"]+)"/))) {
      const missing = hit.m[1] as string;
      const listed = around(stored, hit.line, 0, 12).slice(1).filter((l) => /^\s+"[^"]+"\s*$/.test(l.text)).map((l) => ({ line: l.line, name: (/"([^"]+)"/.exec(l.text) as RegExpExecArray)[1] as string }));
      const want = wordsOf(missing);
      const best = listed.map((p) => ({ ...p, score: wordsOf(p.name).filter((w) => want.includes(w)).length })).filter((p) => p.score > 0).sort((a, b) => b.score - a.score)[0];
      if (best) {
        out.push({
          text: `\`CMakePresets.json\` has no preset ${inlineCode(missing)} ${at(hit.line)}; of the presets CMake lists, ${inlineCode(best.name)} ${at(best.line)} shares its name's words: run ${inlineCode(`cmake --preset ${best.name}`)} if that is the one meant, or add ${inlineCode(missing)} to \`CMakePresets.json\` if the CI script's name is the one to keep.`,
          lines: [hit.line, best.line],
        });
      }
    }
  }),
  // CMake: an imported target (`ZLIB::ZLIB`) used before the package that defines it was found.
  rule('toolwords/cmake-imported-target', 'wording', (i, out) => {
    const { f } = i;
    const lines = linesNearOf(i);
    const joined = lines.slice(0, 8).map((l) => l.text.trim()).join(' ');
    const imported = /links to:\s+([\w.+-]+)::([\w.+-]+)\s+but the target was not found/.exec(joined);
    if (imported) {
      const [ns, target] = [imported[1] as string, imported[2] as string];
      const shown = lines.find((l) => l.text.includes(`${ns}::${target}`));
      out.push({
        text: `${inlineCode(`${ns}::${target}`)} ${shown ? at(shown.line) : at(f.message_line)} is an imported target: it exists only after the package that defines it is found. Add ${inlineCode(`find_package(${ns} REQUIRED)`)} to \`CMakeLists.txt\` before the \`target_link_libraries\` that names it (and install its development package on the agent if CMake then cannot find it).`,
        lines: [shown?.line ?? f.message_line],
      });
    }
  }),
  // CMake's install: a directory the step's user may not create (an absolute DESTINATION, or the default prefix).
  rule('toolwords/cmake-install-path', 'wording', (i, out) => {
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/file cannot create directory: (\/\S+?)\.?\s+Maybe need/)) || (hit = said(/file INSTALL cannot (?:make directory|copy file) "?(\/[^"\s]+)/))) {
      const dir = hit.m[1] as string;
      out.push({
        text: `The install step tried to create ${inlineCode(dir)} ${at(hit.line)}, outside anything the build's user may write. If \`CMakeLists.txt\` gives \`install()\` an absolute \`DESTINATION\` there, make it relative (\`DESTINATION \${CMAKE_INSTALL_SYSCONFDIR}\` and the like, from \`include(GNUInstallDirs)\`) so it follows the install prefix; then install into a directory the job owns: \`cmake --install build --prefix "$PWD/stage"\` (or \`DESTDIR=<staging dir>\`).`,
        lines: [hit.line],
      });
    }
  }),
  // go vet: a lock copied by value.
  rule('toolwords/govet-lock-by-value', 'wording', (i, out) => {
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/(\w+) passes lock by value: (?:[\w./-]+\.)?(\w+) contains (sync\.\w+)|(?:call of|assignment|range var|return) .*copies lock value: (?:[\w./-]+\.)?(\w+) contains (sync\.\w+)/))) {
      const type = (hit.m[2] ?? hit.m[4]) as string;
      const lock = (hit.m[3] ?? hit.m[5]) as string;
      out.push({
        text: `${inlineCode(type)} holds a ${inlineCode(lock)} ${at(hit.line)}, and a copy of it has its own lock, so the copy no longer guards the original: pass and receive it by pointer (${inlineCode(`*${type}`)}${hit.m[1] ? `, e.g. \`func (c *${type}) ${hit.m[1] as string}(...)\`` : ''}), or return a plain value copied while the lock is held.`,
        lines: [hit.line],
      });
    }
  }),
  // go vet: a struct tag whose quotes are misplaced (`json:"a",omitempty`).
  rule('toolwords/govet-struct-tag', 'wording', (i, out) => {
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/struct field tag `(.+?)` not compatible with reflect\.StructTag\.Get/))) {
      const tag = hit.m[1] as string;
      const moved = /^(\w+):"([^"]*)",([\w,]+)$/.exec(tag);
      out.push({
        text: moved
          ? `The tag's options must be inside the quotes: write ${inlineCode(`${moved[1] as string}:"${moved[2] as string},${moved[3] as string}"`)} for ${inlineCode(tag)} ${at(hit.line)}.`
          : `A struct tag is \`key:"value"\` pairs separated by single spaces, each value in double quotes (options inside them: \`json:"name,omitempty"\`): ${inlineCode(tag)} is not ${at(hit.line)}.`,
        lines: [hit.line],
      });
    }
  }),
  // JSON.parse: a trailing comma before `]` or `}` (the text around the error is quoted in the message).
  rule('toolwords/json-trailing-comma', 'wording', (i, out) => {
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/SyntaxError: (?:Unexpected token .*?(,\s*[\]}])|Expected double-quoted property name in JSON at position \d+)/)) && (hit.m[1] || /Expected double-quoted property name/.test(hit.m[0]))) {
      out.push({
        text: `The JSON has a trailing comma ${hit.m[1] ? `(${inlineCode(hit.m[1])}) ` : ''}${at(hit.line)}: JSON allows no comma after the last item of a list or object. Remove it from the file the program parses (\`node -e 'JSON.parse(require("fs").readFileSync(process.argv[1]))' <file>\` checks it).`,
        lines: [hit.line],
      });
    }
  }),
  // javac: a public class in a file named after another.
  rule('toolwords/javac-public-class-file', 'wording', (i, out) => {
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/^(?:\S+\/)?(\S+?)\.java:\d+: error: class (\w+) is public, should be declared in a file named \2\.java/))) {
      const file = /^(\S+\.java):/.exec(hit.m[0])?.[1] as string;
      const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
      const cls = hit.m[2] as string;
      out.push({
        text: `A public class must live in a file of its name ${at(hit.line)}: rename ${inlineCode(file)} to ${inlineCode(`${dir}${cls}.java`)} (${inlineCode(`git mv ${file} ${dir}${cls}.java`)}, keeping its history), or, if the class was renamed by mistake, name it ${inlineCode(hit.m[1] as string)} again.`,
        lines: [hit.line],
      });
    }
  }),
  // javac: a local variable some path leaves unset.
  rule('toolwords/javac-uninitialised', 'wording', (i, out) => {
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/error: variable (\w+) might not have been initialized/))) {
      const name = hit.m[1] as string;
      out.push({
        text: `Some path reaches the use of ${inlineCode(name)} without assigning it ${at(hit.line)}: give it a value on every path before it is read, usually the branch that is missing (a \`default:\` of the \`switch\` that assigns it, an \`else\`), or initialise it where it is declared.`,
        lines: [hit.line],
      });
    }
  }),
  // A library CMake put on the link line: the name comes from the project's target_link_libraries.
  rule('toolwords/cmake-link-library', 'wording', (i, out) => {
    const { f, stored } = i;
    if (f.class === 'link-error' && f.symbol?.startsWith('-l')) {
      const lib = f.symbol.slice(2).replace(/[:,.]+$/, '');
      const target = nearby(around(stored, f.message_line, 6, 0).reverse(), /^(?:\[[\d\s/%]+\] )?Linking \w+ (?:executable|shared library|static library|shared module) (\S+)|^FAILED: (\S+)/);
      const cmake = target !== undefined && around(stored, f.message_line, 8, 0).some((l) => /CMakeFiles\//.test(l.text));
      if (cmake && target) {
        const name = ((target.m[1] ?? target.m[2]) as string).replace(/^.*\//, '');
        out.push({
          text: `The link of ${inlineCode(name)} ${at(target.line)} is CMake's, so ${inlineCode(`-l${lib}`)} comes from a \`target_link_libraries(${name} ... ${lib})\` (or a variable it uses) in \`CMakeLists.txt\`: check that name against the library's real one (its \`lib<name>.so\`/\`.a\`), or find the library the CMake way (\`find_package\`, \`pkg_check_modules\`) and link the imported target it defines.`,
          lines: [target.line],
        });
      }
    }
  }),
  // A lost agent: the test that was running when the output stopped (Surefire's `Running x.YTest`, go test's `=== RUN TestX`).
  rule('toolwords/agent-lost-running-test', 'wording', (i, out) => {
    const { f, stored } = i;
    if (f.class === 'agent-lost') {
      const last = nearby(around(stored, f.message_line, 12, 0).reverse(), /^(?:\[INFO\] )?Running ((?:[\w$]+\.)*([\w$]+))\s*$|^=== RUN\s+(\S+)\s*$/);
      if (last && last.line !== f.message_line) {
        const run = last.m[3] ? `go test -run '^${(last.m[3] as string).split('/')[0] as string}$' ./...` : `mvn test -Dtest=${last.m[2] as string}`;
        out.push({
          text: `The output stopped while ${inlineCode((last.m[1] ?? last.m[3]) as string)} was running ${at(last.line)}, before it printed a result: the log does not show that it caused the loss. If the agent goes away at the same test again, run it alone on that agent (${inlineCode(run)}) and watch its memory and time there.`,
          lines: [last.line],
        });
      }
    }
  }),
  // A script with Windows line endings: the shebang asks for `bash\r`, a line ends in `$'\r'`.
  rule('toolwords/crlf-script', 'wording', (i, out) => {
    const { f } = i;
    const lines = linesNearOf(i);
    const said = (re: RegExp): { line: number; m: RegExpExecArray } | undefined => nearby(lines, re);
    let hit: { line: number; m: RegExpExecArray } | undefined;
    if ((hit = said(/[‘'`]([\w.-]+)\\r['’]?: No such file or directory|\$'\\r': command not found|: \/bin\/(?:ba)?sh\^M: bad interpreter/))) {
      const script = f.location?.file;
      out.push({
        text: `The script has Windows (CRLF) line endings ${at(hit.line)}: the shell reads the carriage return as part of the word. Convert it to LF (${inlineCode(`dos2unix ${script ?? '<script>'}`)} or ${inlineCode(`sed -i 's/\\r$//' ${script ?? '<script>'}`)}) and commit it, with a \`.gitattributes\` line such as \`*.sh text eol=lf\` so a Windows checkout does not bring them back.`,
        lines: [hit.line],
      });
    }
  }),
  // A `command not found` for the script's own alias, which bash does not expand in a script (ux16).
  rule('toolwords/unseen-alias', 'wording', (i, out) => {
    const a = aliasUnseenOf(i.f, i.lineText);
    if (a) out.push({ text: aliasUnseenRemedy(a, i.f.location?.file), lines: [a.line] });
  }),
  // What the tool itself advises right under its error (helper fx): a `hint:` line (git, PostgreSQL's
  // `HINT:`; a paragraph over several lines: its first line quoted, all cited), `Please <do x>.`, `... may help`, `Either
  // <do this> or <that>.`. Relayed as printed, with its lines; a fact
  // beside the other steps (it does not replace the class's step: `x may help` is not the diagnosis).
  rule('toolwords/tool-advice', 'fact', (i, out) => {
    const lines = linesNearOf(i).filter((l) => l.line >= i.f.message_line).sort((x, y) => x.line - y.line);
    const hintOf = (t: string): string | undefined => /^(?:\S+: )?(?:hint|HINT|Hint):(?: (.*))?$/.exec(t.trim())?.[1]?.trim() ?? (/^(?:\S+: )?(?:hint|HINT|Hint):$/.test(t.trim()) ? '' : undefined);
    for (let k = 0; k < lines.length && out.length < 2; k++) {
      const l = lines[k] as { line: number; text: string };
      const t = l.text.trim();
      const hint = hintOf(t);
      if (hint !== undefined && hint.length >= 8 && !POINTER.test(hint)) {
        // A hint wrapped over several `hint:` lines is one paragraph (git's): quoted whole, cited over its lines.
        const parts = [hint];
        let last = l.line;
        while (parts.length < 4) {
          const next = lines[k + 1];
          const more = next && next.line === last + 1 ? hintOf(next.text) : undefined;
          if (!more || POINTER.test(more)) break;
          parts.push(more);
          last = (next as { line: number }).line;
          k++;
        }
        // Quoted as printed: its first line, the rest cited (the log wraps it with `hint:` on each line).
        out.push({ text: `The tool's own advice: ${inlineCode(hint)}${parts.length > 1 ? ' …' : ''} ${cite({ start_line: l.line, end_line: last })}.`, lines: [l.line, last] });
      } else if (TOOL_ADVICE.test(t) && t.length <= 240) {
        out.push({ text: `The tool's own advice: ${inlineCode(t)} ${at(l.line)}.`, lines: [l.line] });
      } else {
        // A request in the tool's sentence (`... are in sync. Please update your lock file with \`npm install\` before continuing.`).
        const please = PLEASE.exec(t)?.[1];
        if (please && please.length <= 200) out.push({ text: `The tool's own advice: ${inlineCode(please.trim())} ${at(l.line)}.`, lines: [l.line] });
      }
    }
  }),
];
