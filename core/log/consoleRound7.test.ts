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

const top = (lines: readonly string[]): { start: number; end: number; reason: string } => {
  const e = analyze(lines.join('\n') + '\n')[0];
  if (e === undefined) throw new Error('no excerpt');
  return { start: e.start_line, end: e.end_line, reason: e.reason };
};

const HEAD = ['Started by user admin', '[Pipeline] Start of Pipeline', '[Pipeline] node', 'Running on agent-1 in /home/jenkins/workspace/app', '[Pipeline] {'];
const END = ['[Pipeline] }', '[Pipeline] // node', '[Pipeline] End of Pipeline', 'ERROR: script returned exit code 1', 'Finished: FAILURE'];
const stage = (name: string, body: readonly string[]): string[] => ['[Pipeline] stage', `[Pipeline] { (${name})`, ...body, '[Pipeline] }', '[Pipeline] // stage'];
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
