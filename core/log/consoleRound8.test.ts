/**
 * Jenkins console round 8's mechanisms (session 56, helper jt9), on made-up minimal consoles in
 * Jenkins' and the tools' own words; each rule with a second tool and a counter-example.
 *
 * - A linter's warnings budget (`--max-warnings N`): the tool's verdict that there are more warnings
 *   than allowed is why the step failed, not the last file's warnings above it.
 * - The kernel's `exec format error` (a binary for another CPU) as runc, Go's os/exec and a shell print it.
 * - A rule line (`------`) is a frame the tool drew around what it quoted, never "the output before
 *   the failure" (BuildKit's Dockerfile excerpt over `ERROR: failed to solve`).
 * - SonarScanner's banner (`INFO: EXECUTION FAILURE`) and the hint to re-run with `-X` are its
 *   cascade; `ERROR: Error during SonarScanner execution` and the cause's chain under it are why.
 */
import { PIPELINE_END as END, PIPELINE_HEAD as HEAD, stage, topOfLines as top } from '../../test/helpers/logKit.js';

const lineOf = (log: readonly string[], text: string): number => log.findIndex((l) => l.includes(text)) + 1;

/**
 * A BuildKit RUN step `n` that printed `output` (with its timestamp) and failed with exit 1, then BuildKit's recap of
 * it between `------` rules, the Dockerfile's lines around the instruction (the last of `dockerfile` is the RUN) and
 * `ERROR: failed to solve`.
 */
const buildkitFailure = (n: number, step: string, command: string, output: string, dockerfile: readonly string[]): string[] => [
  `#${n} [${step}] RUN ${command}`,
  `#${n} ${output}`,
  `#${n} ERROR: process "/bin/sh -c ${command}" did not complete successfully: exit code: 1`,
  '------',
  ` > [${step}] RUN ${command}:`,
  output,
  '------',
  `Dockerfile:${dockerfile.length}`,
  '--------------------',
  ...dockerfile.map((l, k) => `${String(k + 1).padStart(4)} | ${k === dockerfile.length - 1 ? '>>>' : '   '} ${l}`),
  '--------------------',
  `ERROR: failed to solve: process "/bin/sh -c ${command}" did not complete successfully: exit code: 1`,
];

describe("a linter's warnings budget", () => {
  const warnings = [
    '',
    '/home/jenkins/workspace/app/lib/cart.js',
    '   4:10  warning  \'round\' is defined but never used  no-unused-vars',
    '  19:3   warning  Unexpected console statement       no-console',
    '',
    '/home/jenkins/workspace/app/lib/tax.js',
    '  8:1  warning  Unexpected console statement  no-console',
    '',
  ];

  test("ESLint's `too many warnings` verdict is first, not the last file's warnings", () => {
    const log = [
      ...HEAD,
      ...stage('Lint', ['[Pipeline] sh', '+ npx eslint lib --max-warnings 2', ...warnings, '✖ 3 problems (0 errors, 3 warnings)', '', 'ESLint found too many warnings (maximum: 2).']),
      ...stage('Test', ['Stage "Test" skipped due to earlier failure(s)']),
      ...END,
    ];
    const at = lineOf(log, 'too many warnings');
    expect(top(log)).toEqual({ start: at, end: at, reason: 'lint: more warnings than allowed' });
  });

  test("stylelint's `Max warnings exceeded` (a second tool) is first", () => {
    const log = [
      ...HEAD,
      ...stage('Styles', [
        '[Pipeline] sh',
        '+ npx stylelint "src/**/*.css" --max-warnings 0',
        '',
        'src/app.css',
        '  12:3  ⚠  Unexpected duplicate selector ".btn"  no-duplicate-selectors',
        '',
        '⚠ 1 problem (0 errors, 1 warning)',
        '',
        'Max warnings exceeded: 1 found. 0 allowed',
      ]),
      ...END,
    ];
    const at = lineOf(log, 'Max warnings exceeded');
    expect(top(log)).toMatchObject({ start: at, end: at, reason: 'lint: more warnings than allowed' });
  });

  test('a lint error is still the cause when there is no budget line (counter-example)', () => {
    const log = [
      ...HEAD,
      ...stage('Lint', ['[Pipeline] sh', '+ npx eslint lib', '', '/home/jenkins/workspace/app/lib/cart.js', "  7:5  error  'total' is not defined  no-undef", '', '✖ 1 problem (1 error, 0 warnings)']),
      ...END,
    ];
    const e = top(log);
    expect(e.start).toBeLessThanOrEqual(lineOf(log, 'is not defined'));
    expect(e.end).toBeGreaterThanOrEqual(lineOf(log, 'is not defined'));
    expect(e.reason).not.toBe('lint: more warnings than allowed');
  });
});

describe("the kernel's exec format error", () => {
  test('a RUN step of another platform under BuildKit: its `exec format error` is first, not the Dockerfile frame', () => {
    const log = [
      ...HEAD,
      ...stage('Image', [
        '[Pipeline] sh',
        '+ docker buildx build --platform linux/amd64,linux/arm64 -t acme/api:1.4 .',
        ...buildkitFailure(9, 'linux/arm64 2/4', 'apk add --no-cache tini', '0.087 exec /bin/sh: exec format error', ['FROM alpine:3.20', 'RUN apk add --no-cache tini']),
      ]),
      ...END,
    ];
    const at = lineOf(log, '#9 0.087 exec');
    expect(top(log)).toEqual({ start: at, end: at, reason: 'exec format error' });
  });

  test('`docker run` of an image built for another CPU (a second form, runc\'s)', () => {
    const log = [
      ...HEAD,
      ...stage('Smoke', ['[Pipeline] sh', '+ docker run --rm acme/worker:2.0 --version', 'exec /usr/local/bin/worker: exec format error']),
      ...END,
    ];
    expect(top(log)).toMatchObject({ start: lineOf(log, 'exec format error'), reason: 'exec format error' });
  });

  test("a shell's `cannot execute binary file: Exec format error` (a third form)", () => {
    const log = ['Started by user admin', '[tools] $ /bin/sh -xe /tmp/jenkins7.sh', '+ ./bin/protoc --version', './bin/protoc: 1: ./bin/protoc: cannot execute binary file: Exec format error', 'Build step \'Execute shell\' marked build as failure', 'Finished: FAILURE'];
    expect(top(log)).toMatchObject({ start: 4, reason: 'exec format error' });
  });

  test('the words in a sentence are no such error (counter-example)', () => {
    const log = [
      ...HEAD,
      ...stage('Build', ['[Pipeline] sh', '+ ./build.sh', 'note: qemu is registered, so an exec format error is not expected on this agent', 'build.sh: cannot open widget store /srv/w/abc']),
      ...END,
    ];
    const e = top(log);
    expect(e.reason).not.toBe('exec format error');
    expect(e.end).toBeGreaterThanOrEqual(lineOf(log, 'cannot open widget store'));
  });
});

describe('a rule line is a frame, not output', () => {
  test("BuildKit's Dockerfile excerpt: the step's own last output line is first, not the frame's closing rule", () => {
    const log = [
      ...HEAD,
      ...stage('Image', [
        '[Pipeline] sh',
        '+ docker build -t acme/api:1.4 .',
        ...buildkitFailure(7, '3/5', './configure-widgets', '0.412 widget store /srv/w/abc: connection failed, giving up', ['COPY . /src', 'RUN ./configure-widgets']),
      ]),
      ...END,
    ];
    const first = top(log);
    expect(log[first.end - 1]).not.toMatch(/^-+$/);
    expect(first.start).toBeLessThanOrEqual(lineOf(log, '#7 0.412'));
    expect(first.end).toBeGreaterThanOrEqual(lineOf(log, '#7 0.412'));
  });

  test('output above a summary that ends in a text line is still taken (counter-example)', () => {
    const log = [
      ...HEAD,
      ...stage('Check', ['[Pipeline] sh', '+ ./check-generated.sh', 'generated files differ from the committed ones:', '  api/schema.json', 'Please run make generate and commit the result.', 'make: *** [Makefile:12: check-generated] Error 1']),
      ...END,
    ];
    expect(top(log)).toMatchObject({ end: lineOf(log, 'Please run make generate'), reason: 'output before the failure' });
  });
});

describe("SonarScanner's closing block", () => {
  const banner = [
    'INFO: Analysis report generated in 88ms, dir size=201 KB',
    'INFO: ------------------------------------------------------------------------',
    'INFO: EXECUTION FAILURE',
    'INFO: ------------------------------------------------------------------------',
    'INFO: Total time: 1:02.118s',
    'INFO: Final Memory: 21M/90M',
    'INFO: ------------------------------------------------------------------------',
  ];

  test('the error and its cause chain are first, not the `-X` hint or the banner', () => {
    const log = [
      ...HEAD,
      ...stage('Sonar', [
        '[Pipeline] withSonarQubeEnv',
        '[Pipeline] {',
        '[Pipeline] sh',
        '+ sonar-scanner -Dsonar.projectKey=acme_api',
        ...banner,
        'ERROR: Error during SonarScanner execution',
        'ERROR: Failed to upload report: the server answered 413',
        'ERROR: Caused by: report too large',
        'ERROR: ',
        'ERROR: Re-run SonarScanner using the -X switch to enable full debug logging.',
        '[Pipeline] }',
      ]),
      ...END,
    ];
    const e = top(log);
    expect(e.start).toBe(lineOf(log, 'Error during SonarScanner execution'));
    expect(e.end).toBeGreaterThanOrEqual(lineOf(log, 'Caused by: report too large'));
    expect(e.end).toBeLessThan(lineOf(log, 'Re-run SonarScanner'));
  });

  test("Maven's own `-X` hint stays Maven's summary; its goal failure is first (a second tool)", () => {
    const log = [
      '[INFO] BUILD FAILURE',
      '[INFO] ------------------------------------------------------------------------',
      '[ERROR] Failed to execute goal org.apache.maven.plugins:maven-enforcer-plugin:3.4.1:enforce (enforce) on project api: Some Enforcer rules have failed.',
      '[ERROR] ',
      '[ERROR] To see the full stack trace of the errors, re-run Maven with the -e switch.',
      '[ERROR] Re-run Maven using the -X switch to enable full debug logging.',
    ];
    expect(top(log)).toMatchObject({ start: 3 });
  });
});
