/**
 * Seeded pseudo-random numbers for the sandbox (mulberry32). Same seed, same sequence, on
 * every platform: all synthetic data, latency jitter and random faults come from here.
 */

/** Mixes any number of numbers/strings into one 32-bit seed (FNV-1a, then a murmur finaliser). */
export function hashSeed(...parts: Array<number | string>): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    const text = typeof part === 'number' ? `#${part}` : `$${part}`;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks by weight: `[[value, weight], ...]`. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let r = this.next() * total;
    for (const [value, w] of items) {
      r -= w;
      if (r < 0) return value;
    }
    return items[items.length - 1][0];
  }

  /** `count` distinct items (or all of them when there are fewer). */
  sample<T>(items: readonly T[], count: number): T[] {
    if (count * 4 < items.length) {
      // Few out of many: draw indices, skipping repeats (no copy of a large pool).
      const picked = new Set<number>();
      const out: T[] = [];
      while (out.length < count) {
        const i = Math.floor(this.next() * items.length);
        if (!picked.has(i)) {
          picked.add(i);
          out.push(items[i]);
        }
      }
      return out;
    }
    const copy = items.slice();
    const out: T[] = [];
    while (out.length < count && copy.length > 0) {
      out.push(copy.splice(Math.floor(this.next() * copy.length), 1)[0]);
    }
    return out;
  }

  digits(count: number): string {
    let s = '';
    for (let i = 0; i < count; i++) s += String(Math.floor(this.next() * 10));
    return s;
  }

  chars(alphabet: string, count: number): string {
    let s = '';
    for (let i = 0; i < count; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }

  /** An independent stream derived from this generator's seed and a label. */
  static derive(seed: number, ...labels: Array<number | string>): Rng {
    return new Rng(hashSeed(seed, ...labels));
  }
}
