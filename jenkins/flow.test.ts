import path from 'node:path';
import { cpSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { createGzip, gzipSync } from 'node:zlib';
import { readFailingSteps, parseLogIndex, stepName } from './flow.js';
import { parseXml } from './xml.js';
import { analyze } from '../core/log/analyze.js';

const FIX = path.resolve('test/fixtures/jenkins-flow');
const SAMPLES = '/work/shared/data/jenkins-home-samples/jenkinsci';
const build = (dir: string) => parseXml(readFileSync(path.join(dir, 'build.xml'), 'utf8'));

describe('failing steps from the flow nodes', () => {
  test.each(['per-node', 'bulk', 'completed'])('%s storage: the failing bat step of branch windows in stage Test, its own lines first', async (gen) => {
    const dir = path.join(FIX, gen);
    const steps = await readFailingSteps(dir, build(dir));
    expect(steps).toHaveLength(1);
    const [s] = steps;
    expect(s).toMatchObject({ stage: 'Test', branch: 'windows', step: 'bat', errorClass: 'hudson.AbortException', errorMessage: 'script returned exit code 2', wrapper: true, nodeId: '20' });
    // The bat step wrote two interleaved ranges; its lines span from the first to the last.
    const log = readFileSync(path.join(dir, 'log'), 'utf8').split('\n');
    const [first, last] = s?.logLines ?? [0, 0];
    expect(log[first - 1]).toBe('');
    expect(log[first]).toBe('C:\\ws\\lib>nmake test');
    expect(log[last - 1]).toBe('Stop.');
    expect(s?.log).toContain("error C2065: \u2018PATH_MAX\u2019: undeclared identifier");
    expect(s?.log).not.toContain('test_alloc');
    // The step's own lines are the first evidence: the compiler error, not the wrapper at the end.
    const top = analyze(log.join('\n'), { focus: [s?.logLines ?? [1, 1]] })[0];
    expect(log[(top?.start_line ?? 0) - 1]).toContain('error C2065');
  });

  test('nested stages: the path is kept, innermost first named', async () => {
    // Same graph with the failure moved into stage Compile (inside Build).
    const dir = path.join(FIX, 'nested');
    const steps = await readFailingSteps(dir, build(dir));
    expect(steps).toEqual([expect.objectContaining({ stage: 'Compile', stagePath: ['Build', 'Compile'], step: 'sh', nodeId: '9' })]);
    expect(steps[0]?.branch).toBeUndefined();
    expect(steps[0]?.log?.split('\n')[0]).toBe('+ make -j4');
  });

  test('an error of the Groovy code inside a stage: (pipeline script), its class and message rebuilt from the fields', async () => {
    const dir = path.join(FIX, 'groovy');
    const steps = await readFailingSteps(dir, build(dir));
    expect(steps).toEqual([
      expect.objectContaining({ stage: 'Deploy', step: '(pipeline script)', errorClass: 'groovy.lang.MissingPropertyException', errorMessage: 'No such property: releaseVersion for class: groovy.lang.Binding' }),
    ]);
  });

  test('2017 builds: the node output in <id>.log', async () => {
    const dir = path.join(FIX, 'legacy-2017');
    const steps = await readFailingSteps(dir, build(dir));
    expect(steps[0]).toMatchObject({ stage: 'Test', step: 'sh', errorMessage: 'script returned exit code 1' });
    expect(steps[0]?.log).toContain("ModuleNotFoundError: No module named 'yaml'");
    expect(steps[0]?.logLines).toBeUndefined();
  });

  test('the shared samples of the three generations read without error; a passing build has no failing step', async () => {
    const dirs = [
      'workflow-support-plugin/src/test/resources/org/jenkinsci/plugins/workflow/support/storage/BulkFlowNodeStorageTest/actionDeserializationShouldBeRobust/jobs/test0/builds/1',
      'workflow-support-plugin/src/test/resources/org/jenkinsci/plugins/workflow/support/storage/SimpleXStreamStorageTest/actionDeserializationShouldBeRobust/jobs/test0/builds/1',
      'workflow-durable-task-step-plugin/src/test/resources/org/jenkinsci/plugins/workflow/support/steps/ExecutorStepTest/serialForm/jobs/p/builds/2017-01-09_09-19-54',
    ];
    for (const d of dirs) {
      const dir = path.join(SAMPLES, d);
      expect(await readFailingSteps(dir, build(dir))).toEqual([]);
    }
  });

  test('log-index: "<offset> <id>" opens a node\'s output, "<offset>" output of no node', () => {
    expect([...parseLogIndex('670 3\n998\n1595 5\n1638\n', 2000)]).toEqual([['3', [[670, 998]]], ['5', [[1595, 1638]]]]);
    expect([...parseLogIndex('1231 5\n', 1500)]).toEqual([['5', [[1231, 1500]]]]);
  });

  test('step names from descriptor ids', () => {
    expect(stepName('org.jenkinsci.plugins.workflow.steps.durable_task.ShellStep')).toBe('sh');
    expect(stepName('com.acme.jenkins.PublishReportStep')).toBe('publishReport');
  });
});

describe('the failing step\'s lines from log.gz and from logs over 64 MB', () => {
  const copy = (gen: string): string => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'flow-gz-'));
    cpSync(path.join(FIX, gen), dir, { recursive: true });
    return dir;
  };

  test.each(['per-node', 'bulk', 'completed', 'nested'])('%s: log.gz (compress-buildlog) gives the same lines and text as log', async (gen) => {
    const plain = path.join(FIX, gen);
    const expected = await readFailingSteps(plain, build(plain));
    expect(expected[0]?.logLines).toBeDefined();
    const dir = copy(gen);
    try {
      writeFileSync(path.join(dir, 'log.gz'), gzipSync(readFileSync(path.join(dir, 'log'))));
      rmSync(path.join(dir, 'log'));
      const steps = await readFailingSteps(dir, build(dir));
      expect(steps).toEqual(expected);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a corrupt log.gz: the steps keep their errors, without lines', async () => {
    const dir = copy('completed');
    try {
      const gz = gzipSync(readFileSync(path.join(dir, 'log')));
      writeFileSync(path.join(dir, 'log.gz'), gz.subarray(0, gz.length - 40));
      rmSync(path.join(dir, 'log'));
      const steps = await readFailingSteps(dir, build(dir));
      expect(steps[0]).toMatchObject({ step: 'bat', errorMessage: 'script returned exit code 2' });
      expect(steps[0]?.logLines).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a 70 MB log (plain and gzipped) is streamed: whole-log line numbers, the tail placed, the step first', async () => {
    const { buildCiContext } = await import('./context.js');
    const { stepFocus } = await import('../core/log/jenkins.js');
    const home = mkdtempSync(path.join(os.tmpdir(), 'flow-big-'));
    try {
      mkdirSync(path.join(home, 'jobs/lib/builds'), { recursive: true });
      writeFileSync(path.join(home, 'jobs/lib/config.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<flow-definition plugin=\"workflow-job@1400\"><keepDependencies>false</keepDependencies></flow-definition>");
      const dir = path.join(home, 'jobs/lib/builds/1');
      cpSync(path.join(FIX, 'completed'), dir, { recursive: true });
      const small = await readFailingSteps(dir, build(dir));
      // 70 MB of a checkout's output (no node's) before the same build: every offset moves by its size.
      const line = '[Pipeline] echo downloading artifact chunk 0000000 of the dependency cache, still going\n';
      const count = Math.ceil((70 * 1024 * 1024) / line.length);
      const prefix = Buffer.from(line.repeat(count));
      const original = readFileSync(path.join(dir, 'log'));
      writeFileSync(path.join(dir, 'log'), Buffer.concat([prefix, original]));
      const index = readFileSync(path.join(dir, 'log-index'), 'utf8').replace(/^(\d+)/gm, (n) => String(Number(n) + prefix.length));
      writeFileSync(path.join(dir, 'log-index'), index);
      const [a, b] = small[0]?.logLines ?? [0, 0];
      const expectLines = async (): Promise<void> => {
        const steps = await readFailingSteps(dir, build(dir));
        expect(steps[0]?.logLines).toEqual([a + count, b + count]);
        expect(steps[0]?.log).toBe(small[0]?.log);
        const details = (await buildCiContext({ jenkinsHome: home, jobName: 'lib', buildNumber: 1 })).buildDetails;
        const tail = details?.consoleLogTail ?? '';
        expect(details?.consoleLogTailStartLine).toBe(count + original.toString('utf8').split('\n').length - tail.split('\n').length);
        const top = analyze(tail, { focus: stepFocus(details?.failingSteps, 'consoleLogTail', details?.consoleLogTailStartLine) })[0];
        expect(tail.split('\n')[(top?.start_line ?? 0) - 1]).toContain('error C2065');
      };
      await expectLines();
      // The same, compressed: written as a stream, read as one.
      await new Promise<void>((resolve, reject) => {
        const out = createWriteStream(path.join(dir, 'log.gz'));
        const gz = createGzip();
        gz.pipe(out).on('finish', resolve).on('error', reject);
        gz.end(readFileSync(path.join(dir, 'log')));
      });
      rmSync(path.join(dir, 'log'));
      await expectLines();
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('buildDetails.failingSteps through the context', () => {
  test('a pipeline build read from disk: failing steps, the tail\'s start line, and the step\'s lines first in the analysis', async () => {
    const { mkdtempSync, cpSync, mkdirSync, writeFileSync, rmSync } = await import('node:fs');
    const os = await import('node:os');
    const { buildCiContext } = await import('./context.js');
    const { stepFocus } = await import('../core/log/jenkins.js');
    const home = mkdtempSync(path.join(os.tmpdir(), 'flow-home-'));
    try {
      mkdirSync(path.join(home, 'jobs/lib/builds'), { recursive: true });
      writeFileSync(path.join(home, 'jobs/lib/config.xml'), "<?xml version='1.1' encoding='UTF-8'?>\n<flow-definition plugin=\"workflow-job@1400\"><keepDependencies>false</keepDependencies></flow-definition>");
      cpSync(path.join(FIX, 'completed'), path.join(home, 'jobs/lib/builds/1'), { recursive: true });
      const ci = await buildCiContext({ jenkinsHome: home, jobName: 'lib', buildNumber: 1 });
      const details = ci.buildDetails;
      expect(details?.failingSteps).toEqual([expect.objectContaining({ stage: 'Test', branch: 'windows', step: 'bat', errorMessage: 'script returned exit code 2' })]);
      expect(details?.consoleLogTailStartLine).toBe(1);
      const tail = details?.consoleLogTail ?? '';
      const focus = stepFocus(details?.failingSteps, 'consoleLogTail', details?.consoleLogTailStartLine);
      const top = analyze(tail, { focus })[0];
      expect(tail.split('\n')[(top?.start_line ?? 0) - 1]).toContain('error C2065');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  test('stepFocus shifts whole-log lines into a tail and drops what the tail does not hold', async () => {
    const { stepFocus } = await import('../core/log/jenkins.js');
    expect(stepFocus([{ logLines: [120, 130] }], 'consoleLogTail', 101)).toEqual([[20, 30]]);
    expect(stepFocus([{ logLines: [20, 30] }], 'consoleLogTail', 101)).toEqual([]);
    expect(stepFocus([{ logLines: [20, 30] }], 'consoleLogTail')).toEqual([]);
    expect(stepFocus([{ logLines: [20, 30] }], 'consoleLog')).toEqual([[20, 30]]);
  });
});
