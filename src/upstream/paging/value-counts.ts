/**
 * The distinct values of each top-level field of a fetch's records, and how often each
 * occurs (docs/architecture.md, "One walk per record"). The record pass looks a value up
 * here once, and that one lookup does three jobs: it finds the copy of the value held
 * already (sharing), the decoded form of a date decoded once, and the count the summary
 * needs. Before, the same value went through a sharing table, a date memo and the summary's
 * own map: three to five lookups where one does.
 *
 * The table is our own, keyed by the hash the fingerprint computes of every value anyway
 * (fingerprint.ts): a V8 Map hashes each new string again and, for a field whose values
 * hardly repeat (identifiers, amounts, free text), grows to the result's size, where a
 * lookup missed the CPU's caches: the pass over bench records took 4.1 us/record with Maps
 * and 2.4 with these tables (docs/architecture.md).
 */

/** Values of one field, each under a code: an open-addressing table keyed by the values'
 *  hashes, with the values, their counts and their hashes in arrays indexed by code. */
export class FieldValues {
  /** slot -> code + 1 (0: empty); a power of two, at least twice the codes. */
  private slots = new Int32Array(32);
  private shift = 32 - 5;
  /** The value as sent, per code (a date as its /Date(...)/ text): what a lookup compares. */
  private readonly keys: unknown[] = [];
  /** The value as held, per code: the decoded text of a date, null for DateTime.MinValue. */
  readonly values: unknown[] = [];
  /** How often each code occurred, and the hash of the value as sent. */
  counts = new Int32Array(16);
  private hashes = new Int32Array(16);
  /** What can give one value two codes, which tally() then merges: a field holding decoded
   *  dates and either a date text that another text decodes alike (`/Date(0)/` and
   *  `/Date(0+0000)/`, see mayShareValue in record-pass.ts) or plain texts (one may be written
   *  as a decoded date is). */
  decodedDates = false;
  sharedDateForms = false;
  plainTexts = false;
  /** Codes of date texts that could not be decoded (held as sent): each occurrence is noted. */
  undecodable: Set<number> | undefined;
  /** Where the last find() that found nothing would put the value (see add). */
  private free = 0;

  constructor(
    readonly name: string,
    /** Its place in ValueCounts.fields. */
    readonly index: number,
  ) {}

  /** The code of `sent`, whose hash is `hash`, or -1 when it is not held. */
  find(sent: unknown, hash: number): number {
    const mask = this.slots.length - 1;
    for (let i = Math.imul(hash, 0x9e3779b1) >>> this.shift; ; i = (i + 1) & mask) {
      const c = this.slots[i];
      if (c === 0) {
        this.free = i;
        return -1;
      }
      if (this.hashes[c - 1] === hash && this.keys[c - 1] === sent) return c - 1;
    }
  }

  /** A value that find() just did not find: its code. */
  add(sent: unknown, held: unknown, hash: number): number {
    const code = this.values.length;
    this.keys.push(sent);
    this.values.push(held);
    if (code === this.counts.length) {
      this.counts = grown(this.counts, code * 2);
      this.hashes = grown(this.hashes, code * 2);
    }
    this.hashes[code] = hash;
    this.slots[this.free] = code + 1;
    if (2 * (code + 1) > this.slots.length) this.rehash();
    return code;
  }

  /** Twice the slots, every code put again by its hash. */
  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    this.shift--;
    const mask = this.slots.length - 1;
    for (let code = 0; code < this.values.length; code++) {
      let i = Math.imul(this.hashes[code], 0x9e3779b1) >>> this.shift;
      while (this.slots[i] !== 0) i = (i + 1) & mask;
      this.slots[i] = code + 1;
    }
  }

  clear(): void {
    this.slots = new Int32Array(32);
    this.shift = 32 - 5;
    this.keys.length = 0;
    this.values.length = 0;
    this.counts = new Int32Array(16);
    this.hashes = new Int32Array(16);
    this.undecodable = undefined;
  }
}

function grown(a: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(length);
  b.set(a);
  return b;
}

/** One field's counted values as the summary reads them: each distinct held value once. */
export interface FieldTally {
  values: unknown[];
  counts: number[];
}

/**
 * Every field's values for one fetch. Values are counted as the record pass meets them; a
 * page whose records are then replaced or dropped (masking, the pinned scope) is taken back
 * out with uncountPage(), so what is counted is exactly the pages kept as they were walked.
 */
export class ValueCounts {
  readonly fields: FieldValues[] = [];
  private readonly byName = new Map<string, FieldValues>();
  /** (field index, code) of every value counted in a table since beginPage(). */
  private log = new Int32Array(8192);
  private logged = 0;
  /** Whether a record of the page being walked holds a list or an object at its top level:
   *  such values are not counted here (the summary profiles them itself). */
  pageHasNested = false;

  field(name: string): FieldValues {
    let f = this.byName.get(name);
    if (f === undefined) {
      f = new FieldValues(name, this.fields.length);
      this.byName.set(name, f);
      this.fields.push(f);
    }
    return f;
  }

  beginPage(): void {
    this.logged = 0;
    this.pageHasNested = false;
  }

  count(f: FieldValues, code: number): void {
    f.counts[code]++;
    if (this.logged + 2 > this.log.length) this.log = grown(this.log, this.log.length * 2);
    this.log[this.logged++] = f.index;
    this.log[this.logged++] = code;
  }

  /** Takes back what the page walked since beginPage() counted. */
  uncountPage(): void {
    for (let i = 0; i < this.logged; i += 2) this.fields[this.log[i]].counts[this.log[i + 1]]--;
    this.logged = 0;
  }

  /** A field's values with a count, each held value once; empty ones (null, '') left out. */
  tally(f: FieldValues): FieldTally {
    const out: FieldTally = { values: [], counts: [] };
    const at = f.decodedDates && (f.plainTexts || f.sharedDateForms) ? new Map<unknown, number>() : undefined;
    for (let code = 0; code < f.values.length; code++) {
      const c = f.counts[code];
      const v = f.values[code];
      if (c === 0 || v === null || v === '') continue;
      const i = at?.get(v);
      if (i !== undefined) {
        out.counts[i] += c;
        continue;
      }
      at?.set(v, out.values.length);
      out.values.push(v);
      out.counts.push(c);
    }
    return out;
  }
}
