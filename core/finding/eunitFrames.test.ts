import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../log/analyze.js';
import { REALFAIL_ROOT, TUNED_CASES } from '../../test/helpers/realfail.js';
import type { Finding } from '../../protocol/types.js';

/**
 * Session 49 (helper loc2; docs/notes/analyzer.md "Session 49 (helper loc2)"): EUnit prints a failed test's frames
 * above its `**error:`, innermost first (`in function m:f/1 (file, line N)`, then `in call from` its callers). The
 * place is the deepest frame of the project's own files (not OTP's: `lists:nth/2 (lists.erl, line 198)`), else its
 * callers' (an undefined function's `in function codec:encode/2` has no file), and only of this report's frames (not
 * the next failed test's). Every log is EUnit's real output, made on this machine by test/fixtures/grammar/make.sh.
 */
const DIR = path.join(process.cwd(), 'test', 'fixtures', 'grammar');
const top = (text: string): Finding | undefined => analyze(text)[0]?.finding;
const seen = (id: string): [string | undefined, string | undefined, string | null] => {
  const f = top(readFileSync(path.join(DIR, `${id}.log`), 'utf8'));
  return [f?.class, f?.exception, f?.location ? `${f.location.file}:${f.location.line}` : null];
};

describe("EUnit's frames: the deepest of the project's own, then its callers", () => {
  it("an undefined function (`in function codec:encode/2`, no file): its caller in the test, not the next test's frame (no place before)", () => {
    expect(seen('erlang-eunit-undef')).toEqual(['test-error', 'undef', 'test/codec_tests.erl:5']);
  });

  it("an error raised in the standard library (`lists:nth/2 (lists.erl, line 198)`): the project's caller in src/, not lists.erl (lists.erl:198 before)", () => {
    expect(seen('erlang-eunit-stdlib')).toEqual(['test-error', 'function_clause', 'src/tiers.erl:6']);
    const f = top(readFileSync(path.join(DIR, 'erlang-eunit-stdlib.log'), 'utf8'));
    expect([f?.location?.frames?.raise?.function, f?.location?.frames?.project?.function]).toEqual(['lists:nth/2', 'tiers:rate/2']);
  });

  it('an error raised in the module under test: its `in function` line, not its callers (as before)', () => {
    expect(seen('erlang-eunit-module')).toEqual(['test-error', '{badmatch,{error,enoent}}', 'src/router.erl:5']);
  });

  it("an assertion in a helper of the test module: the helper's line (as before)", () => {
    expect(seen('erlang-eunit-assert-helper')).toEqual(['test-assertion', 'assertEqual', 'test/money_tests.erl:5']);
  });

  it("a project module whose name starts like OTP's `code` (codec, codec_tests) is the project's, not the library's", () => {
    const f = top(readFileSync(path.join(DIR, 'erlang-eunit-undef.log'), 'utf8'));
    expect(f?.location?.frames?.project?.function).toBe('codec_tests:roundtrip_test/0');
  });

  it('real log (round 22, tuned: eunit-undef-function-arity-changed-long): the test\'s `in call from` line under the undefined function', () => {
    expect(TUNED_CASES).toContain('eunit-undef-function-arity-changed-long');
    const f = top(readFileSync(path.join(REALFAIL_ROOT, 'eunit-undef-function-arity-changed-long', 'fail.log'), 'utf8'));
    expect([f?.class, f?.location?.file, f?.location?.line]).toEqual(['test-error', 'test/codec_tests.erl', 5]);
  });
});
