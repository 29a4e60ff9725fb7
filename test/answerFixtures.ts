/**
 * Builders of ChatContexts for the answer engine tests: a rich one (a failed Maven build with a
 * log, tests, plugins, agents) and a sparse one (a few facts, no log).
 */
import type { ChatContext, LogPassage } from '../backend/answer/engine.js';
import { analyzedLog } from './helpers/analyzedLog.js';
import type { CiContext, LogExcerpt } from '../protocol/types.js';
import type { CiContextUpload } from '../protocol/schemas.js';

export { analyzedExcerpts } from './helpers/analyzedLog.js';

/** A failed Maven build: a compile warning cascade, a test failure, then Jenkins' ending. */
export function failedMavenLog(): string {
  const lines: string[] = [
    'Started by user Alice Smith',
    'Running as SYSTEM',
    'Building on the built-in node in workspace /var/jenkins_home/workspace/team/api',
    'The recommended git tool is: NONE',
    ' > git rev-parse --resolve-git-dir /var/jenkins_home/workspace/team/api/.git # timeout=10',
    'Fetching changes from the remote Git repository',
    'Checking out Revision 4f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 (refs/remotes/origin/main)',
    '[api] $ mvn -B clean verify',
    '[INFO] Scanning for projects...',
    '[INFO] Building api 1.4.0-SNAPSHOT',
  ];
  for (let i = 0; i < 30; i++) lines.push(`[INFO] Downloaded from central: https://repo.maven.apache.org/maven2/org/example/lib${i}/1.0/lib${i}-1.0.jar`);
  lines.push(
    '[INFO] --- maven-surefire-plugin:3.2.5:test (default-test) @ api ---',
    '[INFO] Running com.example.api.OrderServiceTest',
    '[ERROR] Tests run: 12, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.42 s <<< FAILURE! - in com.example.api.OrderServiceTest',
    '[ERROR] com.example.api.OrderServiceTest.rejectsEmptyCart  Time elapsed: 0.01 s  <<< FAILURE!',
    'org.opentest4j.AssertionFailedError: expected: <400> but was: <200>',
    '\tat com.example.api.OrderServiceTest.rejectsEmptyCart(OrderServiceTest.java:57)',
    '[INFO] Running com.example.api.PriceCalculatorTest',
    '[ERROR] com.example.api.PriceCalculatorTest.appliesDiscount  Time elapsed: 0.02 s  <<< FAILURE!',
    'org.opentest4j.AssertionFailedError: expected: <90.0> but was: <100.0>',
    '[INFO] Results:',
    '[ERROR] Failures: ',
    '[ERROR]   OrderServiceTest.rejectsEmptyCart:57 expected: <400> but was: <200>',
    '[ERROR]   PriceCalculatorTest.appliesDiscount:31 expected: <90.0> but was: <100.0>',
    '[ERROR] Tests run: 48, Failures: 2, Errors: 0, Skipped: 3',
    '[INFO] BUILD FAILURE',
    '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project api: There are test failures.',
    'Build step \'Invoke top-level Maven targets\' marked build as failure',
    'Finished: FAILURE',
  );
  return `${lines.join('\n')}\n`;
}

/** 1-based line numbers of `needle`'s first occurrence in `log`. */
export function lineOf(log: string, needle: string): number {
  const index = log.split('\n').findIndex((l) => l.includes(needle));
  if (index < 0) throw new Error(`not in the log: ${needle}`);
  return index + 1;
}

function spanOf(log: string, start: number, end: number): string {
  return log
    .split('\n')
    .slice(start - 1, end)
    .join('\n');
}

/**
 * A small stand-in for the backend's hybrid retrieval: 6-line chunks scored by how many of the
 * query's words they hold. Enough to exercise the engines' use of `retrieve`.
 */
export function termRetriever(log: string): (query: string, k: number) => Promise<LogPassage[]> {
  const lines = log.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const chunks: LogPassage[] = [];
  for (let start = 0; start < lines.length; start += 6) {
    const end = Math.min(lines.length, start + 6);
    chunks.push({ start_line: start + 1, end_line: end, text: lines.slice(start, end).join('\n'), score: 0 });
  }
  return async (query, k) => {
    const words = query
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length >= 3);
    return chunks
      .map((c) => ({ ...c, score: words.filter((w) => c.text.toLowerCase().includes(w)).length / Math.max(1, words.length) }))
      .filter((c) => c.score > 0)
      .sort((a, b) => b.score - a.score || a.start_line - b.start_line)
      .slice(0, k);
  };
}

export function richCiContext(log = failedMavenLog()): CiContextUpload {
  return {
    currentScreen: 'Console team/api #42',
    ciVersion: '2.440.3',
    rootUrl: 'https://ci.example.com/',
    systemMessage: '<b>Maintenance</b> window Sunday 02:00-04:00 UTC',
    activePlugins: [
      { shortName: 'git', longName: 'Git plugin', version: '5.2.1', enabled: true },
      { shortName: 'git-client', longName: 'Git client plugin', version: '4.6.0', enabled: true },
      { shortName: 'workflow-aggregator', longName: 'Pipeline', version: '596.v8c21c963d92d', enabled: true },
      { shortName: 'docker-workflow', longName: 'Docker Pipeline', version: '572.v950f58993843', enabled: true },
      { shortName: 'kubernetes', longName: 'Kubernetes plugin', version: '4203.v1dd44f5b_1cf9', enabled: true },
      { shortName: 'junit', longName: 'JUnit Plugin', version: '1265.v65b_14fa_f12f0', enabled: true },
      { shortName: 'blueocean', longName: 'Blue Ocean', version: '1.27.9', enabled: false },
    ],
    masterNode: {
      executors: 2,
      isOnline: true,
      systemInfo: {
        'os.name': 'Linux',
        'os.version': '6.1.0-18-amd64',
        'os.arch': 'amd64',
        availableProcessors: 8,
        totalMemory: 16_777_216_000,
        'java.version': '17.0.10',
        'java.vendor': 'Eclipse Adoptium',
        'file.encoding': 'UTF-8',
        diskFree: '120 GB',
      },
    },
    agentStats: {
      onlineAgents: 2,
      offlineAgents: 1,
      agents: [
        { name: 'linux-1', online: true, executors: 4 },
        { name: 'linux-2', online: true, executors: 4 },
        { name: 'win-1', online: false, executors: 2, offlineReason: 'Disconnected by admin' },
      ],
    },
    jobDetails: {
      name: 'api',
      fullName: 'team/api',
      type: 'hudson.maven.MavenModuleSet',
      buildable: true,
      description: 'Builds and tests the <i>orders</i> API.',
      nextBuildNumber: 43,
    },
    buildDetails: {
      number: 42,
      result: 'FAILURE',
      building: false,
      durationMs: 192_000,
      timestamp: '2026-11-22T01:18:14.123Z',
      causes: [{ shortDescription: 'Started by user Alice Smith', userId: 'alice', userName: 'Alice Smith' }],
      parameters: [
        { name: 'BRANCH', value: 'main' },
        { name: 'SKIP_IT', value: false },
      ],
      builtOn: '',
      changes: [{ commitId: '4f2a9c1e8b7d6a5f', author: 'bob', message: 'Allow empty carts in checkout\n\nlong body' }],
      previousBuild: { number: 41, result: 'SUCCESS', durationMs: 125_000 },
      tests: { total: 48, failed: 2, skipped: 3, passed: 43 },
      consoleLog: log,
    },
  };
}

/** A context as the backend hands it to an engine, over the rich facts and the failed Maven log. */
export function richChatContext(overrides: Partial<ChatContext> = {}): ChatContext {
  const log = failedMavenLog();
  const lineCount = log.split('\n').length - 1;
  const testFailure = lineOf(log, 'OrderServiceTest.rejectsEmptyCart  Time elapsed');
  const goal = lineOf(log, 'Failed to execute goal');
  const excerpts: (LogExcerpt & { text: string })[] = [
    {
      start_line: testFailure,
      end_line: testFailure + 2,
      score: 0.92,
      reason: 'Maven surefire test failure',
      text: spanOf(log, testFailure, testFailure + 2),
    },
    { start_line: goal, end_line: goal, score: 0.7, reason: 'Maven goal failed', text: spanOf(log, goal, goal) },
  ];
  return {
    ciContext: richCiContext(log) as CiContext,
    uploadedAt: '2026-11-22T01:20:00.000Z',
    logLineCount: lineCount,
    failureExcerpts: excerpts,
    retrieve: termRetriever(log),
    ...overrides,
  };
}

/** Only a version and a failed build number: no log, no plugins, no nodes. */
export function sparseChatContext(): ChatContext {
  return {
    ciContext: { ciVersion: '2.401.1', buildDetails: { number: 42, result: 'ABORTED' } },
    uploadedAt: '2026-11-22T01:20:00.000Z',
    logLineCount: 0,
    failureExcerpts: [],
    retrieve: async () => [],
  };
}

// ---------------------------------------------------------------------------------------------
// Contexts analysed by the real log analyzer, as the backend stores them at upload.

/**
 * A ChatContext as ingest makes it: the log cleaned, its lines stored as `consoleLog`, the real
 * analyzer's excerpts, term retrieval over the same lines. `ciContext` may hold no log (the log
 * is added) or be empty (a log-only upload).
 */
export function analyzedChatContext(ciContext: CiContextUpload, log: string, opts: { tailLines?: number } = {}): ChatContext {
  const { lines, excerpts } = analyzedLog(log);
  return chatContextOfLines(ciContext, lines, excerpts, opts);
}

/** analyzedChatContext with the excerpts given (test/helpers/realfailContext.ts keeps them on disk). */
export function chatContextOfLines(
  ciContext: CiContextUpload,
  lines: string[],
  failureExcerpts: ChatContext['failureExcerpts'],
  opts: { tailLines?: number } = {},
): ChatContext {
  const stored = `${lines.join('\n')}\n`;
  // A large log is kept as its tail only (`consoleLogTail`), as ingest does past its size limit.
  const logField = opts.tailLines === undefined ? { consoleLog: stored } : { consoleLogTail: `${lines.slice(-opts.tailLines).join('\n')}\n` };
  return {
    ciContext: { ...ciContext, buildDetails: { ...(ciContext.buildDetails ?? {}), ...logField } } as CiContext,
    uploadedAt: '2026-11-22T02:10:00.000Z',
    logLineCount: lines.length,
    failureExcerpts,
    retrieve: termRetriever(stored),
  };
}

/** The rich Maven context, its excerpts from the real analyzer. */
export function analyzedMavenChatContext(): ChatContext {
  const log = failedMavenLog();
  return analyzedChatContext(richCiContext(log), log);
}

/** A declarative pipeline whose deploy stage runs a `sh` step that lacks `kubectl`. */
export function pipelineShLog(): string {
  return [
    'Started by GitHub push by carol',
    'Obtained Jenkinsfile from git https://github.com/acme/web.git',
    '[Pipeline] Start of Pipeline',
    '[Pipeline] node',
    'Running on linux-agent-3 in /home/jenkins/workspace/web_main',
    '[Pipeline] {',
    '[Pipeline] stage',
    '[Pipeline] { (Checkout)',
    '[Pipeline] checkout',
    'The recommended git tool is: NONE',
    'using credential github-app',
    'Fetching changes from the remote Git repository',
    'Checking out Revision 9c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d (refs/remotes/origin/main)',
    'Commit message: "Deploy web to staging with kubectl"',
    '[Pipeline] }',
    '[Pipeline] // stage',
    '[Pipeline] stage',
    '[Pipeline] { (Build)',
    '[Pipeline] sh',
    '+ npm ci',
    'added 812 packages, and audited 813 packages in 21s',
    'found 0 vulnerabilities',
    '[Pipeline] sh',
    '+ npm run build',
    '',
    '> web@2.3.0 build',
    '> vite build',
    '',
    'vite v5.2.8 building for production...',
    '✓ 412 modules transformed.',
    'dist/index.html                   0.46 kB',
    'dist/assets/index-4f2a9c1e.js   143.20 kB',
    '✓ built in 3.41s',
    '[Pipeline] }',
    '[Pipeline] // stage',
    '[Pipeline] stage',
    '[Pipeline] { (Deploy)',
    '[Pipeline] sh',
    '+ ./scripts/deploy.sh staging',
    'Deploying web 2.3.0 to staging',
    './scripts/deploy.sh: line 7: kubectl: command not found',
    '[Pipeline] }',
    '[Pipeline] // stage',
    '[Pipeline] }',
    '[Pipeline] // node',
    '[Pipeline] End of Pipeline',
    'ERROR: script returned exit code 127',
    'Finished: FAILURE',
    '',
  ].join('\n');
}

export function pipelineCiContext(): CiContextUpload {
  return {
    currentScreen: 'Console web/main #318',
    jenkinsVersion: '2.452.2',
    rootUrl: 'https://jenkins.acme.io/',
    agentStats: {
      onlineAgents: 3,
      offlineAgents: 0,
      agents: [
        { name: 'linux-agent-1', online: true, executors: 2 },
        { name: 'linux-agent-2', online: true, executors: 2 },
        { name: 'linux-agent-3', online: true, executors: 2 },
      ],
    },
    jobDetails: { name: 'main', fullName: 'web/main', type: 'org.jenkinsci.plugins.workflow.job.WorkflowJob', buildable: true },
    buildDetails: {
      number: 318,
      result: 'FAILURE',
      building: false,
      durationMs: 83_000,
      timestamp: '2026-11-22T01:55:02.000Z',
      causes: [{ shortDescription: 'Started by GitHub push by carol' }],
      parameters: [{ name: 'DEPLOY_ENV', value: 'staging' }],
      builtOn: 'linux-agent-3',
      changes: [
        { commitId: '9c1d2e3f4a5b6c7d', author: 'carol', message: 'Deploy web to staging with kubectl' },
        { commitId: '1a2b3c4d5e6f7a8b', author: 'dave', message: 'Bump vite to 5.2.8' },
      ],
      previousBuild: { number: 317, result: 'FAILURE', durationMs: 80_000 },
    },
  };
}

export function pipelineChatContext(): ChatContext {
  return analyzedChatContext(pipelineCiContext(), pipelineShLog());
}

/** A Gradle build that stops on a Java compile error, as a pipeline prints it. */
export function gradleCompileLog(): string {
  return [
    'Started by user Alice',
    '[Pipeline] node',
    'Running on linux-agent-1 in /home/jenkins/workspace/team/shop',
    '[Pipeline] sh',
    '+ ./gradlew build',
    '> Task :compileJava',
    '/home/jenkins/workspace/team/shop/src/main/java/com/acme/Cart.java:42: error: cannot find symbol',
    '        return totals.sumOf(items);',
    '                     ^',
    '  symbol:   method sumOf(List<Item>)',
    '  location: variable totals of type Totals',
    '1 error',
    '',
    'FAILURE: Build failed with an exception.',
    '',
    '* What went wrong:',
    "Execution failed for task ':compileJava'.",
    '> Compilation failed; see the compiler error output for details.',
    '',
    'BUILD FAILED in 14s',
    '[Pipeline] }',
    'ERROR: script returned exit code 1',
    'Finished: FAILURE',
    '',
  ].join('\n');
}

/** Only a log, as `cat build.log | cichat ask ...` uploads it: no build facts at all. */
export function logOnlyChatContext(log = gradleCompileLog()): ChatContext {
  return analyzedChatContext({}, log);
}

/** Build facts without a log (a context uploaded from a job page, or a log too large to send). */
export function factsOnlyChatContext(): ChatContext {
  return {
    ciContext: {
      ciVersion: '2.426.3',
      masterNode: { executors: 0, isOnline: true },
      jobDetails: { name: 'nightly-report', fullName: 'nightly-report', type: 'hudson.model.FreeStyleProject', buildable: true },
      buildDetails: {
        number: 15,
        result: 'FAILURE',
        building: false,
        durationMs: 3_723_000,
        timestamp: '2026-11-22T00:00:04.000Z',
        causes: [{ shortDescription: 'Started by timer' }],
        builtOn: 'windows-2',
      },
    },
    uploadedAt: '2026-11-22T01:20:00.000Z',
    logLineCount: 0,
    failureExcerpts: [],
    retrieve: async () => [],
  };
}

/** Small logs of the common failure kinds, each as a pipeline `sh` step prints it. */
export const FAILURE_KIND_LOGS = {
  oom: [
    'Started by user Alice',
    'Running on linux-agent-2 in /home/jenkins/workspace/shop',
    '+ ./gradlew test',
    '> Task :compileJava',
    '> Task :test',
    'Exception in thread "Test worker" java.lang.OutOfMemoryError: Java heap space',
    '\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)',
    '\tat com.acme.report.PdfRenderer.render(PdfRenderer.java:88)',
    '',
    'FAILURE: Build failed with an exception.',
    "Execution failed for task ':test'.",
    'BUILD FAILED in 2m 3s',
    'ERROR: script returned exit code 1',
    'Finished: FAILURE',
    '',
  ].join('\n'),
  timeout: [
    'Started by timer',
    'Running on linux-agent-1 in /home/jenkins/workspace/e2e',
    '[Pipeline] timeout',
    'Timeout set to expire in 30 min',
    '[Pipeline] sh',
    '+ npm run e2e',
    '> e2e@1.0.0 e2e',
    '> playwright test',
    'Running 84 tests using 4 workers',
    'Cancelling nested steps due to timeout',
    'Sending interrupt signal to process',
    'Timeout has been exceeded',
    'script returned exit code 143',
    'Finished: ABORTED',
    '',
  ].join('\n'),
  dependency: [
    'Started by user Bob',
    '+ mvn -B -s settings.xml package',
    '[INFO] Scanning for projects...',
    '[INFO] Building shop 1.0.0',
    '[INFO] ------------------------------------------------------------------------',
    '[INFO] BUILD FAILURE',
    '[INFO] ------------------------------------------------------------------------',
    '[ERROR] Failed to execute goal on project shop: Could not resolve dependencies for project com.acme:shop:jar:1.0.0: Could not find artifact com.acme:payments-client:jar:2.3.0 in nexus (https://nexus.acme.internal/repository/maven-public/) -> [Help 1]',
    '[ERROR] ',
    '[ERROR] Re-run Maven using the -X switch to enable full debug logging.',
    'ERROR: script returned exit code 1',
    'Finished: FAILURE',
    '',
  ].join('\n'),
  permission: [
    'Started by user Alice',
    'Running on linux-agent-1 in /home/jenkins/workspace/android',
    '[Pipeline] sh',
    '+ ./gradlew assembleRelease',
    '/home/jenkins/workspace/android@tmp/durable-5b3c1a2f/script.sh.copy: 1: ./gradlew: Permission denied',
    '[Pipeline] }',
    'ERROR: script returned exit code 126',
    'Finished: FAILURE',
    '',
  ].join('\n'),
  network: [
    'Started by GitHub push by erin',
    'Running on linux-agent-2 in /home/jenkins/workspace/docs',
    'The recommended git tool is: NONE',
    'Cloning the remote Git repository',
    'Cloning repository https://github.com/acme/docs.git',
    ' > git init /home/jenkins/workspace/docs # timeout=10',
    'Fetching upstream changes from https://github.com/acme/docs.git',
    ' > git fetch --tags --force --progress -- https://github.com/acme/docs.git +refs/heads/*:refs/remotes/origin/* # timeout=10',
    'ERROR: Error cloning remote repo \'origin\'',
    'hudson.plugins.git.GitException: Command "git fetch --tags --force --progress -- https://github.com/acme/docs.git +refs/heads/*:refs/remotes/origin/*" returned status code 128:',
    "stderr: fatal: unable to access 'https://github.com/acme/docs.git/': Could not resolve host: github.com",
    '\tat org.jenkinsci.plugins.gitclient.CliGitAPIImpl.launchCommandIn(CliGitAPIImpl.java:2842)',
    'Finished: FAILURE',
    '',
  ].join('\n'),
} as const;

export type FailureKindName = keyof typeof FAILURE_KIND_LOGS;

/** One of the failure-kind logs as a log-only upload with a failed result. */
export function failureKindChatContext(kind: FailureKindName): ChatContext {
  const result = kind === 'timeout' ? 'ABORTED' : 'FAILURE';
  return analyzedChatContext({ buildDetails: { number: 9, result } }, FAILURE_KIND_LOGS[kind]);
}

/** A freestyle job's shell step running `make test` on an agent, with pytest failing. */
export function freestyleMakeLog(): string {
  return [
    'Started by upstream project "platform/nightly" build number 212',
    'originally caused by:',
    ' Started by timer',
    'Running as SYSTEM',
    'Building remotely on agent-7 (linux docker) in workspace /var/lib/jenkins/workspace/billing',
    'The recommended git tool is: NONE',
    'Checking out Revision 0d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e (origin/release/2.4)',
    '[billing] $ /bin/sh -xe /tmp/jenkins7311842361.sh',
    '+ make test',
    'python -m pytest -q tests',
    '....................F...........s....',
    '=================================== FAILURES ===================================',
    '____________________________ test_invoice_total ____________________________',
    '',
    '    def test_invoice_total():',
    '        invoice = Invoice(lines=[Line(10, 2), Line(5, 1)])',
    '>       assert invoice.total() == 25',
    'E       assert 24 == 25',
    'E        +  where 24 = <bound method Invoice.total of Invoice(lines=2)>()',
    '',
    'tests/test_invoice.py:18: AssertionError',
    '=========================== short test summary info ============================',
    'FAILED tests/test_invoice.py::test_invoice_total - assert 24 == 25',
    '1 failed, 35 passed, 1 skipped in 2.31s',
    'make: *** [Makefile:12: test] Error 1',
    "Build step 'Execute shell' marked build as failure",
    'Finished: FAILURE',
    '',
  ].join('\n');
}

export function freestyleChatContext(): ChatContext {
  return analyzedChatContext(
    {
      ciVersion: '2.462.1',
      jobDetails: { name: 'billing', fullName: 'billing', type: 'hudson.model.FreeStyleProject', buildable: true },
      buildDetails: {
        number: 77,
        result: 'FAILURE',
        durationMs: 41_000,
        causes: [{ shortDescription: 'Started by upstream project "platform/nightly" build number 212' }],
        builtOn: 'agent-7',
        previousBuild: { number: 76, result: 'SUCCESS', durationMs: 39_000 },
        changes: [],
      },
      activePlugins: [{ shortName: 'git', longName: 'Git plugin', version: '5.4.1', enabled: true }],
      agentStats: { onlineAgents: 4, offlineAgents: 2, agents: [
        { name: 'agent-7', online: true, executors: 2 },
        { name: 'agent-8', online: false, executors: 2, offlineReason: 'Connection was broken' },
        { name: 'mac-1', online: false, executors: 1 },
      ] },
    },
    freestyleMakeLog(),
  );
}

/** A long Node pipeline log, kept as its last 40 lines: Jest fails, then the container is OOM-killed in a later stage. */
export function longNodeLog(): string {
  const lines = ['Started by user Dana', '[Pipeline] node', 'Running on k8s-agent-x1y2 in /home/jenkins/agent/workspace/frontend_PR-88'];
  for (let i = 0; i < 300; i++) lines.push(`npm http fetch GET 200 https://registry.npmjs.org/pkg-${i} 12ms (cache hit)`);
  lines.push(
    '[Pipeline] stage',
    '[Pipeline] { (Unit tests)',
    '[Pipeline] sh',
    '+ npm test -- --ci',
    'PASS src/utils/format.test.ts',
    'FAIL src/cart/Cart.test.tsx',
    '  ● Cart › shows the total with tax',
    '',
    '    expect(received).toBe(expected) // Object.is equality',
    '',
    '    Expected: "€12.10"',
    '    Received: "€12.00"',
    '',
    '      41 |     render(<Cart items={items} />);',
    '    > 42 |     expect(screen.getByTestId("total").textContent).toBe("€12.10");',
    '',
    'Tests:       1 failed, 57 passed, 58 total',
    'Test Suites: 1 failed, 11 passed, 12 total',
    '[Pipeline] }',
    '[Pipeline] // stage',
    'ERROR: script returned exit code 1',
    'Finished: FAILURE',
  );
  return `${lines.join('\n')}\n`;
}

export function longNodeChatContext(): ChatContext {
  return analyzedChatContext(
    { buildDetails: { number: 5, result: 'FAILURE', durationMs: 612_000 }, jobDetails: { fullName: 'frontend/PR-88', type: 'WorkflowJob' } },
    longNodeLog(),
    { tailLines: 40 },
  );
}

/** A docker build on an agent whose Docker daemon is not running. */
export function dockerDaemonLog(): string {
  return [
    'Started by user Alice',
    'Running on linux-agent-4 in /home/jenkins/workspace/images',
    '[Pipeline] sh',
    '+ docker build -t acme/api:1.2.3 .',
    'Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?',
    'ERROR: script returned exit code 1',
    'Finished: FAILURE',
    '',
  ].join('\n');
}

/** A Node build killed by the kernel's OOM killer (exit 137). */
export function killedLog(): string {
  return [
    'Started by user Alice',
    'Running on small-agent in /home/jenkins/workspace/site',
    '+ npm run build',
    '> site@1.0.0 build',
    '> next build',
    'Creating an optimized production build ...',
    '/home/jenkins/workspace/site@tmp/durable-12ab34cd/script.sh.copy: line 1:  4242 Killed                  npm run build',
    'ERROR: script returned exit code 137',
    'Finished: FAILURE',
    '',
  ].join('\n');
}

/** More builds for the second held-out table: other tools, other endings. */
export const MORE_LOGS = {
  /** Gradle cannot resolve a dependency. */
  gradleDependency: [
    'Started by user Erin',
    'Running on linux-agent-2 in /home/jenkins/workspace/mobile',
    '+ ./gradlew assembleDebug',
    '> Task :app:preBuild UP-TO-DATE',
    '> Task :app:checkDebugAarMetadata FAILED',
    '',
    'FAILURE: Build failed with an exception.',
    '',
    '* What went wrong:',
    "Execution failed for task ':app:checkDebugAarMetadata'.",
    "> Could not resolve all files for configuration ':app:debugRuntimeClasspath'.",
    '   > Could not find com.acme:analytics:4.1.0.',
    '     Required by:',
    '         project :app',
    '',
    'BUILD FAILED in 38s',
    'ERROR: script returned exit code 1',
    'Finished: FAILURE',
    '',
  ].join('\n'),
  /** Go: a compile error. */
  goCompile: [
    'Started by GitHub push by frank',
    'Running on linux-agent-1 in /home/jenkins/workspace/svc',
    '+ go build ./...',
    '# github.com/acme/svc/internal/store',
    'internal/store/db.go:57:12: undefined: sql.OpenDB2',
    'ERROR: script returned exit code 1',
    'Finished: FAILURE',
    '',
  ].join('\n'),
  /** git over HTTPS with bad credentials. */
  gitAuth: [
    'Started by user Gina',
    'Running on linux-agent-1 in /home/jenkins/workspace/infra',
    ' > git fetch --tags --force --progress -- https://git.acme.io/ops/infra.git +refs/heads/*:refs/remotes/origin/* # timeout=10',
    'ERROR: Error fetching remote repo \'origin\'',
    'hudson.plugins.git.GitException: Failed to fetch from https://git.acme.io/ops/infra.git',
    "stderr: remote: HTTP Basic: Access denied",
    "fatal: Authentication failed for 'https://git.acme.io/ops/infra.git/'",
    'Finished: FAILURE',
    '',
  ].join('\n'),
  /** The agent's disk is full. */
  diskFull: [
    'Started by timer',
    'Running on linux-agent-5 in /home/jenkins/workspace/images',
    '+ docker build -t acme/web:latest .',
    'Step 4/9 : RUN npm ci',
    'npm ERR! code ENOSPC',
    'npm ERR! syscall write',
    'npm ERR! errno -28',
    'npm ERR! nospc ENOSPC: no space left on device, write',
    'The command \'/bin/sh -c npm ci\' returned a non-zero code: 228',
    'ERROR: script returned exit code 228',
    'Finished: FAILURE',
    '',
  ].join('\n'),
  /** Windows agent without the tool. */
  windowsMissing: [
    'Started by user Hana',
    'Running on win-agent-1 in C:\\jenkins\\workspace\\desktop',
    '[desktop] $ cmd /c call C:\\Users\\jenkins\\AppData\\Local\\Temp\\jenkins4711.bat',
    'C:\\jenkins\\workspace\\desktop>msbuild Desktop.sln /p:Configuration=Release',
    "'msbuild' is not recognized as an internal or external command,",
    'operable program or batch file.',
    'Build step \'Execute Windows batch command\' marked build as failure',
    'Finished: FAILURE',
    '',
  ].join('\n'),
  /** A build that passed, with a warning. */
  passed: [
    'Started by user Ivan',
    'Running on linux-agent-1 in /home/jenkins/workspace/lib',
    '+ mvn -B verify',
    '[INFO] Tests run: 120, Failures: 0, Errors: 0, Skipped: 0',
    '[WARNING] Using platform encoding (UTF-8 actually) to copy filtered resources',
    '[INFO] BUILD SUCCESS',
    '[INFO] Total time:  01:02 min',
    'Finished: SUCCESS',
    '',
  ].join('\n'),
} as const;
