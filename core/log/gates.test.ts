import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import './analyze.js';
import { FAILURE_STARTS, HINT_FAILURE, HINT_GO_TEST, HINT_LEAD, MAYBE_FAILURE, SHAPES, SHAPE_GATES, WORD_PATTERNS, byteHints, failureHints, failureStarts, topAlternatives } from './shapes.js';
import { LINE_PREFIX, PROBE_CHARS, linePrefix, linePrefixPattern } from './blocks.js';
import { GATE_TABLE } from './gateTable.js';
import { PatternGates, gateFor, gateTableSource, patternKey } from './gates.js';
import { cleanLines } from './clean.js';
import { RULES } from '../finding/rules.js';
import { TEST_NAMES } from '../finding/tests.js';
import { LineTrigrams, firstIndex, gateOf } from './prefilter.js';
import { GateIndex } from './gateIndex.js';

const plain = (g: ReturnType<typeof gateOf>) => ({ first: g.first === null ? null : [...g.first], nonAscii: g.nonAscii, clauses: g.clauses.map((c) => [...c]) });

describe('the prefilter gates table (gates.ts, gateTable.ts)', () => {
  test('gateTable.ts is what the patterns derive now (else: npm run gates)', () => {
    const file = readFileSync(path.join(process.cwd(), 'core/log/gateTable.ts'), 'utf8');
    expect(file).toBe(gateTableSource());
  });

  test('every shape gets from the table the gate its pattern derives', () => {
    SHAPES.forEach((shape, k) => {
      expect(GATE_TABLE[patternKey(shape.re)]).toBeDefined();
      expect(plain(SHAPE_GATES[k]!)).toEqual(plain(gateOf(shape.re)));
    });
  });

  test('a pattern the table does not hold is derived', () => {
    const re = /^zq(?:xv|wk) \d+ jjq$/;
    expect(GATE_TABLE[patternKey(re)]).toBeUndefined();
    expect(plain(gateFor(re))).toEqual(plain(gateOf(re)));
    expect(gateFor(re).first?.[122]).toBe(1);
  });

  test('the key tells flags and sources apart', () => {
    expect(patternKey(/abc/)).not.toBe(patternKey(/abc/i));
    expect(patternKey(/abc/)).not.toBe(patternKey(/abd/));
    expect(patternKey(/abc/)).toBe(patternKey(new RegExp('abc')));
  });
});

/**
 * Lines of logs made on this machine (test/fixtures/logs, the baseline pairs, the real-failure
 * cases of rounds already opened for tuning): no held-out data. Read once for the six tests that
 * use them (the same files each time; no test changes the list).
 */
let ownLines: readonly string[] | undefined;
function ownLogLines(): readonly string[] {
  ownLines ??= readOwnLogLines();
  return ownLines;
}

function readOwnLogLines(): string[] {
  const files: string[] = [];
  const realfail = path.join(process.cwd(), 'test/fixtures/realfail');
  for (const name of readdirSync(realfail)) {
    const expected = path.join(realfail, name, 'expected.json');
    if (!existsSync(expected)) continue;
    const round = (JSON.parse(readFileSync(expected, 'utf8')) as { round?: unknown }).round;
    if (typeof round !== 'number' || round < 3) files.push(path.join(realfail, name, 'fail.log'));
  }
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.log')) files.push(p);
    }
  };
  walk(path.join(process.cwd(), 'test/fixtures/logs'));
  walk(path.join(process.cwd(), 'bench/data/baseline-pairs'));
  return files.flatMap((f) => cleanLines(readFileSync(f, 'utf8'))).flatMap((l) => [l, l.trim()]);
}

describe('PatternGates (the finding\'s rules and test names)', () => {
  const lists: [string, RegExp[]][] = [
    ['RULES', RULES.map((r) => r.re)],
    ['TEST_NAMES', TEST_NAMES.map((t) => t.re)],
  ];

  test.each(lists)('%s: a gate never turns away a line its pattern matches (fixture lines and random lines of the patterns\' pieces)', (_name, patterns) => {
    const gates = new PatternGates(patterns);
    const pieces = new Set<string>([' ', '  ', '\t', '12', '3', ':', '.', '(', ')', ',', '[', ']', '-', '>', '=', '_', '/', '*', '#', "'", '"', 'x', 'é', '✖', '●', '⎯', '›']);
    for (const re of patterns) for (const word of re.source.replace(/\\[dswbDSWB]|\\./g, ' ').split(/[^A-Za-z!*=_#%>:-]+/)) if (word.length > 0) pieces.add(word);
    const list = [...pieces];
    let seed = 17;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const random: string[] = [];
    for (let n = 0; n < 20_000; n++) {
      let line = '';
      const parts = 1 + (next() % 8);
      for (let k = 0; k < parts; k++) {
        const p = list[next() % list.length]!;
        line += next() % 4 === 0 ? p.toUpperCase() : next() % 4 === 0 ? p.toLowerCase() : p;
      }
      random.push(line);
    }
    // Each distinct log line once: a gate's verdict and a pattern's match depend on the line alone, and ~60 % of
    // the log lines and their trimmed forms repeat (the two GateIndex tests below read them so too).
    const lines = [...new Set(ownLogLines()), ...random];
    expect(lines.length).toBeGreaterThan(25_000);
    let matched = 0;
    let skipped = 0;
    for (const line of lines) {
      gates.read(line);
      patterns.forEach((re, k) => {
        const may = gates.may(k);
        if (!may) skipped++;
        if (!re.test(line)) return;
        matched++;
        if (!may) expect([re.source, line]).toBe('passing its gate');
      });
    }
    expect(matched).toBeGreaterThan(50);
    // The gates do turn most patterns away (else they would only cost time).
    expect(skipped).toBeGreaterThan((lines.length * patterns.length) / 2);
  });
});

describe('GateIndex (gateIndex.ts): the gates as an inverted index', () => {
  const randomLines = (patterns: readonly RegExp[], count: number): string[] => {
    const pieces = new Set<string>([' ', '  ', '\t', '12', '3', ':', '.', '(', ')', ',', '[', ']', '-', '>', '=', '_', '/', '*', '#', "'", '"', 'x', 'é', '✖', '●', '⎯', '›']);
    for (const re of patterns) for (const word of re.source.replace(/\\[dswbDSWB]|\\./g, ' ').split(/[^A-Za-z!*=_#%>:-]+/)) if (word.length > 0) pieces.add(word);
    const list = [...pieces];
    let seed = 29;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    const out: string[] = [];
    for (let n = 0; n < count; n++) {
      let line = '';
      const parts = 1 + (next() % 8);
      for (let k = 0; k < parts; k++) {
        const p = list[next() % list.length]!;
        line += next() % 4 === 0 ? p.toUpperCase() : next() % 4 === 0 ? p.toLowerCase() : p;
      }
      out.push(line);
    }
    return out;
  };
  const lists: [string, RegExp[]][] = [
    ['SHAPES and WORD_PATTERNS', [...SHAPES.map((s) => s.re), ...WORD_PATTERNS]],
    ['RULES', RULES.map((r) => r.re)],
    ['TEST_NAMES', TEST_NAMES.map((t) => t.re)],
  ];

  test.each(lists)('%s: the candidates are the patterns whose gate holds, in order; a match is always among them', (_name, patterns) => {
    const gates = patterns.map(gateFor);
    const index = new GateIndex(gates);
    const trigrams = new LineTrigrams();
    const lines = [...new Set(ownLogLines()), ...randomLines(patterns, 20_000), '', 'é', '✖ x'];
    let matched = 0;
    let candidates = 0;
    for (const line of lines) {
      index.read(line);
      const got = [...index.list.subarray(0, index.count)];
      trigrams.mark(line);
      const ascii = !/[^\u0000-\u007f]/.test(line);
      const fi = firstIndex(line);
      const want = gates.flatMap((g, k) => ((g.first === null || g.first[fi] === 1) && !(g.nonAscii && ascii) && trigrams.satisfies(g.clauses) ? [k] : []));
      if (got.join() !== want.join()) expect([line, got]).toEqual([line, want]);
      candidates += got.length;
      patterns.forEach((re, k) => {
        if (!re.test(line)) return;
        matched++;
        if (!got.includes(k)) expect([re.source, line]).toBe('among the candidates');
      });
    }
    expect(matched).toBeGreaterThan(50);
    expect(candidates).toBeLessThan((lines.length * patterns.length) / 2);
  });

  test('failureStarts (FAILURE_STARTS by first character and hints) matches where FAILURE_STARTS does, with the hints of the line or of a line holding it', () => {
    expect(topAlternatives(FAILURE_STARTS)?.length).toBeGreaterThan(20);
    expect(new RegExp(`^(?:${topAlternatives(FAILURE_STARTS)!.join('|')})`, FAILURE_STARTS.flags).source).toBe(FAILURE_STARTS.source);
    const lines = [...ownLogLines(), ...randomLines([FAILURE_STARTS], 20_000), '', ' ', 'x', 'foo/bar.py:1:2: E501 line too long', 'a:1:2: W: x'];
    let matched = 0;
    const differ: [string, boolean][] = [];
    for (const line of lines) {
      const want = FAILURE_STARTS.test(line);
      if (want) matched++;
      const bytes = Buffer.from(`[2024-01-02T03:04:05Z] ${line}`);
      const held = byteHints(bytes, 0, Math.min(bytes.length, PROBE_CHARS));
      if (failureStarts(line, failureHints(line)) !== want || (line.length < 4000 && failureStarts(line, held) !== want)) differ.push([line, want]);
    }
    expect(differ).toEqual([]);
    expect(matched).toBeGreaterThan(1000);
  });

  test('linePrefix (LINE_PREFIX by first character and hints) gives LINE_PREFIX\'s match, with the hints of the line or of a line holding it', () => {
    const lines = [...ownLogLines(), ...randomLines([LINE_PREFIX], 20_000), '', ' ', 'x', 'app  > started', 'a.b-c   >x', '  [javac] Foo.java:1: error', '   [junit] ok', '2024-01-02T03:04:05Z x'];
    let matched = 0;
    const differ: [string, string | undefined][] = [];
    for (const line of lines) {
      const want = LINE_PREFIX.exec(line)?.[0];
      if (want !== undefined) matched++;
      const bytes = Buffer.from(`[2024-01-02T03:04:05Z] ${line}`);
      const held = byteHints(bytes, 0, Math.min(bytes.length, PROBE_CHARS));
      if (linePrefix(line, failureHints(line))?.[0] !== want || linePrefix(line, -1)?.[0] !== want || (line.length < 4000 && linePrefix(line, held)?.[0] !== want)) differ.push([line, want]);
    }
    expect(differ).toEqual([]);
    expect(matched).toBeGreaterThan(1000);
  });

  test('a line beginning with a letter, a digit or a space tries LINE_PREFIX\'s alternatives for it only when it may hold their trigram (HINT_LEAD)', () => {
    for (const line of ['Downloading commons-io (12 kB)', 'Compiling 12 source files to /tmp', '    at com.example.Foo.bar(Foo.java:12)', 'npm ERR! code 1']) {
      expect(failureHints(line) & HINT_LEAD).toBe(0);
      expect(linePrefixPattern(line, failureHints(line))).toBeNull();
    }
    for (const line of ['app  > started', '    [javac] Foo.java:1: error']) {
      expect(failureHints(line) & HINT_LEAD).toBe(HINT_LEAD);
      expect(linePrefixPattern(line, failureHints(line))?.exec(line)).not.toBeNull();
    }
    // A digit may still begin a timestamp, which has no such trigram.
    expect(linePrefixPattern('2024-01-02T03:04:05Z x', failureHints('2024-01-02T03:04:05Z x'))?.exec('2024-01-02T03:04:05Z x')?.[0]).toBe('2024-01-02T03:04:05Z ');
  });

  test('HINT_GO_TEST is set on a line that holds `_test.go:`', () => {
    for (const line of ['    semver_test.go:46: Compare(a, b) = 1, want -1', 'x_TEST.GO:1', 'a_test.go:']) expect(failureHints(line) & HINT_GO_TEST).toBe(HINT_GO_TEST);
    expect(failureHints('go test ./...') & HINT_GO_TEST).toBe(0);
  });

  test('a failure word matches where FAILURE_WORDS or JENKINS_WORDS does (MAYBE_FAILURE with WORD_PATTERNS)', () => {
    const lines = [...ownLogLines(), ...randomLines(WORD_PATTERNS, 20_000)];
    let words = 0;
    // Compared in the loop and judged once (an expect() per line was most of this test's time).
    const differ: [string, boolean, boolean][] = [];
    for (const line of lines) {
      const any = WORD_PATTERNS.some((re) => re.test(line));
      if (any) words++;
      const got = MAYBE_FAILURE.test(line, HINT_FAILURE);
      const want = FAILURE_STARTS.test(line) || any;
      if (got !== want) differ.push([line, got, want]);
    }
    expect(differ).toEqual([]);
    expect(words).toBeGreaterThan(1000);
  });
});
