/**
 * What the tool itself suggests, in the fix answer (helper fx, 2026-11-29). The compiler's own
 * suggestion (`compilerHelp.ts`): rustc's current layout
 * (`12 | code` over a `| ++++` marker line), its primary label that proposes code, clippy's short
 * format (`file:l:c: error: msg: help: ...`), clang's and gcc's fix-it line under the carets.
 * The tool's own advice (`toolwords/tool-advice`): a `hint:` paragraph (git's wraps over several
 * lines: its first line quoted, all cited), `... may help`, `Either ... or ...`, beside the class's steps.
 * Made-up logs (none of the realfail cases), each with a counter-example; every citation checked.
 */
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { compilerSuggestions } from '../backend/answer/local/compilerHelp.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import type { CiContextUpload } from '../protocol/schemas.js';

const FIX = 'How do I fix it?';
const START = ['Started by user ops', '[meters] $ /bin/sh -xe /tmp/jenkins3.sh'];
const END = ["Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];

async function fixOf(lines: string[]): Promise<string> {
  const log = `${lines.join('\n')}\n`;
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log } } as CiContextUpload;
  const ctx = analyzedChatContext(upload, log);
  const text = (await composeLocalAnswer(FIX, ctx)).text;
  expect(checkAnswer(FIX, text, log.split('\n'), ctx)).toEqual([]);
  return text;
}

/** A made-up job's log around `lines`. */
const job = (lines: string[]): string[] => [...START, ...lines, ...END];

const span = (lines: string[]): { start_line: number; end_line: number; text: string } => ({ start_line: 1, end_line: lines.length, text: lines.join('\n') });

describe('rustc: the code it proposes', () => {
  it('reads the current layout (`N | code` over a marker line) and cites it', async () => {
    const text = await fixOf([
      ...START,
      '+ cargo build --offline',
      '   Compiling meters v0.2.0 (/var/lib/jenkins/workspace/meters)',
      'error[E0106]: missing lifetime specifier',
      '  --> src/read.rs:4:42',
      '   |',
      '4  | pub fn pick(x: &Reading, y: &Reading) -> &str {',
      '   |                --------     --------     ^ expected named lifetime parameter',
      '   |',
      'help: consider introducing a named lifetime parameter',
      '   |',
      "4  | pub fn pick<'r>(x: &'r Reading, y: &'r Reading) -> &'r str {",
      '   |            ++++     ++              ++              ++',
      '',
      "error: could not compile `meters` (lib) due to 1 previous error",
      ...END,
    ]);
    expect(text).toContain("`pub fn pick<'r>(x: &'r Reading, y: &'r Reading) -> &'r str {` [L13-L13]");
    // The source line the error marks is not a proposal (its marker line has a label, not only `+`).
    expect(text).not.toContain('`pub fn pick(x: &Reading, y: &Reading) -> &str {` [L6-L6]');
  });

  it("takes a primary label that proposes code, not one that names what is wrong", () => {
    const lines = [
      'error[E0277]: the `?` operator can only be used on `Result`s, not `Option`s, in a method that returns `Result`',
      '  --> src/tariff.rs:9:33',
      '   |',
      '9  |         let rate = self.rates.get(zone)?;',
      '   |                                        ^ use `.ok_or(...)?` to provide an error compatible with `Result<u64, String>`',
      'error[E0433]: failed to resolve: use of undeclared type `BTreeMap`',
    ];
    expect(compilerSuggestions(span(lines), { message_line: 1, tool: 'rustc' }).map((s) => s.text)).toEqual(['use `.ok_or(...)?` to provide an error compatible with `Result<u64, String>`']);
    const other = ['error[E0433]: failed to resolve: use of undeclared type `BTreeMap`', '  --> src/a.rs:3:9', '   |', '3  |     let m = BTreeMap::new();', '   |             ^^^^^^^^ use of undeclared type `BTreeMap`'];
    expect(compilerSuggestions(span(other), { message_line: 1, tool: 'rustc' })).toEqual([]);
  });

  it("reads clippy's short format: the help at the end of another diagnostic's line, with its place", async () => {
    const text = await fixOf([
      ...START,
      '+ cargo clippy --offline --message-format=short -- -D warnings',
      '    Checking meters v0.2.0 (/var/lib/jenkins/workspace/meters)',
      'src/sum.rs:3:17: error: writing `&Vec` instead of `&[_]` involves a new object where a slice will do',
      'src/sum.rs:4:8: error: length comparison to zero: help: using `is_empty` is clearer and more explicit: `vals.is_empty()`',
      'error: could not compile `meters` (lib) due to 2 previous errors',
      ...END,
    ]);
    expect(text).toContain('Clippy suggests: `` at src/sum.rs:4:8: help: using `is_empty` is clearer and more explicit: `vals.is_empty()` `` [L6-L6]');
  });
});

describe('clang and gcc: the fix-it under the carets', () => {
  it("quotes clang's fix-it with the note that asks for it", async () => {
    const text = await fixOf([
      ...START,
      '+ make',
      'clang++ -std=c++17 -Wall -Werror -c -o src/grid.o src/grid.cpp',
      "src/grid.cpp:12:20: error: non-constant-expression cannot be narrowed from type 'size_t' (aka 'unsigned long') to 'int' in initializer list [-Wc++11-narrowing]",
      '    return Cell{row, cols.size()};',
      '                     ^~~~~~~~~~~',
      'src/grid.cpp:12:20: note: insert an explicit cast to silence this issue',
      '    return Cell{row, cols.size()};',
      '                     ^~~~~~~~~~~',
      '                     static_cast<int>( )',
      '1 error generated.',
      'make: *** [Makefile:6: src/grid.o] Error 1',
      ...END,
    ]);
    expect(text).toContain('The compiler suggests: `note: insert an explicit cast to silence this issue` [L8-L8]; `static_cast<int>( )` [L11-L11].');
  });

  it("reads gcc's fix-it in its gutter, and never a label drawn under the carets", () => {
    const fixIt = [
      "src/cfg.c:21:14: error: 'struct limits' has no member named 'max_conn'; did you mean 'max_conns'?",
      '   21 |     if (l->max_conn > 0)',
      '      |            ^~~~~~~~',
      '      |            max_conns',
      'make: *** [Makefile:4: src/cfg.o] Error 1',
    ];
    expect(compilerSuggestions(span(fixIt), { message_line: 1, tool: 'gcc' })).toEqual([{ line: 4, text: 'max_conns' }]);
    const label = [
      "src/cfg.c:30:9: error: incompatible types when assigning to type 'struct limits' from type 'int'",
      '   30 |     l = 0;',
      '      |         ^',
      '      |         |',
      '      |         int',
      'make: *** [Makefile:4: src/cfg.o] Error 1',
    ];
    expect(compilerSuggestions(span(label), { message_line: 1, tool: 'gcc' })).toEqual([]);
  });
});

describe("the tool's own advice under its error", () => {
  it("quotes git's wrapped hint as one paragraph, not its pointer to the manual", async () => {
    const text = await fixOf(job([
      '+ git push origin HEAD:release',
      'To ssh://git.example.org/atlas.git',
      ' ! [rejected]        HEAD -> release (fetch first)',
      "error: failed to push some refs to 'ssh://git.example.org/atlas.git'",
      'hint: Updates were rejected because the remote contains work that you do not',
      'hint: have locally. Integrate the remote changes (e.g.',
      "hint: 'git pull ...') before pushing again.",
      "hint: See the 'Note about fast-forwards' in 'git push --help' for details.",
    ]));
    expect(text).toContain("The tool's own advice: `Updates were rejected because the remote contains work that you do not` … [L7-L9].");
    expect(text).not.toContain('Note about fast-forwards` [L10');
  });

  it('relays `Either ... or ...` and `... may help`, but not a retry count that says retrying may help', async () => {
    const cmake = await fixOf(job([
      '+ cmake -S . -B /srv/cache/atlas -G Ninja',
      'CMake Error: Error: generator : Ninja',
      'Does not match the generator used previously: Unix Makefiles',
      'Either remove the CMakeCache.txt file and CMakeFiles directory or choose a different binary directory.',
    ]));
    expect(cmake).toContain("The tool's own advice: `Either remove the CMakeCache.txt file and CMakeFiles directory or choose a different binary directory.` [L6-L6].");
    const rclone = await fixOf(job([
      '+ rclone copy dist remote:atlas',
      '2026/11/29 07:10:01 ERROR : app.tar: Failed to copy: write /mnt/out/app.tar: no space left on device',
      'Errors:                 1 (retrying may help)',
    ]));
    expect(rclone).not.toContain("own advice");
  });
});

describe("a C++ compiler's note that points to another file", () => {
  it('names the place and its words; not a note in the same file, nor an overload candidate', async () => {
    const text = await fixOf(job([
      '+ g++ -std=c++17 -Wall -O1 -o tally src/main.cpp',
      "src/main.cpp: In function ‘void show(const Ledger&)’:",
      'src/main.cpp:9:31: error: passing ‘const Ledger’ as ‘this’ argument discards qualifiers [-fpermissive]',
      '    9 |     std::cout << book.balance() << "\\n";',
      '      |                  ~~~~~~~~~~~~^~',
      'In file included from src/main.cpp:1:',
      'src/ledger.hpp:12:9: note:   in call to ‘long int Ledger::balance()’',
      '   12 |     long balance() { return sum_; }',
      '      |          ^~~~~~~',
    ]));
    expect(text).toContain("The compiler's note names another place, `src/ledger.hpp:12:9` [L9-L9]: `in call to ‘long int Ledger::balance()’`.");
    const candidate = await fixOf(job([
      '+ g++ -std=c++17 -Wall -O1 -o tally src/main.cpp',
      "src/main.cpp:5:30: error: call of overloaded ‘of(int)’ is ambiguous",
      '    5 |     auto d = Span::of(3);',
      '      |              ~~~~~~~~^~~',
      'src/span.hpp:4:17: note: candidate: ‘static Span Span::of(double)’',
      'src/main.cpp:2:6: note: in a call from here',
    ]));
    expect(candidate).not.toContain("note names another place");
  });
});

describe("the tool's request in its own sentence", () => {
  it("quotes npm's `Please update ...` sentence, not the whole line", async () => {
    const text = await fixOf(job([
      '+ npm ci',
      'npm error code EUSAGE',
      'npm error',
      'npm error `npm ci` can only install packages when your package.json and package-lock.json are in sync. Please update your lock file with `npm install` before continuing.',
      'npm error',
      'npm error Missing: left-pad@1.3.0 from lock file',
    ]));
    expect(text).toContain("The tool's own advice: ``Please update your lock file with `npm install` before continuing.`` [L6-L6].");
  });
});
