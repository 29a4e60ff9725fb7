/**
 * Session 48 (helper t23; docs/notes/analyzer.md "Session 48 (helper t23)"): round 22's escript row, read by the lead in
 * sessions 46-47, said Erlang's `case_clause` meant "an argument has the wrong type or value" and named the raise site
 * by escript's generated module (`summary_escript__escript__1795__...:tally/2`). Erlang's error reasons each have their
 * own meaning (a `case` with no clause for the value asks for that clause), and escript's module is the script's.
 */
import { describe, expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { exceptionHint } from '../backend/answer/local/exceptions.js';
import { analyze } from '../core/log/analyze.js';
import type { CiContextUpload } from '../protocol/schemas.js';
import type { Finding } from '../protocol/types.js';
import { analyzedChatContext } from './answerFixtures.js';
import { REALFAIL_ROOT, TUNED_CASES } from './helpers/realfail.js';

const GRAMMAR = path.join(process.cwd(), 'test', 'fixtures', 'grammar');
/** The answer's prose: fenced blocks quote the log and the source verbatim. */
const prose = (text: string): string => text.replace(/```[\s\S]*?```/g, '');

async function answers(log: string): Promise<{ why: string; fix: string }> {
  const ctx = analyzedChatContext({ buildDetails: { result: 'FAILURE', consoleLog: log } } as CiContextUpload, log);
  return { why: (await composeLocalAnswer('Why did the build fail?', ctx)).text, fix: (await composeLocalAnswer('How do I fix it?', ctx)).text };
}

describe("Erlang's error reasons, each with its own meaning", () => {
  const hint = (exception: string, message: string): string | undefined =>
    exceptionHint({ class: 'runtime-exception', message, exception, message_line: 1, confidence: 'high', evidence: [1] } as Finding);

  it("a `case` with no clause for the value asks for the clause, naming the value erl_error printed", () => {
    const h = hint('case_clause', 'escript: exception error: no case clause matching skipped');
    expect(h).toMatch(/no clause of the `case` matches the value \(`skipped`\): add a clause for it/);
    expect(h).not.toMatch(/wrong type or value/);
  });

  it('if_clause, try_clause, badarith, badkey: their own meanings; badarg keeps the wrong argument', () => {
    expect(hint('if_clause', 'exception error: no true branch found when evaluating an if expression')).toMatch(/no branch of the `if` was true/);
    expect(hint('try_clause', 'exception error: no try clause matching {error,timeout}')).toMatch(/`try \.\.\. of` matches the value \(`\{error,timeout\}`\)/);
    expect(hint('badarith', 'exception error: an error occurred when evaluating an arithmetic expression')).toMatch(/not a number/);
    expect(hint('badkey', 'exception error: bad key: amount')).toMatch(/map has no such key/);
    expect(hint('badarg', 'exception error: bad argument')).toMatch(/an argument has the wrong type or value/);
  });
});

describe("escript's generated module is the script's", () => {
  it('real output (test/fixtures/grammar): the answer names `label/1`, not the generated module', async () => {
    const log = readFileSync(path.join(GRAMMAR, 'erlang-escript-case-clause.log'), 'utf8');
    expect(analyze(log)[0]?.finding?.location?.frames?.raise?.function).toBe('label/1');
    const { why, fix } = await answers(log);
    expect(prose(why)).toMatch(/`label\/1`/);
    expect(prose(`${why}\n${fix}`)).not.toMatch(/_escript__escript__/);
    expect(fix).toMatch(/no clause of the `case` matches the value \(`skipped`\)/);
  });

  it('round 22 escript-case-clause-new-status: `tally/2`, called from `main/1`; the case asks for a clause for `skipped`', async () => {
    expect(TUNED_CASES).toContain('escript-case-clause-new-status');
    const { why, fix } = await answers(readFileSync(path.join(REALFAIL_ROOT, 'escript-case-clause-new-status', 'fail.log'), 'utf8'));
    expect(prose(why)).toMatch(/\(in `tally\/2`\)/);
    expect(prose(fix)).toMatch(/`tally\/2` \(where the error was raised\) was called from `main\/1`/);
    expect(prose(`${why}\n${fix}`)).not.toMatch(/_escript__escript__|wrong type or value/);
    expect(fix).toMatch(/add a clause for it/);
  });
});
