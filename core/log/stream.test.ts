import { LogAnalyzer, WINDOW_AHEAD, analyzeLines, excerptText } from './analyze.js';
import { LineSplitter, MAX_LINE_CHARS, cleanLines } from './clean.js';
import { FAILURE_WORD_LIST, HINT_BRANCH, HINT_FAILURE, HINT_PASS, HINT_WORD, byteHints, failureHints } from './shapes.js';
import { ByteLineSplitter } from './lines.js';
import { classify } from './blocks.js';
import { JENKINS_WORDS } from './jenkins.js';

const filler = (n: number, word = 'compiling module') => Array.from({ length: n }, (_, i) => `${word} ${i}`);

function streamed(lines: readonly string[]) {
  const analyzer = new LogAnalyzer();
  for (const line of lines) analyzer.push(line);
  return analyzer.end();
}

describe('the streaming analyzer', () => {
  test('blocks far apart, at the first and the last line: the same excerpts and texts as over the whole log', () => {
    const lines = [
      'error: the first line fails',
      ...filler(3000),
      'Traceback (most recent call last):',
      '  File "x.py", line 3, in <module>',
      'ValueError: bad value',
      ...filler(5000),
      'npm ERR! code ELIFECYCLE',
      ...filler(700),
      'fatal: repository not found',
    ];
    const result = streamed(lines);
    expect(result.lineCount).toBe(lines.length);
    expect(result.excerpts.map((e) => e.reason)).toEqual(expect.arrayContaining(['git error', 'Python traceback', 'error']));
    expect(result.excerpts).toEqual(analyzeLines(lines));
    for (const e of result.excerpts) expect(result.text(e)).toBe(excerptText(lines, e));
  });

  test('nothing failure-like and a long run of blank lines at the end: the last lines that say something', () => {
    const lines = [...filler(2000), 'all done here', ...Array.from({ length: 3000 }, () => '')];
    const result = streamed(lines);
    expect(result.excerpts).toEqual([{ start_line: 1972, end_line: 2001, score: 0, reason: 'no failure found' }]);
    expect(result.text(result.excerpts[0]!)).toBe(excerptText(lines, result.excerpts[0]!));
    expect([1972, 2001].map((n) => result.line(n))).toEqual(['compiling module 1971', 'all done here']);
  });

  test('a Jenkins step thousands of lines before its exit marker still makes the failing section', () => {
    const lines = [
      '[Pipeline] sh',
      '+ make all',
      ...filler(3000),
      'Error: disk quota exceeded while writing out/app.bin',
      '[Pipeline] }',
      ...filler(2000, 'post step'),
      'Error: could not upload the report',
      'ERROR: script returned exit code 2',
      'Finished: FAILURE',
    ];
    const [first] = streamed(lines).excerpts;
    expect(first).toMatchObject({ start_line: 3003 });
  });

  test('a block at the end of the window reads only lines the window holds (no error over 20 000 lines of anchors)', () => {
    const lines: string[] = [];
    for (let i = 0; i < 20_000; i++) lines.push(i % 97 === 0 ? `src/f${i}.c:${i}:1: error: bad ${i}` : i % 13 === 0 ? '' : `  detail ${i}`);
    expect(() => streamed(lines)).not.toThrow();
    expect(streamed(lines).excerpts).toEqual(analyzeLines(lines));
    expect(WINDOW_AHEAD).toBeGreaterThan(90);
  });
});

describe('LineSplitter', () => {
  test('numbers lines as cleanLines does, whatever the pieces', () => {
    const text = 'a\r\nb\n\x1b[31mred\x1b[0m\n\nlast';
    for (const size of [1, 2, 3, 7, 100]) {
      const out: string[] = [];
      const splitter = new LineSplitter((l) => out.push(l));
      for (let i = 0; i < text.length; i += size) splitter.push(text.slice(i, i + size));
      splitter.end();
      expect(out).toEqual(cleanLines(text));
    }
    const out: string[] = [];
    const splitter = new LineSplitter((l) => out.push(l));
    splitter.push('x\n\n');
    splitter.end();
    expect(out).toEqual(cleanLines('x\n\n'));
  });

  test('keeps at most MAX_LINE_CHARS of an endless line and says how long it was', () => {
    const out: string[] = [];
    const splitter = new LineSplitter((l) => out.push(l));
    const piece = 'y'.repeat(64 * 1024);
    for (let i = 0; i < 20; i++) splitter.push(piece);
    splitter.push('\nnext\n');
    splitter.end();
    expect(out).toHaveLength(2);
    expect(out[0]!.startsWith('y'.repeat(MAX_LINE_CHARS))).toBe(true);
    expect(out[0]!.endsWith(`[line cut: ${20 * piece.length} characters]`)).toBe(true);
    expect(out[1]).toBe('next');
  });
});

describe('the prefilter', () => {
  const failureWords = new RegExp(FAILURE_WORD_LIST.map((w) => w.re).join('|'), 'i');

  test('never drops a line the failure words match (random lines of fragments, any case)', () => {
    const fragments = ['Forbidden', 'went offline', 'Status code', 'skipped due to', 'ENOSPC', 'ERR', 'Fail', 'exCeption', 'x', ' ', '(', '12', ',', ')', '*', "can't", 'not ', 'found', 'column', 'at line 3 ', 'symbol(s)', 'warning(s)', 'no such', 'Non-Zero', 'timed out', 'TimeOut', 'unknown option', 'invalid flag', 'a', 'ok', 'PASS', '✓', '-'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    for (let n = 0; n < 20_000; n++) {
      let line = '';
      const parts = 1 + (next() % 6);
      for (let k = 0; k < parts; k++) {
        const f = fragments[next() % fragments.length]!;
        line += next() % 2 === 0 ? f.toUpperCase() : f;
      }
      if (failureWords.test(line) || JENKINS_WORDS.test(line)) expect([line, failureHints(line) & HINT_WORD]).toEqual([line, HINT_WORD]);
      if (/ok|OK|PASS|✓|✔/.test(line)) expect([line, failureHints(line) & HINT_PASS]).toEqual([line, HINT_PASS]);
    }
  });

  test('the hints of a line read from its bytes hold those of every part of it (the body classify reads), and `ranch`', () => {
    const lines = [
      '2024-01-02T03:04:05.678Z [INFO] BUILD FAILURE',
      '[Pipeline] { (Branch: linux)',
      'Failed in branch windows',
      '[12:00:01] ok 3 - parses',
      '    at com.acme.Handler.process(Handler.java:12)',
      'npm ERR! code ELIFECYCLE',
      'Tests run: 3, Failures: 1, Errors: 0, Skipped: 0',
      'lib/x.rb:12:in `call\': undefined method',
      '** BUILD FAILED **',
      'panic: runtime error: index out of range',
    ];
    for (const line of lines) {
      const bytes = Buffer.from(`xx${line}yy`, 'latin1');
      const whole = byteHints(bytes, 2, 2 + line.length);
      expect([line, whole]).toEqual([line, failureHints(line)]);
      for (let a = 0; a < line.length; a++) {
        for (const b of [a + 1, a + 2, a + 7, line.length]) {
          const part = line.slice(a, b);
          expect([part, failureHints(part) & ~whole]).toEqual([part, 0]);
        }
      }
      if (line.includes('ranch')) expect(whole & HINT_BRANCH).toBe(HINT_BRANCH);
    }
    // A `go test -json` event's Output is unescaped: not a part of the line, its own hints count.
    const event = '{"Action":"output","Package":"x","Output":"    \\u2716 widths differ\\n"}';
    expect(byteHints(Buffer.from(event), 0, event.length) & HINT_FAILURE).toBe(0);
    expect(classify(event, undefined, byteHints(Buffer.from(event), 0, event.length))).toEqual(classify(event));
    expect(classify(event).role).toBe('anchor');
    // A byte past ASCII sets every hint, as a non-ASCII character does.
    expect(byteHints(Buffer.from('all \u2713 fine'), 0, 10)).toBe(failureHints('all \u2713 fine'));
  });

  test('the splitter gives the hints of the lines it read from the bytes (colours stripped there, a redrawn line\'s last part), -1 for the lines cleanLine cleaned or read across pieces', () => {
    const got: [string, number][] = [];
    const splitter = new ByteLineSplitter((line, _length, hints) => got.push([line, hints]), undefined, true);
    splitter.push(Buffer.from('error: one\n\u001b[31mFAILED\u001b[0m two\n50%\r\u001b[1mdone\nab\u001b[2Dcd\nplain thr'));
    splitter.push(Buffer.from('ee\n'));
    splitter.end();
    expect(got).toEqual([
      ['error: one', failureHints('error: one')],
      ['FAILED two', failureHints('FAILED two')],
      ['done', failureHints('done')],
      ['cd', -1],
      ['plain three', -1],
    ]);
  });

  test('most ordinary lines skip the word pattern', () => {
    const plain = ['[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/acme/lib-1.pom', '    at com.acme.Handler.process(Handler.java:12)', 'Step 3/20 : RUN ./gradlew build'];
    expect(plain.map((l) => failureHints(l) & HINT_FAILURE)).toEqual([0, 0, 0]);
    // `pa` of `apache` or `package` is no passing word: the pass pattern is skipped too.
    expect([plain[0]!, 'npm WARN deprecated package-7@7.2.0: this version is no longer supported'].map((l) => failureHints(l) & HINT_PASS)).toEqual([0, 0]);
    expect(['Tests PASSED', 'test_x passed', 'all ok'].map((l) => failureHints(l) & HINT_PASS)).toEqual([HINT_PASS, HINT_PASS, HINT_PASS]);
  });
});
