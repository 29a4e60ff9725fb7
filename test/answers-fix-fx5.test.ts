/**
 * "How do I fix it?" relays the commands a tool prints for the user (helper fx5): an introducing
 * line (`Run`, `..., call:`) over indented command lines, above or below the error; and pip's
 * diagnostic block (`× title` over `╰─> body`, `hint: See ...`). Made-up logs (none of the realfail
 * cases), each with a counter-example; every citation checked.
 */
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import { fixOfShellLog } from './helpers/shellLogFix.js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { snippetsFromDir } from '../cli/snippets.js';
import type { CiContextUpload } from '../protocol/schemas.js';

const FIX = 'How do I fix it?';
const START = ['Started by user ops', '[tiles] $ /bin/sh -xe /tmp/jenkins7.sh'];
const END = ["Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'];

const fixOf = (lines: string[]): Promise<string> => fixOfShellLog(lines, 'tiles');

describe('the commands a tool prints for the user', () => {
  it('relays a command block above the error (a lone `Run` over indented commands)', async () => {
    const text = await fixOf([
      '+ ./tools/tag-release.sh',
      'Author identity unknown',
      '',
      '*** Please tell me who you are.',
      '',
      'Run',
      '',
      '  git config --global user.email "you@example.com"',
      '  git config --global user.name "Your Name"',
      '',
      "to set your account's default identity.",
      '',
      "fatal: unable to auto-detect email address (got 'jenkins@builder.(none)')",
    ]);
    expect(text).toContain('The tool says to run `git config --global user.email "you@example.com"` and `git config --global user.name "Your Name"` [L8-L11] (under `Run`)');
  });

  it('relays a `..., call:` block under the error, and stops at the next traced command', async () => {
    const text = await fixOf([
      '+ git -C /srv/shared/schemas log -1 --format=%h',
      "fatal: detected dubious ownership in repository at '/srv/shared/schemas'",
      'To add an exception for this directory, call:',
      '',
      '\tgit config --global --add safe.directory /srv/shared/schemas',
      '+ echo done',
    ]);
    expect(text).toContain('The tool says to run `git config --global --add safe.directory /srv/shared/schemas` [L5-L7]');
    expect(text).not.toContain('`echo done`');
  });

  it('takes no listing or prose for commands', async () => {
    // Indented output that is not introduced as something to run, and an intro over prose lines.
    const text = await fixOf([
      '+ make deploy',
      'deploy.sh: the target host refused the upload. Available targets:',
      '  staging eu-west',
      '  production eu-central',
      'If it keeps failing, try:',
      '  waiting a few minutes.',
      'make: *** [Makefile:12: deploy] Error 1',
    ]);
    expect(text).not.toContain('The tool says to run');
  });
});

describe("pip's diagnostic block", () => {
  const pip = [
    '+ python3 -m pip install -r requirements.txt',
    'error: externally-managed-environment',
    '',
    '× This environment is externally managed',
    '╰─> To install Python packages system-wide, try apt install',
    '    python3-xyz, where xyz is the package you are trying to',
    '    install.',
    '    ',
    '    If you wish to install a non-Debian-packaged Python package,',
    '    create a virtual environment using python3 -m venv path/to/venv.',
    '',
    'note: If you believe this is a mistake, please contact your Python installation or OS distribution provider.',
    'hint: See PEP 668 for the detailed specification.',
  ];
  it('quotes the lines that say what to do and the hint, not the conditions', async () => {
    const text = await fixOf(pip);
    expect(text).toContain('The tool explains `This environment is externally managed` [L6-L6]');
    expect(text).toContain('`create a virtual environment using python3 -m venv path/to/venv.` [L12-L12]');
    expect(text).toContain('its hint: `See PEP 668 for the detailed specification.` [L15-L15]');
    expect(text).not.toContain('`If you wish to install a non-Debian-packaged Python package,`');
  });
  it('needs the `×` title over a `╰─>` body', async () => {
    const text = await fixOf(pip.map((l) => l.replace(/^× /, '').replace(/^╰─> /, '    ')));
    expect(text).not.toContain('The tool explains');
  });
});

describe('a missing tool named by the message', () => {
  it("Python's `No module named X` under `python -m X`: that interpreter and that module, not a version step", async () => {
    const text = await fixOf(['+ python3 -m flake8 src', '/opt/py/3.10.4/bin/python3: No module named flake8']);
    expect(text).toContain('The Python that ran the step, `/opt/py/3.10.4/bin/python3`, has no module `flake8`');
    expect(text).toContain('`/opt/py/3.10.4/bin/python3 -m pip install flake8`');
    expect(text).not.toContain('Use the tool version the message names');
  });
  it("pyenv's version not installed: `pyenv install` that version", async () => {
    const text = await fixOf(['+ python --version', "pyenv: version `3.13.1' is not installed (set by /srv/ws/app/.python-version)"]);
    expect(text).toContain('`pyenv install 3.13.1`');
    expect(text).toContain('in `.python-version`');
  });
  it("cargo's unknown subcommand: the cargo-X program", async () => {
    const text = await fixOf(['+ cargo audit --deny warnings', 'error: no such command: `audit`']);
    expect(text).toContain('`cargo install cargo-audit --locked`');
  });
  it("pytest's required plugins: the plugin and where it is required", async () => {
    const text = await fixOf(['+ python3 -m pytest', 'ERROR: Missing required plugins: pytest-xdist>=3.0']);
    expect(text).toContain("`pip install 'pytest-xdist>=3.0'`");
    expect(text).toContain('`required_plugins`');
  });
  it("cargo's rustc wrapper that cannot run", async () => {
    const text = await fixOf(['+ cargo build', 'error: could not execute process `ccache-rs /usr/bin/rustc -vV` (never executed)', '', 'Caused by:', '  No such file or directory (os error 2)']);
    expect(text).toContain('cargo runs rustc through the wrapper `ccache-rs`');
    // Another process cargo could not run is no wrapper.
    const other = await fixOf(['+ cargo build', 'error: could not execute process `cc -o out main.o` (never executed)']);
    expect(other).not.toContain('through the wrapper');
  });
});

describe('the script the failing command ran', () => {
  const LOG = ['+ ./scripts/pack.sh', 'tar: dist/app.tar: Cannot open: Permission denied', 'tar: Error is not recoverable: exiting now'];
  async function fixWith(script: string[]): Promise<string> {
    const dir = mkdtempSync(path.join(tmpdir(), 'fx5-'));
    mkdirSync(path.join(dir, 'scripts'));
    writeFileSync(path.join(dir, 'ci.sh'), 'set -e\n./scripts/pack.sh\n');
    writeFileSync(path.join(dir, 'scripts', 'pack.sh'), `${script.join('\n')}\n`);
    const log = `${[...START, ...LOG, ...END].join('\n')}\n`;
    const upload = { buildDetails: { result: 'FAILURE', consoleLog: log }, workspaceSnippets: await snippetsFromDir(dir, log) } as CiContextUpload;
    const ctx = analyzedChatContext(upload, log);
    const text = (await composeLocalAnswer(FIX, ctx)).text;
    expect(checkAnswer(FIX, text, log.split('\n'), ctx)).toEqual([]);
    rmSync(dir, { recursive: true });
    return text;
  }
  it('shows its one line that runs the program the error names', async () => {
    const text = await fixWith(['#!/bin/sh', 'mkdir -p dist', 'tar -czf dist/app.tar build/']);
    expect(text).toContain('**In the script it ran:** `scripts/pack.sh:3` is the line of `scripts/pack.sh` (the script the failing command ran) that runs `tar`');
    expect(text).toContain('> 3 | tar -czf dist/app.tar build/');
  });
  it('shows none when the script runs that program twice (which one failed is not known)', async () => {
    const text = await fixWith(['#!/bin/sh', 'tar -czf dist/app.tar build/', 'tar -tzf dist/app.tar']);
    expect(text).not.toContain('In the script it ran');
  });
});

describe("Maven's resolution errors: the artifact and range the message names", () => {
  const mvn = (cause: string): string[] => [
    '+ mvn -B -o verify',
    '[INFO] BUILD FAILURE',
    `[ERROR] Failed to execute goal on project ledger: Could not resolve dependencies for project org.ex:ledger:jar:2.0.0-SNAPSHOT: ${cause} -> [Help 1]`,
  ];
  it('a range nothing matches, asked by the project itself', async () => {
    const text = await fixOf(mvn('Failed to collect dependencies at org.yaml:snakeyaml:jar:[2.9,3.0): No versions available for org.yaml:snakeyaml:jar:[2.9,3.0) within specified range'));
    expect(text).toContain('No version of `org.yaml:snakeyaml` within the range `[2.9,3.0)`');
    expect(text).toContain('the `<version>` of `snakeyaml` in `pom.xml`');
  });
  it('a range another dependency asks for', async () => {
    const text = await fixOf(mvn('Failed to collect dependencies at org.ex:client:jar:1.2 -> org.yaml:snakeyaml:jar:[2.9,3.0): No versions available for org.yaml:snakeyaml:jar:[2.9,3.0) within specified range'));
    expect(text).toContain('the range comes through the dependency `org.ex:client`');
    expect(text).not.toContain('the `<version>` of `snakeyaml`');
  });
  it("a module's test-jar", async () => {
    const text = await fixOf(mvn('Could not find artifact org.ex:model:jar:tests:2.0.0-SNAPSHOT'));
    expect(text).toContain('is the test-jar of the module `model`');
    expect(text).toContain('`test-jar`');
    const plain = await fixOf(mvn('Could not find artifact org.ex:model:jar:2.0.0-SNAPSHOT'));
    expect(plain).not.toContain('test-jar');
  });
});
