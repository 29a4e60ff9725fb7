import { findLogInBody, LOG_MARKER, logIsBlank, logPieces } from './contextBody.js';

/** Text with every kind of escape JSON.stringify makes, raw UTF-8 of 2-4 bytes, and surrogate pairs. */
const tricky = ['plain line', 'quotes "a" and \\ back\\slashes \\\\', 'tab\tcr\rff\fbs\b', 'ctrl \u0001\u001f', 'é ü ✓ 漢字', 'emoji 😀🚀 pair', 'lone \ud83d end', '\u2028\u2029', '"\\"\\\\"'].join('\n');

test('logPieces: the pieces join to the string JSON.parse gives, at every piece size', () => {
  const bytes = Buffer.from(JSON.stringify(tricky));
  for (let size = 1; size <= 48; size++) {
    const pieces = [...logPieces(bytes, 1, bytes.length - 1, size)];
    expect(pieces.join('')).toBe(tricky);
  }
  // Escapes written by hand (\u escapes of ASCII, of a pair, \/), not only JSON.stringify's.
  const hand = Buffer.from('"a\\u0041\\/b\\ud83d\\ude00c\\u00e9\\n"');
  for (let size = 1; size <= 12; size++) expect([...logPieces(hand, 1, hand.length - 1, size)].join('')).toBe(JSON.parse(hand.toString()));
});

test('logPieces: what is not a JSON string is 400', () => {
  const raw = Buffer.from('"a\nb"'); // a raw newline in a string
  expect(() => [...logPieces(raw, 1, raw.length - 1)]).toThrow('not valid JSON');
  const bad = Buffer.from('"a\\qb"');
  expect(() => [...logPieces(bad, 1, bad.length - 1)]).toThrow('not valid JSON');
});

test('findLogInBody: the log of ciContext or jenkinsContext, the rest parsed with the marker in its place', () => {
  for (const root of ['ciContext', 'jenkinsContext'] as const) {
    const body = { other: [1, { x: 'y' }], [root]: { jobDetails: { fullName: 'a/b', consoleLog: 'not this one' }, buildDetails: { number: 7, result: null, ok: true, consoleLog: tricky, consoleLogTail: 'tail' } }, after: -1.5e3 };
    const bytes = Buffer.from(JSON.stringify(body, null, root === 'ciContext' ? 0 : 2));
    const found = findLogInBody(bytes)!;
    expect(found.root).toBe(root);
    expect(JSON.parse(bytes.toString('utf8', found.start - 1, found.end + 1))).toBe(tricky);
    const expected = JSON.parse(JSON.stringify(body)) as Record<string, { buildDetails: { consoleLog: string } }>;
    expected[root]!.buildDetails.consoleLog = LOG_MARKER;
    expect(JSON.parse(found.rest)).toEqual(expected);
  }
  // A key written with escapes is the same key.
  const escaped = Buffer.from('{"ciContext":{"build\\u0044etails":{"console\\u004cog":"x\\ny"}}}');
  expect(findLogInBody(escaped)?.root).toBe('ciContext');
});

test('findLogInBody: null (parse it whole) when the log is not there, is there twice, is not a string, or the body does not scan', () => {
  const none = (v: string) => expect(findLogInBody(Buffer.from(v))).toBeNull();
  none('{"ciContext":{"buildDetails":{"number":1}}}');
  none('{"ciContext":{"buildDetails":{"consoleLog":"a","consoleLog":"b"}}}');
  none('{"ciContext":{"buildDetails":{"consoleLog":5}}}');
  none('{"ciContext":{"buildDetails":[{"consoleLog":"a"}]}}');
  none('{"ciContext":{"buildDetails":{"previousBuild":{"consoleLog":"a"}}}}');
  none('{"ciContext":{"buildDetails":{"consoleLog":"a}}}');
  none('{"ciContext":{"buildDetails":{"consoleLog":"a"}}}}');
  none(`${'['.repeat(70)}${']'.repeat(70)}`);
});

test('logIsBlank: white space as String.prototype.trim sees it, escaped or not', () => {
  const blank = (s: string) => {
    const b = Buffer.from(JSON.stringify(s));
    return logIsBlank(b, 1, b.length - 1);
  };
  expect(blank('')).toBe(true);
  expect(blank(' \n\t\r\n\u00a0\u2028\ufeff ')).toBe(true);
  expect(blank(' \n x')).toBe(false);
  expect(blank(`${' '.repeat(200_000)}x`)).toBe(false);
});
