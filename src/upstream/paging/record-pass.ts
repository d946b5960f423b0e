/**
 * The one walk of each accepted record (docs/architecture.md, "Memory of held results"):
 * in a single pass over its values it
 * - bounds its depth: values nested MAX_RECORD_DEPTH deep are replaced by their JSON text;
 * - takes its fingerprint as the service sent it (after the depth bound, before decoding),
 *   for the repeated-page check;
 * - decodes /Date(...)/ values in place;
 * - shares repeated short strings with earlier records and counts the heap bytes the record
 *   holds (record-memory.ts), for the results budget.
 * Four separate walks did the same before; each read every value of every record again.
 */
import { Compactor } from '../record-memory.js';
import { decodeCached, jsonText, MAX_RECORD_DEPTH } from '../service-date.js';
import { endFingerprint, keyCode, mixChar, mixKey, mixNumber, mixText, startFingerprint, TAG } from './fingerprint.js';

/** Distinct date texts remembered per fetch (a year of instants to the second exceeds it:
 *  emptied when full, after which a date seen again is decoded and held once more). */
const DATES_MAX = 65_536;

/** Values of a field looked at before deciding whether its values repeat. */
const FIELD_PROBE = 1000;

/** Leading fields of a record with a sharing table each (see fieldText); the rest share one. */
const FIELD_TABLES = 64;

export class RecordPass {
  /** Date text as sent -> the value held for it. */
  private readonly dates = new Map<string, string | null>();
  /** Per position of a record's fields (records of a report share their layout): the key
   *  there, its fingerprint code, values looked up and values found held (see fieldText). */
  private readonly fieldKeys: string[] = [];
  private readonly fieldCodes: number[] = [];
  private readonly fieldTries: number[] = [];
  private readonly fieldHits: number[] = [];
  /** Per position of a record's first FIELD_TABLES fields: the table its text values are shared through. */
  private readonly fieldTables: Map<string, string>[] = [];
  /** Heap bytes of everything passed (see Compactor): records just made by JSON.parse. */
  readonly memory = new Compactor(true);
  /** Date values that could not be decoded (kept as sent), and the first of them. */
  undecoded = 0;
  firstUndecoded: string | undefined;
  /** Values nested too deeply, kept as their JSON text. */
  tooDeep = 0;

  /** Walks one record in place; returns its fingerprint as sent. */
  record(r: Record<string, unknown>): number {
    startFingerprint();
    this.object(r, 0);
    return endFingerprint();
  }

  private object(o: Record<string, unknown>, depth: number): void {
    mixChar(TAG.object);
    let fields = 0;
    for (const key in o) {
      if (depth === 0) {
        // A record's key at this position is nearly always the previous record's: no lookup.
        if (this.fieldKeys[fields] !== key) this.newField(fields, key);
        mixChar(this.fieldCodes[fields]);
      } else mixKey(key);
      const v = o[key];
      const held =
        depth === 0 && typeof v === 'string' && !(v.charCodeAt(0) === 47 /* '/' */ && v.startsWith('/Date('))
          ? this.fieldText(fields, v)
          : this.value(v, depth);
      if (held !== v) o[key] = held;
      fields++;
    }
    mixChar(TAG.objectEnd);
    this.memory.object(fields);
  }

  /**
   * A record's text field: shared with earlier records, unless this field's values have been
   * seen not to repeat (an identifier, a remark). Each field is probed on its first
   * FIELD_PROBE values; one that found under 1 in 16 already held is then counted as it
   * is, so unique values neither cost a lookup nor push repeating ones out of the table.
   */
  private fieldText(i: number, v: string): string {
    mixChar(TAG.string);
    mixText(v);
    const tries = this.fieldTries[i];
    const table = this.fieldTables[i];
    if (tries >= FIELD_PROBE) {
      if (this.fieldHits[i] * 16 < tries) {
        this.memory.string(v);
        return v;
      }
      return this.memory.share(v, table);
    }
    const held = this.memory.share(v, table);
    this.fieldTries[i] = tries + 1;
    if (this.memory.hit) this.fieldHits[i]++;
    return held;
  }

  /** A record whose field at position `i` is `key`, unlike the record before: probed anew. */
  private newField(i: number, key: string): void {
    this.fieldKeys[i] = key;
    this.fieldCodes[i] = keyCode(key);
    this.fieldTries[i] = 0;
    this.fieldHits[i] = 0;
    // Kept when the field at this position changes: a table shares equal strings whatever
    // field they came from. Bounded in number for a record of thousands of fields.
    if (i < FIELD_TABLES) this.fieldTables[i] ??= this.memory.newTable();
  }

  private list(items: unknown[], depth: number): void {
    mixChar(TAG.list);
    for (let i = 0; i < items.length; i++) {
      const v = items[i];
      const held = this.value(v, depth);
      if (held !== v) items[i] = held;
    }
    mixChar(TAG.listEnd);
    this.memory.list(items.length);
  }

  /** One value inside a container at `depth`: what the container holds in its place. */
  private value(v: unknown, depth: number): unknown {
    switch (typeof v) {
      case 'string':
        mixChar(TAG.string);
        mixText(v);
        if (v.charCodeAt(0) === 47 /* '/' */ && v.startsWith('/Date(')) return this.date(v);
        return this.memory.share(v);
      case 'number':
        mixNumber(v);
        this.memory.number(v);
        return v;
      case 'boolean':
        mixChar(v ? TAG.true : TAG.false);
        return v;
      case 'object': {
        if (v === null) {
          mixChar(TAG.null);
          return v;
        }
        if (depth + 1 >= MAX_RECORD_DEPTH) {
          this.tooDeep++;
          const text = jsonText(v);
          mixChar(TAG.string);
          mixText(text);
          return this.memory.share(text);
        }
        if (Array.isArray(v)) this.list(v, depth + 1);
        else this.object(v as Record<string, unknown>, depth + 1);
        return v;
      }
      default:
        mixChar(TAG.undefined);
        return v;
    }
  }

  /**
   * A date as held: decoded once per distinct text in this fetch, and that one string shared
   * by every record carrying it (counted once). DateTime.MinValue is null, holding nothing.
   */
  private date(sent: string): string | null {
    let held = this.dates.get(sent);
    if (held === undefined) {
      // The process-wide memo first: the same days recur from report to report.
      const decoded = decodeCached(sent);
      if (decoded === undefined) {
        this.undecoded++;
        this.firstUndecoded ??= sent;
        return this.memory.share(sent);
      }
      if (decoded !== null) this.memory.string(decoded);
      held = decoded;
      if (this.dates.size >= DATES_MAX) this.dates.clear();
      this.dates.set(sent, held);
    }
    return held;
  }
}
