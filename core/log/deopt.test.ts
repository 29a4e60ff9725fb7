import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildSync } from 'esbuild';

/**
 * The analyzer run as the package runs it (bench/analyzeChild.ts bundled by esbuild, as `npm run
 * bench -- analyze` does) with `--trace-deopt`, compiled synchronously
 * (`--no-concurrent-recompilation`) so that the functions are optimised before the log's late
 * lines come, on a made-up log of ~3.5 MB (14 pieces of reread.ts's READ_PIECE).
 */
describe('optimised code of the per-line functions is not thrown away again and again', () => {
  let trace = '';

  beforeAll(() => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cichat-deopt-'));
    try {
      const log = path.join(dir, 'build.log');
      const lines: string[] = [];
      for (let i = 0; i < 40000; i++) lines.push(i % 7 === 0 ? `\u001b[32mok\u001b[0m step ${i}` : `[INFO] Compiling module ${i} of the build`);
      lines.push('+++ b/file.txt', '@@ -1 +1 @@', '-old', '+new', 'error: after the diff', `\u001b[31m${'x'.repeat(3000)}\u001b[0m`);
      for (let i = 0; i < 40000; i++) lines.push(`[INFO] Compiling module ${i} of the build`);
      fs.writeFileSync(log, `${lines.join('\n')}\n`);
      const child = path.join(dir, 'child.cjs');
      buildSync({ entryPoints: [path.resolve('bench/analyzeChild.ts')], outfile: child, bundle: true, format: 'cjs', platform: 'node', target: 'node20', packages: 'external', logLevel: 'warning' });
      const r = spawnSync(process.execPath, ['--trace-deopt', '--no-concurrent-recompilation', child, log], { encoding: 'utf8', maxBuffer: 1 << 28 });
      expect(r.status).toBe(0);
      trace = r.stdout;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  /**
   * The fields a later pass changes (a LineInfo's role and shape, the analyzer's `inDiff` and
   * `tail`, the splitter's `scratch`) are mutable from the start (`MUTABLE_LINE_INFO`, the
   * constructors): V8 does not drop the hot functions' optimised code when a log's first diff,
   * first tail or first long coloured line comes (`--trace-deopt`'s "code dependencies").
   */
  test('no "code dependencies" deoptimisation of the per-line functions at the first diff, tail and long coloured line', () => {
    const dropped = [...trace.matchAll(/marking dependent code .*<SharedFunctionInfo (\w+)>.*reason: code dependencies/g)].map((m) => m[1]);
    expect(dropped.filter((name) => ['classifyBody', 'classify', 'finish', 'markDiff', 'scannedPiece', 'stripped', 'extraOf'].includes(name!))).toEqual([]);
  });

  /**
   * prime.ts runs a made-up log of the rare paths through the splitter and an analyzer before the first real one:
   * the per-line functions are compiled with type feedback for the paths this log first reaches late (its diff, its
   * long coloured line, its first coloured line), where they were dropped with "Insufficient type feedback" (on main
   * before prime.ts: push twice, classify, classifyBody twice, scannedLines twice, stripped, finish).
   */
  test('the per-line functions are not deoptimised for want of type feedback', () => {
    const perLine = ['push', 'classify', 'classifyBody', 'scannedLines', 'scannedPiece', 'stripped', 'finish', 'markDiff', 'into', 'add'];
    const starved = [...trace.matchAll(/reason: Insufficient type feedback[^)]*\): begin\. deoptimizing \S+ <JSFunction (\w+) /g)].map((m) => m[1]);
    expect(starved.filter((name) => perLine.includes(name!))).toEqual([]);
  });

  /**
   * `LineBatch.into`'s loop is compiled on its first, long run (on-stack replacement), before the
   * code after the loop has run: that code must have nothing without type feedback, or V8 enters
   * the loop's code again at each piece only to deoptimise after it (13 times on this log when
   * `into` reset its arrays after the loop).
   */
  test('LineBatch.into is deoptimised at most once, not once a piece', () => {
    const into = [...trace.matchAll(/bailout \(kind: [^)]*\): begin\. deoptimizing \S+ <JSFunction into /g)].length;
    expect(into).toBeLessThanOrEqual(1);
  });
});
