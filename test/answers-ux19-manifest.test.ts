/**
 * The change block links a failing dependency resolver to the manifest hunk the commit wrote (session 57, helper ux19;
 * issue 25): npm's ERESOLVE after package.json raised a dependency, pip's "No matching distribution" after
 * requirements.txt pinned a version. Made-up logs (npm 10's and pip 24's wording) and checkouts.
 */
import { askWithGit as ask, gitRepo, removeGitRepos } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

const repo = (commits: { message: string; files: Record<string, string> }[]): { dir: string; ids: string[] } => gitRepo(commits, { prefix: 'cichat-ux19m-' });

const NPM = `[web] $ /bin/sh -xe /tmp/jenkins2.sh
+ npm ci
npm error code ERESOLVE
npm error ERESOLVE could not resolve
npm error
npm error While resolving: web@1.0.0
npm error Found: react@19.0.0
npm error node_modules/react
npm error   react@"^19.0.0" from the root project
npm error
npm error Could not resolve dependency:
npm error peer react@"^18.0.0" from react-table@7.8.0
npm error node_modules/react-table
npm error   react-table@"^7.8.0" from the root project
Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;
const PKG = (react: string): string => `{\n  "name": "web",\n  "version": "1.0.0",\n  "dependencies": {\n    "react": "${react}",\n    "react-table": "^7.8.0"\n  }\n}\n`;

const PIP = `[py] $ /bin/sh -xe /tmp/jenkins3.sh
+ pip install -r requirements.txt
Collecting requests==2.99.0 (from -r requirements.txt (line 1))
ERROR: Could not find a version that satisfies the requirement requests==2.99.0 (from versions: 2.31.0, 2.32.3)
ERROR: No matching distribution found for requests==2.99.0
Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;

describe('a resolver failure after the commit changed its manifest', () => {
  it("npm ci's ERESOLVE: the package.json hunk that raised react, not \"nothing here shows\"", async () => {
    const { dir, ids } = repo([
      { message: 'Web', files: { 'package.json': PKG('^18.2.0'), 'src/index.js': 'export {};\n' } },
      { message: 'React 19', files: { 'package.json': PKG('^19.0.0') } },
    ]);
    const fix = await ask('how do I fix it?', NPM, dir);
    expect(fix).toContain(`Line 5 of \`package.json\`, which \`npm\` resolves the dependencies from (\`npm ci\` [L2-L2] failed resolving them): commit \`${ids[1]?.slice(0, 10)}\` (React 19) changed \`"react": "^18.2.0",\` to \`"react": "^19.0.0",\`.`);
    expect(fix).toContain('`npm ci` [L2-L2] failed resolving the dependencies, and this change edited what it resolves them from (`package.json`): the changed dependency lines above are the first suspect, not a proof');
    expect(fix).not.toContain('Nothing here shows it caused the failure');
  });

  it("pip's no matching distribution: the requirements.txt pin", async () => {
    const { dir } = repo([
      { message: 'Reqs', files: { 'requirements.txt': 'requests==2.31.0\n' } },
      { message: 'Bump requests', files: { 'requirements.txt': 'requests==2.99.0\n' } },
    ]);
    const fix = await ask('how do I fix it?', PIP, dir);
    expect(fix).toContain('changed `requests==2.31.0` to `requests==2.99.0`');
    expect(fix).not.toContain('Nothing here shows it caused the failure');
  });

  it('counter-example: the commit changed only the source, not the manifest', async () => {
    const { dir } = repo([
      { message: 'Web', files: { 'package.json': PKG('^18.2.0'), 'src/index.js': 'export {};\n' } },
      { message: 'Code', files: { 'src/index.js': 'export const x = 1;\n' } },
    ]);
    const fix = await ask('how do I fix it?', NPM, dir);
    expect(fix).not.toContain('resolves the dependencies from');
    expect(fix).not.toContain('failed resolving the dependencies, and this change edited');
  });
});
