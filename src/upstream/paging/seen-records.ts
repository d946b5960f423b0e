/**
 * Fingerprints of the records a fetch accepted, each with the offset of its page: the
 * repeated-page check asks, for every record, whether another page carried it. An open-addressing
 * table in two typed arrays instead of a Map: a Map keyed by 53-bit numbers boxes every key
 * (a heap number per record) and its entries are objects the garbage collector walks; here a
 * record costs 12 bytes of flat memory and no allocation.
 */
export class SeenRecords {
  /** Fingerprints plus one (0 marks an empty slot, see key()). */
  private keys: Float64Array;
  /** Offset of the page each fingerprint came from. */
  private offsets: Float64Array;
  private size = 0;

  /** `expected`: records the fetch expects (walk.ts), held before the table grows: a
   *  100-record report's table is 4 KB, not the 16 KB every fetch made. */
  constructor(expected = 512) {
    let slots = 64;
    while (slots < 2 * expected) slots *= 2;
    this.keys = new Float64Array(slots);
    this.offsets = new Float64Array(slots);
  }

  /** The offset of the page that carried `id` first; or, when none did, records `offset` for it. */
  getOrSet(id: number, offset: number): number | undefined {
    const k = key(id);
    const mask = this.keys.length - 1;
    for (let i = slot(k, mask); ; i = (i + 1) & mask) {
      const there = this.keys[i];
      if (there === k) return this.offsets[i];
      if (there === 0) {
        this.keys[i] = k;
        this.offsets[i] = offset;
        if (++this.size * 2 > this.keys.length) this.grow();
        return undefined;
      }
    }
  }

  private grow(): void {
    const [keys, offsets] = [this.keys, this.offsets];
    this.keys = new Float64Array(keys.length * 2);
    this.offsets = new Float64Array(keys.length * 2);
    const mask = this.keys.length - 1;
    for (let j = 0; j < keys.length; j++) {
      const k = keys[j];
      if (k === 0) continue;
      let i = slot(k, mask);
      while (this.keys[i] !== 0) i = (i + 1) & mask;
      this.keys[i] = k;
      this.offsets[i] = offsets[j];
    }
  }
}

/** Fingerprints are integers in [0, 2^53): stored plus one (still exact), 0 meaning empty. */
function key(id: number): number {
  return id + 1;
}

/** The low 32 bits of a fingerprint are well mixed (its second hash): its slot. */
function slot(k: number, mask: number): number {
  return (k % 0x100000000) & mask;
}
