import { describe, expect, it } from '@jest/globals';
import { analyze } from '../../test/helpers/rulesReading.js';

/**
 * Session 56 (helper fx20; docs/notes/answer.md "Session 56 (helper fx20)"): R's `download.file()` error says only
 * "cannot open URL"; the warning R prints under it (`In addition: Warning message(s):`) says why: the status the server
 * answered or libcurl's words for no connection (uncaught.ts `rFetchReason`). The finding is then the network's, its
 * message that warning, its host the URL's. Logs as R 4.2.2 prints them (run on this machine against a local server,
 * an unknown host and a closed port; the URLs' hosts renamed).
 */
const top = (log: string) => analyze(log)[0]?.finding;
const r = (...lines: string[]) => ['[report] $ /bin/sh -xe /tmp/jenkins1.sh', '+ Rscript get.R', ...lines, 'Execution halted', "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE', ''].join('\n');
const URL = 'http://data.example.org/files/x-2.4.0.csv';

describe("R's download.file: the warning that says why", () => {
  it('404: the message is the warning with the status, class network, the URL\'s host', () => {
    const f = top(r(`trying URL '${URL}'`, 'Error in download.file(url, destfile) : ', `  cannot open URL '${URL}'`, 'In addition: Warning messages:', '1: In download.file(url, destfile) :', '  downloaded length 0 != reported length 335', '2: In download.file(url, destfile) :', `  cannot open URL '${URL}': HTTP status was '404 Not Found'`));
    expect(f).toMatchObject({ class: 'network', message: `cannot open URL '${URL}': HTTP status was '404 Not Found'`, message_line: 10, host: 'data.example.org', tool: 'Rscript' });
    expect(f?.evidence).toContain(4);
  });

  it("an unknown host: libcurl's `Couldn't resolve host name`", () => {
    const f = top(r("trying URL 'http://nohost.invalid/x.csv'", 'Error in download.file("http://nohost.invalid/x.csv", "data.csv") : ', "  cannot open URL 'http://nohost.invalid/x.csv'", 'In addition: Warning message:', 'In download.file("http://nohost.invalid/x.csv", "data.csv") :', "  URL 'http://nohost.invalid/x.csv': status was 'Couldn't resolve host name'"));
    expect(f).toMatchObject({ class: 'network', host: 'nohost.invalid' });
    expect(f?.message).toContain("status was 'Couldn't resolve host name'");
  });

  it('counter-example: without the warning, R\'s error stays a runtime error of the call', () => {
    const f = top(r('Error in download.file(url, destfile) : ', `  cannot open URL '${URL}'`));
    expect(f?.class).toBe('runtime-exception');
    expect(f?.host).toBeUndefined();
  });

  it("counter-example: a file R could not open is no URL's", () => {
    const f = top(r('Error in file(file, "rt") : cannot open the connection', 'In addition: Warning message:', 'In file(file, "rt") :', "  cannot open file 'data/missing.csv': No such file or directory"));
    expect(f?.class).not.toBe('network');
  });
});
