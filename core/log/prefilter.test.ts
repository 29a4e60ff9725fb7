import fs from 'node:fs';
import { cleanLines } from './clean.js';
import { END, LineTrigrams, NON_ASCII, firstChars, firstIndex, gateOf, leadTable, trigramClauses, trigramHash, SYMBOL } from './prefilter.js';
import { SHAPES, SHAPE_GATES } from './shapes.js';
import { JENKINS_LINE_PREFIX } from './jenkins.js';
import { COMMAND, NEXT_STEP, DIFF_HEADER } from './blocks.js';
import { fixtureFiles } from '../../test/helpers/realfail.js';

const code = (c: string): number => c.charCodeAt(0);
const firstOf = (re: RegExp): string[] | null => {
  const t = firstChars(re);
  if (t === null) return null;
  const out: string[] = [];
  t.forEach((v, i) => {
    if (v === 1) out.push(i < 128 ? String.fromCharCode(i) : i === NON_ASCII ? 'non-ASCII' : 'end');
  });
  return out;
};
const tri = (s: string): number => trigramHash(SYMBOL[code(s[0]!)]!, SYMBOL[code(s[1]!)]!, SYMBOL[code(s[2]!)]!);
const clauses = (re: RegExp): number[][] => trigramClauses(re).map((c) => [...c].sort((a, b) => a - b));

/** Whether the gate lets the line through (what classify checks before a shape's pattern). */
function passes(gate: ReturnType<typeof gateOf>, line: string, trigrams: LineTrigrams): boolean {
  if (gate.first !== null && gate.first[firstIndex(line)] === 0) return false;
  if (gate.nonAscii && !/[^\x00-\x7f]/.test(line)) return false;
  return trigrams.satisfies(gate.clauses);
}

/** Every fixture log's lines (.log and .txt under test/fixtures; of the real-failure cases the tuned ones only). */
function logLines(): string[] {
  return fixtureFiles(/\.(?:log|txt)$/).flatMap((f) => cleanLines(fs.readFileSync(f, 'utf8')));
}

describe('regular expression gates (prefilter.ts)', () => {
  test('the first characters of an anchored pattern, from its source', () => {
    expect(firstOf(/^abc/)).toEqual(['a']);
    expect(firstOf(/^abc/i)).toEqual(['A', 'a']);
    expect(firstOf(/^\[ERROR\] /)).toEqual(['[']);
    expect(firstOf(/^(?:\$ |\+ )/)).toEqual(['$', '+']);
    expect(firstOf(/^(?:ERROR|FATAL): |^panic: /)).toEqual(['E', 'F', 'p']);
    expect(firstOf(/^a?b/)).toEqual(['a', 'b']);
    expect(firstOf(/^\d+ errors?$/)).toEqual('0123456789'.split(''));
    expect(firstOf(/^[\s.]*$/)).toEqual(['\t', '\n', '\v', '\f', '\r', ' ', '.', 'non-ASCII', 'end']);
    expect(firstOf(/^(?=\S)x/)).toEqual(['x']);
    expect(firstOf(/^⎯+ Failed/)).toEqual(['non-ASCII']);
    // Not anchored, anchored in one branch only, may match nothing, or a flag the reader does not model.
    expect(firstOf(/x/)).toBeNull();
    expect(firstOf(/^a|b/)).toBeNull();
    expect(firstOf(/^\s*/)).toBeNull();
    expect(firstOf(/^a/m)).toBeNull();
    expect(firstOf(/^a/u)).toBeNull();
  });

  test('the trigrams every match holds, as clauses', () => {
    // A known string gives its rarest trigram, and its next-rarest as a second clause.
    expect(clauses(/error/)).toEqual([[tri('err')], [tri('rro')]]);
    expect(clauses(/ERROR/)).toEqual([[tri('err')], [tri('rro')]]);
    expect(clauses(/(?:not found|no such)/)).toHaveLength(2);
    // Each branch gives its rarest trigram (and its next-rarest, a second clause); a branch with none leaves the pattern without a gate.
    const t = new LineTrigrams();
    const branches = trigramClauses(/(?:foo|bar)baz/);
    expect(branches).toHaveLength(2);
    for (const [line, ok] of [['a foobaz', true], ['BARBAZ!', true], ['baz', false], ['foo', false]] as const) {
      t.mark(line);
      expect([line, t.satisfies(branches)]).toEqual([line, ok]);
    }
    expect(clauses(/\bab\b/)).toEqual([]);
    expect(clauses(/a.*b/)).toEqual([]);
    expect(clauses(/(?:abc)?/)).toEqual([]);
    // A class of a few characters of the alphabet is kept exactly: digits are one symbol.
    expect(clauses(/[Ee]xit \d/).flat()).not.toHaveLength(0);
  });

  test('a gate never turns away a line its pattern matches: every shape, every fixture line', () => {
    const trigrams = new LineTrigrams();
    // Each distinct line once (as cut to the analyzer's 4 KiB): a gate's verdict and a pattern's match
    // depend on the line alone, and ~40 % of the fixture lines repeat (blank lines, Jenkins' own, a
    // project's build output logged by several cases).
    const lines = [...new Set(logLines().map((raw) => raw.slice(0, 4096)))];
    expect(lines.length).toBeGreaterThan(5000);
    let matched = 0;
    // Checked for every match, judged once: the shapes and lines whose gate turned the line away (none).
    const turnedAway: Array<[string, string]> = [];
    for (const line of lines) {
      trigrams.mark(line);
      SHAPES.forEach((shape, k) => {
        if (!shape.re.test(line)) return;
        matched++;
        if (!passes(SHAPE_GATES[k]!, line, trigrams)) turnedAway.push([shape.re.source, line]);
      });
    }
    expect(turnedAway).toEqual([]);
    expect(matched).toBeGreaterThan(500);
  });

  test('random lines built from the patterns\' own pieces: a match always passes the gate', () => {
    const patterns = [...SHAPES.map((s) => s.re), JENKINS_LINE_PREFIX, COMMAND, NEXT_STEP, DIFF_HEADER];
    const pieces = new Set<string>([' ', '  ', '\t', '12', '3', ':', '.', '(', ')', ',', '[', ']', '-', '>', '=', '_', '/', '*', 'x', 'é', '✖', '●', '⎯']);
    for (const re of patterns) for (const word of re.source.replace(/\\[dswbDSWB]|\\./g, ' ').split(/[^A-Za-z!*=_#%>-]+/)) if (word.length > 0) pieces.add(word);
    const list = [...pieces];
    let seed = 11;
    // The generator's high bits: its low bits repeat with short periods, and `% list.length` of
    // them drew from a few pieces only for some lengths of the list (148 matches instead of 735
    // when four words were added to the patterns).
    const next = () => Math.floor((seed = (seed * 1103515245 + 12345) % 2147483648) / 65536);
    const gates = patterns.map(gateOf);
    const trigrams = new LineTrigrams();
    let matched = 0;
    for (let n = 0; n < 40_000; n++) {
      let line = '';
      const parts = 1 + (next() % 7);
      for (let k = 0; k < parts; k++) {
        const p = list[next() % list.length]!;
        line += next() % 4 === 0 ? p.toUpperCase() : next() % 4 === 0 ? p.toLowerCase() : p;
      }
      trigrams.mark(line);
      patterns.forEach((re, k) => {
        if (!re.test(line)) return;
        matched++;
        if (!passes(gates[k]!, line, trigrams)) expect([re.source, line]).toBe('passing its gate');
      });
    }
    expect(matched).toBeGreaterThan(500);
  });

  test('a lead table sets the bit of each pattern that may match a line so beginning', () => {
    const table = leadTable([/^\$ /, /^[a-c]/i, /x/]);
    expect(table[code('$')]).toBe(0b101);
    expect(table[code('B')]).toBe(0b110);
    expect(table[code('z')]).toBe(0b100);
    expect(table[END]).toBe(0b100);
  });

  test('most lines of a build log pass no shape gate', () => {
    const trigrams = new LineTrigrams();
    const plain = ['[INFO] Downloading from central: https://repo.maven.apache.org/maven2/org/acme/lib-1.pom', '    at com.acme.Handler.process(Handler.java:12)', 'Step 3/20 : RUN ./gradlew build'];
    for (const line of plain) {
      trigrams.mark(line);
      expect([line, SHAPE_GATES.filter((g) => passes(g, line, trigrams)).length]).toEqual([line, expect.any(Number)]);
      expect(SHAPE_GATES.filter((g) => passes(g, line, trigrams)).length).toBeLessThan(SHAPES.length / 10);
    }
  });
});
