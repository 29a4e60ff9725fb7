import { buildRootIn, JENKINS_ROOT_LINE } from './agentRoot.js';

describe("Jenkins' workspace line", () => {
  it('the build root: freestyle, an agent with its label, a pipeline node; not a dir step', () => {
    expect(buildRootIn('Building in workspace /var/jenkins_home/workspace/team/api/')).toBe('/var/jenkins_home/workspace/team/api');
    expect(buildRootIn('Building remotely on linux-7 (docker linux) in workspace /home/ci/ws/shop')).toBe('/home/ci/ws/shop');
    expect(buildRootIn('Running on agent-2 in /srv/ws/shop')).toBe('/srv/ws/shop');
    expect(buildRootIn('Building in workspace C:\\jenkins\\ws\\shop')).toBe('C:\\jenkins\\ws\\shop');
    // A `dir`/`ws` step's directory (maybe under the workspace): JENKINS_ROOT_LINE takes it, the build root does not.
    expect(JENKINS_ROOT_LINE.exec('Running in /srv/ws/shop/web')?.[1]).toBe('/srv/ws/shop/web');
    expect(buildRootIn('Running in /srv/ws/shop/web')).toBeUndefined();
    expect(buildRootIn('+ echo building')).toBeUndefined();
  });
});
