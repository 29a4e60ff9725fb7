/**
 * The questions a build engineer really types, asked of the offline engine against realistic
 * contexts: a failed Maven build, a pipeline whose `sh` step failed, build facts without a log,
 * a log without facts, no context at all, and small logs of the common failure kinds. Each row
 * says what the person must see: the right facts, a citation of the right log lines when the
 * answer rests on the log, an honest "does not say" when the context does not hold the answer,
 * never an invented value.
 */
import type { ChatContext } from '../backend/answer/engine.js';
import {
  analyzedChatContext,
  analyzedMavenChatContext,
  dockerDaemonLog,
  factsOnlyChatContext,
  failureKindChatContext,
  freestyleChatContext,
  killedLog,
  logOnlyChatContext,
  longNodeChatContext,
  MORE_LOGS,
  pipelineChatContext,
} from './answerFixtures.js';
import { askLocalAnswer } from './helpers/askLocal.js';

type ContextName =
  | 'maven'
  | 'pipeline'
  | 'factsOnly'
  | 'logOnly'
  | 'none'
  | 'oom'
  | 'timeout'
  | 'dependency'
  | 'permission'
  | 'network'
  | 'freestyle'
  | 'longNode'
  | 'docker'
  | 'killed'
  | 'gradleDependency'
  | 'goCompile'
  | 'gitAuth'
  | 'diskFull'
  | 'windowsMissing'
  | 'passed'
  | 'running';

const CONTEXTS: Record<ContextName, () => ChatContext | null> = {
  maven: analyzedMavenChatContext,
  pipeline: pipelineChatContext,
  factsOnly: factsOnlyChatContext,
  logOnly: () => logOnlyChatContext(),
  none: () => null,
  oom: () => failureKindChatContext('oom'),
  timeout: () => failureKindChatContext('timeout'),
  dependency: () => failureKindChatContext('dependency'),
  permission: () => failureKindChatContext('permission'),
  network: () => failureKindChatContext('network'),
  freestyle: freestyleChatContext,
  longNode: longNodeChatContext,
  docker: () => analyzedChatContext({ buildDetails: { number: 3, result: 'FAILURE' } }, dockerDaemonLog()),
  killed: () => analyzedChatContext({}, killedLog()),
  gradleDependency: () => analyzedChatContext({ buildDetails: { number: 12, result: 'FAILURE' } }, MORE_LOGS.gradleDependency),
  goCompile: () => analyzedChatContext({ buildDetails: { number: 30, result: 'FAILURE', previousBuild: { number: 29, result: 'SUCCESS' }, changes: [{ commitId: 'ab12cd34ef56', author: 'frank', message: 'Switch to OpenDB2' }] } }, MORE_LOGS.goCompile),
  gitAuth: () => analyzedChatContext({}, MORE_LOGS.gitAuth),
  diskFull: () => analyzedChatContext({ buildDetails: { number: 8, result: 'FAILURE', builtOn: 'linux-agent-5' } }, MORE_LOGS.diskFull),
  windowsMissing: () => analyzedChatContext({ buildDetails: { number: 4, result: 'FAILURE' } }, MORE_LOGS.windowsMissing),
  passed: () => analyzedChatContext({ buildDetails: { number: 51, result: 'SUCCESS', durationMs: 70_000 } }, MORE_LOGS.passed),
  running: () => ({ ...factsOnlyChatContext(), ciContext: { buildDetails: { number: 16, building: true, timestamp: '2026-11-22T02:00:00.000Z' } } }),
};

interface Expectation {
  /** Every one of these is in the answer. */
  has?: (RegExp | string)[];
  /** None of these is in the answer (invented values, wrong verdicts). */
  not?: (RegExp | string)[];
  /** The first line matches. */
  first?: RegExp;
  /** For each text, a citation `[La-Lb]` in the answer covers the log line holding it. */
  cites?: string[];
  /** The answer cites no log line (it rests on facts, or there is nothing to cite). */
  noCitation?: boolean;
}

/** Says plainly that the context lacks the answer. */
const DOES_NOT_SAY = /does not say|doesn't say|can't tell|cannot tell|can't answer|holds no|has no/i;
const NO_CONTEXT = /No CI context has been uploaded/;

const ROWS: [string, ContextName, Expectation][] = [
  // --- Why did it fail, in every phrasing: the Maven test failure.
  ['why red?', 'maven', { has: [/failed/], cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['what broke', 'maven', { cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['Why did the build fail?', 'maven', { has: ['rejectsEmptyCart', /\*\*Next step:\*\*/], cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['why did teh build fial', 'maven', { cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['whats wrong with it', 'maven', { cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['show me the error', 'maven', { cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['how do I fix it', 'maven', { has: [/How to fix/, 'mvn test -Dtest=OrderServiceTest#rejectsEmptyCart'], cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['build failed, root cause?', 'maven', { cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['which test failed', 'maven', { has: ['rejectsEmptyCart', 'appliesDiscount'], cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed', 'PriceCalculatorTest.appliesDiscount  Time elapsed'] }],
  ['failing tests?', 'maven', { has: ['rejectsEmptyCart', 'appliesDiscount'] }],
  ['was it a timeout', 'maven', { first: /^\*\*No\b/, has: [/test/i], not: [/^\*\*Yes/m], cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['did it run out of memory?', 'maven', { first: /^\*\*No\b/, cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['what command failed', 'maven', { has: ['mvn -B clean verify'], cites: ['[api] $ mvn -B clean verify'] }],
  // --- Facts of the Maven build.
  ['who triggered this', 'maven', { has: ['Alice Smith'], noCitation: true }],
  ['who kicked it off?', 'maven', { has: ['Alice Smith'] }],
  ['which node did it run on', 'maven', { has: ['built-in node'] }],
  ['where did it run', 'maven', { has: ['built-in node'] }],
  ['what changed since last green', 'maven', { has: ['Allow empty carts', '#41'] }],
  ['any new commits?', 'maven', { has: ['Allow empty carts', 'bob'] }],
  ['who broke the build', 'maven', { has: ['bob', 'Allow empty carts'] }],
  ['is it flaky', 'maven', { has: ['#41', /flak/i], not: [/\bis flaky\b/] }],
  ['how long did it take', 'maven', { has: ['3 min 12 s'] }],
  ['was it slower than usual', 'maven', { has: ['3 min 12 s', '2 min 5 s'] }],
  ['what params', 'maven', { has: ['BRANCH', 'main', 'SKIP_IT'] }],
  ['what plugins', 'maven', { has: ['7 plugins', 'git-client'] }],
  ['plugin versions?', 'maven', { has: ['5.2.1', '4.6.0'] }],
  ['is the kubernetes plugin installed', 'maven', { first: /^\*\*Yes/, has: ['4203.v1dd44f5b_1cf9'] }],
  ['do we have the slack plugin', 'maven', { first: /^\*\*No/, not: [/slack`? \d/] }],
  ["what's the jenkins version", 'maven', { has: ['2.440.3'] }],
  ['jenkins ver', 'maven', { has: ['2.440.3'] }],
  ['java version on the controller', 'maven', { has: ['17.0.10'] }],
  ['is an agent offline', 'maven', { first: /^\*\*Yes/, has: ['win-1', 'Disconnected by admin'] }],
  ['are all agents up?', 'maven', { has: ['win-1'] }],
  ['how many executors', 'maven', { has: ['2 executors'] }],
  ['summarise the log', 'maven', { has: [/failed/], cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['tl;dr', 'maven', { has: [/failed/] }],
  ['which branch was built', 'maven', { has: ['main'] }],
  ['what commit was built', 'maven', { has: ['4f2a9c1e'], not: [/9c1d2e3f/] }],
  ['who aborted it', 'maven', { has: [/not aborted/] }],
  ['did it pass', 'maven', { first: /^\*\*No\b/ }],
  ['hi', 'maven', { has: [/Why did build #42 fail/i] }],
  ['thanks!', 'maven', { has: [/welcome/i], not: [/can't answer/] }],
  ['whats the weather in berlin', 'maven', { has: [/can't answer that/], noCitation: true }],
  ['what docker image did it use', 'maven', { has: [DOES_NOT_SAY], not: [/image[^.\n]*`[\w./-]+:[\w.-]+`/] }],
  ['what is the IP address of the agent', 'maven', { has: [DOES_NOT_SAY], not: [/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/] }],
  ['warum ist der build fehlgeschlagen', 'maven', { cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['pourquoi le build a échoué ?', 'maven', { cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['wer hat den build gestartet', 'maven', { has: ['Alice Smith'] }],
  // --- A pipeline whose sh step lacks a tool.
  ['why did it fail', 'pipeline', { has: ['kubectl', /install/i], cites: ['kubectl: command not found'] }],
  ['y did it fail??', 'pipeline', { cites: ['kubectl: command not found'] }],
  ['what command failed', 'pipeline', { has: ['./scripts/deploy.sh staging'], cites: ['+ ./scripts/deploy.sh staging'] }],
  ['which stage failed', 'pipeline', { has: ['Deploy'], not: [/`Build`/], cites: ['[Pipeline] { (Deploy)'] }],
  ['exit code?', 'pipeline', { has: ['127'], cites: ['script returned exit code 127'] }],
  ['which node did it run on', 'pipeline', { has: ['linux-agent-3'] }],
  ['who triggered this', 'pipeline', { has: ['GitHub push by carol'] }],
  ['what changed since last green', 'pipeline', { has: ['#317', 'Bump vite'], not: [/#317[^.\n]*passed/] }],
  ['is it flaky?', 'pipeline', { has: ['#317'] }],
  ['what params', 'pipeline', { has: ['DEPLOY_ENV', 'staging'] }],
  ['what plugins are installed', 'pipeline', { has: [DOES_NOT_SAY], not: [/\d+ plugins? (is|are) installed/] }],
  ['jenkins version', 'pipeline', { has: ['2.452.2'] }],
  ['is an agent offline', 'pipeline', { first: /^\*\*No/ }],
  ['how much ram does the controller have', 'pipeline', { has: [DOES_NOT_SAY], not: [/GiB/] }],
  ['did it time out', 'pipeline', { first: /^\*\*No\b/, cites: ['kubectl: command not found'] }],
  ['is this a pipeline job', 'pipeline', { first: /^\*\*Yes/ }],
  ['how do i fix this', 'pipeline', { has: [/How to fix/, 'kubectl'], cites: ['kubectl: command not found'] }],
  ['what does line 41 say', 'pipeline', { has: ['kubectl: command not found'], cites: ['kubectl: command not found'] }],
  // --- Build facts, no log.
  ['why did it fail', 'factsOnly', { has: [/no build log/i, 'FAILURE'], noCitation: true }],
  ['show me the error', 'factsOnly', { has: [/no build log/i], noCitation: true }],
  ['what does line 120 say', 'factsOnly', { has: [/no build log|holds no log|no log/i], noCitation: true }],
  ['which test failed', 'factsOnly', { has: [DOES_NOT_SAY], noCitation: true }],
  ['who triggered this', 'factsOnly', { has: ['timer'] }],
  ['how long did it take', 'factsOnly', { has: ['1 h 2 min'] }],
  ['which agent ran it', 'factsOnly', { has: ['windows-2'] }],
  ['what plugins', 'factsOnly', { has: [DOES_NOT_SAY] }],
  ['what changed', 'factsOnly', { has: [DOES_NOT_SAY], not: [/[0-9a-f]{7,}/] }],
  ['is it flaky', 'factsOnly', { has: [DOES_NOT_SAY] }],
  ['summarize', 'factsOnly', { has: ['nightly-report', 'FAILURE'] }],
  ['what command failed', 'factsOnly', { has: [/no build log/i], noCitation: true }],
  // --- A log, no facts.
  ['why did it fail', 'logOnly', { has: ['cannot find symbol', /Next step/], cites: ['Cart.java:42: error: cannot find symbol'] }],
  ["what's the error", 'logOnly', { cites: ['Cart.java:42: error: cannot find symbol'] }],
  ['which file has the error', 'logOnly', { has: ['Cart.java'], cites: ['Cart.java:42: error: cannot find symbol'] }],
  ['who triggered this', 'logOnly', { has: ['Alice'], cites: ['Started by user Alice'] }],
  ['which node did it run on', 'logOnly', { has: ['linux-agent-1'], cites: ['Running on linux-agent-1'] }],
  ['did it pass', 'logOnly', { first: /^\*\*No\b/, cites: ['Finished: FAILURE'] }],
  ['what was the result', 'logOnly', { has: ['FAILURE'], cites: ['Finished: FAILURE'] }],
  ['how long did it take', 'logOnly', { has: ['14s'], cites: ['BUILD FAILED in 14s'] }],
  ['jenkins version?', 'logOnly', { has: [DOES_NOT_SAY], not: [/Jenkins \d/] }],
  ['which plugins do we have', 'logOnly', { has: [DOES_NOT_SAY] }],
  ['what does line 7 say', 'logOnly', { has: ['cannot find symbol'], cites: ['Cart.java:42: error: cannot find symbol'] }],
  ['show me the last 5 lines', 'logOnly', { has: ['Finished: FAILURE', 'BUILD FAILED in 14s'], cites: ['Finished: FAILURE', 'BUILD FAILED in 14s'] }],
  ['what command failed', 'logOnly', { has: ['./gradlew build'], cites: ['+ ./gradlew build'] }],
  ['which test failed', 'logOnly', { has: [/no test report|no failing test/i], not: [/tests? failed\*\*/] }],
  ['what does line 500 say', 'logOnly', { has: [/23 lines/], noCitation: true }],
  // --- No context at all.
  ['why did it fail', 'none', { has: [NO_CONTEXT, 'cichat context upload'] }],
  ['hello', 'none', { has: [NO_CONTEXT] }],
  ["what's the jenkins version", 'none', { has: [NO_CONTEXT], not: [/\d+\.\d+\.\d+/] }],
  ['what does line 120 say', 'none', { has: [NO_CONTEXT] }],
  // --- The common failure kinds: an explanation and a concrete next step.
  ['why did it fail', 'oom', { has: [/memory/i, /-Xmx|heap/], cites: ['java.lang.OutOfMemoryError'] }],
  ['did it run out of memory', 'oom', { first: /^\*\*Yes\b/, cites: ['java.lang.OutOfMemoryError'] }],
  ['why was it aborted', 'timeout', { has: [/timeout/i, /Next step/], cites: ['Timeout has been exceeded'] }],
  ['was it a timeout', 'timeout', { first: /^\*\*Yes\b/, cites: ['Timeout has been exceeded'] }],
  ['why did it fail', 'dependency', { has: ['com.acme:payments-client:jar:2.3.0', /Next step/, /published|repository/i], cites: ['Could not resolve dependencies'] }],
  ['why did it fail', 'permission', { has: [/Permission denied/, /chmod \+x|executable/], cites: ['./gradlew: Permission denied'] }],
  ['why did it fail', 'network', { has: [/Could not resolve host: github\.com/, /network|DNS|proxy/i], cites: ["Could not resolve host: github.com"] }],
  ['is it a network issue', 'network', { first: /^\*\*Yes\b/, cites: ["Could not resolve host: github.com"] }],
  ['is it a network issue', 'permission', { first: /^\*\*No\b/, cites: ['./gradlew: Permission denied'] }],
  // --- Added after a look at answers to questions outside the tables.
  ['who aborted it', 'timeout', { first: /timeout aborted/i, cites: ['due to timeout'] }],
  ['show the log', 'maven', { has: ['Finished: FAILURE'], cites: ['Finished: FAILURE'] }],
  ["what's the status", 'maven', { first: /failed/ }],
  ["what's the build url", 'maven', { has: ['https://ci.example.com/job/team/job/api/42/'] }],
  ['is kubectl installed', 'pipeline', { has: [DOES_NOT_SAY, 'kubectl: command not found'], cites: ['kubectl: command not found'] }],
  ['pipline faild', 'pipeline', { cites: ['kubectl: command not found'] }],
  ['can you retry the build', 'pipeline', { has: [/can't start builds/, 'DEPLOY_ENV', 'Replay'] }],
  ['how do i rerun', 'factsOnly', { has: [/can't start builds/, 'Build Now'], not: ['Replay'] }],
];

/**
 * A second table, written after the engine work on the first one and run before any change for
 * it: other phrasings and other builds (a freestyle shell step with pytest, a long Node log kept
 * as its tail, a Docker daemon that is down, an OOM kill), so the first table's pass rate is not
 * the only measure.
 */
const HELD_OUT: [string, ContextName, Expectation][] = [
  ['why is the build broken', 'freestyle', { has: ['test_invoice_total'], cites: ['FAILED tests/test_invoice.py::test_invoice_total'] }],
  ['any idea why this failed?', 'freestyle', { cites: ['assert 24 == 25'] }],
  ['explain the error', 'freestyle', { cites: ['assert 24 == 25'] }],
  ['what should i do', 'freestyle', { has: [/How to fix/, 'pytest tests/test_invoice.py::test_invoice_total'] }],
  ['failed tests', 'freestyle', { has: ['tests/test_invoice.py::test_invoice_total'] }],
  ['how many tests failed', 'freestyle', { has: [/\b1\b.*fail/] }],
  ['who ran this build', 'freestyle', { has: ['platform/nightly'] }],
  ['what triggered it', 'freestyle', { has: ['platform/nightly'] }],
  ['what machine', 'freestyle', { has: ['agent-7'] }],
  ['which branch', 'freestyle', { has: ['release/2.4'], cites: ['Checking out Revision'] }],
  ['what command failed', 'freestyle', { has: ['make test'], cites: ['+ make test'] }],
  ['offline agents', 'freestyle', { has: ['agent-8', 'Connection was broken', 'mac-1'] }],
  ['did it work before', 'freestyle', { has: ['#76'] }],
  ['did the previous build pass', 'freestyle', { first: /#76/, has: ['SUCCESS'] }],
  ["what's different from the last build", 'freestyle', { has: [/no recorded changes/] }],
  ['is it a regression', 'freestyle', { has: ['#76'] }],
  ['list plugins', 'freestyle', { has: ['git', '5.4.1'] }],
  ['git plugin version', 'freestyle', { has: ['5.4.1'] }],
  ['time taken', 'freestyle', { has: ['41 s'] }],
  ['jenkins version pls', 'freestyle', { has: ['2.462.1'] }],
  ['lines 22 to 24', 'freestyle', { has: ['FAILED tests/test_invoice.py'], cites: ['FAILED tests/test_invoice.py', '1 failed, 35 passed'] }],
  ['whats on line 5', 'freestyle', { has: ['agent-7'], cites: ['Building remotely on agent-7'] }],
  ['give me the stack trace', 'freestyle', { cites: ['assert 24 == 25'] }],
  ['why did it fail', 'longNode', { has: ['shows the total with tax'], cites: ['● Cart › shows the total with tax'] }],
  ['which test failed', 'longNode', { has: ['Cart › shows the total with tax'] }],
  ['which stage failed', 'longNode', { has: ['Unit tests'], cites: ['[Pipeline] { (Unit tests)'] }],
  ['show me the last 3 lines', 'longNode', { has: ['Finished: FAILURE'], cites: ['Finished: FAILURE'] }],
  ['what does line 1 say', 'longNode', { has: [/not in the part of the log|can't quote|cannot quote|does not/i], not: ['Started by user Dana'] }],
  ['how long did the build take', 'longNode', { has: ['10 min 12 s'] }],
  ['who started it', 'longNode', { has: ['Dana'] }],
  ['why did it fail', 'docker', { has: ['Docker daemon', /Next step/], cites: ['Cannot connect to the Docker daemon'] }],
  ['is docker down on the agent?', 'docker', { cites: ['Cannot connect to the Docker daemon'] }],
  ['why did it fail', 'killed', { has: [/memory/i, /Next step/], cites: ['Killed'] }],
  ['was it oom killed', 'killed', { first: /^\*\*Yes\b/, cites: ['Killed'] }],
  ['exit code', 'killed', { has: ['137'], cites: ['exit code 137'] }],
  ['what happened', 'pipeline', { cites: ['kubectl: command not found'] }],
  ['error?', 'pipeline', { cites: ['kubectl: command not found'] }],
  ['why is the pipeline red', 'pipeline', { cites: ['kubectl: command not found'] }],
  ['can you explain the failure', 'pipeline', { cites: ['kubectl: command not found'] }],
  ['help me fix this build', 'pipeline', { has: [/How to fix/], cites: ['kubectl: command not found'] }],
  ['was it triggered by a push', 'pipeline', { has: ['GitHub push by carol'] }],
  ['whose commit broke it', 'pipeline', { has: ['carol', 'dave'] }],
  ['changelog', 'pipeline', { has: ['Bump vite'] }],
  ['what were the inputs', 'pipeline', { has: ['DEPLOY_ENV'] }],
  ['when did it run', 'pipeline', { has: ['2026-11-22 01:55'] }],
  ['how many agents', 'pipeline', { has: [/3 agents online/] }],
  ['is it a compile error', 'pipeline', { first: /^\*\*No\b/ }],
  ['is it a compile error', 'logOnly', { first: /^\*\*Yes\b/, cites: ['cannot find symbol'] }],
  ['is it a dependency problem', 'dependency', { first: /^\*\*Yes\b/ }],
  ['where does it fail', 'logOnly', { has: ['Cart.java'], cites: ['cannot find symbol'] }],
  ['which line is the error on', 'logOnly', { has: ['Cart.java:42'], cites: ['cannot find symbol'] }],
  ['test summary', 'maven', { has: ['48', /2 .*failed/] }],
  ['any skipped tests?', 'maven', { has: ['3 skipped'] }],
  ['what os', 'pipeline', { has: [DOES_NOT_SAY], not: [/Linux|Windows/] }],
  ['who approved the deployment', 'pipeline', { has: [/can't answer|does not say/], not: [/approved by/i] }],
  ['wie lange hat der build gedauert', 'maven', { has: ['3 min 12 s'] }],
  ['quelle version de jenkins', 'maven', { has: ['2.440.3'] }],
  ['merci', 'maven', { has: [/welcome/i] }],
  ['thank you so much', 'pipeline', { has: [/welcome/i] }],
  ['good morning', 'none', { has: [NO_CONTEXT] }],
  ['which test failed', 'none', { has: [NO_CONTEXT] }],
];

/** A second held-out table over other tools and endings, also run before any change for it. */
const HELD_OUT_2: [string, ContextName, Expectation][] = [
  ['why did it fail', 'gradleDependency', { has: ['com.acme:analytics:4.1.0', /Next step/], cites: ['Could not find com.acme:analytics:4.1.0'] }],
  ['is it a dependency issue?', 'gradleDependency', { first: /^\*\*Yes\b/ }],
  ['which task failed', 'gradleDependency', { has: ['checkDebugAarMetadata'] }],
  ['why did it fail', 'goCompile', { has: ['undefined: sql.OpenDB2', /compile/i], cites: ['internal/store/db.go:57:12'] }],
  ['which file', 'goCompile', { has: ['internal/store/db.go'] }],
  ['who broke it', 'goCompile', { has: ['frank', 'Switch to OpenDB2'] }],
  ['was it my change?', 'goCompile', { has: ['Switch to OpenDB2'] }],
  ['why did it fail', 'gitAuth', { has: ['Authentication failed', /credential/i], cites: ['Authentication failed for'] }],
  ['is it a permissions problem', 'gitAuth', { first: /^\*\*Yes\b/ }],
  ['why did it fail', 'diskFull', { has: [/no space left on device/i, /disk/i], cites: ['no space left on device'] }],
  ['is the disk full', 'diskFull', { first: /^\*\*Yes\b/, cites: ['no space left on device'] }],
  ['which agent', 'diskFull', { has: ['linux-agent-5'] }],
  ['why did it fail', 'windowsMissing', { has: ['msbuild', /install/i], cites: ["'msbuild' is not recognized"] }],
  ['what command failed', 'windowsMissing', { has: ['msbuild Desktop.sln'] }],
  ['why did it fail', 'passed', { first: /did not fail/ }],
  ['did it pass', 'passed', { first: /^\*\*Yes\b/ }],
  ['any errors?', 'passed', { has: [/did not fail|passed|SUCCESS/], not: [/first real error/] }],
  ['how many tests ran', 'passed', { has: ['120'] }],
  ['how long', 'passed', { has: ['1 min 10 s'] }],
  ['is it still running', 'running', { first: /^\*\*Yes\b/ }],
  ['why did it fail', 'running', { has: [/still running|no build log/i], not: [/\bfailed \(`/] }],
  ['how long has it been running', 'running', { has: [/still running/] }],
  ['whats up', 'maven', { not: [/undefined/] }],
  ['what went wrong in the deploy stage', 'pipeline', { cites: ['kubectl: command not found'] }],
  ['cause?', 'maven', { cites: ['OrderServiceTest.rejectsEmptyCart  Time elapsed'] }],
  ['where can i find the error', 'logOnly', { cites: ['cannot find symbol'] }],
  ['log tail', 'pipeline', { has: ['Finished: FAILURE'], cites: ['Finished: FAILURE'] }],
  ['first 3 lines of the log', 'pipeline', { has: ['Started by GitHub push by carol'], cites: ['Started by GitHub push by carol'] }],
  ['show me L39', 'pipeline', { has: ['./scripts/deploy.sh staging'] }],
  ['what is the job', 'pipeline', { has: ['web/main'] }],
];

const ask = (question: string, context: ChatContext | null) => askLocalAnswer(question, context);

/** 1-based number of the first stored log line holding `needle`. */
function storedLineOf(context: ChatContext, needle: string): number {
  const details = context.ciContext.buildDetails;
  // A stored tail ends at the log's last line.
  const lines = (details?.consoleLog ?? details?.consoleLogTail ?? '').replace(/\n$/, '').split('\n');
  const offset = details?.consoleLog !== undefined ? 0 : context.logLineCount - lines.length;
  const index = lines.findIndex((l) => l.includes(needle));
  if (index < 0) throw new Error(`the test's own log lacks: ${needle}`);
  return offset + index + 1;
}

/** The answer without quoted log text, which may say "undefined" on its own. */
function prose(text: string): string {
  return text.replace(/(`{3,})[\s\S]*?\1/g, '').replace(/(`+)[^`]*?\1/g, '');
}

function citationsIn(text: string): { start: number; end: number }[] {
  return [...text.matchAll(/\[L(\d+)-L(\d+)\]/g)].map((m) => ({ start: Number(m[1]), end: Number(m[2]) }));
}

describe.each([
  ['questions a build engineer asks the offline engine', ROWS],
  ['held-out questions and builds', HELD_OUT],
  ['second held-out table', HELD_OUT_2],
] as const)('%s', (_title, rows) => {
  it.each(rows.map(([question, name, expectation]) => [`${name}: ${question}`, question, name, expectation] as const))(
    '%s',
    async (_label, question, name, expectation) => {
      const context = CONTEXTS[name]();
      const { text, sources } = await ask(question, context);
      const first = text.split('\n')[0] ?? '';

      // What every answer must be: text, short, no leaked placeholders, citations that exist.
      expect(text.trim().length).toBeGreaterThan(0);
      expect(text.length).toBeLessThan(6000);
      expect(prose(text)).not.toMatch(/undefined|NaN|\[object Object\]/);
      const citations = citationsIn(text);
      const lineCount = context?.logLineCount ?? 0;
      for (const c of citations) {
        expect(c.start).toBeGreaterThanOrEqual(1);
        expect(c.end).toBeGreaterThanOrEqual(c.start);
        expect(c.end).toBeLessThanOrEqual(lineCount);
        // A cited range is recorded as (part of) a log source of the answer.
        expect(sources.some((s) => s.kind === 'log' && s.start_line <= c.start && s.end_line >= c.end)).toBe(true);
      }

      for (const wanted of expectation.has ?? []) {
        if (typeof wanted === 'string') expect(text).toContain(wanted);
        else expect(text).toMatch(wanted);
      }
      for (const unwanted of expectation.not ?? []) {
        if (typeof unwanted === 'string') expect(text).not.toContain(unwanted);
        else expect(text).not.toMatch(unwanted);
      }
      if (expectation.first) expect(first).toMatch(expectation.first);
      if (expectation.noCitation) expect(citations).toEqual([]);
      for (const needle of expectation.cites ?? []) {
        const line = storedLineOf(context as ChatContext, needle);
        const covering = citations.filter((c) => c.start <= line && c.end >= line);
        if (covering.length === 0) throw new Error(`no citation covers line ${line} (${needle}); the answer cites ${JSON.stringify(citations)}:\n${text}`);
      }
    },
  );

});

it('answers every question of both tables against every context: text, no placeholders, citations inside the log and recorded as sources', async () => {
  const questions = [...new Set([...ROWS, ...HELD_OUT, ...HELD_OUT_2].map(([question]) => question))];
  const bad: string[] = [];
  for (const [name, make] of Object.entries(CONTEXTS)) {
    // One context per name for all its questions (an answer reads its context, never changes it;
    // the row tests above make a fresh one per question).
    const context = make();
    const before = JSON.stringify(context);
    for (const question of questions) {
      const { text, sources } = await ask(question, context);
      const lineCount = context?.logLineCount ?? 0;
      const problems = [
        text.trim() === '' && 'empty',
        /undefined|NaN|\[object Object\]/.test(prose(text)) && 'placeholder',
        text.length >= 6000 && 'too long',
        ...citationsIn(text).map(
          (c) =>
            (c.start < 1 || c.end < c.start || c.end > lineCount || !sources.some((s) => s.kind === 'log' && s.start_line <= c.start && s.end_line >= c.end)) &&
            `bad citation L${c.start}-L${c.end}`,
        ),
      ].filter(Boolean);
      if (problems.length > 0) bad.push(`${name}: ${question}: ${problems.join(', ')}`);
    }
    if (JSON.stringify(context) !== before) bad.push(`${name}: an answer changed its context`);
  }
  expect(bad).toEqual([]);
});

it('asks at least 60 questions', () => {
  expect(ROWS.length + HELD_OUT.length + HELD_OUT_2.length).toBeGreaterThanOrEqual(60);
});
