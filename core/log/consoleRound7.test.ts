/**
 * Jenkins console round 7's mechanisms (session 55, helper jt8), on made-up minimal consoles in
 * Jenkins' and the tools' own words.
 *
 * A Declarative Pipeline's post section that opens after the build failed runs its own `sh` steps
 * (events, logs, cleanup); Jenkins' closing `ERROR: script returned exit code 1` is about the step
 * that failed before it, not the last `sh` of the post, so the failed step's error is in the failing
 * command and a warning the post's diagnostics print is not (unless a post condition failed:
 * `Error when executing always post condition:`).
 */
import { analyze } from './analyze.js';
import { PIPELINE_END as END, PIPELINE_HEAD as HEAD, stage, topOfLines as top } from '../../test/helpers/logKit.js';

const POST_DIAGNOSTICS = [
  '[Pipeline] sh',
  '+ frobctl events --since 1h',
  'LAST SEEN   TYPE      REASON        OBJECT        MESSAGE',
  '3m          Warning   FetchFailed   widget/store  failed to get widget metrics: no metrics returned from the widget API',
];

describe("a post section's diagnostics after the failed step", () => {
  test('the failed stage, then a skipped stage: the failed step\'s error is first, not the warning the post prints', () => {
    const log = [
      ...HEAD,
      ...stage('Apply', ['[Pipeline] sh', '+ frobctl apply -f conf/', 'widget/a unchanged', 'Error from frobd (BadRequest): widget "b" cannot be handled: unknown field "spec.sizes"']),
      ...stage('Verify', ['Stage "Verify" skipped due to earlier failure(s)']),
      ...stage('Declarative: Post Actions', POST_DIAGNOSTICS),
      ...END,
    ];
    expect(top(log)).toMatchObject({ start: 11 });
  });

  test('the failed stage was the last one (no stage skipped): its boxed error is first, not the exit line', () => {
    const log = [
      ...HEAD,
      ...stage('Deploy', ['[Pipeline] sh', '+ frobctl deploy --env qa', 'widget/a: creating...', '│ Error: creating widget b: the widget store refused the change']),
      ...stage('Declarative: Post Actions', ['[Pipeline] echo', 'deploy failed', ...POST_DIAGNOSTICS, '[Pipeline] sh', '+ frobctl down', 'widget/a removed']),
      ...END,
    ];
    expect(top(log)).toMatchObject({ start: 11 });
  });

  test('a post condition that failed (counter-example): its own step is what failed', () => {
    const log = [
      ...HEAD,
      ...stage('Build', ['[Pipeline] sh', '+ make', 'cc -o app main.c', 'error: something odd but tolerated by make -k']),
      ...stage('Declarative: Post Actions', [
        '[Pipeline] sh',
        '+ ./upload-report.sh',
        'upload-report: cannot open report.xml: No such file or directory',
        'Error when executing always post condition:',
        'hudson.AbortException: script returned exit code 1',
      ]),
      ...END,
    ];
    expect(top(log)).toMatchObject({ start: 18 });
  });
});

const failedStep = (output: readonly string[]): string[] => [
  ...HEAD,
  ...stage('Build', ['[Pipeline] sh', ...output]),
  ...stage('Test', ['Stage "Test" skipped due to earlier failure(s)']),
  ...END,
];

describe("the daemon's refused pull without the CLI's prefix", () => {
  test.each([
    ['the legacy builder', ['+ docker build -t app:1 .', 'Sending build context to Docker daemon  4.096kB', 'Step 1/7 : FROM nod:14', "pull access denied for nod, repository does not exist or may require 'docker login': denied: requested access to the resource is denied"]],
    ['Compose v1', ['+ docker-compose up -d', 'Pulling db (acme/postgress:15)...', "ERROR: pull access denied for acme/postgress, repository does not exist or may require 'docker login': denied: requested access to the resource is denied"]],
  ])('%s: the refusal is first, not the exit line', (_name, output) => {
    const log = failedStep(output);
    expect(top(log)).toMatchObject({ start: 8 + output.length, reason: 'Docker error' });
  });

  test('the words inside a sentence are no refusal (counter-example)', () => {
    const log = ['+ ./hints.sh', "hint: a 'pull access denied for X, repository does not exist' means a typo in the image name", 'Finished: SUCCESS'];
    expect(top(log).reason).not.toBe('Docker error');
  });
});

describe("Yarn 2+'s coded messages", () => {
  test('an error code is the cause, not the closing `Failed with errors`', () => {
    const log = failedStep([
      '+ yarn install --immutable',
      '➤ YN0000: ┌ Fetch step',
      '➤ YN0013: │ left-pad@npm:1.3.0 can\'t be found in the cache and will be fetched from the remote registry',
      "➤ YN0018: │ left-pad@npm:1.3.0: The remote archive doesn't match the expected checksum",
      '➤ YN0000: └ Completed in 1s 63ms',
      '➤ YN0000: · Failed with errors in 1s 482ms',
    ]);
    expect(top(log)).toMatchObject({ start: 12, reason: 'yarn error' });
  });

  test('a peer dependency warning is no error (counter-example)', () => {
    const log = ['+ yarn install', "➤ YN0060: │ react is listed by your project with version 17.0.2, which doesn't satisfy what react-dom requests (^18.0.0).", '➤ YN0000: · Done with warnings in 3s'];
    expect(analyze(log.join('\n') + '\n').map((e) => e.reason)).not.toContain('yarn error');
  });
});

describe("the Git plugin's warning that a credential id is missing", () => {
  const checkout = ['[Pipeline] git', 'The recommended git tool is: NONE', 'Warning: CredentialId "github-token" could not be found.', 'Fetching changes from the remote Git repository', ' > git fetch --tags --force --progress -- https://github.com/acme/site.git +refs/heads/*:refs/remotes/origin/* # timeout=10'];

  test("the checkout went on: Jenkins' closing error is first", () => {
    const log = [
      ...HEAD,
      ...stage('Checkout', [...checkout, 'Checking out Revision 0123456789abcdef0123456789abcdef01234567 (refs/remotes/origin/main)']),
      ...stage('Analysis', ['[Pipeline] withSonarQubeEnv', '[Pipeline] // withSonarQubeEnv']),
      '[Pipeline] }',
      '[Pipeline] // node',
      '[Pipeline] End of Pipeline',
      'ERROR: SonarQube installation defined in this job (Main) does not match any configured installation. Number of installations that can be configured: 1.',
      'Finished: FAILURE',
    ];
    expect(top(log).start).toBe(log.length - 1);
  });

  test("Jenkins' own error that the credentials do not exist still outranks a later step's error (counter-example)", () => {
    const log = [...HEAD, ...stage('Deploy', ['[Pipeline] withCredentials', "ERROR: Could not find credentials entry with ID 'deploy-key'"]), ...END];
    expect(top(log)).toMatchObject({ start: 9, reason: 'Jenkins credentials not found' });
  });
});

describe("BuildKit's RUN step exit under the step's own output", () => {
  const build = (output: readonly string[], exit: string): string[] =>
    failedStep(['+ docker buildx build -t app:1 .', '#7 [3/7] COPY package*.json ./', '#7 DONE 0.0s', '', '#8 [4/7] RUN npm ci', ...output, exit, 'ERROR: failed to solve: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1']);
  const EXIT = '#8 ERROR: process "/bin/sh -c npm ci" did not complete successfully: exit code: 1';

  test("npm's error read without BuildKit's `#8 62.43 ` prefix is first, not the step's exit", () => {
    const log = build(['#8 0.240 npm warn config only Use `--omit=dev` to omit dev dependencies from the install.', '#8 62.43 npm error code ECONNRESET', '#8 62.43 npm error network aborted'], EXIT);
    expect(top(log)).toMatchObject({ start: 15, reason: 'npm error' });
  });

  test("a tool's line without a failure word, the step's last output, is first", () => {
    const log = build(["#8 0.174 addgroup: group 'nginx' in use"], EXIT);
    expect(top(log)).toMatchObject({ end: 14, reason: 'output before the failure' });
  });

  test("BuildKit's own error is still the cause (counter-example)", () => {
    const log = build([], '#8 ERROR: failed to calculate checksum of ref 4b1c::x2: "/app/dist": not found');
    expect(top(log)).toMatchObject({ start: 14, reason: 'Docker build error' });
  });
});

describe("Go's module checksum mismatch", () => {
  test('the `verifying` line is first, over the SECURITY ERROR it explains', () => {
    const log = failedStep([
      '+ go build ./...',
      'go: downloading example.com/units v1.1.0',
      'verifying example.com/units@v1.1.0: checksum mismatch',
      '\tdownloaded: h1:9YSlmH4sYQTl5bo4Dg4tgJM+CIK+WNW/WyOaaLobBXw=',
      '\tgo.sum:     h1:iesgs8G74quGuZiUd5859imPCHIoWcWp+929+adQKUY=',
      '',
      'SECURITY ERROR',
      'This download does NOT match an earlier download recorded in go.sum.',
    ]);
    expect(top(log)).toMatchObject({ start: 11, reason: 'Go module checksum mismatch' });
  });
});

describe('a command the script tolerated (`cmd || true`)', () => {
  const TRACEBACK = ['Traceback (most recent call last):', '  File "/usr/lib/python3/dist-packages/frob/main.py", line 112, in run', '    shutil.rmtree(f)', 'OSError: Cannot call rmtree on a symbolic link'];
  const freestyle = (lines: readonly string[]): string[] => ['Started by user admin', 'Building in workspace /var/lib/jenkins/workspace/app', '[app] $ /bin/sh -xe /tmp/jenkins123.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];

  test('its traceback, followed by `+ true`, ranks below the error of the command that stopped the build', () => {
    const log = freestyle(['+ frob clean --wipe build', ...TRACEBACK, '+ true', '+ frob build', 'Configuring widgets', 'ERROR: widget "boost" not found']);
    expect(top(log).start).toBe(12);
  });

  test('a traceback of the command the script stopped at is still first (counter-example)', () => {
    const log = freestyle(['+ frob build', 'Configuring widgets', 'ERROR: widget "boost" not found', '+ frob clean --wipe build', ...TRACEBACK]);
    expect(top(log).start).toBe(8);
  });
});

test("Meson's own error names the build file's line", () => {
  const log = ['+ meson build', 'Dependency threads found: YES', 'Dependency Boost found: NO', '', 'src/ipa/meson.build:5:0: ERROR:  Dependency "boost" not found', '', 'A full log can be found at /ws/build/meson-logs/meson-log.txt', "Build step 'Execute shell' marked build as failure"];
  expect(top(log)).toMatchObject({ start: 5, reason: 'Meson error' });
});

test("Maven's goal that ran without a project names the cause, over the downloads before it", () => {
  const log = failedStep([
    '+ mvn exec:exec -Dexec.executable=./ci.sh',
    ...Array.from({ length: 6 }, (_, k) => `Downloaded from central: https://repo.maven.apache.org/maven2/org/codehaus/mojo/exec-maven-plugin/3.1.0/part${k}.jar (63 kB at 361 kB/s)`),
    '[INFO] Building Maven Stub Project (No POM) 1',
    '[INFO] BUILD FAILURE',
    '[INFO] ------------------------------------------------------------------------',
    '[ERROR] Failed to execute goal org.codehaus.mojo:exec-maven-plugin:3.1.0:exec (default-cli): Goal requires a project to execute but there is no POM in this directory (/ws/app). Please verify you invoked Maven from the correct directory. -> [Help 1]',
    '[ERROR] ',
    '[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.',
  ]);
  expect(top(log)).toMatchObject({ start: 19, reason: 'Maven goal failed' });
});
