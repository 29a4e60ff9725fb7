/**
 * A value the commit set, read by the failing line (helper fx21, session 57; docs/notes/answer.md "Session 57 (helper
 * fx21)"). The change block names the changed line that set the value and the failing command that read it, and its
 * conclusion names that line, instead of "Nothing here shows it caused the failure". Made-up logs after bash 5's and
 * dash's `-x` traces, GNU make's echo and GitHub Actions' `Run` lines; made-up checkouts (helpers/gitRepo.ts).
 */
import { askWithGit as ask, gitRepo, removeGitRepos } from './helpers/gitRepo.js';
import { checkCitations } from './helpers/claimChecks.js';

afterAll(removeGitRepos);

const jenkins = (lines: string[]): string => ['Started by an SCM change', '[app] $ /bin/bash -xe /tmp/jenkins5.sh', ...lines, "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE', ''].join('\n');
const repo = (files: Record<string, string>, changed: Record<string, string>): string => gitRepo([{ message: 'Start', files }, { message: 'Tidy the settings', files: changed }], { prefix: 'cichat-fx21-' }).dir;
const NOTHING = 'Nothing here shows it caused the failure';

describe('a value the commit set, read by the failing line', () => {
  it('bash -x: `++ REGION=` under `+ . ./deploy.env`, the command ran with an empty word', async () => {
    const log = jenkins(['+ . ./deploy.env', '++ BUCKET=acme-site', '++ REGION=', "+ aws s3 sync dist/ s3://acme-site --region ''", 'aws: error: argument --region: expected one argument']);
    const dir = repo({ 'deploy.env': 'BUCKET=acme-site\nREGION=eu-west-1\n', 'deploy.sh': '. ./deploy.env\naws s3 sync dist/ s3://$BUCKET --region "$REGION"\n' }, { 'deploy.env': 'BUCKET=acme-site\nREGION=\n' });
    const fix = await ask('how do I fix it?', log, dir);
    expect(checkCitations(fix, log.split('\n'))).toEqual([]);
    expect(fix).toContain("Line 2 of `deploy.env`, where it set `REGION`, which the failing command read (`aws s3 sync dist/ s3://acme-site --region ''` [L6-L6])");
    expect(fix).toContain('This change set `REGION` to an empty value (`++ REGION=` [L5-L5]), and the failing command ran with an empty word where it needed one [L6-L6]');
    expect(fix).toContain('(before it: `REGION=eu-west-1`)');
    expect(fix).not.toContain(NOTHING);
  });

  it('sh -x (dash): `+ PORT=80801` under `+ . ci/vars.sh`, the value in the command', async () => {
    const log = jenkins(['+ . ci/vars.sh', '+ HOST=localhost', '+ PORT=80801', '+ curl -fsS http://localhost:80801/health', 'curl: (3) URL rejected: Port number was not a decimal number between 0 and 65535']);
    const dir = repo({ 'ci/vars.sh': 'HOST=localhost\nPORT=8081\n' }, { 'ci/vars.sh': 'HOST=localhost\nPORT=80801\n' });
    const fix = await ask('how do I fix it?', log, dir);
    expect(checkCitations(fix, log.split('\n'))).toEqual([]);
    expect(fix).toContain('Line 2 of `ci/vars.sh`, where it set `PORT`');
    expect(fix).toContain('This change set `PORT` to `80801` (`+ PORT=80801` [L5-L5]), and the failing command ran with that value [L6-L6]');
    expect(fix).not.toContain(NOTHING);
  });

  it('`[: =: unary operator expected` on a variable the commit removed from the sourced file', async () => {
    const log = jenkins(['+ source ci/vars.sh', '++ APP=shop', "+ '[' = prod ']'", './deploy.sh: line 3: [: =: unary operator expected']);
    const dir = repo({ 'ci/vars.sh': 'APP=shop\nTARGET=prod\n', 'deploy.sh': 'source ci/vars.sh\nset -x\nif [ $TARGET = prod ]; then ./push.sh; fi\n' }, { 'ci/vars.sh': 'APP=shop\n' });
    const fix = await ask('how do I fix it?', log, dir);
    expect(checkCitations(fix, log.split('\n'))).toEqual([]);
    expect(fix).toContain('where it removed the line that set `TARGET`, which the failing command read (`if [ $TARGET = prod ]; then ./push.sh; fi`, `deploy.sh:3`)');
    expect(fix).not.toContain(NOTHING);
  });

  it('`${VAR:?}`: the error names the variable whose line the commit removed', async () => {
    const log = jenkins(['+ . ci/vars.sh', '++ APP=shop', './deploy.sh: line 4: DEPLOY_DIR: parameter null or not set']);
    const dir = repo({ 'ci/vars.sh': 'APP=shop\nDEPLOY_DIR=/srv/shop\n' }, { 'ci/vars.sh': 'APP=shop\n' });
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).toContain('where it removed the line that set `DEPLOY_DIR`');
    expect(fix).toContain('This change removed the line that set `DEPLOY_DIR`, and the failing command reads `DEPLOY_DIR`');
  });

  it("a Makefile's variable: make echoes the recipe with the value the commit wrote", async () => {
    const log = ['Started by an SCM change', '[app] $ /bin/sh -xe /tmp/jenkins6.sh', '+ make smoke', 'curl -fsS http://localhost:80801/health', 'curl: (3) URL rejected: Port number was not a decimal number between 0 and 65535', 'make: *** [Makefile:4: smoke] Error 3', "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE', ''].join('\n');
    const dir = repo({ Makefile: 'PORT ?= 8081\n\nsmoke:\n\tcurl -fsS http://localhost:$(PORT)/health\n' }, { Makefile: 'PORT ?= 80801\n\nsmoke:\n\tcurl -fsS http://localhost:$(PORT)/health\n' });
    const fix = await ask('how do I fix it?', log, dir);
    expect(checkCitations(fix, log.split('\n'))).toEqual([]);
    expect(fix).toContain('Line 1 of `Makefile`');
    expect(fix).toContain('This change set `PORT` to `80801`, and the failing command reads `PORT` (`Makefile:4`): the changed line above is where the value came from. Set `PORT` to the value the command needs there (before it: `PORT ?= 8081`)');
    expect(fix).not.toContain(NOTHING);
  });

  it("a GitHub Actions env file: the step's command reads `$API_URL`, which the commit emptied", async () => {
    const log = ['##[group]Run curl -fsS "$API_URL/health"', 'curl -fsS "$API_URL/health"', 'shell: /usr/bin/bash -e {0}', '##[endgroup]', 'curl: (3) URL using bad/illegal format or missing URL', '##[error]Process completed with exit code 3.', ''].join('\n');
    const dir = repo({ 'ci/ci.env': 'API_URL=https://api.example.com\n', '.github/workflows/ci.yml': 'jobs: {}\n' }, { 'ci/ci.env': 'API_URL=\n' });
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).toContain('where it set `API_URL`');
    expect(fix).not.toContain(NOTHING);
  });

  it('counter-example: the variable is set in a file the commit did not touch', async () => {
    const log = jenkins(['+ . ./deploy.env', '++ REGION=', "+ aws s3 sync dist/ s3://acme-site --region ''", 'aws: error: argument --region: expected one argument']);
    const dir = repo({ 'deploy.env': 'REGION=\n', 'ci/timeouts.env': 'TIMEOUT=30\n' }, { 'ci/timeouts.env': 'TIMEOUT=60\n' });
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).not.toContain('which the failing command read');
    expect(fix).toContain("It changed `ci/timeouts.env`; the error names no file of the checkout, so I can't tell whether this change is related.");
  });

  it('counter-example: the trace shows the value came from another file than the one the commit changed', async () => {
    const log = jenkins(['+ . ./prod.env', '++ REGION=', "+ aws s3 sync dist/ s3://acme-site --region ''", 'aws: error: argument --region: expected one argument']);
    const dir = repo({ 'prod.env': 'REGION=\n', 'staging.env': 'REGION=eu-west-1\n' }, { 'staging.env': 'REGION=\n' });
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).not.toContain('which the failing command read');
  });
});
