/**
 * The one walk of each accepted record (docs/architecture.md, "Memory of held results"):
 * in a single pass over its values it
 * - bounds its depth: values nested MAX_RECORD_DEPTH deep are replaced by their JSON text;
 * - takes its fingerprint as the service sent it (after the depth bound, before decoding),
 *   for the repeated-page check;
 * - decodes /Date(...)/ values in place;
 * - shares repeated strings with earlier records and counts the heap bytes the record holds
 *   (record-memory.ts), for the results budget;
 * - counts every top-level value for the report's summary (value-counts.ts: one lookup per
 *   value does the sharing, the date and the count; a field of numbers or short texts that
 *   hardly repeat is looked up later, a field at a time);
 * - with `heldDays`, holds a top-level field's dates as days (`2026-11-09`) while every value
 *   of it is a date sent as midnight with no offset, as results/day-dates.ts writes such a
 *   field after the fetch: the records are written once, as they are walked, instead of again
 *   afterwards. The first other value of the field ends that (see leftDays).
 * Separate walks did the same before; each read every value of every record again. A value
 * is written back only when the record is to hold another (a shared copy, a decoded date).
 */
import { Compactor, INTERNED_MAX } from '../record-memory.js';
import {
  DAY_LENGTH,
  decodeCached,
  decodeServiceDate,
  isMidnightUtc,
  jsonText,
  MAX_RECORD_DEPTH,
  MIDNIGHT_UTC,
} from '../service-date.js';
import {
  endFingerprint,
  keyCode,
  lastTextWide,
  mixChar,
  mixKey,
  mixNumber,
  mixText,
  startFingerprint,
  TAG,
} from './fingerprint.js';
import { DATE_FORM, DAYS, type FieldValues, ValueCounts } from './value-counts.js';

/** Distinct date texts remembered per fetch (a year of instants to the second exceeds it:
 *  emptied when full, after which a date seen again is decoded and held once more). */
const DATES_MAX = 65_536;

/** Distinct top-level values held for sharing when they are not counted (see topValue):
 *  the fields' tables are emptied when full, a bounded working set of a few MB. */
const VALUES_MAX = 65_536;

/**
 * Which of the forms that can write one date alike `sent` is written in (a bit each, 0 for
 * none): a zero offset written `+0000`, `-0000` or not at all, or a leading zero
 * (`/Date(0)/`, `/Date(-0)/`, `/Date(01)/`, which each other form of 0 may equal). Two texts
 * decode alike only when they are in two of these forms, or both have a leading zero.
 */
function dateForm(sent: string): number {
  const digits = sent.charCodeAt(6) === 45 /* '-' */ ? 7 : 6;
  if (sent.charCodeAt(digits) === 48 /* '0' */) return DATE_FORM.leadingZero;
  if (sent.endsWith('+0000)/')) return DATE_FORM.plusZero;
  if (sent.endsWith('-0000)/')) return DATE_FORM.minusZero;
  const sign = sent.charCodeAt(sent.length - 7);
  return sent.length - 7 > digits && (sign === 43 || sign === 45) /* '+' '-' */ ? 0 : DATE_FORM.noOffset;
}

/** What topValue returns when the record keeps the value it has (nothing written back). */
const KEEP = Symbol('keep');

export class RecordPass {
  /** Date text as sent -> the value held for it (values below the top level). */
  private readonly dates = new Map<string, string | null>();
  /** Per position of a record's fields (records of a report share their layout): the key
   *  there, its fingerprint code and the values of that field. */
  private readonly fieldKeys: string[] = [];
  private readonly fieldCodes: number[] = [];
  private readonly fieldValues: FieldValues[] = [];
  /** Whether any record holds a list or object at its top level: for flat records, topKeys
   *  are every field path there is (results/paths.ts), known without a walk of the held
   *  records for it. */
  nested = false;
  /** Heap bytes of everything passed (see Compactor): records just made by JSON.parse. */
  readonly memory = new Compactor(true);
  /** Every top-level field's distinct values, and (when counting) how often each occurs. */
  readonly values = new ValueCounts(this.memory);
  /** Distinct top-level values held in `values` since it was last emptied (when not counting). */
  private distinct = 0;
  /** Date values that could not be decoded (kept as sent), and the first of them. */
  undecoded = 0;
  firstUndecoded: string | undefined;
  /** Values nested too deeply, kept as their JSON text. */
  tooDeep = 0;
  /**
   * Fields whose values were held as days until a value of another kind came (heldDays),
   * since the caller last emptied this list: the records walked before hold those days, to
   * be written back as the instants they were decoded from (PageWalk.writeBackInstants). The
   * field's values in its table are instants again already.
   */
  readonly leftDays: string[] = [];

  /**
   * `counting`: count every top-level value for the summary (see ValueCounts). `heldDays`:
   * hold days as they are walked (see above); only with `counting`, whose counts are mended
   * when a field leaves days (a summary profiling the records as they came would not be).
   */
  constructor(
    readonly counting = false,
    readonly heldDays = false,
  ) {}

  /** Before the `records` records of a page, of a fetch expecting `expected` in all. */
  beginPage(records = 0, expected = records): void {
    this.values.beginPage(records, expected);
  }

  /** The records' top-level keys in the order first seen: one table of values each. */
  get topKeys(): string[] {
    return this.values.fields.map((f) => f.name);
  }

  /** After the last page: the deferred values counted, and their bytes (see memory). */
  finish(): void {
    this.values.settle();
  }

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
      const v = o[key];
      if (depth === 0) {
        // A record's key at this position is nearly always the previous record's: no lookup.
        if (this.fieldKeys[fields] !== key) this.newField(fields, key);
        mixChar(this.fieldCodes[fields]);
        if (v !== null && typeof v === 'object') {
          this.values.pageHasNested = true;
          this.nested = true;
          const held = this.value(v, depth);
          if (held !== v) o[key] = held;
        } else {
          const held = this.topValue(this.fieldValues[fields], v);
          if (held !== KEEP) o[key] = held;
        }
      } else {
        mixKey(key);
        const held = this.value(v, depth);
        // Strings are written back without comparing: `!==` compares their characters (a
        // second read of the text), and a copy equal to the held string must not stay.
        if (typeof held === 'string' || held !== v) o[key] = held;
      }
      fields++;
    }
    mixChar(TAG.objectEnd);
    this.memory.object(fields);
  }

  /**
   * A record's scalar field: mixed into the fingerprint as sent, then one lookup among the
   * field's values finds the copy held already (or the date decoded already) and counts it.
   */
  private topValue(f: FieldValues, v: unknown): unknown {
    let hash: number;
    switch (typeof v) {
      case 'string':
        mixChar(TAG.string);
        hash = mixText(v);
        if (v.length === 0) return KEEP;
        break;
      case 'number':
        hash = mixNumber(v);
        this.memory.number(v);
        break;
      case 'boolean':
        mixChar(v ? TAG.true : TAG.false);
        hash = v ? 1 : 0;
        break;
      default:
        mixChar(v === null ? TAG.null : TAG.undefined);
        return KEEP;
    }
    if (f.deferred !== undefined) return this.deferredValue(f, v, hash);
    let code = f.find(v, hash);
    if (code < 0) {
      if (!this.counting && ++this.distinct > VALUES_MAX) {
        this.forgetValues();
        f.find(v, hash);
      }
      if (typeof v === 'string') code = this.newText(f, v, hash);
      else {
        this.notDays(f);
        code = f.add(v, v, hash);
      }
      if (this.counting) this.values.count(f, code);
      // New: held as it is, or a date decoded.
      const held = f.values[code];
      return held === v ? KEEP : held;
    }
    f.found++;
    if (f.undecodable?.has(code)) this.noteUndecoded(v as string);
    if (this.counting) this.values.count(f, code);
    const held = f.values[code];
    // A short text found is the held one already: JSON.parse interns texts of up to
    // INTERNED_MAX characters (record-memory.ts), so every copy is one string.
    if (typeof v !== 'string' || (v.length <= INTERNED_MAX && held === v)) return KEEP;
    return held;
  }

  /** A value of a deferred field (no lookup): held as it is or decoded, its bytes counted
   *  each time (nothing shared), kept for the count when counting. A text short enough to be
   *  interned is one string however often it occurs: counted once, when settled (a count
   *  for each occurrence when not counting, an upper bound). */
  private deferredValue(f: FieldValues, v: unknown, hash: number): unknown {
    let held: unknown = KEEP;
    if (typeof v === 'string') {
      const decoded = this.heldText(f, v, !(v.length <= INTERNED_MAX && this.counting));
      if (decoded !== undefined && decoded !== v) held = decoded;
    }
    if (this.counting) f.defer(held === KEEP ? v : held, hash);
    return held;
  }

  /** A text met for the first time in its field: its code, the value held for it (a date
   *  decoded) and its bytes counted. */
  private newText(f: FieldValues, v: string, hash: number): number {
    if (v.length > INTERNED_MAX) f.sharesTexts = true;
    const held = this.heldText(f, v, true);
    if (held !== undefined) return f.add(v, held, hash);
    f.undecodable ??= new Set();
    f.undecodable.add(f.keys.length);
    return f.add(v, v, hash);
  }

  /**
   * What a record holds for the text `v` of field `f`: `v` itself, or a date decoded (null
   * for DateTime.MinValue), the field's flags set; undefined for a date that cannot be
   * decoded (noted, held as sent). The text's bytes are counted when `countSent`; a decoded
   * date's always (a new string).
   */
  private heldText(f: FieldValues, v: string, countSent: boolean): string | null | undefined {
    if (v.charCodeAt(0) !== 47 /* '/' */ || !v.startsWith('/Date(')) {
      if (countSent) this.memory.text(v, lastTextWide());
      f.plainTexts = true;
      // Even a text written as a day: a field's held days must all be decoded dates, so that
      // each may be written back as its instant (see instantsAgain).
      this.notDays(f);
      return v;
    }
    const decoded = decodeServiceDate(v);
    if (decoded === undefined) {
      this.noteUndecoded(v);
      if (countSent) this.memory.text(v, lastTextWide());
      this.notDays(f);
      return undefined;
    }
    f.decodedDates = true;
    f.dateForms |= dateForm(v);
    if (decoded === null) return decoded;
    let held = decoded;
    if (this.heldDays && f.days !== DAYS.not && isMidnightUtc(decoded)) {
      held = decoded.slice(0, DAY_LENGTH);
      f.days = DAYS.held;
    } else this.notDays(f);
    // A decoded date is ASCII.
    this.memory.text(held, false);
    return held;
  }

  /** A value of field `f` that is not a day: its days, if it held any, are instants again. */
  private notDays(f: FieldValues): void {
    if (f.days === DAYS.held) {
      this.instantsAgain(f);
      this.leftDays.push(f.name);
    }
    f.days = DAYS.not;
  }

  /**
   * The values of `f` held as days, held as the instants they were decoded from again. A
   * field holding days has held nothing else (but null and ''), so each text of a day's
   * length is one. Its table is never deferred: its date texts are longer than
   * INTERNED_MAX, so it shares its texts (see FieldValues.hardlyRepeats).
   */
  private instantsAgain(f: FieldValues): void {
    const { values } = f;
    for (let code = 0; code < values.length; code++) {
      const v = values[code];
      if (typeof v !== 'string' || v.length !== DAY_LENGTH) continue;
      const instant = v + MIDNIGHT_UTC;
      values[code] = instant;
      this.memory.text(instant, false);
    }
  }

  /** The fields whose values are held as days: every value of theirs walked is one. */
  get dayFields(): string[] {
    return this.values.fields.filter((f) => f.days === DAYS.held).map((f) => f.name);
  }

  private noteUndecoded(sent: string): void {
    this.undecoded++;
    this.firstUndecoded ??= sent;
  }

  /** Empties the fields' tables (not counting: they only share): a repeat is then held, and counted, once more. */
  private forgetValues(): void {
    for (const f of this.values.fields) f.clear();
    this.distinct = 1;
  }

  /** A record whose field at position `i` is `key`, unlike the record before. */
  private newField(i: number, key: string): void {
    this.fieldKeys[i] = key;
    this.fieldCodes[i] = keyCode(key);
    this.fieldValues[i] = this.values.field(key);
  }

  private list(items: unknown[], depth: number): void {
    mixChar(TAG.list);
    for (let i = 0; i < items.length; i++) {
      const v = items[i];
      const held = this.value(v, depth);
      if (typeof held === 'string' || held !== v) items[i] = held;
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
        this.noteUndecoded(sent);
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
