import { analyze } from './analyze.js';
import { branchesOf } from './jenkins.js';

const top = (log: string, options = {}): { start: number; end: number; reason: string } => {
  const e = analyze(log, options)[0];
  if (e === undefined) throw new Error('no excerpt');
  return { start: e.start_line, end: e.end_line, reason: e.reason };
};

describe('Jenkins console rules', () => {
  test('a Groovy error on the first line of a paste is the cause, named as a pipeline script error', () => {
    const log = [
      'groovy.lang.MissingPropertyException: No such property: versionn for class: groovy.lang.Binding',
      '\tat groovy.lang.Binding.getVariable(Binding.java:63)',
      '\tat WorkflowScript.run(WorkflowScript:12)',
      'Finished: FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 1, reason: 'Jenkins pipeline script error' });
  });

  test.each([
    ["No such DSL method 'foo' found among steps [sh, echo]", 'Jenkins pipeline script error'],
    ['java.io.NotSerializableException: groovy.json.internal.LazyMap', 'Jenkins pipeline script error'],
    ['Scripts not permitted to use method java.lang.String execute. Administrators can decide whether to approve or reject this signature.', 'Jenkins pipeline script error'],
    ["ERROR: Could not find credentials entry with ID 'x'", 'Jenkins credentials not found'],
    ['Agent went offline during the build', 'Jenkins agent lost'],
    ['Cannot contact agent-2: java.lang.InterruptedException', 'Jenkins agent lost'],
    ['Aborted by Carol', 'Jenkins build aborted'],
    ['Build team » deploy #3 completed: FAILURE', 'Jenkins downstream build failed'],
    ['Rejected by Carol Diaz', 'Jenkins build aborted'],
    ['ERROR: Timeout after 10 minutes', 'Jenkins timeout'],
    ['process apparently never started in /w/app@tmp/durable-5f3a1b2c', 'Jenkins: shell step never started'],
    ['‘linux-1’ doesn’t have label ‘docker-arm’', 'Jenkins: no agent for the label'],
    ["There are no nodes with the label ‘docker-arm’", 'Jenkins: no agent for the label'],
    ['hudson.AbortException: No version v4.2 found for library ci-lib', 'Jenkins shared library error'],
  ])('%s', (line, reason) => {
    const log = ['Started by user x', '[Pipeline] Start of Pipeline', line, '[Pipeline] End of Pipeline', 'Finished: FAILURE'].join('\n');
    expect(top(log)).toMatchObject({ start: 3, reason });
  });

  test('rpmbuild\'s missing build dependencies outrank the Gradle task that ran rpmbuild', () => {
    const log = [
      ':pkg-rpmerror: Failed build dependencies:',
      '\topenssl is needed by pkg-1.0-1.x86_64',
      ':pkg-rpm FAILED',
      '',
      'FAILURE: Build failed with an exception.',
      '',
      '* What went wrong:',
      "Execution failed for task ':pkg-rpm'.",
      "> Process 'command 'rpmbuild'' finished with non-zero exit value 1",
      '',
      'BUILD FAILED',
      "Build step 'Execute shell' marked build as failure",
      'Finished: FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 1, reason: 'rpmbuild: missing build dependencies' });
  });

  test('robocopy: the error and the system\'s message, not its closing RETRY LIMIT EXCEEDED', () => {
    const log = [
      '[Pipeline] bat',
      'C:\\w>robocopy dist \\\\fs\\drops /MIR /R:1',
      '2026/11/24 21:41:07 ERROR 5 (0x00000005) Accessing Destination Directory \\\\fs\\drops\\',
      'Access is denied.',
      'Waiting 5 seconds... Retrying...',
      '',
      'ERROR: RETRY LIMIT EXCEEDED.',
      '',
      '[Pipeline] End of Pipeline',
      'ERROR: script returned exit code 8',
      'Finished: FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 3, reason: 'robocopy error' });
  });

  test('Google Test on Windows: the failed assertion, not the FAILED list under it', () => {
    const log = [
      '[Pipeline] bat',
      '[ RUN      ] LineEndings.CrLf',
      'C:\\w\\tests\\line_endings_test.cpp(41): error: Expected equality of these values:',
      '  rows[1].field(2)',
      '    Which is: "a"',
      '  "b"',
      '[  FAILED  ] LineEndings.CrLf (1 ms)',
      '[==========] 214 tests from 19 test suites ran. (311 ms total)',
      '[  PASSED  ] 213 tests.',
      '[  FAILED  ] 1 test, listed below:',
      '[  FAILED  ] LineEndings.CrLf',
      '',
      ' 1 FAILED TEST',
      'ERROR: script returned exit code 1',
      'Finished: FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 3, reason: 'Google Test failure' });
  });

  test('a linker named by its path (`prebuilts/.../bin/ld: error:`) outranks the output after it', () => {
    const log = [
      '+ make -j8',
      'prebuilts/gcc/linux-x86/host/x86_64-linux/bin/ld: error: out/obj/JNIHelp.o: unsupported reloc 43 against global symbol',
      '  OBJCOPY spl/u-boot-spl.bin',
      '  MKIMAGE SPL',
      '31+0 records in',
      '31+0 records out',
      '31744 bytes (32 kB, 31 KiB) copied, 0.000231922 s, 137 MB/s',
      'make: *** wait: No child processes.  Stop.',
      "Build step 'Execute shell' marked build as failure",
      'Finished: FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 2, reason: 'ld error' });
  });

  test('a git fetch that hit the Git plugin\'s timeout: the timeout, not the GitException it throws', () => {
    const log = [
      ' > git fetch --tags --force --progress -- https://github.com/acme/mono.git +refs/heads/*:refs/remotes/origin/* # timeout=10', 'ERROR: Timeout after 10 minutes',
      "ERROR: Error fetching remote repo 'origin'", 'hudson.plugins.git.GitException: Failed to fetch from https://github.com/acme/mono.git', '\tat hudson.plugins.git.GitSCM.fetchFrom(GitSCM.java:1003)',
      'Caused by: hudson.plugins.git.GitException: Command "git fetch" returned status code 143:', 'Finished: FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 2, reason: 'Jenkins timeout' });
  });

  test.each(['Host key verification failed.', 'ssh: connect to host web-1 port 22: Connection refused', 'deploy@web-1: Permission denied (publickey).'])('ssh: %s', (line) => {
    const log = ['[Pipeline] sh', '+ scp -r dist/ deploy@web-1:/srv/app', line, 'lost connection', '[Pipeline] }', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');
    expect(top(log)).toMatchObject({ start: 3, reason: 'ssh error' });
  });

  test('disk full outranks the link and make failures it causes', () => {
    const log = ['+ make', 'cc -c a.c', 'a.c:3:1: error: cannot write a.o: No space left on device', 'b.c:9:5: error: expected ; before }', 'make: *** [all] Error 1', 'ERROR: script returned exit code 2'].join('\n');
    expect(top(log)).toMatchObject({ start: 3, reason: 'disk full' });
  });

  test('disk full in an earlier step that went on outranks the test failures it causes', () => {
    const log = [
      '[Pipeline] sh', '+ npm ci', 'npm error code ENOSPC', 'npm error nospc ENOSPC: no space left on device, write', '[Pipeline] }',
      '[Pipeline] sh', '+ npx jest --ci', 'FAIL src/a.test.ts', '  ● Test suite failed to run', '', "    Cannot find module 'react' from 'src/a.tsx'", '',
      'Test Suites: 1 failed, 1 total', '[Pipeline] }', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1', 'Finished: FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 3, reason: 'disk full' });
  });

  test('a shell step that never started (exit code -2) is the cause, not its generic ERROR line', () => {
    const log = [
      '[Pipeline] stage', '[Pipeline] { (Build)', '[Pipeline] sh', 'process apparently never started in /home/jenkins/workspace/app@tmp/durable-5f3a1b2c',
      '(running Jenkins temporarily with -Dorg.jenkinsci.plugins.durabletask.BourneShellScript.LAUNCH_DIAGNOSTICS=true might make the problem clearer)',
      '[Pipeline] }', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code -2', 'Finished: FAILURE',
    ].join('\n');
    const excerpts = analyze(log);
    expect(excerpts[0]).toMatchObject({ start_line: 4, reason: 'Jenkins: shell step never started' });
    expect(excerpts.find((e) => e.start_line === 8)?.reason).toBe('Jenkins: script returned exit code -2');
  });

  test('a build nobody could take (no agent with the label) outranks the abort that ended the wait', () => {
    const log = ['Started by user bob', '[Pipeline] node', 'Still waiting to schedule task', "There are no nodes with the label ‘docker-arm’", 'Aborted by bob', '[Pipeline] End of Pipeline', 'Finished: ABORTED'].join('\n');
    expect(top(log)).toMatchObject({ start: 4, reason: 'Jenkins: no agent for the label' });
  });

  test("a freestyle step's error outranks what the post-build actions print after the step failed", () => {
    const log = [
      'Started by user bob', 'Building on the built-in node in workspace /var/jenkins_home/workspace/deploy', '[deploy] $ /bin/sh -xe /tmp/jenkins123.sh', '+ ./deploy.sh staging',
      'curl: (22) The requested URL returned error: 500', "Build step 'Execute shell' marked build as failure", 'Recording test results',
      'ERROR: Step ‘Publish JUnit test result report’ failed: No test report files were found. Configuration error?',
      "ERROR: Couldn't connect to host, exception: javax.mail.MessagingException: Could not connect to SMTP host: localhost, port: 25;", 'Finished: FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 5, reason: 'curl error' });
  });

  test('an agent that went away is the cause even when Jenkins says so after the failed step', () => {
    const log = [
      '[app] $ cmd /c call C:\\Windows\\TEMP\\jenkins1.bat', 'msbuild App.sln', 'FATAL: command execution failed', 'java.nio.channels.ClosedChannelException',
      '\tat org.jenkinsci.remoting.protocol.NetworkLayer.onRecvClosed(NetworkLayer.java:154)', "Build step 'Execute Windows batch command' marked build as failure",
      'ERROR: Step ‘Archive the artifacts’ failed: no workspace for app #8', 'Agent went offline during the build', 'Finished: FAILURE',
    ].join('\n');
    const first = top(log);
    expect(first.reason).toBe('Jenkins agent lost');
    expect(first.start <= 8 && first.end >= 8).toBe(true);
  });

  test("Surefire's closing list of failures is the answer, the per-class detail second", () => {
    const log = [
      '[Pipeline] sh', '+ mvn -B test', '[INFO] Running com.acme.CartTest',
      '[ERROR] Tests run: 4, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.05 s <<< FAILURE! -- in com.acme.CartTest',
      '[ERROR] com.acme.CartTest.total -- Time elapsed: 0.01 s <<< FAILURE!', 'org.opentest4j.AssertionFailedError: expected: <7> but was: <8>',
      '\tat com.acme.CartTest.total(CartTest.java:41)', '', '[INFO] ', '[INFO] Results:', '[INFO] ', '[ERROR] Failures: ',
      '[ERROR]   CartTest.total:41 expected: <7> but was: <8>', '[INFO] ', '[ERROR] Tests run: 9, Failures: 1, Errors: 0, Skipped: 0', '[INFO] ', '[INFO] BUILD FAILURE',
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project shop: There are test failures.',
      '[Pipeline] }', 'ERROR: script returned exit code 1', 'Finished: FAILURE',
    ].join('\n');
    const excerpts = analyze(log);
    expect(excerpts[0]).toMatchObject({ start_line: 13, reason: 'JUnit test failure' });
    expect(excerpts[1]).toMatchObject({ start_line: 4 });
  });

  test('a plugin\'s bare "ERROR: ... failed." is not the cause when the line above says why', () => {
    const log = ['[Pipeline] nexusArtifactUploader', 'Uploading: http://nexus/x.jar', 'Return code is: 403, ReasonPhrase: Forbidden.', 'ERROR: Uploading file x.jar failed.', 'Finished: FAILURE'].join('\n');
    expect(top(log).start).toBe(3);
  });

  test('"A full log can be found at" is a pointer, not the error above it', () => {
    const log = ['+ ./build.sh', 'error: module foo not found', 'A full log can be found at /tmp/build.log', 'ERROR: script returned exit code 1'].join('\n');
    expect(top(log).start).toBe(2);
  });

  test('"Failed in branch X" sends the analyzer into the lines prefixed [X]', () => {
    const lines = ['[Pipeline] parallel', '[Pipeline] { (Branch: a)', '[Pipeline] { (Branch: b)', '[a] + make', '[b] + make', '[b] Error: helper crashed while warming up the cache'];
    lines.push('[a] src/x.c:1:1: warning: unused variable', '[a] FAILED: test_encoding (expected 3, got 4)');
    for (let i = 0; i < 50; i++) lines.push(`[b] step ${i} done`);
    lines.push('[b] ERROR: cannot reach the license server', 'ERROR: script returned exit code 1', 'Failed in branch a', 'Finished: FAILURE');
    const t = top(lines.join('\n'));
    expect(t.start).toBe(8);
    expect(branchesOf(lines)).toEqual({ all: new Set(['a', 'b']), failed: ['a'] });
  });

  test('without the branch prefix set, [X] lines are read as they are (Maven [ERROR] is not a branch)', () => {
    const log = ['[INFO] Building x', '[ERROR] /src/A.java:[3,5] cannot find symbol', '[INFO] BUILD FAILURE'].join('\n');
    expect(top(log).start).toBe(2);
  });

  test('Timestamper and copied-console stamps are set aside before the shapes are tried', () => {
    const iso = ['[2026-11-20T10:00:00.000Z] + pytest', '[2026-11-20T10:00:01.000Z] ___________ test_x ___________', '[2026-11-20T10:00:01.000Z] E       assert 1 == 2', '[2026-11-20T10:00:02.000Z] ERROR: script returned exit code 1'];
    expect(top(iso.join('\n'))).toMatchObject({ start: 2, reason: 'pytest failure' });
    const clock = ['10:00:00  + ./deploy.sh', '10:00:01  ./deploy.sh: line 3: kubectl: command not found', "10:00:01  Build step 'Execute shell' marked build as failure"];
    expect(top(clock.join('\n'))).toMatchObject({ start: 2, reason: 'shell: command not found' });
  });

  test('focus: excerpts within the failing step\'s lines rank first', () => {
    const log = ['+ setup', 'Error: the setup step printed this and failed', '', '+ build', 'Traceback (most recent call last):', '  File "x.py", line 1', 'ValueError: late'].join('\n');
    expect(top(log).start).toBe(5);
    expect(top(log, { focus: [[1, 2]] }).start).toBe(2);
  });

  test('Surefire\'s "Please refer to ... for the individual test results" points at the reports: the goal\'s failure above it is the cause', () => {
    const log = [
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-surefire-plugin:3.2.5:test (default-test) on project billing-api: There are test failures.',
      '[ERROR] ',
      '[ERROR] Please refer to /var/lib/jenkins/workspace/billing/billing-api/target/surefire-reports for the individual test results.',
      '[ERROR] Please refer to dump files (if any exist) [date].dump, [date]-jvmRun[N].dump and [date].dumpstream.',
      '[ERROR] -> [Help 1]',
      "Build step 'Invoke top-level Maven targets' marked build as failure",
      'Finished: FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 1, end: 1, reason: 'Maven goal failed' });
  });

  test('a build superseded at a milestone: the milestone\'s "Superseded by" outranks the SIGTERM its interrupt causes', () => {
    const lines = ['[Pipeline] milestone', 'Trying to pass milestone 3', '[Pipeline] sh', '+ ./gradlew integrationTest', 'Superseded by api-gateway #412', 'Sending interrupt signal to process'];
    for (let i = 0; i < 6; i++) lines.push(`> Task :module${i}:integrationTest`);
    lines.push('', 'Terminated', 'script returned exit code 143', '[Pipeline] }', '[Pipeline] End of Pipeline', 'Finished: NOT_BUILT');
    expect(top(lines.join('\n'))).toMatchObject({ start: 5, reason: 'Jenkins build aborted' });
  });

  test('a bare "Terminated" (the shell\'s SIGTERM) is not resource exhaustion: an abort printed well above it explains it', () => {
    const lines = ['[Pipeline] sh', '+ ./run-soak.sh', 'Aborted by Dana Whitfield', 'Sending interrupt signal to process'];
    for (let i = 0; i < 5; i++) lines.push(`soak: round ${i} ok`);
    lines.push('', 'Terminated', 'script returned exit code 143', 'Finished: ABORTED');
    expect(top(lines.join('\n'))).toMatchObject({ start: 3, reason: 'Jenkins build aborted' });
    expect(top(['+ ./long-job.sh', 'Terminated'].join('\n'))).toMatchObject({ start: 2, reason: 'process terminated' });
  });

  test.each([
    ['[Warning][ci/build-7-q2w9x-k4m3n][FailedScheduling] 0/4 nodes are available: 4 Insufficient cpu. preemption: 0/4 nodes are available: 4 No preemption victims found for incoming pod.'],
    ['[Warning][jenkins/app-pr-12-abcde-fghij][Failed] Error: ImagePullBackOff'],
    ['[Warning][jenkins/app-pr-12-abcde-fghij][FailedMount] MountVolume.SetUp failed for volume "m2-cache" : persistentvolumeclaim "m2-cache" not found'],
  ])('the agent pod that cannot run outranks the timeout that ends the wait: %s', (event) => {
    const lines = ['[Pipeline] timeout', 'Timeout set to expire in 20 min', '[Pipeline] podTemplate', '[Pipeline] node', 'Created Pod: kubernetes ci/build-7-q2w9x-k4m3n', event];
    for (let i = 0; i < 20; i++) lines.push('Still waiting to schedule task', '‘build-7-q2w9x-k4m3n’ is offline');
    lines.push('Cancelling nested steps due to timeout', '[Pipeline] // node', '[Pipeline] // timeout', '[Pipeline] End of Pipeline', 'Timeout has been exceeded', 'Finished: ABORTED');
    expect(top(lines.join('\n'))).toMatchObject({ start: 6, reason: 'Jenkins: agent pod cannot run' });
  });

  test('a pod event of a pod that ran after all (the cluster grew) does not outrank the failure of the step', () => {
    const lines = ['[Pipeline] podTemplate', '[Pipeline] node', '[Warning][ci/build-8-aaaaa-bbbbb][FailedScheduling] 0/3 nodes are available: 3 Insufficient memory.', '[Normal][ci/build-8-aaaaa-bbbbb][TriggeredScaleUp] pod triggered scale-up', 'Running on build-8-aaaaa-bbbbb in /home/jenkins/agent/workspace/app', '[Pipeline] {', '[Pipeline] sh', '+ go build ./...'];
    lines.push('internal/api/handler.go:41:9: undefined: renderJSON', '[Pipeline] }', 'ERROR: script returned exit code 1', 'Finished: FAILURE');
    expect(top(lines.join('\n'))).toMatchObject({ start: 9 });
  });

  test('no agent for the label outranks the timeout that ends the wait', () => {
    const lines = ['[Pipeline] timeout', 'Timeout set to expire in 1 hr 0 min', '[Pipeline] node', 'Still waiting to schedule task', "There are no nodes with the label ‘gpu-a100’"];
    for (let i = 0; i < 10; i++) lines.push('Still waiting to schedule task');
    lines.push('Cancelling nested steps due to timeout', '[Pipeline] End of Pipeline', 'Timeout has been exceeded', 'Finished: ABORTED');
    expect(top(lines.join('\n'))).toMatchObject({ start: 5, reason: 'Jenkins: no agent for the label' });
  });

  test('kubectl describe\'s Warning events (an image that cannot be pulled) name why a rollout never became ready', () => {
    const lines = ['+ helm upgrade --install orders charts/orders --wait --timeout 5m', 'Error: UPGRADE FAILED: context deadline exceeded', '+ kubectl describe pods -l app=orders', 'Events:'];
    lines.push('  Type     Reason     Age                  From               Message', '  ----     ------     ----                 ----               -------');
    lines.push('  Normal   Scheduled  5m                   default-scheduler  Successfully assigned shop/orders-5c9-x2 to node-3');
    lines.push('  Warning  Failed     4m (x4 over 5m)      kubelet            Failed to pull image "registry.acme.io/orders:2.1.0": rpc error: code = NotFound desc = manifest unknown: not found');
    lines.push('  Warning  Failed     4m (x4 over 5m)      kubelet            Error: ErrImagePull', '  Normal   BackOff    3m (x7 over 5m)      kubelet            Back-off pulling image "registry.acme.io/orders:2.1.0"');
    lines.push('ERROR: script returned exit code 1', 'Finished: FAILURE');
    const excerpts = analyze(lines.join('\n'));
    const pod = excerpts.find((e) => e.start_line === 8);
    expect(pod?.reason).toBe('Kubernetes: pod cannot run');
  });
  test("a copied console's clock with milliseconds or elapsed time is set aside, and a stamped empty line is blank", () => {
    // The Timestamper prints `HH:mm:ss.SSS` or the elapsed time: Jenkins' own line under it keeps its meaning.
    const log = [
      '00:00:06.893  Timeout set to expire in 1 min 0 sec',
      '[Pipeline] node',
      '00:00:21.941  Still waiting to schedule task',
      "00:00:21.944  There are no nodes with the label ‘arm64&&docker’",
      '00:01:06.895  Cancelling nested steps due to timeout',
      '[Pipeline] End of Pipeline',
      'Timeout has been exceeded',
      'Finished: ABORTED',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 4, reason: 'Jenkins: no agent for the label' });
    // `20:44:19 ` alone is an empty line: the paragraph before the failing step is the script's message.
    const quiet = [
      '20:44:19 Congratulations!  Changelog CHANGELOG.md is well-formed.',
      '20:44:19 The following new tests were added to integration-cli:',
      '20:44:19 ',
      '20:44:19 +func (s *DockerSuite) TestCp(c *check.C) {',
      '20:44:19 ',
      '20:44:19 integration-cli is deprecated. Please add an API integration test to',
      '20:44:19 ./integration/COMPONENT/. See ./TESTING.md for more details.',
      '20:44:19 ',
      "20:44:20 Build step 'Execute shell' marked build as failure",
      'Finished: FAILURE',
    ].join('\n');
    expect(top(quiet)).toMatchObject({ start: 6, end: 7 });
  });
  test('a Jenkins shell step that stopped right after a traced command, printing nothing: that command, not the step exit', () => {
    const log = [
      '[jenkins-demo] $ /bin/bash -xe /tmp/jenkins6013219052354131704.sh',
      '++ lsof -t -i:10001',
      '+ pid=',
      "Build step 'Execute shell' marked build as failure",
      'Finished: FAILURE',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 2, end: 3, reason: 'last command before the failure' });
    // Output printed before the exit still comes first: the trace is the fallback.
    const loud = ['[Pipeline] sh', '+ ./check-size.sh', 'bundle.js is 612 kB, over the 500 kB budget', 'ERROR: script returned exit code 1'].join('\n');
    expect(top(loud)).toMatchObject({ start: 3, reason: 'output before the failure' });
  });

  test("the Docker client that cannot reach the daemon's socket is the cause, not the Maven success above it", () => {
    const log = [
      '[INFO] BUILD SUCCESS',
      '[Pipeline] stage',
      '[Pipeline] { (Build Docker Image)',
      '[Pipeline] sh',
      '+ docker build -t app:1.0.0 .',
      'Got permission denied while trying to connect to the Docker daemon socket at unix:///var/run/docker.sock: Post http://%2Fvar%2Frun%2Fdocker.sock/v1.40/build: dial unix /var/run/docker.sock: connect: permission denied',
      'ERROR: script returned exit code 1',
    ].join('\n');
    expect(top(log)).toMatchObject({ start: 6, end: 6, reason: 'Docker daemon unreachable' });
  });
});
