/**
 * Random bytes drawn a block at a time (src/results/random-bytes.ts): each call gives bytes of
 * its own, never a view of the block and never bytes given before, across blocks too.
 */
import { describe, expect, it } from 'vitest';
import { pooledRandomBytes } from '../../src/results/random-bytes.js';

describe('pooledRandomBytes', () => {
  it('gives each call bytes no other call was given, across several blocks', () => {
    const seen = new Set<string>();
    // 2,000 nonces of 12 bytes: six blocks of 4,096 bytes.
    for (let i = 0; i < 2_000; i++) {
      const b = pooledRandomBytes(12);
      expect(b.length).toBe(12);
      seen.add(b.toString('hex'));
    }
    expect(seen.size).toBe(2_000);
  });

  it('gives a copy: writing to one leaves the next and the block alone', () => {
    const a = pooledRandomBytes(16);
    const before = Buffer.from(a);
    const b = pooledRandomBytes(16);
    const bBefore = Buffer.from(b);
    b.fill(0);
    expect(a.equals(before)).toBe(true);
    a.fill(0);
    expect(b.equals(Buffer.alloc(16))).toBe(true);
    expect(bBefore.equals(Buffer.alloc(16))).toBe(false);
    const c = pooledRandomBytes(16);
    expect(c.equals(Buffer.alloc(16))).toBe(false);
  });

  it('draws every byte value, and answers a large request whole', () => {
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 1_000; i++) for (const byte of pooledRandomBytes(32)) counts[byte]++;
    // 32,000 bytes: about 125 of each value; none missing, none far off.
    expect(Math.min(...counts)).toBeGreaterThan(60);
    expect(Math.max(...counts)).toBeLessThan(200);
    const big = pooledRandomBytes(100_000);
    expect(big.length).toBe(100_000);
    expect(new Set(big).size).toBe(256);
  });
});
