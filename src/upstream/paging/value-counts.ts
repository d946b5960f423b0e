/**
 * The distinct values of each top-level field of a fetch's records, and how often each
 * occurs (docs/architecture.md, "One walk per record"). The record pass looks a value up
 * here once, and that one lookup does three jobs: it finds the copy of the value held
 * already (sharing), the decoded form of a date decoded once, and the count the summary
 * needs. Before, the same value went through a sharing table, a date memo and the summary's
 * own map: three to five lookups where one does.
 *
 * A field whose values hardly repeat (identifiers, amounts, free text) would make its table
 * as large as the result, and a lookup in a table that size misses the CPU's caches: about
 * 100-350 ns a value against 20-40 in a table of a few hundred. Past DICTIONARY_MAX distinct
 * values such a field becomes a column instead: each value is appended with its hash (the
 * fingerprint's, computed anyway), and the distinct values are counted once, when the
 * summary is made, by sorting the hashes (tally).
 */

/** Distinct values a field's table holds before the field becomes a column. */
export const DICTIONARY_MAX = 1024;

/** Positions a column's sort key carries beside the 32-bit hash (2^53 / 2^32). */
const POSITIONS = 2 ** 21;

/** Values of one field: a table while they repeat, a column once they do not (see above). */
export class FieldValues {
  /** The value as sent (a date as its /Date(...)/ text) -> its code. */
  readonly codes = new Map<unknown, number>();
  /** The value as held, per code: the decoded text of a date, null for DateTime.MinValue. */
  readonly values: unknown[] = [];
  /** How often each code occurred, and the hash of its value (see fingerprint.ts). */
  counts = new Int32Array(16);
  hashes = new Int32Array(16);
  /** Whether any value was decoded from a date: two texts may then hold one value
   *  (`/Date(0)/` and `/Date(0+0000)/`), merged when the counts are read (see tally). Such
   *  a field keeps its table: the table is what decodes each text once. */
  decodedDates = false;
  /** Codes of date texts that could not be decoded (held as sent): each occurrence is noted. */
  undecodable: Set<number> | undefined;
  /** Once a column: every value as held, in the order met, and its hash. */
  column: unknown[] | undefined;
  columnHashes = new Int32Array(0);
  /** The column's length when the page being walked began (see ValueCounts.uncountPage). */
  pageStart = 0;

  constructor(
    readonly name: string,
    /** Its place in ValueCounts.fields. */
    readonly index: number,
  ) {}

  /** A value not met before: its code. */
  add(sent: unknown, held: unknown, hash: number): number {
    const code = this.values.length;
    this.codes.set(sent, code);
    this.values.push(held);
    if (code === this.counts.length) {
      this.counts = grown(this.counts, code * 2);
      this.hashes = grown(this.hashes, code * 2);
    }
    this.hashes[code] = hash;
    return code;
  }

  /** Appends one value to the column (a column field, counting). */
  append(held: unknown, hash: number): void {
    const column = this.column as unknown[];
    const at = column.length;
    if (at === this.columnHashes.length) this.columnHashes = grown(this.columnHashes, Math.max(1024, at * 2));
    this.columnHashes[at] = hash;
    column.push(held);
  }

  /** From table to column: the values counted so far, each as often as it occurred. */
  toColumn(): void {
    this.column = [];
    for (let code = 0; code < this.values.length; code++)
      for (let n = this.counts[code]; n > 0; n--) this.append(this.values[code], this.hashes[code]);
    this.codes.clear();
    this.values.length = 0;
    this.counts = new Int32Array(0);
    this.hashes = new Int32Array(0);
  }

  clear(): void {
    this.codes.clear();
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

  constructor(
    /** Whether values are counted (else the tables only share, and a field past
     *  DICTIONARY_MAX is held as it comes). */
    readonly counting: boolean,
  ) {}

  field(name: string): FieldValues {
    let f = this.byName.get(name);
    if (f === undefined) {
      f = new FieldValues(name, this.fields.length);
      this.byName.set(name, f);
      this.fields.push(f);
    }
    return f;
  }

  /** Before a page's records are walked: fields grown past their table become columns. */
  beginPage(): void {
    this.logged = 0;
    this.pageHasNested = false;
    for (const f of this.fields) {
      if (f.column === undefined && f.values.length > DICTIONARY_MAX && !f.decodedDates) {
        if (this.counting) f.toColumn();
        else {
          f.clear();
          f.column = [];
        }
      }
      if (f.column !== undefined) f.pageStart = f.column.length;
    }
  }

  count(f: FieldValues, code: number): void {
    f.counts[code]++;
    if (this.logged + 2 > this.log.length) {
      const grownLog = new Int32Array(this.log.length * 2);
      grownLog.set(this.log);
      this.log = grownLog;
    }
    this.log[this.logged++] = f.index;
    this.log[this.logged++] = code;
  }

  /** Takes back what the page walked since beginPage() counted. */
  uncountPage(): void {
    for (let i = 0; i < this.logged; i += 2) this.fields[this.log[i]].counts[this.log[i + 1]]--;
    this.logged = 0;
    for (const f of this.fields) if (f.column !== undefined) f.column.length = f.pageStart;
  }

  /** A field's values with a count, each held value once; empty ones (null, '') left out. */
  tally(f: FieldValues): FieldTally {
    const out: FieldTally = { values: [], counts: [] };
    if (f.column !== undefined) tallyColumn(f.column, f.columnHashes, out);
    // Only a field with decoded dates can hold one value under two codes.
    const at = f.decodedDates ? new Map<unknown, number>() : undefined;
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

/**
 * A column's distinct values and counts: positions sorted by hash, so equal values sit
 * together; values that share a hash without being equal are told apart by comparing them.
 */
function tallyColumn(column: readonly unknown[], hashes: Int32Array, out: FieldTally): void {
  const n = column.length;
  if (n >= POSITIONS) {
    const at = new Map<unknown, number>();
    for (const v of column) at.set(v, (at.get(v) ?? 0) + 1);
    for (const [v, c] of at) {
      out.values.push(v);
      out.counts.push(c);
    }
    return;
  }
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = (hashes[i] >>> 0) * POSITIONS + i;
  keys.sort();
  let i = 0;
  while (i < n) {
    const hash = Math.floor(keys[i] / POSITIONS);
    let j = i + 1;
    while (j < n && Math.floor(keys[j] / POSITIONS) === hash) j++;
    if (j === i + 1) {
      out.values.push(column[keys[i] % POSITIONS]);
      out.counts.push(1);
    } else groupEqual(column, keys, i, j, out);
    i = j;
  }
}

/** Positions keys[from..to) (one hash): each distinct value once, with how often it occurs. */
function groupEqual(column: readonly unknown[], keys: Float64Array, from: number, to: number, out: FieldTally): void {
  const first = out.values.length;
  for (let k = from; k < to; k++) {
    const v = column[keys[k] % POSITIONS];
    let g = first;
    while (g < out.values.length && out.values[g] !== v) g++;
    if (g < out.values.length) out.counts[g]++;
    else {
      out.values.push(v);
      out.counts.push(1);
    }
  }
}
