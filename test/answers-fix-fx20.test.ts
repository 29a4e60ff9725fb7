/**
 * The change block links the URL, path or file name an error quotes to the line the last commit wrote (session 56,
 * helper fx20; issue 25). Made-up checkouts with a git history, read as `cichat ask --workspace DIR` reads them; the
 * tools' lines were made on this machine (R 4.2.2's download.file, curl 7.88, GNU wget 1.21 against a local server).
 */
import { askWithGit as ask, gitRepo, removeGitRepos } from './helpers/gitRepo.js';

afterAll(removeGitRepos);

const repo = (commits: { message: string; files: Record<string, string> }[]): { dir: string; ids: string[] } => gitRepo(commits, { prefix: 'cichat-fx20-' });

const R_LOG = `Started by an SCM change
Building in workspace /var/jenkins_home/workspace/report
[report] $ /bin/sh -xe /tmp/jenkins1.sh
+ Rscript get.R
trying URL 'http://data.example.org/files/x-2.4.0.csv'
Error in download.file(url, destfile) : 
  cannot open URL 'http://data.example.org/files/x-2.4.0.csv'
In addition: Warning messages:
1: In download.file(url, destfile) :
  downloaded length 0 != reported length 335
2: In download.file(url, destfile) :
  cannot open URL 'http://data.example.org/files/x-2.4.0.csv': HTTP status was '404 Not Found'
Execution halted
Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;
const GET_R = (url: string, dest = 'data.csv'): string => `url <- "${url}"\ndestfile <- "${dest}"\ndownload.file(url, destfile)\n`;

const CURL_LOG = `Started by user Dana
[tools] $ /bin/sh -xe /tmp/jenkins2.sh
+ sh fetch.sh
+ curl -fsSL https://downloads.example.org/tool/tool-1.9.0.tar.gz -o tool.tar.gz
curl: (22) The requested URL returned error: 404
Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;
const FETCH_SH = (version: string): string => `set -e\nset -x\ncurl -fsSL https://downloads.example.org/tool/tool-${version}.tar.gz -o tool.tar.gz\ntar xzf tool.tar.gz\n`;

const WGET_LOG = `[tools] $ /bin/sh -xe /tmp/jenkins3.sh
+ ./fetch.sh
+ wget https://downloads.example.org/tool/tool-1.9.0.tar.gz
--2026-12-01 02:53:47--  https://downloads.example.org/tool/tool-1.9.0.tar.gz
Resolving downloads.example.org (downloads.example.org)... 192.0.2.10
Connecting to downloads.example.org (downloads.example.org)|192.0.2.10|:443... connected.
HTTP request sent, awaiting response... 404 Not Found
2026-12-01 02:53:47 ERROR 404: Not Found.

Build step 'Execute shell' marked build as failure
Finished: FAILURE
`;

describe('the URL or path the error quotes, written by the last commit', () => {
  it("R's download.file: the commit wrote the URL it could not open; the hunk and the URL before it", async () => {
    const { dir, ids } = repo([
      { message: 'Fetch data', files: { 'get.R': GET_R('http://data.example.org/files/x-2.3.0.csv') } },
      { message: 'Bump data to 2.4.0', files: { 'get.R': GET_R('http://data.example.org/files/x-2.4.0.csv') } },
    ]);
    const fix = await ask('how do I fix it?', R_LOG, dir);
    expect(fix).toContain(`Line 1 of \`get.R\`, where it wrote the URL the error quotes (\`http://data.example.org/files/x-2.4.0.csv\` [L12-L12]): commit \`${ids[1]?.slice(0, 10)}\` (Bump data to 2.4.0) changed \`url <- "http://data.example.org/files/x-2.3.0.csv"\` to \`url <- "http://data.example.org/files/x-2.4.0.csv"\`.`);
    expect(fix).toContain('before it, that line held `http://data.example.org/files/x-2.3.0.csv`');
    expect(fix).toContain('the first suspect, not a proof');
    expect(fix).not.toContain('Nothing here shows it caused the failure');
    expect(fix).not.toContain('nor a line holding the names it quotes');
  });

  it("curl in a script: the URL of the traced command, written by the commit (curl's error quotes none)", async () => {
    const { dir, ids } = repo([
      { message: 'Fetch the tool', files: { 'fetch.sh': FETCH_SH('1.8.2') } },
      { message: 'Tool 1.9.0', files: { 'fetch.sh': FETCH_SH('1.9.0') } },
    ]);
    const fix = await ask('how do I fix it?', CURL_LOG, dir);
    // The line is also the one that runs the failing command (fx17's words); what it wrote is the URL.
    expect(fix).toContain(`Line 3 of \`fetch.sh\`, the line that runs the failing command (\`fetch.sh:3\`): commit \`${ids[1]?.slice(0, 10)}\` (Tool 1.9.0)`);
    expect(fix).toContain('The change wrote the URL the failing command asked for (`https://downloads.example.org/tool/tool-1.9.0.tar.gz` [L4-L4])');
    expect(fix).toContain('before it, that line held `https://downloads.example.org/tool/tool-1.8.2.tar.gz`');
    expect(fix).not.toContain('Nothing here shows it caused the failure');
  });

  it("wget: the URL of its request line over `ERROR 404`, written by the commit", async () => {
    const { dir } = repo([
      { message: 'Fetch the tool', files: { 'fetch.sh': 'set -ex\nwget https://downloads.example.org/tool/tool-1.8.2.tar.gz\n' } },
      { message: 'Tool 1.9.0', files: { 'fetch.sh': 'set -ex\nwget https://downloads.example.org/tool/tool-1.9.0.tar.gz\n' } },
    ]);
    const fix = await ask('how do I fix it?', WGET_LOG, dir);
    expect(fix).toContain('The change wrote the URL the failing command asked for (`https://downloads.example.org/tool/tool-1.9.0.tar.gz` [L4-L4])');
    expect(fix).toContain('before it, that line held `https://downloads.example.org/tool/tool-1.8.2.tar.gz`');
  });

  it('a file name only: the commit wrote the name the error quotes into a variable', async () => {
    const log = `+ ./fetch.sh
+ cp /srv/mirror/tool-1.9.0.tar.gz build/
cp: cannot stat '/srv/mirror/tool-1.9.0.tar.gz': No such file or directory
Build step 'Execute shell' marked build as failure
`;
    const { dir } = repo([
      { message: 'Mirror copy', files: { 'fetch.sh': 'set -ex\nTARBALL=tool-1.8.2.tar.gz\ncp /srv/mirror/$TARBALL build/\n' } },
      { message: 'Tool 1.9.0', files: { 'fetch.sh': 'set -ex\nTARBALL=tool-1.9.0.tar.gz\ncp /srv/mirror/$TARBALL build/\n' } },
    ]);
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).toContain('Line 2 of `fetch.sh`, where it wrote the file name the error quotes (`tool-1.9.0.tar.gz` [L3-L3])');
    expect(fix).toContain('before it, that line held `tool-1.8.2.tar.gz`');
  });

  it('counter-example: the commit changed the line but not the URL it holds: no "wrote the URL"', async () => {
    const { dir } = repo([
      { message: 'Fetch data', files: { 'get.R': GET_R('http://data.example.org/files/x-2.4.0.csv', 'data.csv') } },
      { message: 'Rename the file', files: { 'get.R': GET_R('http://data.example.org/files/x-2.4.0.csv', 'input.csv') } },
    ]);
    const fix = await ask('how do I fix it?', R_LOG, dir);
    expect(fix).not.toContain('wrote the URL');
    expect(fix).not.toContain('the first suspect');
  });

  it('counter-example: a change to an unrelated file still says nothing links it', async () => {
    const { dir } = repo([
      { message: 'Fetch data', files: { 'get.R': GET_R('http://data.example.org/files/x-2.4.0.csv'), 'README.md': 'data\n' } },
      { message: 'Docs', files: { 'README.md': 'the data report\n' } },
    ]);
    const fix = await ask('how do I fix it?', R_LOG, dir);
    expect(fix).not.toContain('wrote the URL');
    expect(fix).toMatch(/did not touch|can't tell/);
  });
});

describe("R's download.file: the reason R's warning gives", () => {
  it('404: the meaning is the server\'s answer, the fix the URL, not a traceback', async () => {
    const { dir } = repo([
      { message: 'Fetch data', files: { 'get.R': GET_R('http://data.example.org/files/x-2.3.0.csv') } },
      { message: 'Bump data to 2.4.0', files: { 'get.R': GET_R('http://data.example.org/files/x-2.4.0.csv') } },
    ]);
    const why = await ask('why did it fail?', R_LOG, dir);
    expect(why).toContain("The server `data.example.org` answered `404 Not Found` for `http://data.example.org/files/x-2.4.0.csv` [L12-L12]: the host was reached, and it has no file at that URL.");
    expect(why).not.toContain('R stopped the script');
    const fix = await ask('how do I fix it?', R_LOG, dir);
    expect(fix).toContain('**How to fix a network problem**');
    expect(fix).toContain('has no file at that URL, so a re-run gets the same answer');
    expect(fix).not.toContain('keep.source');
    expect(fix).not.toContain('the outage was transient');
    expect(fix).not.toContain('where the build tried to connect');
  });

  it("an unknown host: the agent could not look it up (R's `Couldn't resolve host name`)", async () => {
    const log = R_LOG.replace(/2: In download\.file\(url, destfile\) :\n.*\n/, "2: In download.file(url, destfile) :\n  URL 'http://data.example.org/files/x-2.4.0.csv': status was 'Couldn't resolve host name'\n");
    const { dir } = repo([{ message: 'Fetch data', files: { 'get.R': GET_R('http://data.example.org/files/x-2.4.0.csv') } }]);
    const fix = await ask('how do I fix it?', log, dir);
    expect(fix).toContain('The agent could not look up `data.example.org`');
    expect(fix).not.toContain('has no file at that URL');
  });
});

const TIMEOUT_LOG = `Started by an SCM change
[Pipeline] Start of Pipeline
[Pipeline] node
Running on agent-2 in /var/jenkins_home/workspace/orders
[Pipeline] {
[Pipeline] stage
[Pipeline] { (Import)
[Pipeline] timeout
Timeout set to expire in 5 min 0 sec
[Pipeline] {
[Pipeline] sh
+ perl bin/import.pl data/orders.csv
line 100 ok
line 200 ok
line 300 ok
Cancelling nested steps due to timeout
Sending interrupt signal to process
Terminated
[Pipeline] }
[Pipeline] // timeout
[Pipeline] }
[Pipeline] // stage
[Pipeline] }
[Pipeline] // node
[Pipeline] End of Pipeline
Timeout has been exceeded
Finished: ABORTED
`;
const IMPORT_PL = (extra: string): string => `use strict;\nmy $n = 0;\nwhile (my $line = <>) {\n  $n++;\n${extra}  print "line $n ok\\n" if $n % 100 == 0;\n}\n`;
const JENKINSFILE = "pipeline {\n  agent any\n  stages { stage('Import') { steps { timeout(time: 5, unit: 'MINUTES') { sh 'perl bin/import.pl data/orders.csv' } } } }\n}\n";
const GH_LOG = `2026-12-01T02:00:01.0000000Z ##[group]Run ./scripts/gen.sh
2026-12-01T02:00:01.0000000Z ./scripts/gen.sh
2026-12-01T02:00:01.0000000Z shell: /usr/bin/bash -e {0}
2026-12-01T02:00:01.0000000Z ##[endgroup]
2026-12-01T02:00:02.0000000Z generated part 1
2026-12-01T02:00:03.0000000Z generated part 2
2026-12-01T02:10:01.0000000Z ##[error]The job running on runner GitHub Actions 2 has exceeded the maximum execution time of 10 minutes.
2026-12-01T02:10:01.0000000Z ##[error]The operation was canceled.
`;
const GEN_SH = (wait: string): string => `#!/bin/sh\nset -e\nfor i in 1 2 3; do\n${wait}  echo "generated part $i"\ndone\n`;

describe('a timeout while the step ran a script the last commit changed', () => {
  it("Jenkins' timeout step: the hunk of the script, and the last line the step printed", async () => {
    const { dir, ids } = repo([
      { message: 'Importer', files: { 'bin/import.pl': IMPORT_PL(''), Jenkinsfile: JENKINSFILE, 'data/orders.csv': 'a\n' } },
      { message: 'Skip comment lines', files: { 'bin/import.pl': IMPORT_PL('  redo if $line =~ /^#/;\n') } },
    ]);
    const fix = await ask('how do I fix it?', TIMEOUT_LOG, dir);
    expect(fix).toContain(`Line 5 of \`bin/import.pl\`, the script the step was running when it was stopped (\`perl bin/import.pl data/orders.csv\` [L12-L12]): commit \`${ids[1]?.slice(0, 10)}\` (Skip comment lines) added \`redo if $line =~ /^#/;\`.`);
    expect(fix).toContain('the last output before the stop was `line 300 ok` [L15-L15], and the work after it did not finish');
    expect(fix).toContain('the prime suspect, not a proof');
    expect(fix).not.toContain('Nothing here shows it caused the failure');
  });

  it("GitHub's maximum execution time: the script of the step's `Run` line", async () => {
    const { dir } = repo([
      { message: 'Gen', files: { 'scripts/gen.sh': GEN_SH('') } },
      { message: 'Wait for the lock', files: { 'scripts/gen.sh': GEN_SH('  while [ -e /tmp/gen.lock ]; do sleep 1; done\n') } },
    ]);
    const fix = await ask('how do I fix it?', GH_LOG, dir);
    expect(fix).toContain('Line 4 of `scripts/gen.sh`, the script the step was running when it was stopped (`./scripts/gen.sh` [L1-L1])');
    expect(fix).toContain('the last output before the stop was `generated part 2` [L6-L6]');
    expect(fix).not.toContain("the error names no file of the checkout, so I can't tell");
  });

  it('counter-example: the commit changed another file: no link to the stopped step', async () => {
    const { dir } = repo([
      { message: 'Importer', files: { 'bin/import.pl': IMPORT_PL(''), Jenkinsfile: JENKINSFILE, 'README.md': 'orders\n' } },
      { message: 'Docs', files: { 'README.md': 'the orders importer\n' } },
    ]);
    const fix = await ask('how do I fix it?', TIMEOUT_LOG, dir);
    expect(fix).not.toContain('the script the step was running');
    expect(fix).not.toContain('prime suspect');
  });
});
