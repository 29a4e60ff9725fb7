/** The `openai` engine's prompt carries the findings as structured facts ahead of the passages (issue 25, point 6). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { buildPrompt, findingsSection, rankPassages } from '../backend/answer/prompt.js';
import { analyzedChatContext } from './answerFixtures.js';
import type { CiContextUpload } from '../protocol/schemas.js';
import type { Finding } from '../protocol/types.js';

const log = readFileSync(path.join(process.cwd(), 'test', 'fixtures', 'logs', 'python-script.log'), 'utf8');

describe('findings in the openai prompt', () => {
  const ctx = analyzedChatContext({ buildDetails: { result: 'FAILURE', consoleLog: log } } as CiContextUpload, log);
  const prompt = buildPrompt({ question: 'why did it fail?', history: [], context: ctx, passages: rankPassages(ctx.failureExcerpts, [], true), contextTokens: 8000 });
  const system = prompt.messages[0]?.content ?? '';

  it('lists class, message, location chain and evidence, cited, before the excerpts', () => {
    const findings = system.indexOf('## Findings');
    const excerpts = system.indexOf('## Build log excerpts');
    expect(findings).toBeGreaterThan(0);
    expect(excerpts).toBeGreaterThan(findings);
    const section = system.slice(findings, excerpts);
    expect(section).toContain('- class: runtime-exception (high confidence)');
    expect(section).toMatch(/- message: KeyError: 'cron' \[L\d+-L\d+\]/);
    expect(section).toMatch(/- exception: KeyError/);
    expect(section).toMatch(/- location: \/tmp\/gen\/pyscript\/deploy\.py:13 \[L\d+-L\d+\]/);
    expect(section).toMatch(/- raise site: \/tmp\/gen\/pyscript\/deploy\.py:13/);
    expect(section).toMatch(/- evidence lines: L\d+/);
    // No assertion is claimed for an exception.
    expect(section).not.toMatch(/assert/i);
  });

  it("says a rule's high that calibration lowered as likely, not certain (core/finding/calibration.ts)", () => {
    const finding = (ctx.failureExcerpts[0] as { finding?: Finding }).finding as Finding;
    const lowered = { ...ctx, failureExcerpts: [{ ...ctx.failureExcerpts[0]!, finding: { ...finding, confidence: 'medium' as const, rules_confidence: 'high' as const } }, ...ctx.failureExcerpts.slice(1)] };
    const section = findingsSection(lowered);
    expect(section).toContain("- class: runtime-exception (medium confidence: a rule read it as runtime-exception, but the excerpt's other words read more like another class, so say it as likely, not certain)");
    expect(findingsSection(ctx)).toContain('- class: runtime-exception (high confidence)\n');
  });

  it('tells the model to start from the findings', () => {
    expect(system).toMatch(/"Findings" section is what the log analyzer established/);
  });

  it('drops the findings before the budget is blown', () => {
    const tiny = buildPrompt({ question: 'why?', history: [], context: ctx, passages: [], contextTokens: 300 });
    expect(tiny.estimatedTokens).toBeLessThan(600);
  });
});
