import type { CiContext } from '../../protocol/types.js';
import { contextBody, fitContextBody } from './context.js';

const KiB = 1024;
const lines = (prefix: string, n: number): string => Array.from({ length: n }, (_, i) => `${prefix} line ${i} "quoted"`).join('\n');

describe('fitContextBody: the last green build gives way to the 64 MiB body limit', () => {
  const limit = 256 * KiB; // 64 KiB of it are the margin
  const failLog = lines('fail', 4000); // about 100 KiB
  const context = (green: Record<string, unknown>): CiContext => ({ buildDetails: { number: 42, consoleLog: failLog, lastSuccessfulBuild: { number: 41, result: 'SUCCESS', ...green } } });

  it('leaves a body that fits as it is', () => {
    const ci = context({ consoleLogTail: lines('pass', 100) });
    expect(fitContextBody(ci, limit).toString()).toBe(JSON.stringify({ ciContext: ci }));
  });

  it("cuts the green build's log at a line start, keeping its end, and never the failed build's log", () => {
    const greenLog = lines('pass', 6000);
    const body = fitContextBody(context({ consoleLogTail: greenLog }), limit);
    expect(body.length).toBeLessThanOrEqual(limit - 64 * KiB);
    const sent = JSON.parse(body.toString()) as { ciContext: CiContext };
    const green = sent.ciContext.buildDetails?.lastSuccessfulBuild;
    expect(sent.ciContext.buildDetails?.consoleLog).toBe(failLog);
    expect(green?.consoleLogTruncated).toBe(true);
    const kept = green?.consoleLogTail ?? '';
    expect(kept.length).toBeGreaterThan(1000);
    expect(greenLog.endsWith(kept)).toBe(true);
    expect(kept.startsWith('pass line ')).toBe(true);
  });

  it('leaves it out with a note when nothing of it fits', () => {
    const ci: CiContext = { buildDetails: { consoleLog: lines('fail', 8000), lastSuccessfulBuild: { consoleLog: lines('pass', 100) } } };
    const sent = JSON.parse(fitContextBody(ci, limit).toString()) as { ciContext: CiContext };
    const green = sent.ciContext.buildDetails?.lastSuccessfulBuild;
    expect(green).not.toHaveProperty('consoleLog');
    expect(green?.consoleLogOmitted).toMatch(/did not fit in the \d+ MiB context beside this build's log/);
  });
});

describe('contextBody: the logs escaped piece by piece, the bytes JSON.stringify makes (issue 28)', () => {
  const MiB = 1024 * 1024;
  /** A log of about `chars` characters with what JSON escapes: quotes, backslashes, controls, emoji across slice ends, a lone surrogate. */
  const tricky = (chars: number): string => {
    const parts: string[] = [];
    let n = 0;
    for (let i = 0; n < chars; i++) {
      const line = `line ${i} "q" \\ back\ttab \u0001\u001b[31m é ✓ 😀 ${i % 97 === 0 ? '\ud800' : ''}`;
      parts.push(line);
      n += line.length + 1;
    }
    return parts.join('\n');
  };

  it('gives the same bytes and length as JSON.stringify for logs bigger than a slice, with the green log too', () => {
    // The last: an emoji's surrogate pair straddles the first slice's end.
    const straddling = 'x'.repeat(MiB - 1) + '😀' + tricky(1.5 * MiB);
    for (const log of [0, 1, 2, 3].map((shift) => 'x'.repeat(shift) + tricky(2.5 * MiB)).concat(straddling)) {
      const ci: CiContext = { jobDetails: { fullName: 'team/api' }, buildDetails: { number: 7, consoleLog: log, lastSuccessfulBuild: { number: 6, consoleLogTail: tricky(1.2 * MiB) } } };
      const body = contextBody(ci);
      const bytes = Buffer.concat([...body.pieces()]);
      expect(bytes.equals(Buffer.from(JSON.stringify({ ciContext: ci })))).toBe(true);
      expect(body.length).toBe(bytes.length);
      expect([...body.pieces()].length).toBeGreaterThan(3); // never one whole copy
    }
  });

  it('cuts a big green log to fit, and the length it says is the bytes it sends', () => {
    const limit = 4 * MiB;
    const ci: CiContext = { buildDetails: { consoleLog: tricky(2 * MiB), lastSuccessfulBuild: { consoleLog: tricky(3 * MiB) } } };
    const body = contextBody(ci, limit);
    const bytes = Buffer.concat([...body.pieces()]);
    expect(body.length).toBe(bytes.length);
    expect(bytes.length).toBeLessThanOrEqual(limit - 64 * KiB);
    const sent = JSON.parse(bytes.toString()) as { ciContext: CiContext };
    expect(sent.ciContext.buildDetails?.consoleLog).toBe(ci.buildDetails?.consoleLog);
    expect(sent.ciContext.buildDetails?.lastSuccessfulBuild?.consoleLogTruncated).toBe(true);
  });
});
