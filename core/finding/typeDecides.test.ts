import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../log/analyze.js';
import { REALFAIL_ROOT, TUNED_CASES } from '../../test/helpers/realfail.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Session 46 (helper t21; docs/notes/analyzer.md "Session 46 (helper t21)"): the exception decided by Python's own
 * grammar and its type's module, not by its words. Each on a real log of the data set (a tuning case) and made-up
 * logs of other projects, with counter-examples.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const real = (id: string): Finding | undefined => {
  expect(TUNED_CASES).toContain(id);
  return top(readFileSync(path.join(REALFAIL_ROOT, id, 'fail.log'), 'utf8'));
};
const traceback = (...last: string[]): string =>
  ['[Pipeline] sh', '+ python3 tools/fetch.py', 'Traceback (most recent call last):', '  File "/srv/ci/ws/app/tools/fetch.py", line 12, in <module>', '    data = fetch(url)', ...last, '[Pipeline] }', 'ERROR: script returned exit code 1', 'Finished: FAILURE'].join('\n');

describe("Python's traceback grammar: the line at the margin after the frames is the exception, whatever its type is called", () => {
  it('a module-qualified type named neither Error nor Exception is the raised exception (made-up)', () => {
    const f = top(traceback('mylib.errors.BadInput: field "sku" missing'));
    expect([f?.class, f?.message, f?.location?.line]).toEqual(['runtime-exception', 'mylib.errors.BadInput: field "sku" missing', 12]);
  });

  it('real log (round 9, python-subprocess-timeout-expired): `subprocess.TimeoutExpired` stays the time limit it was', () => {
    expect(real('python-subprocess-timeout-expired')?.class).toBe('timeout-aborted');
  });

  it('counter-example: a qualified name still indented (a source line of the frame) is not taken', () => {
    const f = top(traceback('    mylib.Thing.Other: inside the frame'));
    expect(f?.class).toBe('unknown');
  });
});

describe("a Python HTTP library's exception type is the network's, whatever its message says", () => {
  it('real log (round 20, python-http-client-incompleteread): `http.client.IncompleteRead` was unknown (the traceback head), now the network at its line', () => {
    const f = real('python-http-client-incompleteread');
    expect([f?.class, f?.message]).toEqual(['network', 'http.client.IncompleteRead: IncompleteRead(150000 bytes read, 250000 more expected)']);
  });

  it("requests' ChunkedEncodingError (a connection broken mid-body) is the network (made-up)", () => {
    const f = top(traceback("requests.exceptions.ChunkedEncodingError: ('Connection broken: IncompleteRead(0 bytes read, 512 more expected)', IncompleteRead(0 bytes read, 512 more expected))"));
    expect([f?.class, f?.confidence]).toEqual(['network', 'medium']);
  });

  it("counter-examples: the caller's own mistakes and a server's status are not the network", () => {
    expect(top(traceback("requests.exceptions.MissingSchema: Invalid URL 'None/api': No scheme supplied."))?.class).toBe('runtime-exception');
    expect(top(traceback('requests.exceptions.JSONDecodeError: Expecting value: line 1 column 1 (char 0)'))?.class).toBe('runtime-exception');
    expect(top(traceback('requests.exceptions.HTTPError: 401 Client Error: Unauthorized for url: https://repo.example.com/x'))?.class).toBe('permission-credentials');
  });

  it('real log (round 15, python-requests-proxy-no-proxy-localhost): a ProxyError stays the network', () => {
    expect(real('python-requests-proxy-no-proxy-localhost')?.class).toBe('network');
  });
});

describe("an installed console script (a virtualenv's or the system's bin/) is no project frame", () => {
  it("real log (round 20, coverage-data-file-enospc): coverage's `venv/bin/coverage:8` shim is no longer the place", () => {
    expect(real('coverage-data-file-enospc')?.location).toBeUndefined();
  });

  it("counter-example: a project's own bin/ script is still its frame (made-up)", () => {
    const f = top(['[Pipeline] sh', '+ python3 bin/release.py', 'Traceback (most recent call last):', '  File "/srv/ci/ws/app/bin/release.py", line 7, in <module>', '    bump(version)', 'ValueError: bad version', '[Pipeline] }', 'ERROR: script returned exit code 1'].join('\n'));
    expect([f?.location?.file.replace(/^.*\/app\//, ''), f?.location?.line]).toEqual(['bin/release.py', 7]);
  });
});
