/**
 * The tool's own advice in the fix answer (helper fx, 2026-11-29, `toolwords/tool-advice`): a `hint:`
 * paragraph (git's wraps over several lines: its first line quoted, all cited), `... may help`, `Either
 * ... or ...`, beside the class's steps. Made-up logs, each with a counter-example; every citation checked.
 */
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import type { CiContextUpload } from '../protocol/schemas.js';

const FIX = 'How do I fix it?';
const START = ['Started by user ops', '[atlas] $ /bin/sh -xe /tmp/jenkins5.sh'];
const END = ["Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];

async function fixOf(lines: string[]): Promise<string> {
  const log = `${[...START, ...lines, ...END].join('\n')}\n`;
  const upload = { buildDetails: { result: 'FAILURE', consoleLog: log } } as CiContextUpload;
  const ctx = analyzedChatContext(upload, log);
  const text = (await composeLocalAnswer(FIX, ctx)).text;
  expect(checkAnswer(FIX, text, log.split('\n'), ctx)).toEqual([]);
  return text;
}

describe("the tool's own advice under its error", () => {
  it("quotes git's wrapped hint as one paragraph, not its pointer to the manual", async () => {
    const text = await fixOf([
      '+ git push origin HEAD:release',
      'To ssh://git.example.org/atlas.git',
      ' ! [rejected]        HEAD -> release (fetch first)',
      "error: failed to push some refs to 'ssh://git.example.org/atlas.git'",
      'hint: Updates were rejected because the remote contains work that you do not',
      'hint: have locally. Integrate the remote changes (e.g.',
      "hint: 'git pull ...') before pushing again.",
      "hint: See the 'Note about fast-forwards' in 'git push --help' for details.",
    ]);
    expect(text).toContain("The tool's own advice: `Updates were rejected because the remote contains work that you do not` … [L7-L9].");
    expect(text).not.toContain('Note about fast-forwards` [L10');
  });

  it('relays `Either ... or ...` and `... may help`, but not a retry count that says retrying may help', async () => {
    const cmake = await fixOf([
      '+ cmake -S . -B /srv/cache/atlas -G Ninja',
      'CMake Error: Error: generator : Ninja',
      'Does not match the generator used previously: Unix Makefiles',
      'Either remove the CMakeCache.txt file and CMakeFiles directory or choose a different binary directory.',
    ]);
    expect(cmake).toContain("The tool's own advice: `Either remove the CMakeCache.txt file and CMakeFiles directory or choose a different binary directory.` [L6-L6].");
    const rclone = await fixOf([
      '+ rclone copy dist remote:atlas',
      '2026/11/29 07:10:01 ERROR : app.tar: Failed to copy: write /mnt/out/app.tar: no space left on device',
      'Errors:                 1 (retrying may help)',
    ]);
    expect(rclone).not.toContain("own advice");
  });
});
