import path from 'node:path';
import { parseReferer, resolveReferer } from './referer.js';

const SEED_HOME = path.resolve('seeds/jenkins-home');

describe('parseReferer', () => {
  it.each([
    ['http://ci:8080/job/team/job/api/7/console', { jobName: 'team/api', buildNumber: 7, currentScreen: 'Console team/api #7' }],
    ['/job/x/', { jobName: 'x', currentScreen: 'Job x' }],
    ['/job/x', { jobName: 'x', currentScreen: 'Job x' }],
    ['/job/x/7/', { jobName: 'x', buildNumber: 7, currentScreen: 'Build x #7' }],
    ['/job/x/7/testReport/', { jobName: 'x', buildNumber: 7, currentScreen: 'Test Results x #7' }],
    ['/job/x/configure', { jobName: 'x', currentScreen: 'Configure x' }],
    ['/', { currentScreen: 'Dashboard' }],
    ['http://ci:8080/', { currentScreen: 'Dashboard' }],
    ['/manage', { currentScreen: 'Manage Jenkins' }],
    ['/manage/', { currentScreen: 'Manage Jenkins' }],
    ['/manage/pluginManager/installed', { currentScreen: 'Plugin Manager' }],
    ['/pluginManager/', { currentScreen: 'Plugin Manager' }],
    ['/computer/linux-agent-1/', { currentScreen: 'Node linux-agent-1' }],
    ['/view/all/', { currentScreen: 'View all' }],
    ['/view/all/job/x/3/consoleFull', { jobName: 'x', buildNumber: 3, currentScreen: 'Console x #3' }],
    // A context path (Jenkins under /jenkins) with URL-encoded names.
    ['http://host/jenkins/job/my%20team/job/web%20app/12/console', { jobName: 'my team/web app', buildNumber: 12, currentScreen: 'Console my team/web app #12' }],
    ['http://host/jenkins/', { currentScreen: 'Dashboard' }],
    ['http://host/jenkins/manage', { currentScreen: 'Manage Jenkins' }],
    // Multibranch branches: an encoded slash stays part of the item name (as JOB_NAME has it).
    ['/job/mb/job/feature%2Fx/3/', { jobName: 'mb/feature%2Fx', buildNumber: 3, currentScreen: 'Build mb/feature%2Fx #3' }],
    ['/job/mb/job/feature%252Fx/', { jobName: 'mb/feature%2Fx', currentScreen: 'Job mb/feature%2Fx' }],
    // A job called "job".
    ['/job/job/job/x/', { jobName: 'job/x', currentScreen: 'Job job/x' }],
    ['/job/x/lastFailedBuild/console', { jobName: 'x', buildRef: 'lastFailedBuild', currentScreen: 'Console x lastFailedBuild' }],
  ])('%s', (referer, expected) => {
    expect(parseReferer(referer)).toEqual(expected);
  });

  it('uses the root URL to strip a context path that looks like a page', () => {
    expect(parseReferer('http://host/view/job/x/5/', 'http://host/view/')).toEqual({
      jobName: 'x',
      buildNumber: 5,
      currentScreen: 'Build x #5',
    });
  });

  it('says nothing for no referer, garbage, or an unknown deep path', () => {
    expect(parseReferer(undefined)).toEqual({});
    expect(parseReferer('')).toEqual({});
    expect(parseReferer('http://[::1')).toEqual({});
    expect(parseReferer('/some/thing/else')).toEqual({});
  });

  it('reads Blue Ocean URLs', () => {
    expect(parseReferer('/blue/organizations/jenkins/team%2Fapi/detail/api/42/pipeline')).toEqual({
      jobName: 'team/api',
      buildNumber: 42,
      currentScreen: 'Build team/api #42',
    });
  });
});

describe('resolveReferer', () => {
  it('resolves permalinks through builds/permalinks and names the screen with the number', async () => {
    expect(await resolveReferer(SEED_HOME, '/job/team/job/api/lastFailedBuild/console')).toEqual({
      jobName: 'team/api',
      buildNumber: 42,
      buildRef: 'lastFailedBuild',
      currentScreen: 'Console team/api #42',
    });
    expect((await resolveReferer(SEED_HOME, '/job/team/job/api/lastSuccessfulBuild/')).buildNumber).toBe(41);
    expect((await resolveReferer(SEED_HOME, '/job/team/job/api/lastBuild/')).buildNumber).toBe(42);
  });

  it('leaves the number unset for an unknown job or a permalink to no build', async () => {
    expect((await resolveReferer(SEED_HOME, '/job/nope/lastBuild/')).buildNumber).toBeUndefined();
    expect((await resolveReferer(SEED_HOME, '/job/hello-freestyle/lastFailedBuild/')).buildNumber).toBeUndefined();
  });
});

describe('resolveReferer and the configured root URL', () => {
  it('strips the context path of the home root URL', async () => {
    // The fixture home's root URL is http://localhost:50076/jenkins/.
    const home = path.resolve('test/fixtures/jenkins-homes/samples');
    expect(await resolveReferer(home, 'http://localhost:50076/jenkins/job/upstream/lastBuild/console')).toEqual({
      jobName: 'upstream',
      buildNumber: 2,
      buildRef: 'lastBuild',
      currentScreen: 'Console upstream #2',
    });
    expect(await resolveReferer(home, 'http://localhost:50076/jenkins/')).toEqual({ currentScreen: 'Dashboard' });
  });
});
