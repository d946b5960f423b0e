/**
 * query_report over held records (docs/architecture.md): filter, group, aggregate, sort and
 * page without calling the service.
 *
 * Comparison rules (also stated in query-schema.ts for the model):
 * - eq/ne/in on text ignore case and surrounding spaces ('acme' finds 'ACME'): assistants
 *   rarely know the service's casing, and a silent zero is the worst answer. Grouping is exact.
 * - Numbers and numeric strings ('123.45') compare as numbers.
 * - A record date (ISO) against 'YYYY-MM-DD' / 'YYYYMMDD' compares the calendar day as the
 *   record writes it (its own offset: a 23:30-05:00 departure is on that day); against a full
 *   ISO value it compares instants.
 * - A value reached through a list (`Passengers.LastName`) matches when any item does;
 *   ne is "not eq", so empty values satisfy ne.
 */

import { findTransaction } from '../catalog/transactions.js';
import type { RecordMeaning } from '../catalog/types.js';
import { invalidInput } from '../errors.js';
import { CURRENCY_NOT_STATED, moneyFields } from './amounts.js';
import { stateCounts, stateNote } from './derived.js';
import { roundMoney } from './money.js';
import { collectPaths, compilePath, type Getter, leafName, listPaths, resolveField, valueAt } from './paths.js';
import {
  type AggregateFn,
  DEFAULT_QUERY_LIMIT,
  MAX_QUERY_LIMIT,
  type QueryArgs,
  type WhereClause,
} from './query-schema.js';
import { travellerNames } from './traveller-names.js';
import {
  ExactSum,
  ID_LIKE,
  isEmpty,
  isIsoDate,
  maxDecimals,
  parseQueryDate,
  roundTo,
  scalarText,
  toBoolean,
  toInstant,
  toNumber,
} from './values.js';

type Row = Record<string, unknown>;

export interface QueryGroup {
  /** The group's value of each groupBy field (null when empty). */
  key: Record<string, unknown>;
  /** Records in the group. */
  count: number;
  /** Aggregates by name: sum_FOPFare, avg_FOPFare, min_X, max_X, countDistinct_X, count_X. */
  [aggregate: string]: unknown;
}

export interface QueryOutput {
  /** Records that satisfy `where`. */
  matched: number;
  offset: number;
  limit: number;
  /** Offset of the next page of rows/groups, null when this is the last. */
  nextOffset: number | null;
  rows?: Row[];
  groups?: QueryGroup[];
  /** Groups in all (with groupBy/aggregates). */
  groupCount?: number;
  /** What the answer did that the arguments did not say (a currency joined to the groups). */
  notes?: string[];
  /** Aggregates of money (sum_FOPFare) -> the group key field holding their currency: the text
   *  writes them with its minor units. Not part of the structured answer. */
  money?: Record<string, string>;
}

/** What runQuery needs to know of the result besides its records. */
export interface QueryContext {
  /** The report's tool name: its money fields and their currencies. */
  report?: string;
}

/** Resolves a field name against the records' paths (as written, else ignoring case). */
export function fieldResolver(records: readonly Row[]): (name: string, param: string) => string {
  // With no records there is nothing to check field names against; everything matches nothing.
  const known = records.length ? collectPaths(records) : null;
  return (name, param) => (known ? resolveField(name, known, param) : name);
}

/** The records every `where` clause holds for, in upstream order (query_report and exports). */
export function matchRecords(records: readonly Row[], where: readonly WhereClause[] | undefined): Row[] {
  const field = fieldResolver(records);
  const preds = (where ?? []).map((w, i) => predicate(w, i, field));
  return preds.length ? records.filter((r) => preds.every((p) => p(r))) : [...records];
}

export function runQuery(held: readonly Row[], args: QueryArgs, context: QueryContext = {}): QueryOutput {
  const { rows: records, unnest } = rowsOf(held, args.unnest, context.report);
  const field = fieldResolver(records);
  const offset = Math.max(0, Math.floor(args.offset ?? 0));
  const limit = Math.min(MAX_QUERY_LIMIT, Math.max(1, Math.floor(args.limit ?? DEFAULT_QUERY_LIMIT)));
  // Without filters the rows themselves (nothing below changes them): no copy of a million.
  const matched = args.where?.length ? matchRecords(records, args.where) : records;

  const meaning = findTransaction(context.report ?? '')?.answer.meaning;
  const meant = meaningOfRows(matched, args, meaning, unnest);
  if (args.groupBy?.length || args.aggregates?.length) {
    // The money of the rows is looked up only when a total asks for it (paths of every row).
    const money = () => moneyFields(context.report ?? '', records.length ? collectPaths(records) : [], unnest);
    const out = grouped(matched, args, field, offset, limit, money, unnest ? undefined : meaning);
    const notes = [...meant, ...(out.notes ?? [])];
    return { ...out, ...(notes.length ? { notes } : {}) };
  }

  const orders = (args.orderBy ?? []).map((o, i) => ({
    get: compilePath(field(o.field, `orderBy[${i}].field`)),
    desc: o.direction === 'desc',
  }));
  const sorted = orders.length ? sortBy(matched, orders) : matched;
  const page = sorted.slice(offset, offset + limit);
  let rows: Row[] = page;
  if (args.fields?.length) {
    const cols = args.fields.map((f, i) => field(f, `fields[${i}]`));
    const getters = cols.map(compilePath);
    rows = page.map((r) => Object.fromEntries(cols.map((c, j) => [c, getters[j](r) ?? null])));
  }
  return {
    matched: matched.length,
    offset,
    limit,
    nextOffset: next(offset, limit, sorted.length),
    rows,
    ...(meant.length ? { notes: meant } : {}),
  };
}

/**
 * What the matched rows mean for travel: how many of the segments counted are not confirmed
 * (unless `where` already picks a SegmentState).
 */
function meaningOfRows(
  matched: readonly Row[],
  args: QueryArgs,
  meaning: RecordMeaning | undefined,
  unnest: string | undefined,
): string[] {
  const decl = meaning?.segments?.find((s) => (s.list ?? undefined) === unnest);
  if (!decl || args.where?.some((w) => leafName(w.field).toLowerCase() === 'segmentstate')) return [];
  const counts = stateCounts(matched, { segments: [{ status: decl.status, cancelledFlag: decl.cancelledFlag }] });
  return counts?.total ? [`Of the ${counts.total} matched: ${stateNote(counts)}`] : [];
}

function next(offset: number, limit: number, total: number): number | null {
  return offset + limit < total ? offset + limit : null;
}

/** The rows a query works on: the held records, or with `unnest` one row per list item. */
export function rowsOf(
  records: readonly Row[],
  unnest: string | undefined,
  report = '',
): { rows: readonly Row[]; unnest?: string } {
  if (unnest === undefined) return { rows: records };
  const path = resolveList(records, unnest);
  return { rows: unnestRecords(records, path, keyFieldsOf(report)), unnest: path };
}

/** Most rows an unnest makes: each is a new object, made again for every call. */
export const MAX_UNNEST_ROWS = 500_000;

/** The parent fields an unnested row carries: the report's columns, identifiers, accounts, travellers. */
function keyFieldsOf(report: string): (name: string) => boolean {
  const columns = new Set(findTransaction(report)?.answer.columns ?? []);
  return (name) => columns.has(name) || ID_LIKE.test(leafName(name)) || KEY_NAME.test(leafName(name));
}

const KEY_NAME = /^(Account|Passenger|Passengers|PaxList|PrimaryPax|Traveller|Consultant|OwningConsultant)$/i;

/** `unnest` as the records spell it; it must name a list (of objects or of values). */
function resolveList(records: readonly Row[], unnest: string): string {
  if (!records.length) return unnest;
  const path = resolveField(unnest, collectPaths(records), 'unnest');
  if (!records.some((r) => Array.isArray(valueAt(r, path)))) {
    // Only a refusal needs every list of the records, to name them.
    const lists = listPaths(records);
    throw invalidInput(
      'unnest',
      unnest,
      `is not a list in this result's records. Lists: ${lists.length ? lists.slice(0, 40).join(', ') : 'none'}.`,
    );
  }
  return path;
}

/**
 * One row per item of the list at `path`: the item's own fields, then the parent record's
 * key fields (`isKey`: among its top-level values and those of its nested objects, as dot
 * paths) where the item has no field of the same name; a parent field the item shadows stays
 * as `parent.X`. An item that is a plain value becomes the field named like the list.
 */
export function unnestRecords(records: readonly Row[], path: string, isKey: (name: string) => boolean): Row[] {
  const leaf = path.slice(path.lastIndexOf('.') + 1);
  const out: Row[] = [];
  for (const record of records) {
    const list = valueAt(record, path);
    if (!Array.isArray(list) || !list.length) continue;
    if (out.length + list.length > MAX_UNNEST_ROWS) {
      throw invalidInput(
        'unnest',
        path,
        `makes more than ${MAX_UNNEST_ROWS.toLocaleString('en-US')} rows; run the report for a narrower ` +
          'selection first, or use sql_query on its child table',
      );
    }
    const carried = parentFields(record, isKey);
    for (const item of list) {
      const own: Row =
        item !== null && typeof item === 'object' && !Array.isArray(item) ? (item as Row) : { [leaf]: item };
      const row: Row = { ...own };
      for (const key in carried) row[key in own ? `parent.${key}` : key] = carried[key];
      out.push(row);
    }
  }
  return out;
}

function parentFields(record: Row, isKey: (name: string) => boolean): Row {
  const out: Row = {};
  for (const key in record) {
    const v = record[key];
    if (v === null || typeof v !== 'object') {
      if (isKey(key)) out[key] = v;
    } else if (!Array.isArray(v)) {
      for (const sub in v as Row) {
        const w = (v as Row)[sub];
        if ((w === null || typeof w !== 'object') && isKey(`${key}.${sub}`)) out[`${key}.${sub}`] = w;
      }
    }
  }
  return out;
}

// ---------- where ----------

interface Prepared {
  raw: unknown;
  text: string;
  num?: number;
  date?: { day: string } | { instant: number };
  bool?: boolean;
}

function prepare(value: unknown): Prepared {
  return {
    raw: value,
    text: scalarText(value).trim().toLowerCase(),
    num: toNumber(typeof value === 'string' ? value.trim() : value),
    date: parseQueryDate(value),
    bool: toBoolean(value),
  };
}

/** Order of a record value against a query value; undefined when they cannot be ordered. */
function compare(v: unknown, q: Prepared): number | undefined {
  if (typeof v === 'boolean' || typeof q.raw === 'boolean') {
    const b = toBoolean(v);
    if (b === undefined || q.bool === undefined) return undefined;
    return b === q.bool ? 0 : b ? 1 : -1;
  }
  if (q.date && isIsoDate(v)) {
    if ('day' in q.date) {
      const day = v.slice(0, 10);
      return day < q.date.day ? -1 : day > q.date.day ? 1 : 0;
    }
    return sign((toInstant(v) as number) - q.date.instant);
  }
  if (q.num !== undefined) {
    const n = toNumber(typeof v === 'string' ? v.trim() : v);
    if (n !== undefined) return sign(n - q.num);
    // A number is not ordered against text ('N/A' is not greater than 50); equality by text
    // still holds for labels that merely look numeric.
    const t = scalarText(v).trim().toLowerCase();
    return t === q.text ? 0 : undefined;
  }
  if (typeof v === 'object') return undefined;
  const t = scalarText(v).trim().toLowerCase();
  return t < q.text ? -1 : t > q.text ? 1 : 0;
}

function sign(n: number): number {
  return n < 0 ? -1 : n > 0 ? 1 : 0;
}

/** The travellers a value names (a text naming several), else the value itself. */
function namesIn(v: unknown): unknown[] {
  return typeof v === 'string' ? travellerNames(v) : [v];
}

function items(v: unknown): unknown[] {
  const list = Array.isArray(v) ? v : [v];
  return list.filter((x) => !isEmpty(x));
}

function predicate(w: WhereClause, i: number, field: (n: string, p: string) => string): (r: Row) => boolean {
  const get = compilePath(field(w.field, `where[${i}].field`));
  const param = `where[${i}].value`;
  const { op, value } = w;
  if (op === 'exists') {
    const want = value === undefined ? true : toBoolean(value);
    if (want === undefined) throw invalidInput(param, value, "must be true or false for op 'exists'");
    return (r) => items(get(r)).length > 0 === want;
  }
  if (value === undefined) throw invalidInput(param, value, `is required for op '${op}'`);
  if (op === 'in') {
    const list = (Array.isArray(value) ? value : [value]).map(prepare);
    return (r) => items(get(r)).some((v) => list.some((q) => compare(v, q) === 0));
  }
  if (Array.isArray(value))
    throw invalidInput(param, value, `must be a single value for op '${op}' (use op 'in' for a list)`);
  const q = prepare(value);
  const test = (ok: (c: number) => boolean) => (r: Row) =>
    items(get(r)).some((v) => {
      const c = compare(v, q);
      return c !== undefined && ok(c);
    });
  switch (op) {
    case 'eq':
      return test((c) => c === 0);
    case 'ne': {
      const eq = test((c) => c === 0);
      return (r) => !eq(r);
    }
    case 'lt':
      return test((c) => c < 0);
    case 'lte':
      return test((c) => c <= 0);
    case 'gt':
      return test((c) => c > 0);
    case 'gte':
      return test((c) => c >= 0);
    case 'contains':
      return (r) => items(get(r)).some((v) => scalarText(v).toLowerCase().includes(q.text));
    case 'startsWith':
      return (r) => items(get(r)).some((v) => scalarText(v).trimStart().toLowerCase().startsWith(q.text));
  }
}

// ---------- sorting ----------

/** Sort key: rank orders kinds (numbers, dates, text, empty last), then the value. */
interface SortKey {
  rank: number;
  n: number;
  s: string;
}

function sortKey(v: unknown): SortKey {
  const x = Array.isArray(v) ? v.find((e) => !isEmpty(e)) : v;
  if (isEmpty(x)) return { rank: 3, n: 0, s: '' };
  const n = toNumber(x);
  if (n !== undefined) return { rank: 0, n, s: '' };
  const t = toInstant(x);
  if (t !== undefined) return { rank: 1, n: t, s: '' };
  return { rank: 2, n: 0, s: scalarText(x).toLowerCase() };
}

function compareKeys(a: SortKey, b: SortKey, desc: boolean): number {
  if (a.rank !== b.rank) return a.rank === 3 ? 1 : b.rank === 3 ? -1 : a.rank - b.rank;
  if (a.rank === 3) return 0;
  const c = a.rank === 2 ? (a.s < b.s ? -1 : a.s > b.s ? 1 : 0) : a.n - b.n;
  return desc ? -c : c;
}

/** Stable sort; empty values last in either direction. */
function sortBy<T>(list: readonly T[], orders: { get: (x: T) => unknown; desc: boolean }[]): T[] {
  const keyed = list.map((item, i) => ({ item, i, keys: orders.map((o) => sortKey(o.get(item))) }));
  keyed.sort((a, b) => {
    for (let k = 0; k < orders.length; k++) {
      const c = compareKeys(a.keys[k], b.keys[k], orders[k].desc);
      if (c !== 0) return c;
    }
    return a.i - b.i;
  });
  return keyed.map((k) => k.item);
}

// ---------- groups ----------

const DATE_PART = /^(.+):(day|month|year)$/i;
const PART_LENGTH = { day: 10, month: 7, year: 4 } as const;

interface AggSpec {
  name: string;
  fn: AggregateFn;
  get?: Getter;
  path?: string;
  /** For money whose record states no currency: the words said beside each total. */
  currencyNote?: string;
  /** For money in a stated currency: the group key field holding it. */
  currency?: string;
  /** For a ticket's amount on coupon records: the ticket it belongs to, counted once. */
  onceBy?: Getter;
  /** A text naming several travellers (catalog `travellerLists`): its names are the values. */
  names?: true;
}

interface GroupKey {
  name: string;
  get: Getter;
  part: number;
  /** A text naming several travellers (catalog `travellerLists`): one group per traveller. */
  names?: boolean;
}

const MONEY_TOTALS: readonly AggregateFn[] = ['sum', 'avg', 'min', 'max'];

/** The list a path runs through (`Segments.HotelSegments` of `Segments.HotelSegments.Rate`), if any. */
function listOnPath(rows: readonly Row[], path: string): string | undefined {
  const parts = path.split('.');
  for (let n = 1; n < parts.length; n++) {
    const prefix = parts.slice(0, n).join('.');
    if (rows.some((r) => Array.isArray(valueAt(r, prefix)))) return prefix;
  }
  return undefined;
}

/**
 * Money is totalled per currency (docs/architecture.md, "Amounts and currencies"): the
 * currency field of every amount summed, averaged or compared joins the group key, and the
 * notes say so; money whose record states no currency is totalled with the words saying so.
 */
function perCurrency(
  aggs: AggSpec[],
  keys: GroupKey[],
  moneyOfRows: () => ReadonlyMap<string, string | null>,
  rows: readonly Row[],
): string[] {
  const notes: string[] = [];
  let money: ReadonlyMap<string, string | null> | undefined;
  for (const [i, a] of aggs.entries()) {
    if (!a.path || !MONEY_TOTALS.includes(a.fn)) continue;
    money ??= moneyOfRows();
    if (!money.has(a.path)) continue;
    const list = listOnPath(rows, a.path);
    if (list) {
      // Each item has its own currency: grouping by the list's currencies joined would add them.
      throw invalidInput(
        `aggregates[${i}].field`,
        a.path,
        `is money inside the list ${list}, whose items may be in different currencies; add "unnest": "${list}" ` +
          'to total it per currency',
      );
    }
    const currency = money.get(a.path);
    if (currency === null || currency === undefined) {
      a.currencyNote = CURRENCY_NOT_STATED;
      notes.push(`${a.name}: ${CURRENCY_NOT_STATED} for ${a.path}, so this total may mix currencies.`);
      continue;
    }
    a.currency = currency;
    if (keys.some((k) => k.name === currency)) continue;
    keys.push({ name: currency, get: compilePath(currency), part: 0 });
    notes.push(
      `${a.name} is given per ${currency}: ${currency} joined the group key, since amounts in different ` +
        'currencies are never added or compared.',
    );
  }
  return notes;
}

/**
 * Amounts at their grain: a ticket's fare, base fare and taxes repeat on each of its coupons,
 * so sums and averages of them take each ticket once per group, as a booking's counts
 * repeated on each of its segments take each booking once; a rate (per night, per rental
 * period) summed is said to be a rate, not spend; a distinct count of a text naming several
 * travellers counts the travellers.
 */
function atTheirGrain(aggs: AggSpec[], meaning: RecordMeaning | undefined): string[] {
  const notes: string[] = [];
  const grain = meaning?.ticketGrain;
  for (const a of aggs) {
    if (!a.path) continue;
    if (a.fn === 'countDistinct' && meaning?.travellerLists?.includes(a.path)) {
      a.names = true;
      notes.push(
        `${a.name} counts travellers: ${a.path} may name several in one text (DOE/JANE MS, DOE/JOHN MR), ` +
          'each counted once.',
      );
    }
    if (a.fn !== 'sum' && a.fn !== 'avg') continue;
    if (grain?.amounts.includes(a.path)) {
      a.onceBy = compilePath(grain.ticket);
      notes.push(
        `${a.name} counts each ${grain.ticket} once: ${a.path} is the ticket's, repeated on each of its coupons.`,
      );
    }
    const booking = meaning?.bookingCounts;
    if (booking?.counts.includes(a.path)) {
      a.onceBy = compilePath(booking.booking);
      notes.push(
        `${a.name} counts each ${booking.booking} once: ${a.path} is the booking's, repeated on each of its segments.`,
      );
    }
    const cost = meaning?.costs?.find((c) => !c.list && c.rate === a.path);
    if (cost) {
      const per = cost.kind === 'hotel' ? 'per night' : 'per rental period';
      const spend = 'the spend is EstimatedCost (per EstimatedCostCurrency)';
      // An average rate is a figure of its own (a hotel's average nightly rate), unweighted.
      const weight = cost.kind === 'hotel' ? 'nights' : 'rental length';
      notes.push(
        a.fn === 'sum'
          ? `${a.name} adds up ${a.path}, a rate ${per}, not spend: ${spend}.`
          : `${a.name} averages ${a.path}, a rate ${per}, over the records (not weighted by ${weight}); ${spend}.`,
      );
    }
  }
  return notes;
}

class AggState {
  n = 0;
  sum = new ExactSum();
  numeric = 0;
  decimals = 0;
  distinct?: Set<string>;
  best?: SortKey & { value: unknown };
}

function grouped(
  matched: readonly Row[],
  args: QueryArgs,
  field: (n: string, p: string) => string,
  offset: number,
  limit: number,
  money: () => ReadonlyMap<string, string | null>,
  meaning?: RecordMeaning,
): QueryOutput {
  const keys: GroupKey[] = (args.groupBy ?? []).map((spec, i) => {
    const m = DATE_PART.exec(spec);
    const path = field(m ? m[1] : spec, `groupBy[${i}]`);
    const part = m ? PART_LENGTH[m[2].toLowerCase() as keyof typeof PART_LENGTH] : 0;
    const get = compilePath(path);
    if (part) {
      // A date part on a field without dates would silently group by the raw values.
      const sample = matched.map(get).find((v) => !isEmpty(v));
      if (sample !== undefined && !isIsoDate(sample)) {
        throw invalidInput(
          `groupBy[${i}]`,
          spec,
          `asks for a date part, but ${path} holds no dates (e.g. ${JSON.stringify(sample).slice(0, 40)}); group by ${path} itself`,
        );
      }
    }
    const names = !part && meaning?.travellerLists?.includes(path) === true;
    return { name: m ? `${path}:${m[2].toLowerCase()}` : path, get, part, ...(names ? { names } : {}) };
  });

  const aggs: AggSpec[] = [];
  for (const [i, a] of (args.aggregates ?? []).entries()) {
    if (a.field === undefined) {
      if (a.fn !== 'count') throw invalidInput(`aggregates[${i}].field`, undefined, `is required for fn '${a.fn}'`);
      continue; // count of records is always there
    }
    const path = field(a.field, `aggregates[${i}].field`);
    const name = `${a.fn}_${path}`;
    if (!aggs.some((x) => x.name === name)) aggs.push({ name, fn: a.fn, get: compilePath(path), path });
  }
  const notes = perCurrency(aggs, keys, money, matched);
  const inCurrency = aggs.flatMap((a) => (a.currency === undefined ? [] : [[a.name, a.currency] as const]));
  notes.push(...atTheirGrain(aggs, meaning));
  const byTraveller = keys.find((k) => k.names);

  const groups = new Map<
    unknown,
    { key: Record<string, unknown>; count: number; states: AggState[]; tickets: (Set<unknown> | undefined)[] }
  >();
  // One key (the common question): its value (always a scalar: groupValue) is the group's id
  // itself, with no list of values and JSON text of it made per record (a Map keeps "1" and 1
  // apart as that text did).
  const single = keys.length === 1 ? keys[0] : undefined;
  // Records per value of one top-level field, nothing else asked: read straight off the
  // records (no getter call, group or states touched per record).
  const countOnly =
    single && !single.part && !single.names && !aggs.length && !single.name.includes('.') ? single.name : undefined;
  /** Counts `r` in the group `id`, whose key values are `values` (one key: [id]). */
  const place = (r: Row, id: unknown, values: readonly unknown[] | undefined) => {
    let g = groups.get(id);
    if (!g) {
      const vs = values ?? [id];
      g = {
        key: Object.fromEntries(keys.map((k, j) => [k.name, vs[j]])),
        count: 0,
        states: aggs.map(() => new AggState()),
        tickets: aggs.map((a) => (a.onceBy ? new Set<unknown>() : undefined)),
      };
      groups.set(id, g);
    }
    g.count++;
    if (!aggs.length) return;
    const group = g;
    aggs.forEach((a, j) => {
      if (a.onceBy) {
        const ticket = a.onceBy(r);
        const seen = group.tickets[j] as Set<unknown>;
        if (!isEmpty(ticket)) {
          if (seen.has(ticket)) return;
          seen.add(ticket);
        }
      }
      const values = items(a.get!(r));
      accumulate(group.states[j], a.fn, a.names ? values.flatMap(namesIn) : values);
    });
  };
  if (countOnly !== undefined) {
    for (const [id, count] of countsOf(matched, countOnly))
      groups.set(id, { key: { [countOnly]: id }, count, states: [], tickets: [] });
  } else if (byTraveller) {
    const names = keys.indexOf(byTraveller);
    let several = 0;
    for (const r of matched) {
      const lists = keys.map((k) => groupValues(k, r));
      if (lists[names].length > 1) several++;
      for (const values of combinations(lists)) place(r, single ? values[0] : JSON.stringify(values), values);
    }
    notes.push(
      `Grouped by each traveller ${byTraveller.name} names (one text may name several: DOE/JANE MS, DOE/JOHN MR)` +
        (several
          ? `: ${several.toLocaleString('en-US')} of the ${matched.length.toLocaleString('en-US')} records matched ` +
            'name several and count in the group of each (their amounts too), so the groups add up to more than ' +
            'the records matched.'
          : '.'),
    );
  } else {
    for (const r of matched) {
      if (single) place(r, groupValue(single.get(r), single.part), undefined);
      else {
        const values = keys.map((k) => groupValue(k.get(r), k.part));
        place(r, keys.length ? JSON.stringify(values) : '', values);
      }
    }
  }
  if (!keys.length && !groups.size)
    groups.set('', { key: {}, count: 0, states: aggs.map(() => new AggState()), tickets: [] });

  const out: QueryGroup[] = [...groups.values()].map((g) => {
    const row: QueryGroup = { key: g.key, count: g.count };
    aggs.forEach((a, j) => {
      row[a.name] = finish(g.states[j], a.fn, a.currency === undefined ? undefined : { currency: g.key[a.currency] });
      if (a.currencyNote) row[`currency_${a.path}`] = a.currencyNote;
    });
    return row;
  });

  const orderSpecs = args.orderBy?.length
    ? args.orderBy.map((o, i) =>
        groupOrder(
          o.field,
          o.direction,
          i,
          keys.map((k) => k.name),
          aggs,
          field,
        ),
      )
    : [{ get: (g: QueryGroup) => g.count, desc: true }];
  // Ties fall back to the key values, so the order is the same on every call.
  for (const k of keys) orderSpecs.push({ get: (g: QueryGroup) => g.key[k.name], desc: false });
  const sorted = sortBy(out, orderSpecs);
  return {
    matched: matched.length,
    offset,
    limit,
    nextOffset: next(offset, limit, sorted.length),
    groups: sorted.slice(offset, offset + limit),
    groupCount: sorted.length,
    ...(notes.length ? { notes } : {}),
    ...(inCurrency.length ? { money: Object.fromEntries(inCurrency) } : {}),
  };
}

/** How many rows hold each value of the top-level field `key`, as groupValue keys them. */
function countsOf(rows: readonly Row[], key: string): Map<unknown, number> {
  const counts = new Map<unknown, number>();
  for (let i = 0; i < rows.length; i++) {
    const v = rows[i][key];
    const id = v === undefined || v === null || v === '' || typeof v === 'object' ? groupValue(v, 0) : v;
    counts.set(id, (counts.get(id) ?? 0) + 1);
  }
  return counts;
}

/** The groups a record belongs to under `key`: each traveller a list names once, else one. */
function groupValues(key: GroupKey, r: Row): unknown[] {
  const v = key.get(r);
  if (!key.names || typeof v !== 'string') return [groupValue(v, key.part)];
  const names = [...new Set(travellerNames(v))];
  return names.length ? names : [null];
}

/** Every choice of one value from each list, in order. */
function combinations(lists: readonly unknown[][]): unknown[][] {
  let out: unknown[][] = [[]];
  for (const list of lists) out = out.flatMap((prefix) => list.map((v) => [...prefix, v]));
  return out;
}

function groupValue(v: unknown, part: number): unknown {
  if (isEmpty(v)) return null;
  if (part && isIsoDate(v)) return v.slice(0, part);
  if (Array.isArray(v)) return v.map(scalarText).join(', ');
  return v !== null && typeof v === 'object' ? JSON.stringify(v) : v;
}

function groupOrder(
  name: string,
  direction: 'asc' | 'desc' | undefined,
  i: number,
  keyNames: string[],
  aggs: AggSpec[],
  field: (n: string, p: string) => string,
): { get: (g: QueryGroup) => unknown; desc: boolean } {
  const lower = name.toLowerCase();
  const key = keyNames.find((k) => k.toLowerCase() === lower);
  if (key) return { get: (g) => g.key[key], desc: direction === 'desc' };
  if (lower === 'count') return { get: (g) => g.count, desc: direction !== 'asc' };
  let agg = aggs.find((a) => a.name.toLowerCase() === lower);
  if (!agg) {
    // 'sum_fopfare' written with the field's other casing: resolve the field part.
    const m = /^([a-z]+)_(.+)$/i.exec(name);
    if (m) {
      const resolved = `${m[1]}_${field(m[2], `orderBy[${i}].field`)}`.toLowerCase();
      agg = aggs.find((a) => a.name.toLowerCase() === resolved);
    }
  }
  if (agg) {
    const aggName = agg.name;
    return { get: (g) => g[aggName], desc: direction !== 'asc' };
  }
  const choices = [...keyNames, 'count', ...aggs.map((a) => a.name)].map((c) => `'${c}'`).join(', ');
  throw invalidInput(
    `orderBy[${i}].field`,
    name,
    `must name a groupBy field, count or an aggregate when grouping: ${choices}`,
  );
}

function accumulate(s: AggState, fn: AggregateFn, values: unknown[]): void {
  for (const v of values) {
    s.n++;
    switch (fn) {
      case 'sum':
      case 'avg': {
        const n = toNumber(v);
        if (n !== undefined) {
          s.sum.add(n);
          s.numeric++;
          s.decimals = maxDecimals(s.decimals, v);
        }
        break;
      }
      case 'countDistinct':
        (s.distinct ??= new Set()).add(scalarText(v));
        break;
      case 'min':
      case 'max': {
        // Among values of different kinds, numbers win over dates and dates over text, for
        // max as for min: max of 10, 100 and 'N/A' is 100.
        const k = sortKey(v);
        if (!s.best || k.rank < s.best.rank) s.best = { ...k, value: v };
        else if (k.rank === s.best.rank) {
          const c = compareKeys(k, s.best, false);
          if (fn === 'min' ? c < 0 : c > 0) s.best = { ...k, value: v };
        }
        break;
      }
    }
  }
}

/** An aggregate's value; `money`: of amounts in that currency (an average is then an amount,
 *  to the currency's minor units: 1,080.83, not 1080.8296). */
function finish(s: AggState, fn: AggregateFn, money?: { currency: unknown }): unknown {
  switch (fn) {
    case 'count':
      return s.n;
    case 'sum':
      return s.numeric ? roundTo(s.sum.value, s.decimals) : null;
    case 'avg':
      if (!s.numeric) return null;
      return money
        ? roundMoney(s.sum.value / s.numeric, money.currency)
        : roundTo(s.sum.value / s.numeric, s.decimals + 2);
    case 'countDistinct':
      return s.distinct?.size ?? 0;
    case 'min':
    case 'max':
      return s.best ? (s.best.rank === 0 ? s.best.n : s.best.value) : null;
  }
}
