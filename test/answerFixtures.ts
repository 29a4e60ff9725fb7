/**
 * Builders of ChatContexts for the answer engine tests: a rich one (a failed Maven build with a
 * log, tests, plugins, agents) and a sparse one (a few facts, no log).
 */
import type { ChatContext, LogPassage } from '../backend/answer/engine.js';
import type { CiContext, LogExcerpt } from '../protocol/types.js';

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

export function richCiContext(log = failedMavenLog()): CiContext {
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
    ciContext: richCiContext(log),
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
