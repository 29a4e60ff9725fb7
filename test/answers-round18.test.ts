/**
 * The fix for installed versions that do not fit each other (helper t19, round 18 tuning; docs/notes/analyzer.md,
 * "Round 18 tuning"): go's `module declares its path as` and `pip check`'s `has requirement ..., but you have ...`,
 * each on a made-up log of another project.
 */
import { askLocal } from './helpers/askLocal.js';
import { analyzedChatContext } from './answerFixtures.js';

const jenkins = (...lines: string[]): string => ['[Pipeline] sh', ...lines, '[Pipeline] }', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');

describe('the fix for versions that do not fit', () => {
  it("go's declared module path: require it by that path in go.mod", async () => {
    const text = jenkins('+ go build ./...', 'go: downloading git.acme.io/libs/units v0.4.0', 'go: git.acme.io/libs/units@v0.4.0: parsing go.mod:', '\tmodule declares its path as: git.acme.io/platform/units', '\t        but was required as: git.acme.io/libs/units');
    const fix = await askLocal('how do I fix it?', analyzedChatContext({}, text));
    expect(fix).toContain('`git.acme.io/platform/units`');
    expect(fix).toMatch(/require and import it by its declared path in `go\.mod`/);
  });

  it("pip check's conflict: the message itself names who asks for which version", async () => {
    const text = jenkins('+ .venv/bin/pip check', 'fastapi 0.130.0 has requirement starlette<0.50,>=0.40, but you have starlette 0.52.1.');
    const fix = await askLocal('how do I fix it?', analyzedChatContext({}, text));
    expect(fix).toContain('cannot be installed together');
    expect(fix).toContain('the message names which package asks for which version');
    expect(fix).not.toContain('the lines under the message');
  });
});
