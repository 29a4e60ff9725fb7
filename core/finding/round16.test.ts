import { describe, expect, it } from '@jest/globals';
import { analyze } from '../log/analyze.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Round 16, opened for tuning (issue 25; docs/notes/analyzer.md, "Round 16 opened (helper t17)"): each general fact
 * on made-up logs of other projects and tool versions, with a counter-example.
 */
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const gha = (...lines: string[]): string => ['##[group]Run ./ci.sh', ...lines, '##[error]Process completed with exit code 1.'].join('\n');

describe("Node's `TypeError: fetch failed` (undici rejects so only on a network error)", () => {
  const fetchFailed = (cause: string[]): string =>
    gha(
      '+ node tools/publish.mjs',
      'node:internal/deps/undici/undici:13502',
      '      Error.captureStackTrace(err);',
      '            ^',
      '',
      'TypeError: fetch failed',
      '    at node:internal/deps/undici/undici:13502:13',
      '    at async publish (file:///home/runner/work/docs/tools/publish.mjs:11:20) {',
      ...cause,
      '}',
      '',
      'Node.js v22.11.0',
    );

  it('is the network, whatever cause undici names below it', () => {
    const f = top(fetchFailed(['  [cause]: Error: unable to verify the first certificate', '      at TLSSocket.onConnectSecure (node:_tls_wrap:1677:34) {', "    code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'", '  }']));
    expect([f?.class, f?.confidence, f?.message]).toEqual(['network', 'high', 'TypeError: fetch failed']);
  });

  it('a cause another rule reads stays the message (a refused connection)', () => {
    const f = top(fetchFailed(['  [cause]: Error: connect ECONNREFUSED 10.1.2.3:8443', '      at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1607:16) {', "    code: 'ECONNREFUSED'", '  }']));
    expect([f?.class, f?.message]).toEqual(['network', '[cause]: Error: connect ECONNREFUSED 10.1.2.3:8443']);
  });

  it('counter-example: `TypeError: fetch is not a function` is the program\'s own error', () => {
    const f = top(gha('+ node tools/publish.mjs', 'file:///home/runner/work/docs/tools/publish.mjs:11', '  const res = await fetch(url);', '                    ^', '', 'TypeError: fetch is not a function', '    at publish (file:///home/runner/work/docs/tools/publish.mjs:11:21)', '', 'Node.js v16.20.2'));
    expect(f?.class).toBe('runtime-exception');
  });
});
