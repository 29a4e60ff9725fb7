/**
 * A path the failing command names that the last commit moved away (session 55, helper fx18): the error says the path
 * is not there, and git's `R`/`D` entries of the change have their old path under it, so the change block says what
 * moved and that the command still names the old path. Made-up checkouts; each tool's lines as it prints them (ruff
 * 0.16.9, GNU cp and tar, pytest 9, ESLint 10, go 1.19, made on this machine).
 */
import { askWithGit as ask, gitIn, gitRepo, removeGitRepos } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

const logOf = (command: string, output: string): string => `Started by an SCM change
[labels] $ /bin/sh -xe /tmp/jenkins1.sh
+ sh -x ci.sh
+ set -e
+ ${command}
${output}
Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;

/** A checkout whose first commit holds `files` and `ci.sh` running `command`; the last commit runs `change` (git mv / git rm). */
function checkout(command: string, files: Record<string, string>, change: string[][], message = 'Flat layout'): { dir: string; last: string } {
  const { dir } = gitRepo([{ message: 'Start', files: { 'ci.sh': `#!/bin/sh\nset -e\n${command}\n`, ...files } }], { prefix: 'cichat-fx18-' });
  for (const args of change) gitIn(dir, ...args);
  gitIn(dir, 'commit', '-q', '-m', message);
  return { dir, last: gitIn(dir, 'rev-parse', 'HEAD').slice(0, 10) };
}

describe('the command still names a path the last commit moved away', () => {
  it('ruff E902 on `src`, the commit moved src/labels/*.py to labels/*.py', async () => {
    const command = 'ruff check --no-cache src tests';
    const { dir, last } = checkout(command, { 'src/labels/__init__.py': '', 'src/labels/render.py': 'x = 1\n', 'tests/__init__.py': '' }, [['mv', 'src/labels', 'labels']]);
    const fix = await ask('how do I fix it?', logOf(command, 'E902 No such file or directory (os error 2)\n--> src:1:1\n\nFound 1 error.'), dir);
    expect(fix).toContain(`Commit \`${last}\` (Flat layout) moved \`src/labels/__init__.py\` to \`labels/__init__.py\` and \`src/labels/render.py\` to \`labels/render.py\`; the command at \`ci.sh:3\` [L5-L5] still names \`src\`, which the build did not find [L6-L7].`);
    expect(fix).toContain('point the command at the new path (`labels`, where `src/labels` was, in place of `src`) in `ci.sh`');
    expect(fix).not.toContain('did not touch the files the error names');
  });

  it('cp: cannot stat a file the commit renamed', async () => {
    const command = 'cp config/app.json build/';
    const { dir } = checkout(command, { 'config/app.json': '{}\n' }, [['mv', 'config', 'conf']], 'Rename config');
    const fix = await ask('how do I fix it?', logOf(command, "cp: cannot stat 'config/app.json': No such file or directory"), dir);
    expect(fix).toContain('moved `config/app.json` to `conf/app.json`; the command at `ci.sh:3` [L5-L5] still names `config/app.json`');
    expect(fix).toContain('point the command at the new path (`conf/app.json`, where `config/app.json` was)');
  });

  it('tar: a directory the commit deleted', async () => {
    const command = 'tar czf site.tgz public';
    const { dir } = checkout(command, { 'public/index.html': '<p>hi</p>\n', 'README.md': 'site\n' }, [['rm', '-q', '-r', 'public']], 'Drop the static site');
    const fix = await ask('how do I fix it?', logOf(command, 'tar: public: Cannot stat: No such file or directory\ntar: Exiting with failure status due to previous errors'), dir);
    expect(fix).toContain('deleted `public/index.html`; the command at `ci.sh:3` [L5-L5] still names `public`');
    expect(fix).toContain('drop `public` from the command if the deletion was meant');
  });

  it('pytest: file or directory not found, the tests moved from tests/unit to tests', async () => {
    const command = 'python -m pytest tests/unit';
    const { dir } = checkout(command, { 'tests/unit/test_a.py': 'def test_a():\n    assert True\n' }, [['mv', 'tests/unit/test_a.py', 'tests/test_a.py']], 'One tests folder');
    const fix = await ask('how do I fix it?', logOf(command, '\n============================ no tests ran in 0.01s =============================\nERROR: file or directory not found: tests/unit\n'), dir);
    expect(fix).toContain('moved `tests/unit/test_a.py` to `tests/test_a.py`; the command at `ci.sh:3` [L5-L5] still names `tests/unit`');
    expect(fix).toContain('(`tests`, where `tests/unit` was)');
  });

  it('ESLint: no files matching the pattern', async () => {
    const command = 'npx eslint src';
    const { dir } = checkout(command, { 'src/app.js': 'export const a = 1;\n', 'eslint.config.js': 'export default [];\n' }, [['mv', 'src', 'lib']], 'src is lib');
    const fix = await ask('how do I fix it?', logOf(command, '\nOops! Something went wrong! :(\n\nESLint: 10.15.0\n\nNo files matching the pattern "src" were found.\nPlease check for typing mistakes in the pattern.\n'), dir);
    expect(fix).toContain('moved `src/app.js` to `lib/app.js`; the command at `ci.sh:3` [L5-L5] still names `src`');
    expect(fix).toContain('(`lib`, where `src` was)');
  });

  it('go: directory not found', async () => {
    const command = 'go test ./internal/labels/...';
    const { dir } = checkout(command, { 'go.mod': 'module example.com/m\n\ngo 1.19\n', 'internal/labels/l.go': 'package labels\n', 'pkg/doc.go': 'package pkg\n' }, [['mv', 'internal/labels', 'pkg/labels']], 'Export labels');
    const fix = await ask('how do I fix it?', logOf(command, 'pattern ./internal/labels/...: lstat ./internal/labels/: no such file or directory'), dir);
    expect(fix).toContain('still names `internal/labels`');
    expect(fix).toContain('(`pkg/labels`, where `internal/labels` was)');
  });
});

describe('what stays', () => {
  it('the moved files are not under the path the error names: no link, and ci.sh said as the script, not a file the error names', async () => {
    const command = 'ruff check --no-cache src tests';
    const { dir } = checkout(command, { 'lib/labels/__init__.py': '', 'tests/__init__.py': '' }, [['mv', 'lib/labels', 'labels']]);
    const fix = await ask('how do I fix it?', logOf(command, 'E902 No such file or directory (os error 2)\n--> src:1:1\n\nFound 1 error.'), dir);
    expect(fix).not.toContain('still names');
    expect(fix).toContain('The last commit did not touch the script that runs the failing command (`ci.sh`); it changed');
    expect(fix).not.toContain('the files the error names (`ci.sh`)');
  });

  it('a file renamed within the path the command names stays under it: no link for that path', async () => {
    const command = 'cp config/app.json build/';
    const { dir } = checkout(command, { 'config/app.json': '{}\n' }, [['mv', 'config/app.json', 'config/main.json']], 'Rename');
    const fix = await ask('how do I fix it?', logOf(command, "cp: cannot stat 'config/app.json': No such file or directory"), dir);
    expect(fix).toContain('still names `config/app.json`');
    const { dir: other } = checkout('cp config build/', { 'config/app.json': '{}\n' }, [['mv', 'config/app.json', 'config/main.json']], 'Rename');
    const fix2 = await ask('how do I fix it?', logOf('cp config build/', "cp: cannot stat 'config': No such file or directory"), other);
    expect(fix2).not.toContain('still names');
  });

  it('without a script in the workspace, the command is cited by its log line', async () => {
    const { dir } = gitRepo([{ message: 'Start', files: { 'config/app.json': '{}\n' } }], { prefix: 'cichat-fx18-' });
    gitIn(dir, 'mv', 'config', 'conf');
    gitIn(dir, 'commit', '-q', '-m', 'Rename config');
    const log = `+ cp config/app.json build/\ncp: cannot stat 'config/app.json': No such file or directory\n`;
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).toContain('the failing command [L1-L1] still names `config/app.json`, which the build did not find [L2-L2]');
  });
});
