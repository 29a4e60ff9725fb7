/**
 * The HTTP status on the finding, and the class of a download's 404 (helper fx21, session 57; docs/notes/answer.md
 * "Session 57 (helper fx21)"). One reader (core/finding/httpStatus.ts) sets `http_status`; the answers read it. A
 * download client's own status line is settled by the request's URL: a 404/410 for an artifact's, a release's or a
 * package's URL is dependency-resolution (as the open round 4's curl-artifact-404 is labelled), a 5xx for it the
 * network's; a 404 for any other URL stays unsettled (unknown). The logs are made up after curl 7.88's, GNU wget
 * 1.21's and PowerShell 5.1's and 7.4's wording.
 */
import { analyzedLog } from './helpers/analyzedLog.js';
import { askWithGit as ask, gitRepo, removeGitRepos } from './helpers/gitRepo.js';
import { checkCitations } from './helpers/claimChecks.js';

afterAll(removeGitRepos);

const job = (lines: string[]): string => ['Started by user ci', '[Pipeline] sh', ...lines, 'ERROR: script returned exit code 22', 'Finished: FAILURE', ''].join('\n');
const findingOf = (log: string) => analyzedLog(log).excerpts[0]?.finding;

const ARTIFACT = 'https://artifacts.example.com/tools/protolint/2.4.1/protolint-2.4.1-linux-amd64.tar.gz';
const CURL_ARTIFACT = job([`+ curl -fsSL -o .tools/protolint.tar.gz ${ARTIFACT}`, 'curl: (22) The requested URL returned error: 404']);
const CURL_API = job(['+ curl -fsS http://127.0.0.1:8080/api/orders', 'curl: (22) The requested URL returned error: 404']);
const CURL_PIPE = job([
  '+ set -o pipefail',
  '+ curl -fsSL https://github.com/acme/tool/releases/download/v3.2.0/tool-linux-amd64.tar.gz',
  '+ tar -xz -C /usr/local/bin',
  'curl: (22) The requested URL returned error: 404',
  '',
  'gzip: stdin: unexpected end of file',
  'tar: Child returned status 1',
  'tar: Error is not recoverable: exiting now',
]);
const WGET = job([
  '+ wget -q -O deps/libfoo.tar.gz https://downloads.example.org/libfoo/libfoo-1.8.2.tar.gz',
  '--2026-12-01 05:10:11--  https://downloads.example.org/libfoo/libfoo-1.8.2.tar.gz',
  'Resolving downloads.example.org (downloads.example.org)... 203.0.113.7',
  'Connecting to downloads.example.org (downloads.example.org)|203.0.113.7|:443... connected.',
  'HTTP request sent, awaiting response... 404 Not Found',
  '2026-12-01 05:10:11 ERROR 404: Not Found.',
]);
const PWSH5 = [
  'Started by user ci',
  '[Pipeline] powershell',
  'Invoke-WebRequest : The remote server returned an error: (404) Not Found.',
  'At C:\\Jenkins\\workspace\\app@tmp\\durable-1f2e\\powershellWrapper.ps1:3 char:1',
  '+ Invoke-WebRequest -Uri https://artifacts.example.com/tools/nuget/6.9.1/nuget.exe -OutFile nuget.exe',
  '+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
  '    + CategoryInfo          : InvalidOperation: (System.Net.HttpWebRequest:HttpWebRequest) [Invoke-WebRequest], WebException',
  '    + FullyQualifiedErrorId : WebCmdletWebResponseException,Microsoft.PowerShell.Commands.InvokeWebRequestCommand',
  'ERROR: script returned exit code 1',
  'Finished: FAILURE',
  '',
].join('\n');
const PWSH7 = [
  'Run Invoke-WebRequest -Uri "https://artifacts.example.com/tools/nuget/6.9.1/nuget.exe" -OutFile nuget.exe',
  'Invoke-WebRequest: D:\\a\\_temp\\5c1b7a1e.ps1:2',
  'Line |',
  '   2 |  Invoke-WebRequest -Uri "https://artifacts.example.com/tools/nuget/6.9 …',
  '     |  ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
  '     | Response status code does not indicate success: 404 (Not Found).',
  'Error: Process completed with exit code 1.',
  '',
].join('\n');

describe('a download that the server does not have', () => {
  it.each([
    ['curl, an artifact URL', CURL_ARTIFACT, 'curl: (22) The requested URL returned error: 404', ARTIFACT],
    ['curl -f in a pipe, a release asset', CURL_PIPE, 'curl: (22) The requested URL returned error: 404', 'https://github.com/acme/tool/releases/download/v3.2.0/tool-linux-amd64.tar.gz'],
    ['wget with its date', WGET, '2026-12-01 05:10:11 ERROR 404: Not Found.', 'https://downloads.example.org/libfoo/libfoo-1.8.2.tar.gz'],
    ['Invoke-WebRequest (5.1)', PWSH5, 'Invoke-WebRequest : The remote server returned an error: (404) Not Found.', 'https://artifacts.example.com/tools/nuget/6.9.1/nuget.exe'],
    ['Invoke-WebRequest (7), its cut echo not the URL', PWSH7, '| Response status code does not indicate success: 404 (Not Found).', 'https://artifacts.example.com/tools/nuget/6.9.1/nuget.exe'],
  ])('%s: dependency-resolution, the status and the URL on the finding', (_what, log, message, url) => {
    // Before: unknown (curl's and wget's medium rule set aside by calibration; wget's dated line and PowerShell's unread).
    const f = findingOf(log);
    expect(f?.class).toBe('dependency-resolution');
    expect(f?.message).toBe(message);
    expect(f?.http_status?.code).toBe(404);
    expect(f?.http_status?.url).toBe(url);
    expect(f?.http_status?.log_line).toBe(f?.message_line);
  });

  it("counter-example: a 404 for an API's path does not say whose the fault is: unknown, the status still read", () => {
    const f = findingOf(CURL_API);
    expect(f?.class).toBe('unknown');
    expect(f?.http_status).toEqual({ code: 404, said: '404', url: 'http://127.0.0.1:8080/api/orders', log_line: 4, url_line: 3 });
  });

  it('401/403 are the credentials, a 5xx for an artifact the network', () => {
    expect(findingOf(job([`+ curl -fsSL -o x.tgz ${ARTIFACT}`, 'curl: (22) The requested URL returned error: 403']))?.class).toBe('permission-credentials');
    expect(findingOf(PWSH5.replace('(404) Not Found', '(401) Unauthorized'))?.class).toBe('permission-credentials');
    const f = findingOf(job([`+ curl -fsSL -o x.tgz ${ARTIFACT}`, 'curl: (22) The requested URL returned error: 500']));
    expect(f?.class).toBe('network');
    expect(f?.http_status?.code).toBe(500);
  });

  it("counter-example: a test's check of a status is no request of the build", () => {
    const f = findingOf(['=== RUN   TestHealth', '    router_test.go:29: GET /healthz: status 404, want 200', '--- FAIL: TestHealth (0.00s)', 'FAIL', 'FAIL\texample.com/app\t0.01s', ''].join('\n'));
    expect(f?.http_status).toBeUndefined();
  });

  it('the answer: the server was reached and has no such file; the fix checks the URL, no re-run', async () => {
    const { dir } = gitRepo([{ message: 'Start', files: { 'ci/tools.sh': `curl -fsSL -o .tools/protolint.tar.gz ${ARTIFACT}\n` } }], { prefix: 'cichat-fx21-' });
    const why = await ask('why did it fail?', CURL_ARTIFACT, dir);
    expect(checkCitations(why, CURL_ARTIFACT.split('\n'))).toEqual([]);
    expect(why).toContain(`The server \`artifacts.example.com\` answered \`404\` [L4-L4] for \`${ARTIFACT}\` [L3-L3]: the host was reached, and it has no file at that URL`);
    expect(why).not.toMatch(/could not reach/);
    const fix = await ask('how do I fix it?', CURL_ARTIFACT, dir);
    expect(fix).toContain('so a re-run gets the same answer');
    expect(fix).not.toMatch(/outage was transient/);
  });
});
