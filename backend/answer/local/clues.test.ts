import type { CiContext, Finding, WorkspaceSnippet } from '../../../protocol/types.js';
import { SNIPPET_CLUE_MARK } from '../../../protocol/ciContext.js';
import type { ChatContext } from '../engine.js';
import { clueSteps } from './clues.js';
import { exceptionHint } from './exceptions.js';
import type { Ask } from './reply.js';

const finding = (over: Partial<Finding>): Finding => ({ class: 'unknown', message: 'x', message_line: 1, confidence: 'high', evidence: [1], ...over });

function clue(path: string, text: string, line: number, what: string, startLine = 1): WorkspaceSnippet {
  return { path, workspaceId: 'local', startLine, endLine: startLine + text.split('\n').length - 1, text, kind: 'source', line, message: `${SNIPPET_CLUE_MARK}${what}` };
}

function ask(snippets: WorkspaceSnippet[]): Ask {
  const ci = { workspaceSnippets: snippets } as unknown as CiContext;
  return { question: 'how do I fix it?', q: 'how do i fix it?', ci, ctx: { ciContext: ci } as unknown as ChatContext };
}

describe('clueSteps: one concrete step per workspace clue', () => {
  it('a dependency: the manifest line, the coordinate the build asked for', () => {
    const r = clueSteps(ask([clue('pom.xml', '<dependency>\n  <artifactId>pricing-core</artifactId>\n  <version>1.4.0</version>', 21, 'declares the dependency pricing-core', 20)]), finding({ class: 'dependency-resolution', dependency: 'org.acme:pricing-core:jar:1.4.0' }));
    expect(r?.text).toContain('`pom.xml:21` is where the build asks for `pricing-core`');
    expect(r?.text).toContain('`org.acme:pricing-core:jar:1.4.0`');
    expect(r?.sources).toEqual([{ kind: 'file', path: 'pom.xml', start_line: 20, end_line: 22 }]);
  });
  it('a missing npm script: the scripts package.json has, nearest first', () => {
    const text = '{\n  "scripts": {\n    "test": "node --test",\n    "lint:js": "eslint ."\n  }\n}';
    const r = clueSteps(ask([clue('package.json', text, 2, 'lists the scripts package.json defines (no lint)')]), finding({ class: 'ci-script', tool: 'npm', symbol: 'lint' }));
    expect(r?.text).toContain('defines the scripts `lint:js`, `test`');
    expect(r?.text).toContain('run `npm run lint:js`');
  });
  it('a variable defined in a header: the extern declaration to write instead', () => {
    const r = clueSteps(ask([clue('include/log.h', '#pragma once\nint log_level = 1;', 2, 'defines log_level in a header, so every file that includes it defines it again')]), finding({ class: 'link-error' }));
    expect(r?.text).toContain('`extern int log_level;`');
    expect(r?.text).toContain('`include/log.h:2`');
  });
  it('a name declared in another file: the import to add, with its relative path', () => {
    const r = clueSteps(
      ask([clue('src/duration.ts', 'export type Duration = number;', 1, 'declares Duration, the name the compiler could not find')]),
      finding({ class: 'compile-error', symbol: 'Duration', location: { file: 'src/types/config.d.ts', line: 10, log_line: 3 } }),
    );
    expect(r?.text).toContain("`import type { Duration } from '../duration';`");
  });
  it('a call that does not match: the declaration\'s parameters', () => {
    const r = clueSteps(
      ask([clue('core/Tax.java', 'public class Tax {\n  public BigDecimal taxFor(BigDecimal amount, String region) {', 2, 'declares taxFor, the callable the call does not match')]),
      finding({ class: 'compile-error', location: { file: 'api/Quote.java', line: 12, log_line: 3 } }),
    );
    expect(r?.text).toContain('with the parameters `(BigDecimal amount, String region)`');
    expect(r?.text).toContain('the call at `api/Quote.java:12`');
  });
  it('a credentials file: the variable it reads', () => {
    const r = clueSteps(ask([clue('.npmrc', '//registry.example.com/:_authToken=${NPM_TOKEN}', 1, 'sets the credentials the tool uses')]), finding({ class: 'permission-credentials' }));
    expect(r?.text).toContain('it reads `NPM_TOKEN` from the environment');
  });
  it('a limit, a version and a missing tool: the line that sets them, and what to do there', () => {
    const limit = clueSteps(ask([clue('pom.xml', '<argLine>-Xmx48m</argLine>', 1, 'sets a memory limit')]), finding({ class: 'out-of-memory' }));
    expect(limit?.text).toContain('`pom.xml:1` sets the memory limit (`<argLine>-Xmx48m</argLine>`)');
    const version = clueSteps(ask([clue('go.mod', 'module x\n\ngo 1.22', 3, 'asks for the version')]), finding({ class: 'missing-tool' }));
    expect(version?.text).toContain('`go.mod:3` is where the project asks for that version (`go 1.22`)');
    const tool = clueSteps(ask([clue('ci.sh', 'yarn install', 1, 'runs yarn')]), finding({ class: 'missing-tool', symbol: 'yarn' }));
    expect(tool?.text).toContain('`ci.sh:1` runs `yarn`');
    const callee = clueSteps(ask([clue('src/ring.c', 'int ring_free(ring *r) {', 1, 'defines ring_free, which the failing line calls')]), finding({ class: 'test-assertion' }));
    expect(callee?.text).toContain('`src/ring.c:1` defines `ring_free`');
    expect(callee?.text).toContain('what the check got comes from there');
    // An exception in a test has no check: no "what the check got" to compare.
    const raised = clueSteps(ask([clue('src/ring.c', 'int ring_free(ring *r) {', 1, 'defines ring_free, which the failing line calls')]), finding({ class: 'test-error' }));
    expect(raised?.text).toContain('the exception may come from there');
    expect(raised?.text).not.toContain('check');
  });
  it('an import specifier from the importing file, the options a program defines, the path a build writes', () => {
    const imp = clueSteps(ask([clue('src/format/money.ts', 'export const x = 1;', 1, 'a file named like ./money, which does not exist')]), finding({ class: 'compile-error', location: { file: 'src/index.ts', line: 1, log_line: 1 } }));
    expect(imp?.text).toContain('import it as `./format/money`');
    const opt = clueSteps(ask([clue('tools/release.py', "p.add_argument('--preview')", 1, 'defines the options the program takes')]), finding({ class: 'ci-script', message: 'release.py: error: unrecognized arguments: --dry' }));
    expect(opt?.text).toContain('defines `--preview`, and the command passes `--dry`');
    const art = clueSteps(ask([clue('build.sh', 'cat src/*.js > build/bundle.js', 1, 'names bundle.js, the file the check looks for as dist/bundle.js')]), finding({ class: 'ci-script' }));
    expect(art?.text).toContain('the check looks for `dist/bundle.js`');
  });
  it('no clue, no step', () => {
    expect(clueSteps(ask([{ path: 'a.c', workspaceId: 'local', startLine: 1, endLine: 1, text: 'x', line: 1 }]), finding({}))).toBeUndefined();
  });
});

describe('exceptionHint: the remedy an exception usually asks for, with its names', () => {
  it.each([
    [{ exception: 'panic', message: 'panic: assignment to entry in nil map' }, 'make(map[K]V)'],
    [{ exception: 'data race', message: 'WARNING: DATA RACE' }, '`mu.Lock()`'],
    [{ exception: 'Error', message: 'Error: Command failed: git describe --tags --abbrev=0 fatal: No names found, cannot describe anything.' }, '`git fetch --tags --unshallow`'],
    [{ exception: 'panic', message: 'panic: runtime error: index out of range [5] with length 3' }, 'index `5` of a slice or array of length `3`'],
    [{ exception: 'ImportError', message: "ImportError: cannot import name 'Order' from partially initialized module 'shop.order' (most likely due to a circular import)" }, 'if TYPE_CHECKING:'],
    [{ exception: 'KeyError', message: "KeyError: 'DATABASE_URL'" }, "`'DATABASE_URL'`"],
    [{ exception: 'ValueError', message: "ValueError: invalid literal for int() with base 10: '12.5'" }, "`int()` was given `'12.5'`"],
    [{ exception: 'TypeError', message: "TypeError: Cannot read properties of undefined (reading 'retry')" }, 'The object before `.retry`'],
    [{ exception: 'IllegalStateException', message: 'java.lang.IllegalStateException: order not packed' }, '`order not packed`'],
    [{ exception: 'NoMethodError', message: "undefined method `name' for nil" }, 'The receiver of `.name` is `nil`'],
    [{ exception: 'Error', message: "PHP Fatal error:  Uncaught Error: Call to a member function total() on null" }, '`->total()` was called on `null`'],
    [{ exception: 'error', message: "lua: main.lua:4: attempt to index a nil value (field 'config')" }, '(field `config`)'],
    [{ exception: 'panic', message: "thread 'main' panicked at src/lib.rs:3:5: called `Result::unwrap()` on an `Err` value: ParseIntError { kind: InvalidDigit }" }, '`Result::unwrap()` met `Err`'],
  ])('%j', (over, expected) => {
    expect(exceptionHint(finding({ class: 'runtime-exception', ...over }))).toContain(expected);
  });
  it('none for a message no rule knows', () => {
    expect(exceptionHint(finding({ class: 'runtime-exception', exception: 'Oops', message: 'Oops: it broke' }))).toBeUndefined();
  });
});
