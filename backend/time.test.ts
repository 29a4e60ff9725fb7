import { describe, expect, it } from '@jest/globals';
import { isoTime } from './time.js';

describe('isoTime', () => {
  it('formats exactly as Date#toISOString on edges of days, years and the Date range', () => {
    const edges = [
      0, -1, 1, 999, 1000, 59_999, 60_000, 3_599_999, 3_600_000, 86_399_999, 86_400_000, -86_400_000, -86_400_001,
      951_782_400_000 /* 2000-02-29 */, 1_700_000_000_123, 253_402_300_799_999 /* 9999-12-31 */, 253_402_300_800_000,
      -62_167_219_200_001 /* year -1 */, 8.64e15, -8.64e15,
    ];
    for (const ms of edges) expect(isoTime(ms)).toBe(new Date(ms).toISOString());
  });

  it('agrees with Date#toISOString on 200k random times, however they were stored', () => {
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648);
    // Compared in a loop and judged once: 200k expect() calls alone took 11 s.
    const wrong: string[] = [];
    for (let i = 0; i < 200_000; i++) {
      const ms = Math.floor((random() * 2 - 1) * (i % 2 ? 8.64e15 : 4e12));
      const expected = new Date(ms).toISOString();
      if (isoTime(ms) !== expected) wrong.push(`${ms}: ${isoTime(ms)} != ${expected}`);
      if (i % 1000 === 0) {
        if (isoTime(String(ms)) !== expected) wrong.push(`"${ms}" (string): ${isoTime(String(ms))} != ${expected}`);
        if (isoTime(BigInt(ms)) !== expected) wrong.push(`${ms}n (bigint): ${isoTime(BigInt(ms))} != ${expected}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('throws on a time that is not one, like Date#toISOString', () => {
    expect(() => isoTime(Number.NaN)).toThrow(RangeError);
    expect(() => isoTime('not a time')).toThrow(RangeError);
    expect(() => isoTime(8.64e15 + 1)).toThrow(RangeError);
  });
});
