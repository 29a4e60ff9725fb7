/**
 * Jenkins console round 5's mechanisms (session 52, helper jt5), on made-up minimal consoles in
 * Jenkins' and the tools' own words: a registry's refusal of `docker push`, a Windows shell's "not
 * recognized", and the error id a Pipeline prints at its end (bookkeeping, never the cause).
 */
import { analyze } from './analyze.js';

const top = (lines: readonly string[]): { start: number; end: number; reason: string; cls?: string } => {
  const e = analyze(lines.join('\n') + '\n')[0];
  if (e === undefined) throw new Error('no excerpt');
  return { start: e.start_line, end: e.end_line, reason: e.reason, cls: e.finding?.class };
};

const PIPELINE_END = ['[Pipeline] }', '[Pipeline] // stage', '[Pipeline] }', '[Pipeline] // node', '[Pipeline] End of Pipeline'];

describe('a registry refusing docker push or pull', () => {
  test.each([
    ['denied: requested access to the resource is denied'],
    ['unauthorized: authentication required'],
  ])('%s is the cause, not the step exit after the pipeline closed', (refusal) => {
    const log = [
      '[Pipeline] sh',
      '+ docker push registry.example.org/team/app:2.1.0',
      'The push refers to repository [registry.example.org/team/app]',
      '3c1f0a2b4d5e: Preparing',
      refusal,
      ...PIPELINE_END,
      'ERROR: script returned exit code 1',
      'Finished: FAILURE',
    ];
    expect(top(log)).toMatchObject({ start: 5, reason: 'Docker registry refused' });
  });

  test('the words inside a line are no refusal (counter-example)', () => {
    const log = ['+ ./report.sh', 'requests denied: 0, unauthorized: 0', 'Finished: SUCCESS'];
    expect(top(log).reason).not.toBe('Docker registry refused');
  });
});

describe("a Windows shell's 'not recognized'", () => {
  test("PowerShell's CommandNotFoundException is the cause, a missing tool", () => {
    const log = [
      '[Pipeline] powershell',
      "nuget : The term 'nuget' is not recognized as the name of a cmdlet, function, script file, or operable program. Check the spelling of the name, or if a path was included, verify that the path is correct and try again.",
      'At C:\\ws\\app@tmp\\durable-1a2b3c\\powershellWrapper.ps1:3 char:1',
      '+ nuget restore App.sln',
      '+ ~~~~~',
      '    + CategoryInfo          : ObjectNotFound: (nuget:String) [], CommandNotFoundException',
      '    + FullyQualifiedErrorId : CommandNotFoundException',
      ...PIPELINE_END,
      'ERROR: script returned exit code 1',
      'Finished: FAILURE',
    ];
    expect(top(log)).toMatchObject({ start: 2, reason: 'shell: command not found', cls: 'missing-tool' });
  });

  test("cmd.exe's 'is not recognized as an internal or external command' too", () => {
    const log = [
      '[app] $ cmd /c call C:\\Windows\\TEMP\\jenkins123.bat',
      'C:\\ws\\app>msbuild App.sln /p:Configuration=Release',
      "'msbuild' is not recognized as an internal or external command,",
      'operable program or batch file.',
      'Build step \'Execute Windows batch command\' marked build as failure',
      'Finished: FAILURE',
    ];
    expect(top(log)).toMatchObject({ start: 3, reason: 'shell: command not found' });
  });

  test('an option a program did not recognise is not a missing command (counter-example)', () => {
    const log = ['+ ./tool --fast', "warning: the value 'fast' is not recognized as a mode, using 'default'", 'done', 'Finished: SUCCESS'];
    expect(top(log).reason).not.toBe('shell: command not found');
  });
});

describe("a Pipeline's closing error id", () => {
  test('is never ranked over the error before it', () => {
    const log = [
      '[Pipeline] sh',
      '+ wget http://ci.example.org:8080/job/app/29/consoleText',
      'Connecting to ci.example.org:8080... failed: Connection timed out.',
      'Retrying.',
      '',
      'Connecting to ci.example.org:8080... Aborted by admin',
      'Sending interrupt signal to process',
      'Terminated',
      'script returned exit code 143',
      ...PIPELINE_END,
      'org.jenkinsci.plugins.workflow.actions.ErrorAction$ErrorId: 58dbc62e-ee8a-493f-85d5-cb4808b7979e',
      'Finished: ABORTED',
    ];
    expect(top(log).start).toBe(3);
    expect(analyze(log.join('\n')).some((e) => e.start_line <= 15 && e.end_line >= 15)).toBe(false);
  });
});
