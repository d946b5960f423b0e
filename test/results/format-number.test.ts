import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../src/results/values.js';

const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });

describe('formatNumber', () => {
  it('writes every number as Intl en-US does (whole numbers are grouped without it)', () => {
    const edges = [0, -0, 1, -1, 999, 1000, -1000, 999_999, 1_000_000, -12_345_678, 2 ** 53 - 1, -(2 ** 53 - 1)];
    const beyond = [2 ** 53, 1e21, -1e21, 1.5, -0.000_000_4, 1234567.891, NaN, Infinity, -Infinity];
    for (const n of [...edges, ...beyond]) expect(formatNumber(n)).toBe(intl.format(n));
    fc.assert(
      fc.property(fc.oneof(fc.maxSafeInteger(), fc.integer(), fc.double()), (n) => {
        expect(formatNumber(n)).toBe(intl.format(n));
      }),
      { numRuns: 5_000 },
    );
  });
});
