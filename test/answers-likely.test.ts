/**
 * A finding's likely class (core/finding/classModel.ts) in the answers: a guess beside `class: unknown`,
 * never stated as the cause (backend/answer/local/likely.ts). "Why did it fail?" keeps "I could not tell from
 * the log what kind of failure it is" and adds one hedged sentence whose words are cited at their lines; "how do I
 * fix it?" offers the class's first step as a condition; the openai prompt marks it as a guess; the
 * watcher's one-line cause does not carry it. The claim checker passes the hedged sentences and flags the
 * class named as fact.
 */
import { composeLocalAnswer } from '../backend/answer/local/index.js';
import { findingsSection } from '../backend/answer/prompt.js';
import { findingLine } from '../core/finding/text.js';
import { cleanLines } from '../core/log/clean.js';
import { analyzedChatContext } from './answerFixtures.js';
import { checkAnswer } from './helpers/claimChecks.js';
import type { ChatContext } from '../backend/answer/engine.js';
import type { Finding } from '../protocol/types.js';

const LOG = [
  '[ci] $ /bin/bash -xe ci.sh',
  '+ tidyup check',
  'tidyup: missing dependencies: module foo not found on the module path',
  'tidyup: resolve the missing dependencies or pass --ignore-missing-deps',
  "Build step 'Execute shell' marked build as failure",
  'Finished: FAILURE',
].join('\n');

function context(likely?: Finding['likely_class']): { ctx: ChatContext; lines: string[]; top: Finding } {
  const ctx = analyzedChatContext({ buildDetails: { result: 'FAILURE' } }, LOG);
  const top = (ctx.failureExcerpts[0] as { finding?: Finding }).finding as Finding;
  if (likely === undefined) delete top.likely_class;
  else top.likely_class = likely;
  return { ctx, lines: cleanLines(LOG), top };
}
const GUESS = { class: 'dependency-resolution', probability: 0.9999, words: ['dependencies', 'resolve', 'deps'] } as const;
const ask = async (ctx: ChatContext, q: string): Promise<string> => (await composeLocalAnswer(q, ctx)).text;

describe('a likely class in the answers', () => {
  it('the analyzer gives a made-up log like this one no class and a likely one (the landed table)', () => {
    // the class model reads the error's block and the lines above it (helper ml4): a resolver's words there
    const guessed = ['[ci] $ /bin/bash -xe ci.sh', '+ tidyup install', 'Resolving dependencies of module app', 'Downloading module index from the repository', ...LOG.split('\n').slice(2)].join('\n');
    const ctx = analyzedChatContext({ buildDetails: { result: 'FAILURE' } }, guessed);
    const f = (ctx.failureExcerpts[0] as { finding?: Finding }).finding;
    expect(f?.class).toBe('unknown');
    expect(f?.likely_class?.class).toBe('dependency-resolution');
  });

  it('"why did it fail?": the cause not established, and one hedged sentence citing where its words are', async () => {
    const { ctx, lines } = context({ ...GUESS, words: [...GUESS.words] });
    const why = await ask(ctx, 'why did the build fail?');
    expect(why).toContain('I could not tell from the log what kind of failure it is.');
    expect(why).not.toContain('nothing in it establishes what caused it');
    expect(why).toContain("It looks like a dependency resolution failure (the words `dependencies` [L3-L3], `resolve` [L4-L4], `deps` [L4-L4]), but no rule's evidence establishes it.");
    expect(why.match(/It looks like/g)).toHaveLength(1);
    expect(why).not.toMatch(/first real error/);
    expect(checkAnswer('why did the build fail?', why, lines, ctx)).toEqual([]);
  });

  it('"how do I fix it?": the class\'s first step as a condition, never the class\'s remedy', async () => {
    const { ctx, lines } = context({ ...GUESS, words: [...GUESS.words] });
    const fix = await ask(ctx, 'how do I fix it?');
    expect(fix).toContain("If it is a dependency resolution failure (as its words suggest; no rule's evidence establishes it), check that the dependency");
    expect(fix).not.toMatch(/How to fix a dependency resolution failure/);
    expect(checkAnswer('how do I fix it?', fix, lines, ctx)).toEqual([]);
  });

  it('without a likely class the answers say nothing of one', async () => {
    const { ctx } = context();
    expect(await ask(ctx, 'why did the build fail?')).not.toMatch(/It looks like|dependency resolution/);
    expect(await ask(ctx, 'how do I fix it?')).not.toMatch(/If it is/);
  });

  it('a word the log does not hold near the message is not cited (and not said)', async () => {
    const { ctx } = context({ ...GUESS, words: ['artifact', 'resolve'] });
    const why = await ask(ctx, 'why did the build fail?');
    expect(why).toContain('(the word `resolve` [L4-L4])');
    expect(why).not.toContain('artifact');
  });

  it('the openai prompt marks it as a guess; the watcher\'s one-line cause does not carry it', () => {
    const { ctx, top } = context({ ...GUESS, words: [...GUESS.words] });
    expect(findingsSection(ctx)).toContain('- class: unknown (low confidence)');
    expect(findingsSection(ctx)).toContain("- likely class (a GUESS from the excerpt's words dependencies, resolve, deps; no rule's evidence establishes it, never state it as the cause): dependency-resolution");
    expect(findingLine(top)).toMatch(/^Error \(cause not established\): /);
    expect(findingLine(top)).not.toMatch(/dependency/i);
  });

  it('the claim checker: the likely class named as fact is a claim, hedged it is not', () => {
    const { ctx, lines } = context({ ...GUESS, words: [...GUESS.words] });
    const kinds = (text: string): string[] => checkAnswer('why did the build fail?', text, lines, ctx).map((p) => p.kind);
    expect(kinds('The build failed on a dependency resolution failure.')).toEqual(['guess-stated']);
    expect(kinds('It looks like a dependency resolution failure, so fix the version.')).toEqual(['guess-stated']);
    expect(kinds("It looks like a dependency resolution failure (the word `resolve` [L4-L4]), but no rule's evidence establishes it.")).toEqual([]);
    expect(kinds("If it is a dependency resolution failure (as its words suggest; no rule's evidence establishes it), check the version.")).toEqual([]);
  });
});

describe('a yes/no question about the kind of failure, on a finding with only a likely class', () => {
  it('the kind of the guess: "Maybe", the hedged sentence; another kind: "No"', async () => {
    const { ctx, lines } = context({ ...GUESS, words: [...GUESS.words] });
    const maybe = await ask(ctx, 'was it a dependency problem?');
    expect(maybe).toMatch(/^\*\*Maybe — no rule establishes it:\*\* the first line that looks like an error is \[L3-L3\]: .*It looks like a dependency resolution failure \(the words/);
    expect(checkAnswer('was it a dependency problem?', maybe, lines, ctx)).toEqual([]);
    expect(await ask(ctx, 'was it a network problem?')).toMatch(/^\*\*No — nothing in the log's errors points to/);
    // Without the guess, the dependency question gets the plain "No" too.
    expect(await ask(context().ctx, 'was it a dependency problem?')).toMatch(/^\*\*No — /);
  });
});

describe("a rules' class said at medium or low confidence is worded as likely (likely.ts classHedge)", () => {
  // A made-up javac error: the analyzer's class and its confidence, then the same finding at other confidences.
  const JAVAC = ['[ci] $ /bin/bash -xe ci.sh', '+ mvn -B -q package', '[ERROR] /w/src/main/java/a/B.java:[12,5] cannot find symbol', '[ERROR]   symbol:   method totl()', "Build step 'Execute shell' marked build as failure", 'Finished: FAILURE'].join('\n');
  const at = (confidence: Finding['confidence']): ChatContext => {
    const ctx = analyzedChatContext({ buildDetails: { result: 'FAILURE' } }, JAVAC);
    const top = (ctx.failureExcerpts[0] as { finding?: Finding }).finding as Finding;
    top.confidence = confidence;
    return ctx;
  };
  it('high: no hedge; medium: "likely rather than certain" in both answers; low: "a guess" in why', async () => {
    const high = at('high');
    expect(((high.failureExcerpts[0] as { finding?: Finding }).finding as Finding).class).toBe('compile-error');
    expect(await ask(high, 'why did the build fail?')).not.toMatch(/likely rather than certain|take it as a guess/);
    expect(await ask(high, 'how do I fix it?')).not.toMatch(/likely rather than certain|take it as a guess/);
    const medium = at('medium');
    expect(await ask(medium, 'why did the build fail?')).toMatch(/\*\*What it means:\*\* .*The evidence for this kind of failure is not conclusive, so take it as likely rather than certain\./);
    expect(await ask(medium, 'how do I fix it?')).toContain('take it as likely rather than certain');
    const low = at('low');
    const why = await ask(low, 'why did the build fail?');
    expect(why).toMatch(/\*\*What it means:\*\* .*That reading of the kind of failure rests on weak evidence: take it as a guess, not as established\./);
    expect(checkAnswer('why did the build fail?', why, cleanLines(JAVAC), low)).toEqual([]);
  });
});
