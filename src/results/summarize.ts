/**
 * An exact profile of every held record, bounded in size: what an assistant needs to answer
 * "how many, which, when, how much" without reading rows. Values are counted column by column
 * as pages arrive (SummaryBuilder); kinds, min/max, sums and date ranges are then worked out
 * once per distinct value.
 */

import { findTransaction } from '../catalog/transactions.js';
import type { CostMeaning } from '../catalog/types.js';
import type { FieldTally, ValueCounts } from '../upstream/paging/value-counts.js';
import { CURRENCY_NOT_STATED, type MoneyFields, moneyFields } from './amounts.js';
import { compilePath } from './paths.js';
import { travellerNames } from './traveller-names.js';
import {
  ExactSum,
  isAmountField,
  isEmpty,
  isIdField,
  isIsoDate,
  maxDecimals,
  roundTo,
  scalarText,
  toInstant,
  toNumber,
  truncate,
} from './values.js';

export type FieldKind = 'categorical' | 'numeric' | 'date' | 'text' | 'list' | 'boolean';

export interface TopValue {
  value: string;
  count: number;
}

export interface FieldProfile {
  kind: FieldKind;
  /** Records where the field is missing, null, '' or an empty list. */
  nulls: number;
  /** Distinct values (not for lists). */
  distinct?: number;
  /** Most frequent values, count desc then value asc (categorical, boolean). */
  top?: TopValue[];
  /** Every value occurs once (ids, locators): `top` is then left out. */
  unique?: true;
  /** Numbers: numeric min/max. Dates: the earliest/latest value as written (ISO). */
  min?: number | string;
  max?: number | string;
  /** Amount-like numeric fields (fares, taxes, rates, nights, totals…), when all in one
   *  currency (or no currency field goes with it). */
  sum?: number;
  /** The currency field that goes with this amount (FOPFare -> FOPCurrency, RateAmount ->
   *  CurrencyCode) and its one value, when it has one. */
  currency?: { field: string; value: string };
  /** Money whose record states no currency: the words "currency not stated by the service",
   *  beside its sum, min and max. */
  currencyNote?: string;
  /** Amounts in several currencies are never added or compared together: one sum, min and
   *  max per currency instead (most records first, at most 10); `sum`, `min` and `max` are
   *  then absent. */
  sumByCurrency?: {
    field: string;
    currencies: number;
    /** `sum` is absent for a rate (see `rate`). `confirmedSum`: the sum over the confirmed
     *  segments in that currency, when some segments are not confirmed (see `notConfirmed`):
     *  `sum` is then over every state. */
    sums: Array<{ currency: string; sum?: number; confirmedSum?: number; count: number; min: number; max: number }>;
    /** Segments not confirmed among the records, when each sum has a `confirmedSum` beside it. */
    notConfirmed?: number;
  };
  /** A rate, not an amount spent: what it is a rate of ("per night"). Never summed. */
  rate?: string;
  /** An amount that belongs to a larger unit than the record (a ticket's fare on each of
   *  its coupons): its sums count it once per that unit, and this says how. */
  grain?: string;
  /** Why a numeric field that reads like an amount is not summed (a booking's count on each
   *  of its segments). */
  notSummed?: string;
  /** A sum over segments not all confirmed (a cancelled stay's nights): the sum over the
   *  confirmed ones, which is what travel means, beside `sum` over every state. */
  confirmed?: { sum: number; notConfirmed: number };
  /** A text naming several travellers in some records (catalog `travellerLists`): the
   *  travellers named, `several` records naming more than one, the most named first (by
   *  records naming them); `distinct` and `top` are the texts'. */
  travellers?: { distinct: number; several: number; top: TopValue[] };
  /** Lists: items per record (records holding a list) and items in all. */
  items?: { min: number; max: number; total: number };
  /** Free text: one short example. */
  sample?: string;
}

export interface Summary {
  recordCount: number;
  /** Profiled fields in first-seen order; nested object fields as dot paths. */
  fields: Record<string, FieldProfile>;
  /** Fields that are empty in every record (not profiled). */
  emptyFields: string[];
  /** Non-empty fields beyond the profiling cap (names only). */
  otherFields?: string[];
  /** Fields this server derived from the service's (results/derived.ts), and how. */
  derived?: Array<{ field: string; how: string }>;
}

export interface SummarizeOptions {
  /** The report's tool name: which fields are money and which field holds each currency. */
  report?: string;
  /** Fields profiled in detail (default 40). */
  maxFields?: number;
  /** Entries in each top list (default 5). */
  topN?: number;
}

const MAX_NAMES = 100;
const TOP_VALUE_CHARS = 60;
const SAMPLE_CHARS = 80;
const TEXT_NAME = /remark|message|comment|text|response|notepad|formatted|information|details|address|olddata|newdata/i;

class Acc {
  nonEmpty = 0;
  /** Non-empty scalar values (the rest of nonEmpty are non-empty lists). */
  scalars = 0;
  /** How often each distinct value occurs, as found (numbers and booleans as themselves,
   *  objects as JSON: no conversion in the hot loop; mixed types are merged at the end). */
  counts = new Map<unknown, number>();
  textChars = 0;
  sawString = false;
  sawNumber = false;
  sawBoolean = false;
  sawObject = false;
  lists = 0;
  itemsMin = Infinity;
  itemsMax = 0;
  itemsTotal = 0;
}

type Rec = Record<string, unknown>;

function isPlainObject(v: unknown): v is Rec {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * The profile built as records arrive, a page at a time, so that a report's summary costs
 * nothing after its last page: add() each page, finish() once. The same result as
 * summarize() over all the records in the order they were added.
 */
export class SummaryBuilder {
  private readonly accs = new Map<string, Acc>();
  private readonly containers = new Set<string>();
  private recordCount = 0;

  /**
   * Adds a page. `counted`: its top-level scalar values are counted elsewhere (ValueCounts,
   * merged in finish()), so only its lists and objects are profiled here.
   */
  add(records: readonly Rec[], counted = false): void {
    // Pass 1, row by row (for...in reads are fast): every field's values as a column, in
    // first-seen order; the fields of nested objects, one level deep, as dot-path columns.
    const columns = new Map<string, unknown[]>();
    const column = (path: string): unknown[] => {
      let c = columns.get(path);
      if (!c) {
        columns.set(path, (c = []));
        if (!this.accs.has(path)) this.accs.set(path, new Acc());
      }
      return c;
    };
    // Records of one report nearly always share their keys in order: the column of the key
    // at the same position in the previous record is reused without a Map lookup.
    const lastKeys: string[] = [];
    const lastColumns: unknown[][] = [];
    for (const r of records) {
      let i = 0;
      for (const key in r) {
        const v = r[key];
        if (counted && (v === null || typeof v !== 'object')) {
          i++;
          continue;
        }
        if (isPlainObject(v)) {
          this.containers.add(key);
          column(key);
          for (const sub in v) column(`${key}.${sub}`).push(v[sub]);
        } else if (lastKeys[i] === key) {
          lastColumns[i].push(v);
        } else {
          const c = column(key);
          lastKeys[i] = key;
          lastColumns[i] = c;
          c.push(v);
        }
        i++;
      }
    }
    // Pass 2, one column at a time (one hot Map at a time is markedly faster than row by row).
    for (const [path, values] of columns) {
      const a = this.accs.get(path) as Acc;
      for (const v of values) add(a, v);
    }
    this.recordCount += records.length;
  }

  /** A page with no list or object at the top level, its values all counted elsewhere. */
  addCounted(records: number): void {
    this.recordCount += records;
  }

  /**
   * The summary of everything added; `records` are the same, in order (for sums per
   * currency and, with `values`, for field order and text samples). `values`: the top-level
   * values of the pages added as counted.
   */
  finish(records: readonly Rec[], options: SummarizeOptions = {}, values?: ValueCounts): Summary {
    const maxFields = options.maxFields ?? 40;
    const topN = options.topN ?? 5;
    const recordCount = this.recordCount;
    const fields: Record<string, FieldProfile> = {};
    const emptyFields: string[] = [];
    const otherFields: string[] = [];
    const tallies = new Map<string, Tally>();
    for (const [path, a] of this.accs)
      tallies.set(path, { acc: a, keys: [...a.counts.keys()], ns: Int32Array.from(a.counts.values()) });
    if (values) for (const f of values.fields) tallies.set(f.name, withCounted(tallies.get(f.name), values.tally(f)));
    // Counted values arrive in page order, not record order: the order fields were first met
    // in, and a text field's sample, are then read from the records.
    const order = values ? firstSeen(records, tallies) : tallies.keys();
    let profiled = 0;
    const leads = new Set(findTransaction(options.report ?? '')?.answer.lead ?? []);
    for (const path of order) {
      const t = tallies.get(path) as Tally;
      if (t.acc.nonEmpty === 0) {
        if (!this.containers.has(path)) emptyFields.push(path);
        continue;
      }
      // The fields a report leads with are profiled whatever the cap (a derived field comes last).
      if (profiled >= maxFields && !leads.has(path)) {
        otherFields.push(path);
        continue;
      }
      const first = t.counted ? () => firstScalar(records, path) : () => t.keys[0];
      fields[path] = profile(path, t, recordCount, topN, first);
      profiled++;
    }
    const meaning = findTransaction(options.report ?? '')?.answer.meaning;
    totalMoneyPerCurrency(
      records,
      fields,
      moneyFields(options.report ?? '', Object.keys(fields)),
      meaning?.ticketGrain,
    );
    labelRates(fields, meaning?.costs ?? []);
    labelBookingCounts(fields, meaning?.bookingCounts?.counts ?? []);
    if (meaning?.segments?.some((s) => s.list === undefined)) sumConfirmedApart(records, fields);
    for (const path of meaning?.travellerLists ?? []) {
      const t = tallies.get(path);
      if (fields[path]?.kind === 'categorical' && t) countTravellers(fields[path], t, topN);
    }
    const summary: Summary = { recordCount, fields, emptyFields: capNames(emptyFields) };
    if (otherFields.length) summary.otherFields = capNames(otherFields);
    return summary;
  }
}

/** A field's values as profiled: its accumulator, and its distinct values with their counts. */
interface Tally {
  acc: Acc;
  keys: readonly unknown[];
  /** How often each key occurs (a typed array: one element kind for every field). */
  ns: Int32Array;
  /** Some of its values were counted in page order (see SummaryBuilder.finish). */
  counted?: true;
}

/** A field's counted values added to what the builder profiled of it (if anything). */
function withCounted(t: Tally | undefined, counted: FieldTally): Tally {
  const acc = t?.acc ?? new Acc();
  for (let i = 0; i < counted.values.length; i++) {
    const v = counted.values[i];
    const n = counted.counts[i];
    if (typeof v === 'string') {
      acc.textChars += v.length * n;
      acc.sawString = true;
    } else if (typeof v === 'number') acc.sawNumber = true;
    else acc.sawBoolean = true;
    acc.nonEmpty += n;
    acc.scalars += n;
  }
  if (t === undefined || t.keys.length === 0) return { acc, keys: counted.values, ns: counted.counts, counted: true };
  for (let i = 0; i < counted.values.length; i++) {
    const v = counted.values[i];
    acc.counts.set(v, (acc.counts.get(v) ?? 0) + counted.counts[i]);
  }
  return { acc, keys: [...acc.counts.keys()], ns: Int32Array.from(acc.counts.values()), counted: true };
}

/**
 * The fields of `records` in the order first met (a nested object's fields, as dot paths,
 * after its own), as SummaryBuilder.add meets them; the scan stops once every one of
 * `fields` has been met, on the first record when all records have the same fields.
 */
function firstSeen(records: readonly Rec[], fields: ReadonlyMap<string, unknown>): string[] {
  const order: string[] = [];
  const met = new Set<string>();
  const meet = (path: string) => {
    if (!met.has(path) && fields.has(path)) {
      met.add(path);
      order.push(path);
    }
  };
  for (let i = 0; i < records.length && order.length < fields.size; i++) {
    const r = records[i];
    for (const key in r) {
      meet(key);
      const v = r[key];
      if (isPlainObject(v)) for (const sub in v) meet(`${key}.${sub}`);
    }
  }
  return order;
}

/** The first non-empty value a top-level field holds (not a list), as the builder keys it. */
function firstScalar(records: readonly Rec[], key: string): unknown {
  for (const r of records) {
    const v = r[key];
    if (v === undefined || v === null || v === '' || Array.isArray(v) || isPlainObject(v)) continue;
    return v;
  }
  return undefined;
}

export function summarize(records: readonly Rec[], options: SummarizeOptions = {}): Summary {
  const builder = new SummaryBuilder();
  builder.add(records);
  return builder.finish(records, options);
}

function add(a: Acc, v: unknown): void {
  if (v === undefined || v === null || v === '') return;
  switch (typeof v) {
    case 'string':
      a.textChars += v.length;
      a.sawString = true;
      break;
    case 'number':
      a.sawNumber = true;
      break;
    case 'boolean':
      a.sawBoolean = true;
      break;
    default:
      if (Array.isArray(v)) {
        a.lists++;
        if (v.length < a.itemsMin) a.itemsMin = v.length;
        if (v.length > a.itemsMax) a.itemsMax = v.length;
        a.itemsTotal += v.length;
        if (v.length > 0) a.nonEmpty++;
        return;
      }
      v = JSON.stringify(v);
      a.sawObject = true;
  }
  a.nonEmpty++;
  a.scalars++;
  a.counts.set(v, (a.counts.get(v) ?? 0) + 1);
}

function profile(path: string, t: Tally, recordCount: number, topN: number, first: () => unknown): FieldProfile {
  const a = t.acc;
  const nulls = recordCount - a.nonEmpty;
  if (a.lists > 0 && a.scalars === 0) {
    return { kind: 'list', nulls, items: { min: a.itemsMin, max: a.itemsMax, total: a.itemsTotal } };
  }
  // 5 and '5' are one value; merge only when types are actually mixed.
  const mixed = [a.sawString || a.sawObject, a.sawNumber, a.sawBoolean].filter(Boolean).length > 1;
  const { keys, ns } = mixed ? mergeAsText(t.keys, t.ns) : t;
  const distinct = keys.length;
  const base = { nulls, distinct };

  if (keys.every((k) => k === true || k === false || k === 'true' || k === 'false')) {
    return { kind: 'boolean', ...base, top: topValues(keys, ns, topN) };
  }
  if (!a.sawNumber && !a.sawBoolean && !a.sawObject && keys.every(isIsoDate)) {
    const [min, max] = dateRange(keys as string[]);
    return { kind: 'date', ...base, min, max };
  }
  if (!a.sawBoolean && !a.sawObject && !isIdField(path) && keys.every((k) => toNumber(k) !== undefined)) {
    let min = Infinity;
    let max = -Infinity;
    const sum = new ExactSum();
    let decimals = 0;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      const n = typeof k === 'number' ? k : Number(k);
      if (n < min) min = n;
      if (n > max) max = n;
      if (!Number.isInteger(n)) decimals = maxDecimals(decimals, k);
      for (let c = 0; c < ns[i]; c++) sum.add(n);
    }
    const out: FieldProfile = { kind: 'numeric', ...base, min, max };
    if (isAmountField(path)) out.sum = roundTo(sum.value, decimals);
    return out;
  }
  let maxLen = 0;
  for (const k of keys) if (typeof k === 'string' && k.length > maxLen) maxLen = k.length;
  const avgLen = a.textChars / a.scalars;
  if (avgLen > 60 || (TEXT_NAME.test(path) && maxLen > 40)) {
    return { kind: 'text', ...base, sample: truncate(String(first()).replace(/\s+/g, ' '), SAMPLE_CHARS) };
  }
  const out: FieldProfile = { kind: 'categorical', ...base };
  if (distinct === a.scalars && distinct > 1) out.unique = true;
  else out.top = topValues(keys, ns, topN);
  return out;
}

/** Counts keyed by text, for a field that mixes types: 5 and '5' count as one. */
function mergeAsText(keys: readonly unknown[], ns: Int32Array): { keys: unknown[]; ns: Int32Array } {
  const at = new Map<string, number>();
  const out = { keys: [] as unknown[], ns: new Int32Array(keys.length) };
  for (let i = 0; i < keys.length; i++) {
    const text = String(keys[i]);
    const j = at.get(text);
    if (j !== undefined) out.ns[j] += ns[i];
    else {
      at.set(text, out.keys.length);
      out.ns[out.keys.length] = ns[i];
      out.keys.push(text);
    }
  }
  out.ns = out.ns.subarray(0, out.keys.length);
  return out;
}

/**
 * Earliest and latest value, compared as instants. ISO strings of one layout (length, 'T' or
 * space, offset) order like their instants, so each layout is scanned as text and only its
 * extremes are parsed.
 */
function dateRange(keys: readonly string[]): [string, string] {
  const layouts = new Map<string | number, [string, string]>();
  for (const k of keys) {
    const id = layoutId(k);
    const g = layouts.get(id);
    if (!g) layouts.set(id, [k, k]);
    else if (k < g[0]) g[0] = k;
    else if (k > g[1]) g[1] = k;
  }
  let min = Infinity;
  let max = -Infinity;
  let minText = '';
  let maxText = '';
  for (const [lo, hi] of layouts.values()) {
    const tLo = toInstant(lo) as number;
    const tHi = toInstant(hi) as number;
    if (tLo < min) [min, minText] = [tLo, lo];
    if (tHi > max) [max, maxText] = [tHi, hi];
  }
  return [minText, maxText];
}

/**
 * The layout of ISO date `k` (its length, 'T' or space, offset). The two that dates are
 * decoded to, 'YYYY-MM-DDTHH:MM:SS.mmmZ' and '…±hh:mm', are named by a number, made of
 * character codes: a text made for each of a report's distinct instants cost more than the
 * rest of the date's profile.
 */
function layoutId(k: string): string | number {
  const n = k.length;
  if (n === 24 && k.charCodeAt(23) === 90 /* 'Z' */ && k.charCodeAt(10) === 84 /* 'T' */) return 0;
  if (n === 29 && k.charCodeAt(26) === 58 /* ':' */ && k.charCodeAt(10) === 84) {
    // An ISO date of 29 characters ending in ±hh:mm has this one layout: its offset names it.
    let id = k.charCodeAt(23);
    for (let i = 24; i < 29; i++) id = id * 64 + k.charCodeAt(i);
    return id;
  }
  const zone = n <= 10 ? '' : k.endsWith('Z') ? 'Z' : k.slice(-6);
  return `${n}${k.charAt(10)}${zone}`;
}

/** The n most frequent values, count desc, ties by value asc; one pass, no full sort. */
function topValues(keys: readonly unknown[], ns: Int32Array, n: number): TopValue[] {
  const top: TopValue[] = [];
  for (let i = 0; i < keys.length; i++) {
    const count = ns[i];
    if (top.length === n && count < top[n - 1].count) continue;
    const value = String(keys[i]);
    if (top.length === n) {
      const last = top[n - 1];
      if (count < last.count || (count === last.count && value >= last.value)) continue;
      top.pop();
    }
    let j = top.length;
    while (j > 0 && (top[j - 1].count < count || (top[j - 1].count === count && top[j - 1].value > value))) j--;
    top.splice(j, 0, { value, count });
  }
  return top.map((t) => ({ value: truncate(t.value, TOP_VALUE_CHARS), count: t.count }));
}

function capNames(names: string[]): string[] {
  return names.length > MAX_NAMES ? [...names.slice(0, MAX_NAMES), `… (+${names.length - MAX_NAMES} more)`] : names;
}

const MAX_CURRENCIES = 10;

/**
 * Money is totalled per currency: one currency keeps its sum (with the currency named),
 * several get a sum, min and max each instead of one across them, and money whose record
 * states no currency keeps its totals with the words saying so.
 */
function totalMoneyPerCurrency(
  allRecords: readonly Rec[],
  fields: Record<string, FieldProfile>,
  money: MoneyFields,
  grain?: { ticket: string; amounts: readonly string[] },
): void {
  let perTicket: readonly Rec[] | undefined;
  for (const [path, currencyField] of money) {
    const p = fields[path];
    if (p?.kind !== 'numeric') continue;
    // A ticket's fare repeats on each of its coupons: it is totalled once per ticket.
    const onceper = grain?.amounts.includes(path) ? grain.ticket : undefined;
    if (onceper) {
      perTicket ??= firstPerKey(allRecords, onceper);
      p.grain = `once per ${onceper}: the amount is the ticket's, repeated on each of its coupons`;
    }
    const records = onceper ? (perTicket as readonly Rec[]) : allRecords;
    if (currencyField === null) {
      p.sum = onceper || p.sum === undefined ? exactSum(records, compilePath(path)) : p.sum;
      p.currencyNote = CURRENCY_NOT_STATED;
      continue;
    }
    const byCurrency = totalsPerCurrency(records, compilePath(path), compilePath(currencyField));
    if (byCurrency.size <= 1) {
      const [currency, acc] = [...byCurrency][0] ?? [];
      if (acc) p.sum = roundTo(acc.sum.value, acc.decimals);
      if (currency === undefined || currency === '(none)') p.currencyNote = CURRENCY_NOT_STATED;
      else p.currency = { field: currencyField, value: currency };
      continue;
    }
    const sums = [...byCurrency]
      .sort((a, b) => b[1].count - a[1].count || (a[0] < b[0] ? -1 : 1))
      .slice(0, MAX_CURRENCIES)
      .map(([currency, acc]) => ({
        currency,
        sum: roundTo(acc.sum.value, acc.decimals),
        count: acc.count,
        min: acc.min,
        max: acc.max,
      }));
    delete p.sum;
    delete p.min;
    delete p.max;
    p.sumByCurrency = { field: currencyField, currencies: byCurrency.size, sums };
  }
}

/** An amount's sum, count, decimals, min and max in one currency. */
interface CurrencyTotal {
  sum: ExactSum;
  count: number;
  decimals: number;
  min: number;
  max: number;
}

/** The totals of an amount per currency over `records` ('(none)' for records stating none). */
function totalsPerCurrency(
  records: readonly Rec[],
  amountOf: (r: Rec) => unknown,
  currencyOf: (r: Rec) => unknown,
): Map<string, CurrencyTotal> {
  const byCurrency = new Map<string, CurrencyTotal>();
  for (const r of records) {
    const v = amountOf(r);
    const amount = toNumber(v);
    if (amount === undefined) continue;
    const c = currencyOf(r);
    const currency = isEmpty(c) ? '(none)' : scalarText(c);
    let acc = byCurrency.get(currency);
    if (!acc)
      byCurrency.set(currency, (acc = { sum: new ExactSum(), count: 0, decimals: 0, min: amount, max: amount }));
    acc.sum.add(amount);
    acc.count++;
    acc.decimals = maxDecimals(acc.decimals, v);
    if (amount < acc.min) acc.min = amount;
    if (amount > acc.max) acc.max = amount;
  }
  return byCurrency;
}

/**
 * A rate (per night, per rental period) is never summed as if it were spend: its profile
 * keeps its range per currency and says what it is a rate of; spend is EstimatedCost.
 */
function labelRates(fields: Record<string, FieldProfile>, costs: readonly CostMeaning[]): void {
  for (const c of costs) {
    const p = fields[c.list ? `${c.list}.${c.rate}` : c.rate];
    if (p?.kind !== 'numeric') continue;
    p.rate = c.kind === 'hotel' ? 'per night' : 'per rental period (day, week or month)';
    delete p.sum;
    if (p.sumByCurrency) {
      for (const c of p.sumByCurrency.sums) delete (c as { sum?: number }).sum;
    }
  }
}

/** A booking's count repeated on each of its segments is never summed over them: its range stays, with why. */
function labelBookingCounts(fields: Record<string, FieldProfile>, counts: readonly string[]): void {
  for (const path of counts) {
    const p = fields[path];
    if (p?.kind !== 'numeric') continue;
    delete p.sum;
    p.notSummed = "the booking's count, repeated on each of its segments: not summed";
  }
}

/**
 * Records that are segments, some not confirmed: each plain sum also gets its sum over the
 * confirmed segments (SegmentState, results/derived.ts), so "nights: sum 284" is never read
 * as 284 nights stayed when 2 of them belong to a cancelled stay. A sum per currency gets one
 * per currency ("fares: NZD 82,750.88" is not the fares of travel when a third of them are
 * cancelled); where no segment not confirmed carries the amount (a cancelled stay's
 * EstimatedCost is empty) the two are equal, which says so.
 */
function sumConfirmedApart(records: readonly Rec[], fields: Record<string, FieldProfile>): void {
  const summed = Object.keys(fields).filter((path) => fields[path].sum !== undefined && !fields[path].grain);
  const split = Object.keys(fields).filter(
    (path) => fields[path].sumByCurrency?.sums.some((s) => s.sum !== undefined) && !fields[path].grain,
  );
  if (!summed.length && !split.length) return;
  const confirmed = records.filter((r) => r.SegmentState === 'confirmed');
  const notConfirmed = records.filter((r) => typeof r.SegmentState === 'string').length - confirmed.length;
  if (notConfirmed === 0) return;
  for (const path of summed) fields[path].confirmed = { sum: exactSum(confirmed, compilePath(path)), notConfirmed };
  for (const path of split) {
    const by = fields[path].sumByCurrency as NonNullable<FieldProfile['sumByCurrency']>;
    const totals = totalsPerCurrency(confirmed, compilePath(path), compilePath(by.field));
    for (const s of by.sums) {
      const t = totals.get(s.currency);
      s.confirmedSum = t ? roundTo(t.sum.value, t.decimals) : 0;
    }
    by.notConfirmed = notConfirmed;
  }
}

/**
 * The travellers a field's texts name, counted from its distinct texts: a booking of two
 * travellers writes both in one text, which is one distinct value but two travellers.
 */
function countTravellers(p: FieldProfile, t: Tally, topN: number): void {
  const counts = new Map<string, number>();
  let several = 0;
  for (let i = 0; i < t.keys.length; i++) {
    if (typeof t.keys[i] !== 'string') continue;
    const list = travellerNames(t.keys[i] as string);
    if (list.length === 1) {
      counts.set(list[0], (counts.get(list[0]) ?? 0) + t.ns[i]);
      continue;
    }
    const names = new Set(list);
    if (names.size > 1) several += t.ns[i];
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + t.ns[i]);
  }
  if (several === 0) return;
  p.travellers = {
    distinct: counts.size,
    several,
    top: topValues([...counts.keys()], Int32Array.from(counts.values()), topN),
  };
}

/** The first record of each distinct `key` value (records without one are all kept). */
export function firstPerKey(records: readonly Rec[], key: string): Rec[] {
  const seen = new Set<unknown>();
  const out: Rec[] = [];
  for (const r of records) {
    const k = r[key];
    if (k === undefined || k === null || k === '') out.push(r);
    else if (!seen.has(k)) {
      seen.add(k);
      out.push(r);
    }
  }
  return out;
}

function exactSum(records: readonly Rec[], get: (r: Rec) => unknown): number {
  const sum = new ExactSum();
  let decimals = 0;
  for (const r of records) {
    const v = get(r);
    const n = toNumber(v);
    if (n === undefined) continue;
    sum.add(n);
    decimals = maxDecimals(decimals, v);
  }
  return roundTo(sum.value, decimals);
}
