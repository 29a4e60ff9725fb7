/**
 * A `command not found` for a name the script itself defines as an alias (helper ux16, session 54; issue 25;
 * docs/notes/ux16.md): the script's error, never "install it". Made on this machine (test/fixtures/ux16).
 */
import { sessionFixtures } from './helpers/sessionFixtures.js';
import { fileURLToPath } from 'node:url';

const ux16 = sessionFixtures(fileURLToPath(new URL('./fixtures/ux16/', import.meta.url)));

describe("the script's own alias, unseen by a non-interactive bash", () => {
  it('tile-render: the why says what the alias is and why bash did not see it', async () => {
    const why = await ux16.ask('Why did the build fail?', 'tile-render');
    ux16.cited(why, 'tile-render');
    expect(why).toContain('`mk` is not a program the agent lacks: the script itself defines it as an alias of `make -s -C src` [L22-L22]');
    expect(why).toContain('bash does not expand aliases in a script');
    expect(why).not.toMatch(/[Ii]nstall `?mk/);
  });

  it('tile-render: the fix defines a function in place of the alias', async () => {
    const fix = await ux16.ask('How do I fix it?', 'tile-render');
    ux16.cited(fix, 'tile-render');
    expect(fix).toContain('`mk() { make -s -C src "$@"; }`');
    expect(fix).toContain('shopt -s expand_aliases');
    expect(fix).not.toMatch(/[Ii]nstall `?mk/);
  });
});
