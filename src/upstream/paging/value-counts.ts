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
import { type Compactor, INTERNED_MAX } from '../record-memory.js';

/** Distinct values a field holds before its values may be deferred (FieldValues.deferred):
 *  a smaller table stays in the CPU's caches however the fields' lookups interleave. */
const DEFER_MIN = 2048;
/** A page whose values of a field were new this many times as often as found makes the
 *  field deferred (past DEFER_MIN). */
const NEW_PER_FOUND = 3;
/** Deferred values are counted (settled) once this many are kept, at the next page: the
 *  lists stay a bounded working set, and each settling is still one table at a time. */
const SETTLE_EVERY = 16_384;

/** Codes a field's table holds before it first grows: the first page's record count (a page
 *  holds no more distinct values than records), within these bounds. A small report's tables
 *  then never grow: a typed array of over 64 bytes is memory from the system, 2-10 us each
 *  on the bench's machine, and a 100-record report's 25 fields grew each of theirs three
 *  times (0.1-0.15 ms of a 2 ms call). */
const FIRST_CODES_MIN = 16;
const FIRST_CODES_MAX = 128;

/** Numbers in each buffer the fields' first tables are cut from: those of 24 fields of
 *  FIRST_CODES_MAX codes (an air segment has 21), 60 KB. */
const SLAB_INTS = 24 * 5 * FIRST_CODES_MAX;

/** The most codes a table is given room for at once (see ValueCounts.beginPage): 1.3 MB of
 *  table; past it a table grows as values arrive. What the service says will come is not
 *  what comes: a call budget, a failed page or a false TotalRecords stop it short. */
export const RESERVE_MAX = 65_536;
/** A first page of fewer records says too little of which fields hold a new value in every
 *  record. */
const RESERVE_EVIDENCE = 64;

/** The codes a table first holds, for a first page of `records` records. */
export function firstCodes(records: number): number {
  let codes = FIRST_CODES_MIN;
  while (codes < records && codes < FIRST_CODES_MAX) codes *= 2;
  return codes;
}

/** Values of one field, each under a code: an open-addressing table keyed by the values'
 *  hashes, with the values and their counts in arrays indexed by code. */
export class FieldValues {
  /** Two numbers per slot, the hash of the value there and its code + 1 (0: empty), side by
   *  side so that a probe reads one cache line; a power of two slots, at least twice the
   *  codes. A field of 20,000 distinct values has 64k slots: a lookup misses the CPU's
   *  caches, and the hash beside the code saved a second miss (docs/architecture.md). */
  private slots!: Int32Array;
  private shift!: number;
  /** The value as sent, per code (a date as its /Date(...)/ text): what a lookup compares.
   *  Once deferred, the value as held (see startDeferring). */
  keys: unknown[] = [];
  /** The value as held, per code, once a date was decoded (its text decoded, null for
   *  DateTime.MinValue); until then each value is held as sent and this is `keys`. */
  values: unknown[] = this.keys;
  /** How often each code occurred. */
  counts!: Int32Array;
  /** What can give one value two codes, which tally() then merges: a field holding decoded
   *  dates and either date texts in two forms that decode alike (`/Date(0)/` and
   *  `/Date(0+0000)/`, see dateForm in record-pass.ts) or plain texts (one may be written
   *  as a decoded date is). */
  decodedDates = false;
  /** The DATE_FORM bits of the field's dates. */
  dateForms = 0;
  plainTexts = false;
  /** Codes of date texts that could not be decoded (held as sent): each occurrence is noted. */
  undecodable: Set<number> | undefined;
  /** Whether the field's values are held as days (see DAYS and RecordPass's heldDays). Kept
   *  when the tables are emptied: it is the field's, not the table's. */
  days: number = DAYS.unknown;
  /** Where the last find() that found nothing would put the value (see add). */
  private free = 0;
  /** Once its values hardly repeat (see ValueCounts.beginPage), the field's values are no
   *  longer looked up as they are met but kept here, as held, with the hash of each as sent,
   *  and looked up all at once, one field after another, when tallied (settle). */
  deferred: unknown[] | undefined;
  private deferredHashes = new Int32Array(0);
  /** Length of `deferred` when the page being walked began (see ValueCounts.uncountPage). */
  pageStart = 0;
  /** Values found in the table since the page began, and how many it held then. */
  found = 0;
  private keysAtPage = 0;
  /** Whether its texts are shared (some longer than INTERNED_MAX, as every date text of
   *  more than one digit is): such a field is not deferred, whose values would then be held
   *  once per record. */
  sharesTexts = false;

  constructor(
    readonly name: string,
    /** Its place in ValueCounts.fields. */
    readonly index: number,
    /** Codes the table holds before it first grows (a power of two; see firstCodes). */
    private readonly codes = FIRST_CODES_MIN,
    /** Where its first tables come from (see ValueCounts.firstTable). */
    private readonly table: (ints: number) => Int32Array = (ints) => new Int32Array(ints),
  ) {
    this.emptyTables();
  }

  /** Tables for `codes` codes: twice as many slots, two numbers a slot. */
  private emptyTables(): void {
    this.slots = this.table(4 * this.codes);
    this.shift = 32 - Math.log2(2 * this.codes);
    this.counts = this.table(this.codes);
  }

  /** The code of `sent`, whose hash is `hash`, or -1 when it is not held. */
  find(sent: unknown, hash: number): number {
    const mask = this.slots.length - 2;
    for (let i = (Math.imul(hash, 0x9e3779b1) >>> this.shift) << 1; ; i = (i + 2) & mask) {
      const c = this.slots[i + 1];
      if (c === 0) {
        this.free = i;
        return -1;
      }
      if (this.slots[i] === hash && this.keys[c - 1] === sent) return c - 1;
    }
  }

  /** A value that find() just did not find: its code. */
  add(sent: unknown, held: unknown, hash: number): number {
    const code = this.keys.length;
    this.keys.push(sent);
    if (held !== sent) {
      if (this.values === this.keys) this.values = this.keys.slice(0, code);
      this.values.push(held);
    } else if (this.values !== this.keys) this.values.push(held);
    if (code === this.counts.length) this.counts = grown(this.counts, code * 2);
    this.slots[this.free] = hash;
    this.slots[this.free + 1] = code + 1;
    if (2 * (code + 1) > this.slots.length >> 1) this.rehash();
    return code;
  }

  /** Room for `codes` codes before the table grows again. */
  reserve(codes: number): void {
    let slots = this.slots.length >> 1;
    while (2 * codes > slots) slots *= 2;
    if (slots !== this.slots.length >> 1) this.rehash(slots);
    if (codes > this.counts.length) this.counts = grown(this.counts, codes);
  }

  /** Stops looking values up as they are met: defer() keeps them until settle(). */
  startDeferring(): void {
    this.deferred ??= [];
    // Deferred values are kept as held (a date decoded): the codes met before are then
    // keyed by their held values too, under the same hashes (of the values as sent), so
    // that a date met before and after has one code. Only texts sent in two forms that
    // decode alike, or written as decoded dates are, can then share a held value (see tally).
    this.keys = this.values;
  }

  /** One value met while deferring: held as `held`, sent with hash `hash`. */
  defer(held: unknown, hash: number): void {
    const n = (this.deferred as unknown[]).push(held);
    if (n > this.deferredHashes.length) this.deferredHashes = grown(this.deferredHashes, Math.max(1024, n * 2));
    this.deferredHashes[n - 1] = hash;
  }

  /** Whether the page just walked met mostly new values, in a table already large, of
   *  numbers or short texts (which JSON.parse shares itself). */
  hardlyRepeats(): boolean {
    const added = this.keys.length - this.keysAtPage;
    return !this.sharesTexts && this.keys.length >= DEFER_MIN && added > NEW_PER_FOUND * this.found;
  }

  /** A page begins (`memory`: see settle). */
  beginPage(memory: Compactor): void {
    this.found = 0;
    this.keysAtPage = this.keys.length;
    if (this.deferred === undefined) return;
    if (this.deferred.length >= SETTLE_EVERY) this.settle(memory);
    this.pageStart = this.deferred.length;
  }

  /** Counts the deferred values: one field's table at a time stays in the CPU's caches. A
   *  text short enough to be interned (INTERNED_MAX) is one string however often it occurs,
   *  so its bytes are counted in `memory` here, once, rather than as it was met. */
  settle(memory: Compactor): void {
    const values = this.deferred;
    if (values === undefined || values.length === 0) return;
    // Room for every value at once: one rehash, not one per doubling.
    this.reserve(this.keys.length + values.length);
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      const hash = this.deferredHashes[i];
      let code = this.find(v, hash);
      if (code < 0) {
        code = this.add(v, v, hash);
        if (typeof v === 'string' && v.length <= INTERNED_MAX) memory.string(v);
      }
      this.counts[code]++;
    }
    this.deferred = [];
    this.deferredHashes = new Int32Array(0);
    this.pageStart = 0;
  }

  /** `slots` slots (a power of two, twice the table's at least), every code put again by its
   *  hash. */
  private rehash(slots = this.slots.length): void {
    const old = this.slots;
    this.slots = new Int32Array(2 * slots);
    this.shift = 32 - Math.log2(slots);
    const mask = this.slots.length - 2;
    for (let j = 0; j < old.length; j += 2) {
      if (old[j + 1] === 0) continue;
      let i = (Math.imul(old[j], 0x9e3779b1) >>> this.shift) << 1;
      while (this.slots[i + 1] !== 0) i = (i + 2) & mask;
      this.slots[i] = old[j];
      this.slots[i + 1] = old[j + 1];
    }
  }

  clear(): void {
    this.emptyTables();
    this.keys = [];
    this.values = this.keys;
    this.undecodable = undefined;
    this.found = 0;
    this.keysAtPage = 0;
  }
}

/**
 * Whether a field's values are held as days (`2026-11-09`, results/day-dates.ts) by the walk:
 * `unknown` until its first value; `held` while every value is a date sent as midnight with
 * no offset, each then held as its day; `not` once any other value is met (its records hold
 * what they held before days were written as the walk goes).
 */
export const DAYS = { unknown: 0, held: 1, not: 2 } as const;

/** Forms of date texts that can write one date alike (see dateForm in record-pass.ts). */
export const DATE_FORM = { plusZero: 1, minusZero: 2, noOffset: 4, leadingZero: 8 } as const;

/** Whether dates in these forms can write one date two ways: two zero-offset forms, or any
 *  leading zero (`/Date(0)/` is also `/Date(00)/`). */
function aliasedForms(forms: number): boolean {
  if (forms & DATE_FORM.leadingZero) return true;
  return (forms & (forms - 1)) !== 0;
}

/** Whether every code of `f` occurred and holds a value that is not empty (null, ''). */
function everyCodeCounted(f: FieldValues): boolean {
  const { values, counts } = f;
  for (let code = 0; code < values.length; code++) {
    const v = values[code];
    if (counts[code] === 0 || v === null || v === '') return false;
  }
  return true;
}

function grown(a: Int32Array, length: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(length);
  b.set(a);
  return b;
}

/** One field's counted values as the summary reads them: each distinct held value once. */
export interface FieldTally {
  values: readonly unknown[];
  counts: Int32Array;
}

/**
 * (field index, code) of every value counted in a table since the page's beginPage(), for
 * uncountPage(): one list for every fetch of the process, as the body buffers are (a new one
 * per fetch cost 50 us of a small report). A page's walk, and its uncounting when masking
 * or the pinned scope replace it, are one synchronous step (PageWalk.accept): no other
 * fetch's page is walked in between.
 */
let log = new Int32Array(8192);

/**
 * Every field's values for one fetch. Values are counted as the record pass meets them; a
 * page whose records are then replaced or dropped (masking, the pinned scope) is taken back
 * out with uncountPage(), so what is counted is exactly the pages kept as they were walked.
 */
export class ValueCounts {
  readonly fields: FieldValues[] = [];
  private readonly byName = new Map<string, FieldValues>();
  private logged = 0;
  /** Codes a new field's table first holds (set by the first page; see firstCodes). */
  private codes = FIRST_CODES_MIN;
  private pages = 0;
  /** Records of the first page. */
  private firstRecords = 0;
  /** Whether a record of the page being walked holds a list or an object at its top level:
   *  such values are not counted here (the summary profiles them itself). */
  pageHasNested = false;

  /** Where the fields' first tables are cut from (see firstTable), and how much is cut. */
  private slab = new Int32Array(0);
  private slabUsed = 0;

  /** `memory`: where the bytes of deferred values are counted when they are settled. */
  constructor(private readonly memory: Compactor) {}

  /**
   * A field's first table, cut from a buffer shared with the other fields' (zeroed, as a new
   * one is): a typed array of over 64 bytes is memory from the system, and a fetch made two a
   * field, 88 us of the walk of a 100-record page of 21 fields (0.9 ms, in-process). A table
   * that grows is an array of its own.
   */
  private readonly firstTable = (ints: number): Int32Array => {
    if (this.slabUsed + ints > this.slab.length) {
      this.slab = new Int32Array(Math.max(ints, SLAB_INTS));
      this.slabUsed = 0;
    }
    this.slabUsed += ints;
    return this.slab.subarray(this.slabUsed - ints, this.slabUsed);
  };

  field(name: string): FieldValues {
    let f = this.byName.get(name);
    if (f === undefined) {
      f = new FieldValues(name, this.fields.length, this.codes, this.firstTable);
      this.byName.set(name, f);
      this.fields.push(f);
    }
    return f;
  }

  /** A page of `records` records begins, of a fetch expecting `expected` in all: a field
   *  whose values hardly repeated on the page before is deferred from now on. */
  beginPage(records = 0, expected = records): void {
    if (this.pages === 0) {
      this.codes = firstCodes(records);
      this.firstRecords = records;
    } else if (this.pages === 1) {
      // A field whose every value differed on the first page (an identifier, a time to the
      // second) gets room for the whole fetch at once: its table would double its way up,
      // putting every value again each time (1.7% of the bench's CPU).
      const room = Math.min(expected, RESERVE_MAX);
      if (this.firstRecords >= RESERVE_EVIDENCE)
        for (const f of this.fields) if (f.keys.length >= this.firstRecords) f.reserve(room);
    }
    this.pages++;
    this.logged = 0;
    this.pageHasNested = false;
    for (const f of this.fields) {
      if (f.deferred === undefined && f.hardlyRepeats()) f.startDeferring();
      f.beginPage(this.memory);
    }
  }

  count(f: FieldValues, code: number): void {
    f.counts[code]++;
    if (this.logged + 2 > log.length) log = grown(log, log.length * 2);
    log[this.logged++] = f.index;
    log[this.logged++] = code;
  }

  /** Takes back what the page walked since beginPage() counted. */
  uncountPage(): void {
    for (let i = 0; i < this.logged; i += 2) this.fields[log[i]].counts[log[i + 1]]--;
    this.logged = 0;
    for (const f of this.fields) if (f.deferred !== undefined) f.deferred.length = f.pageStart;
  }

  /** Counts every deferred value (see FieldValues.settle). */
  settle(): void {
    for (const f of this.fields) f.settle(this.memory);
  }

  /** A field's values with a count, each held value once; empty ones (null, '') left out. */
  tally(f: FieldValues): FieldTally {
    f.settle(this.memory);
    const at = f.decodedDates && (f.plainTexts || aliasedForms(f.dateForms)) ? new Map<unknown, number>() : undefined;
    // Nearly always each code is one held value, counted, not empty: the field's own lists
    // are then the tally (a copy of a report's distinct values, made at its end, was the
    // larger part of the summary's last milliseconds, a collection included).
    if (at === undefined && everyCodeCounted(f))
      return { values: f.values, counts: f.counts.subarray(0, f.values.length) };
    const values: unknown[] = [];
    const counts = new Int32Array(f.values.length);
    for (let code = 0; code < f.values.length; code++) {
      const c = f.counts[code];
      const v = f.values[code];
      if (c === 0 || v === null || v === '') continue;
      const i = at?.get(v);
      if (i !== undefined) {
        counts[i] += c;
        continue;
      }
      at?.set(v, values.length);
      counts[values.length] = c;
      values.push(v);
    }
    return { values, counts: counts.subarray(0, values.length) };
  }
}
