import { describe, expect, it } from '@jest/globals';
import { declaresJvmType, jvmTypeLine } from './jvmDecl.js';
import { jvmLinkageHits } from './jvmLinkage.js';

/** The one reader of a JVM type's declaration line (jvmDecl.ts; session 56, helper rv9). */
describe("a JVM type's declaration line", () => {
  it.each([
    ['public final class Ledger {', true],
    ['interface Ledger extends Base {', true],
    ['public enum Ledger implements Named {', true],
    ['record Ledger(long total) {}', true],
    ['object Ledger {', true],
    ['trait Ledger {', true],
    ['class LedgerEntry {', false],
    [' * The class Ledger keeps the totals.', false],
    ['// class Ledger moved to api/', false],
    ['String doc = "class Ledger";', false],
  ])('%s -> %s', (line, declares) => {
    expect(declaresJvmType(line, 'Ledger')).toBe(declares);
  });

  it('a class named with `$` (an inner class name) is matched literally', () => {
    expect(declaresJvmType('static class Entry$1 {', 'Entry$1')).toBe(true);
  });

  it("the linkage clue's class line is the declaration, not a comment above it that names the class (the second reader skipped no comment)", async () => {
    const lines = ['package dev.acme.api;', '', '/**', ' * Replaces the old class Ledger of the v1 API.', ' */', 'public class Ledger {', '  public static long total() { return 0; }', '}'];
    expect(jvmTypeLine(lines, 'Ledger')).toBe(5);
    const hits = await jvmLinkageHits(['api/src/main/java/dev/acme/api/Ledger.java'], async () => lines, "Exception in thread \"main\" java.lang.NoSuchMethodError: 'int dev.acme.api.Ledger.balance(java.lang.String)'", [], 1);
    expect(hits.map((h) => [h.index, h.message.includes('with no member named balance')])).toEqual([[5, true]]);
  });
});
