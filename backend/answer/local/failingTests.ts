/** "Which tests failed?": the test report's counts and names, else the names the log and the findings show (split from failure.ts). */
import { buildLabel } from '../facts.js';
import { cite, clip, failingTestsIn, storedLogSpan, inlineCode, findLine, type LogSpan } from '../logtext.js';
import { type Composer, ReplyBuilder, notSaid } from './reply.js';
import type { ChatContext } from '../engine.js';
import { errorExcerpts, retrieveSafely, quote, hasLog, lineTextOf } from './logHelpers.js';
import { unloadedLead, unloadedTestFile } from './unloadedTestFile.js';
import { findingFor } from './findingText.js';
import { spanWithMessage } from './focus.js';

export const tests: Composer = async (ask) => {
  const { ci, ctx } = ask;
  const out = new ReplyBuilder();
  const build = buildLabel(ci);
  const counts = ci.buildDetails?.testResults;
  // Names come from the whole log when the context carries it, else from what the analyzer and
  // retrieval point at.
  const stored = storedLogSpan(ctx);
  const spans: LogSpan[] = [
    ...(stored ? [stored] : []),
    ...ctx.failureExcerpts,
    // With the whole log at hand there is nothing left to retrieve.
    ...(stored?.start_line === 1 ? [] : await retrieveSafely(ctx, 'failed tests FAIL FAILED test failure assertion', 6)),
  ];
  const failing = failingTestsIn(spans);
  const reported = reportedFailingTests(counts);
  // The findings name the failing test where the log's shapes for names do not (a pytest
  // header, a Go `--- FAIL`): "no failing test names" would deny what the log shows (issue 25).
  const named = failing.length > 0 || reported.length > 0 ? [] : testsOfFindings(ctx);
  // Surefire names a test twice (`C.m` in its summary, `pkg.C.m` above), and pytest too (`test_x` in an
  // `ERROR at setup of` header, `tests/test_a.py::test_x` in its short summary): one test, not two.
  const once = (list: { name: string; line: number }[]) => list.filter((t, i) => !list.some((u, j) => j !== i && u.name.length > t.name.length && ['.', '#', '::'].some((sep) => u.name.endsWith(`${sep}${t.name}`))));
  const names = reported.length > 0 ? reported.map((name) => ({ name, line: 0 })) : once(failing.length > 0 ? failing : named);
  // Test files that did not load, which node's runner counts as one failed test each (unloadedTestFile.ts, ux11).
  const lineText = stored ? lineTextOf(ctx, stored) : () => undefined;
  const unloaded = counts || reported.length > 0 ? [] : names.flatMap((t) => unloadedTestFile(lineText, t.name, t.line) ?? []);

  if (counts && (typeof counts.total === 'number' || typeof counts.failed === 'number')) {
    out.fact('buildDetails.testResults');
    const failed = counts.failed ?? 0;
    const total = typeof counts.total === 'number' ? counts.total : undefined;
    const skipped = typeof counts.skipped === 'number' && counts.skipped > 0 ? ` (${counts.skipped} skipped)` : '';
    if (failed === 0) {
      out.line(`**${total !== undefined ? `All ${total} tests passed` : 'No tests failed'}** in ${build}${skipped}.`);
    } else {
      const of = total !== undefined ? ` of ${total}` : '';
      out.line(`**${failed}${of} test${failed === 1 && !of ? '' : 's'} failed** in ${build}${skipped}.`);
    }
  } else if (names.length > 0) {
    if (unloaded.length > 0) {
      out.line(unloadedLead(unloaded, names.length - unloaded.length, build, lineText));
      for (const u of unloaded) out.log({ start_line: u.failureType, end_line: u.exitCode });
    } else out.line(`**The log shows ${names.length} failing test${names.length === 1 ? '' : 's'}** in ${build}:`);
    const summary = testSummaryIn(stored);
    if (summary) {
      out.line(`Its test summary ${cite(summary)}: ${inlineCode(clip(summary.text))}`);
      out.log(summary);
    }
  } else if (!hasLog(ctx)) {
    return notSaid(`which tests failed in ${build}`, 'It holds no test report and no build log.');
  } else {
    const summary = testSummaryIn(stored);
    if (summary) {
      out.line(`The uploaded context has no test report for ${build}; **the log's test summary** ${cite(summary)} reads ${inlineCode(clip(summary.text))}, and I found no failing test names in the log.`);
      out.log(summary);
      return out.reply();
    }
    out.line(`The uploaded context has no test report for ${build}, and I found no failing test names in its log.`);
    const top = errorExcerpts(ctx)[0];
    if (top) {
      out.line();
      out.line(`The first error in the log is ${cite(top)}:`);
      quote(out, top, 12);
    }
    return out.reply();
  }

  if (names.length > 0) {
    out.line();
    if (counts) out.line('Failing tests:');
    for (const t of names) {
      const where = t.line > 0 ? ` ${cite({ start_line: t.line, end_line: t.line })}` : '';
      out.line(`- ${inlineCode(t.name)}${where}${unloaded.some((u) => u.line === t.line) ? ' (did not load: its tests did not run)' : ''}`);
      if (t.line > 0) out.log({ start_line: t.line, end_line: t.line });
    }
    if (reported.length > 0) out.fact('buildDetails.testResults.failedTests');
  } else if (counts && (counts.failed ?? 0) > 0) {
    out.line();
    out.line("The test report does not name them and I couldn't find their names in the log.");
  }
  // The first test-shaped failure excerpt shows how the tests failed.
  const testExcerpt =
    errorExcerpts(ctx).slice(0, 5).find((e) => findingFor(ctx, e).test !== undefined) ?? errorExcerpts(ctx).find((e) => failingTestsIn([e], 1).length > 0 || /test/i.test(e.reason));
  if (testExcerpt && (counts?.failed ?? names.length) > 0) {
    out.line();
    out.line(unloaded.length > 0 && unloaded.length === names.length ? 'Why it did not load:' : 'How the first one failed:');
    // With its message when the runner printed it above the excerpt (`go test -v`: the check's line over `--- FAIL:`, ux7).
    quote(out, spanWithMessage(ctx, testExcerpt, findingFor(ctx, testExcerpt)), 15);
  }
  return out.reply();
};

/** The failing tests the top excerpts' findings name, in order, each once. */
function testsOfFindings(ctx: ChatContext): { name: string; line: number }[] {
  const out: { name: string; line: number }[] = [];
  for (const e of errorExcerpts(ctx).slice(0, 5)) {
    const t = findingFor(ctx, e).test;
    if (t && !out.some((x) => x.name === t.name)) out.push({ name: t.name, line: t.log_line });
  }
  return out;
}

/** Test runners' closing count lines (Maven, Jest, pytest, Gradle, dotnet, Go): the log's own test report. */
const TEST_SUMMARY =
  /^(?:\[(?:INFO|ERROR|WARNING)\] )?Tests run: \d+, Failures: \d+, Errors: \d+, Skipped: \d+\s*$|^Tests:\s+.*\d+ total|^=*\s*(?:\d+ failed, )?\d+ passed.* in [\d.]+s|\d+ tests? completed, \d+ failed|^(?:Passed|Failed)!\s+-\s+Failed:|^Total tests: \d+|^(?:ok|FAIL)\s+\S+\s+[\d.]+s$/;

function testSummaryIn(stored: LogSpan | undefined): LogSpan | undefined {
  const hit = findLine(stored, TEST_SUMMARY, { fromEnd: true });
  return hit ? { start_line: hit.line, end_line: hit.line, text: hit.text } : undefined;
}

/** Failing test names a test report may carry beside its counts (`failedTests: [...]`). */
function reportedFailingTests(counts: Record<string, unknown> | undefined): string[] {
  const list = counts?.['failedTests'];
  if (!Array.isArray(list)) return [];
  return list
    .map((item: unknown) => {
      if (typeof item === 'string') return item;
      if (item && typeof item === 'object' && 'name' in item && typeof item.name === 'string') {
        // The JUnit report names the class apart (`className`, issue 26): `Class.test`.
        const cls = 'className' in item && typeof item.className === 'string' && item.className !== '' ? `${item.className.replace(/^.*\./, '')}.` : '';
        return `${cls}${item.name}`;
      }
      return undefined;
    })
    .filter((name): name is string => name !== undefined)
    .slice(0, 30);
}
