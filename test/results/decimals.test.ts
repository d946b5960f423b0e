import { describe, expect, it } from 'vitest';
import { decimalsOf, maxDecimals } from '../../src/results/values.js';

/** A stream of pseudo-random 32-bit integers (no Math.random: a failure must replay). */
function draws(seed: number): () => number {
  let h = seed;
  return () => {
    h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) + 0x6d2b79f5;
    h = Math.imul(h ^ (h >>> 12), 0x297a2d39);
    return (h ^ (h >>> 15)) >>> 0;
  };
}

describe('the decimals a sum keeps', () => {
  it('are those of writing every value out, without writing out those that have no more', () => {
    const next = draws(7);
    const values: unknown[] = [0, -0, 1, -1, 0.1, 0.2, 0.30000000000000004, 1e21, 1.5e-7, 123456789.12, 2 ** 53, NaN];
    for (let i = 0; i < 20_000; i++) {
      const cents = next() % 10_000_000;
      const scale = 10 ** (next() % 8);
      values.push(cents / scale, -cents / scale, (next() / 2 ** 32) * 10 ** (next() % 20), `${cents / scale}`);
    }
    values.push(Number.MAX_VALUE, Number.MIN_VALUE, Infinity, '12.500', 'x');
    const differ: string[] = [];
    for (let d = 0; d <= 17; d++)
      for (const v of values) if (maxDecimals(d, v) !== Math.max(d, decimalsOf(v))) differ.push(`${d} ${String(v)}`);
    expect(differ).toEqual([]);
  });
});
