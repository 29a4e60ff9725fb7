import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../protocol/types.js';
import { belowHighHolds, calibrated, highHolds, supported, wordsProbability } from './calibration.js';
import { CALIBRATION } from './calibrationTable.js';
import { classTokens, posteriors, trainTable } from './classModel.js';

/**
 * Calibration (calibration.ts, docs/notes/analyzer.md "Calibration (helper cal1, session 45)"): a rule's `high` stands
 * only when the excerpt's words give its class a posterior of at least `highAt`; the class never changes, medium and
 * low are never touched, and the rules' own tokens (`#rule:`, `#conf:`) are not what is read.
 */

/** A small table: network's words and compile-error's words, each class with its own `#rule:` token (as in-sample, where the rules are right). */
const TABLE = trainTable(
  [
    ...Array.from({ length: 6 }, () => ({ tokens: ['connect', 'refus', 'host', '#rule:network', '#conf:high'], label: 'network' as const })),
    ...Array.from({ length: 6 }, () => ({ tokens: ['undeclar', 'identifi', 'first', '#rule:compile-error', '#conf:high'], label: 'compile-error' as const })),
  ],
  ['compile-error', 'network', 'unknown'],
  0.9,
  2,
);

const finding = (cls: Finding['class'], confidence: Finding['confidence'], message: string): Finding => ({ class: cls, message, message_line: 1, confidence, evidence: [1] });
const span = { start_line: 1, end_line: 1 };

describe('calibration of a finding at high', () => {
  it('lowers a high whose words read as another class to medium, keeping the class and saying the rule said high', () => {
    const lines = ['error: connect to host refused'];
    const f = finding('compile-error', 'high', lines[0] as string);
    const out = calibrated(lines, span, f, TABLE, 0.1);
    expect(out).toEqual({ ...f, confidence: 'medium', rules_confidence: 'high' });
    // The finding passed in is not changed.
    expect(f.confidence).toBe('high');
  });

  it('keeps a high whose words agree with its class', () => {
    const lines = ["a.c:3:5: error: 'x' undeclared identifier (first use in this function)"];
    const f = finding('compile-error', 'high', lines[0] as string);
    expect(calibrated(lines, span, f, TABLE, 0.1)).toBe(f);
  });

  it('never touches medium, low or unknown (nor decodes a table for them), never raises one', () => {
    const throwing = new Proxy({}, { get: () => { throw new Error('table read'); } }) as never;
    const lines = ['error: connect to host refused'];
    for (const f of [finding('compile-error', 'medium', lines[0] as string), finding('network', 'low', lines[0] as string), finding('unknown', 'low', lines[0] as string)]) {
      expect(calibrated(lines, span, f, throwing, 0.1)).toBe(f);
    }
  });

  it('reads the words alone: the rules\' own class and confidence tokens are left out', () => {
    const lines = ['error: connect to host refused'];
    const tokens = classTokens(lines, span, finding('compile-error', 'high', lines[0] as string));
    expect(tokens).toContain('#rule:compile-error');
    const p = wordsProbability(TABLE, tokens, 'compile-error');
    // `#rule:compile-error` (held by compile-error's cases only) would weigh for the rules' class: it is not read.
    expect(posteriors(TABLE, tokens).get('compile-error')).toBeGreaterThan(p * 2);
    expect(p).toBeLessThan(0.1);
    expect(wordsProbability(TABLE, tokens, 'network')).toBeGreaterThan(0.5);
    expect(wordsProbability(TABLE, tokens.filter((t) => !t.startsWith('#rule:') && !t.startsWith('#conf:')), 'compile-error')).toBe(p);
  });

  it('the threshold decides: at 0 nothing is lowered, at the generated highAt as the table says', () => {
    const lines = ['error: connect to host refused'];
    const f = finding('compile-error', 'high', lines[0] as string);
    expect(calibrated(lines, span, f, TABLE, 0)).toBe(f);
    expect(highHolds(0.05, 0.1)).toBe(false);
    expect(highHolds(0.1, 0.1)).toBe(true);
    expect(CALIBRATION.highAt).toBeGreaterThan(0);
    expect(CALIBRATION.highAt).toBeLessThan(0.5);
  });

  it("the class model reads a lowered finding's confidence as the rule gave it (`#conf:high`), so its table does not depend on calibration", () => {
    const lines = ['error: connect to host refused'];
    const lowered: Finding = { ...finding('compile-error', 'medium', lines[0] as string), rules_confidence: 'high' };
    expect(classTokens(lines, span, lowered)).toEqual(classTokens(lines, span, finding('compile-error', 'high', lines[0] as string)));
  });
});

describe('a class said below high that the words do not support (supported)', () => {
  const lines = ['error: connect to host refused'];

  it('sets a medium or low class whose words read as another class aside: unknown, the rule\'s class and level kept, the words\' class as a likely one', () => {
    for (const level of ['medium', 'low'] as const) {
      const f = finding('compile-error', level, lines[0] as string);
      // At the table's naive Bayes' own temperature the words make network sure (at 2 its posterior is 0.87, below 0.9).
      const out = supported(lines, span, f, { ...TABLE, temperature: 1 }, 0.25);
      expect(out).toMatchObject({ class: 'unknown', confidence: 'low', rules_class: 'compile-error', rules_confidence: level, message: f.message, message_line: 1, evidence: [1] });
      expect(out.likely_class?.class).toBe('network');
      expect(out.likely_class?.probability).toBeGreaterThanOrEqual(0.9);
      // The finding passed in is not changed.
      expect(f.class).toBe('compile-error');
    }
  });

  it('leaves a high that calibration lowered to medium as it is (its medium is the hedge)', () => {
    const lowered = calibrated(lines, span, finding('compile-error', 'high', lines[0] as string), TABLE, 0.1);
    expect(lowered).toMatchObject({ class: 'compile-error', confidence: 'medium', rules_confidence: 'high' });
    expect(supported(lines, span, lowered, TABLE, 0.25)).toBe(lowered);
  });

  it('keeps a medium whose words agree, and never touches a high or an unknown (the threshold decides; 0 sets nothing aside)', () => {
    const agree = ["a.c:3:5: error: 'x' undeclared identifier (first use in this function)"];
    const f = finding('compile-error', 'medium', agree[0] as string);
    expect(supported(agree, span, f, TABLE, 0.25)).toBe(f);
    const throwing = new Proxy({}, { get: () => { throw new Error('table read'); } }) as never;
    for (const g of [finding('compile-error', 'high', lines[0] as string), finding('unknown', 'low', lines[0] as string)]) expect(supported(lines, span, g, throwing, 0.25)).toBe(g);
    const m = finding('compile-error', 'medium', lines[0] as string);
    expect(supported(lines, span, m, TABLE, 0)).toBe(m);
    expect(belowHighHolds(0.2, 0.25)).toBe(false);
    expect(belowHighHolds(0.25, 0.25)).toBe(true);
    expect(CALIBRATION.keepAt).toBeGreaterThan(0);
    expect(CALIBRATION.keepAt).toBeLessThanOrEqual(0.5);
  });

  it('never names the class it set aside as the likely one, and the class model reads a set-aside finding as the rule gave it', () => {
    // Words that read as nothing the table knows well: no likely class, and certainly not the rule's own.
    const vague = ['something went wrong here'];
    const out = supported(vague, span, finding('network', 'medium', vague[0] as string), TABLE, 0.99);
    expect(out).toMatchObject({ class: 'unknown', rules_class: 'network' });
    expect(out.likely_class?.class).not.toBe('network');
    const aside = supported(lines, span, finding('compile-error', 'medium', lines[0] as string), TABLE, 0.25);
    expect(classTokens(lines, span, aside)).toEqual(classTokens(lines, span, finding('compile-error', 'medium', lines[0] as string)));
  });
});
