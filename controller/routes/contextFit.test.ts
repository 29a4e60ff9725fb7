import type { CiContext } from '../../protocol/types.js';
import { fitContextBody } from './context.js';

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
