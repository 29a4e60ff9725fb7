import { failingTestFile, looksLikeTest, programSources, testFileDeclaring } from './testFile.js';
import { subjectOf } from './subject.js';

const files = ['src/movavg.m', 'tests/test_movavg.m', 'src/Cart.php', 'tests/CartTest.php', 'src/stats.c', 'ci.sh', 'README.md', 'lib/slug.scm', 'tests/slug-test.scm'];

describe('failingTestFile', () => {
  it('takes a test file argument of the command that ran the tests', () => {
    const lines = ['+ octave --quiet tests/test_movavg.m', 'error: ASSERT errors for: assert (y, [1, 2])'];
    expect(failingTestFile(lines, 2, undefined, files)).toBe('tests/test_movavg.m');
  });
  it('skips file arguments that are not tests, and commands past the three nearest', () => {
    const lines = ['+ ./run tests/test_movavg.m', '+ a', '+ b', '+ cat README.md', 'FAILED'];
    expect(failingTestFile(lines, 5, undefined, files)).toBeUndefined();
  });
  it('else the test file named by a word of the failing test, only when exactly one matches', () => {
    expect(failingTestFile(['FAILURES!'], 1, 'CartTest::testRejectsNegativeQuantity', files)).toBe('tests/CartTest.php');
    expect(failingTestFile(['FAILURES!'], 1, 'CartTest::x', [...files, 'other/CartTest.php'])).toBeUndefined();
    expect(failingTestFile(['FAILURES!'], 1, 'Cart::x', files)).toBeUndefined();
  });
});

describe("failingTestFile: the failure's own line and a suite name (helper fx)", () => {
  const js = ['src/queue.js', 'test/queue.test.js', 'test/setup.js', 'test/retry.test.js', 'src/retry.js', 'tests/backoff-test.rkt', 'backoff.rkt'];
  it("takes a test file the failure's line names, as the agent's absolute path or a unique bare name", () => {
    const mocha = ['+ npx mocha', '     Error: Timeout of 2000ms exceeded. For async tests and hooks, ensure "done()" is called. (/var/lib/jenkins/workspace/q/test/queue.test.js)'];
    expect(failingTestFile(mocha, 2, undefined, js)).toBe('test/queue.test.js');
    expect(failingTestFile(['+ raco test tests', 'backoff-test.rkt: raco test: timeout after 10 seconds'], 2, undefined, js)).toBe('tests/backoff-test.rkt');
    // A file the line names that is no test is not taken.
    expect(failingTestFile(['+ node x', 'Error at (/srv/q/src/queue.js)'], 2, undefined, js)).toBeUndefined();
  });
  it("skips a setup file given to an option, and matches a JS suite's name to `x.test.js`", () => {
    const qunit = ["+ qunit --require ./test/setup.js 'test/*.test.js'", 'not ok 2 retry > rethrows the last error'];
    expect(failingTestFile(qunit, 2, 'retry > rethrows the last error', js)).toBe('test/retry.test.js');
    expect(failingTestFile(qunit, 2, undefined, js)).toBeUndefined();
  });
});

describe('programSources', () => {
  it('reads the sources of the build line that wrote the program that crashed', () => {
    const lines = ['+ cc -O2 -Wall -o stats src/stats.c', '+ ./stats', 'ci.sh: line 2: 123 Floating point exception ./stats'];
    expect(programSources(lines, 3, files)).toEqual({ program: './stats', built: { line: 1, command: 'cc -O2 -Wall -o stats src/stats.c' }, sources: ['src/stats.c'] });
  });
  it('gives nothing for a program on the PATH, one no line above built, or sources the workspace lacks', () => {
    expect(programSources(['+ cc -o stats src/stats.c', '+ stats', 'Segmentation fault'], 3, files)).toBeUndefined();
    expect(programSources(['+ ./stats', 'Segmentation fault'], 2, files)).toBeUndefined();
    expect(programSources(['+ cc -o stats gen/stats.c', '+ ./stats', 'Aborted'], 3, files)).toBeUndefined();
  });
});

describe('test file names in any language', () => {
  it('pair a test with its subject by the usual conventions', () => {
    expect(subjectOf('tests/test_movavg.m')).toBe('movavg.m');
    expect(subjectOf('tests/slug-test.scm')).toBe('slug.scm');
    expect(subjectOf('spec/cart_spec.cr')).toBe('cart.cr');
    expect(subjectOf('ParserTests.fs')).toBe('Parser.fs');
    expect(subjectOf('src/movavg.m')).toBeUndefined();
    expect(looksLikeTest('t/basic.t')).toBe(true);
    expect(looksLikeTest('src/stats.c')).toBe(false);
  });
});

describe('testFileDeclaring: the test file that declares a failing test named without its file', () => {
  const sources: Record<string, string[]> = {
    'ingest/pool.go': ['func SumAll() {}'],
    'ingest/pool_test.go': ['package ingest', 'func TestSumAllSkipsMalformed(t *testing.T) {'],
    'other/other_test.go': ['func TestOther(t *testing.T) {'],
    'tests/test_x.py': ['def test_total():'],
    'tests/test_y.py': ['def test_total():'],
  };
  const read = async (rel: string): Promise<readonly string[] | undefined> => sources[rel];
  const files = Object.keys(sources);
  it("finds go test's function in the one test file that declares it (a subtest's name too), not in the code under test", async () => {
    expect(await testFileDeclaring('TestSumAllSkipsMalformed', files, read)).toBe('ingest/pool_test.go');
    expect(await testFileDeclaring('TestSumAllSkipsMalformed/empty_line', files, read)).toBe('ingest/pool_test.go');
    expect(await testFileDeclaring('SumAll', files, read)).toBeUndefined();
  });
  it('says nothing when two files declare it or none does', async () => {
    expect(await testFileDeclaring('test_total', files, read)).toBeUndefined();
    expect(await testFileDeclaring('TestMissing', files, read)).toBeUndefined();
    expect(await testFileDeclaring(undefined, files, read)).toBeUndefined();
  });
});
