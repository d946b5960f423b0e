/**
 * What held records occupy in V8's heap, and making them occupy less (docs/architecture.md,
 * "Memory of held results"). The results budget (REPORTS_RESULTS_MAX_MB) is measured with
 * these sizes: the structures as held, not the JSON they came from nor the process's RSS.
 *
 * Sizes are V8's on 64-bit Node without pointer compression (Node's default build): an object
 * made by JSON.parse is a 24-byte header (map, properties, elements) and 8 bytes per property
 * held in it; an object built property by property (masking, tests) holds 4 properties in
 * itself, up to 12 more in a separate array, and beyond 16 becomes a hash table (about 40
 * bytes per property: see objectBytes); a list is a 32-byte JSArray and a 16-byte FixedArray header plus 8 bytes per item; a string
 * is a 16-byte header and its characters (1 byte each, 2 when any is beyond Latin-1),
 * rounded up to 8; a number that is not a small integer is a 16-byte HeapNumber; booleans and
 * null are shared. A record's value shared with an earlier one counts once.
 *
 * Sharing: short strings repeat across records (accounts, carriers, airports, decoded dates,
 * names), and JSON.parse gives each occurrence its own copy. The Compactor replaces a copy by
 * the one already held (same characters, so nothing a reader sees changes), which takes
 * real-shaped records from about 1.0x their JSON to about 0.6x.
 */

const OBJECT_HEADER = 24;
const LIST_HEADER = 32 + 16;
const SLOT = 8;
const STRING_HEADER = 16;
const HEAP_NUMBER = 16;
/** JSON.parse (V8) interns the texts of up to this many characters it makes: every copy of
 *  such a text in any page is one string already (test/results/store-memory.test.ts checks
 *  it against the heap). */
export const INTERNED_MAX = 10;
/** Strings up to this length are shared through the table: longer ones rarely repeat. */
const SHARED_MAX_LENGTH = 40;
/** Distinct strings remembered; the table is emptied when full (a bounded working set of
 *  about 4 MB), after which a repeat is held, and counted, once more. */
const TABLE_MAX = 65_536;

/** Heap bytes of a string of `length` characters, `wide` when any is beyond Latin-1. */
export function stringBytes(length: number, wide: boolean): number {
  return (STRING_HEADER + (wide ? 2 * length : length) + 7) & ~7;
}

function isWide(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0xff) return true;
  return false;
}

/**
 * Heap bytes of an object of `fields` properties: exact for one made by JSON.parse (`parsed`),
 * else V8's layout for one built a property at a time (its likely origin when not parsed;
 * an upper bound for one made any other way).
 */
export function objectBytes(fields: number, parsed: boolean): number {
  if (parsed) return OBJECT_HEADER + SLOT * fields;
  const inObject = OBJECT_HEADER + SLOT * 4;
  if (fields <= 4) return inObject;
  if (fields <= 16) return inObject + 16 + SLOT * (Math.ceil((fields - 4) / 3) * 3);
  // A NameDictionary: 3 slots (key, value, details) per entry, capacity a power of two at
  // least 1.5 times the entries, after a header of about 7 slots.
  let capacity = 4;
  while (capacity < fields + (fields >> 1)) capacity *= 2;
  return inObject + 16 + SLOT * (7 + 3 * capacity);
}

/** A number's own heap cell, if it needs one (V8 keeps 32-bit integers in the slot). */
export function numberBytes(n: number): number {
  return (n | 0) === n && !Object.is(n, -0) ? 0 : HEAP_NUMBER;
}

/**
 * Shares repeated short strings among records and counts the heap bytes they hold. One per
 * result (or per fetch): what it counts is what that result holds.
 */
export class Compactor {
  /** Heap bytes counted so far. */
  bytes = 0;
  private readonly table = new Map<string, string>();

  /** `parsed`: the objects counted were made by JSON.parse (see objectBytes). */
  constructor(private readonly parsed = false) {}

  /** The held copy of `s`, counting its bytes when it is new. */
  share(s: string): string {
    if (s.length > SHARED_MAX_LENGTH) {
      this.bytes += stringBytes(s.length, isWide(s));
      return s;
    }
    const held = this.table.get(s);
    if (held !== undefined) return held;
    if (this.table.size >= TABLE_MAX) this.table.clear();
    this.table.set(s, s);
    this.bytes += stringBytes(s.length, isWide(s));
    return s;
  }

  /** Counts a string held as it is (not through the table): one the caller shares itself. */
  string(s: string): void {
    this.text(s, isWide(s));
  }

  /** The same, for a caller that knows whether `s` has a character beyond Latin-1. */
  text(s: string, wide: boolean): void {
    this.bytes += stringBytes(s.length, wide);
  }

  /** Counts one object (record or nested) of `fields` properties. */
  object(fields: number): void {
    this.bytes += objectBytes(fields, this.parsed);
  }

  /** Counts one list of `items`. */
  list(items: number): void {
    this.bytes += LIST_HEADER + SLOT * items;
  }

  number(n: number): void {
    this.bytes += numberBytes(n);
  }

  /** Shares and counts every value of `value` (a record, list or scalar), in place. */
  value(value: unknown): unknown {
    switch (typeof value) {
      case 'string':
        return this.share(value);
      case 'number':
        this.number(value);
        return value;
      case 'object':
        if (value === null) return value;
        if (Array.isArray(value)) {
          this.list(value.length);
          for (let i = 0; i < value.length; i++) value[i] = this.value(value[i]);
          return value;
        }
        this.record(value as Record<string, unknown>);
        return value;
      default:
        return value;
    }
  }

  /** Shares and counts one record's values in place. */
  record(r: Record<string, unknown>): void {
    let fields = 0;
    for (const key in r) {
      fields++;
      const v = r[key];
      if (typeof v === 'string') {
        // Written back even when equal: `!==` compares a string's characters, not its copy.
        r[key] = this.share(v);
      } else if (typeof v === 'number') this.number(v);
      else if (v !== null && typeof v === 'object') this.value(v);
    }
    this.object(fields);
  }
}

/**
 * The heap bytes `records` hold (not the list of them), sharing repeated short strings among
 * them on the way: for records not measured as they were fetched. `parsed` for JSON.parse's
 * objects and copies made whole of them (masking: results/pii.ts), which have their layout;
 * otherwise counted as built a property at a time (an upper bound for any other origin).
 */
export function compactRecords(records: Record<string, unknown>[], parsed = false): number {
  const c = new Compactor(parsed);
  for (const r of records) c.record(r);
  return c.bytes;
}

/** Heap bytes of a list of `n` items (the items not included). */
export function listBytes(n: number): number {
  return LIST_HEADER + SLOT * n;
}
