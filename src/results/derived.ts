/**
 * The fields this server adds to a report's records, from what the catalog says the record's
 * fields mean (catalog/types.ts `RecordMeaning`; docs/travel-meaning.md). They are added to
 * each record as it arrives, before its one walk (FetchRequest.prepare), so the summary,
 * rows, query_report, sql_query tables, resource pages, exports and the view all read them
 * as they read the service's own fields:
 * - `SegmentState` on every segment: what its GDS status code means (catalog/segment-states.ts);
 * - `BoardCity`, `OffCity`, `BoardCountry`, `OffCountry` on flights: the IATA city (NYC for
 *   JFK) and country of each airport (results/places.ts);
 * - `EstimatedCost`, `EstimatedCostCurrency`, `CostBasis` on hotel stays and car rentals: the
 *   rate times its periods, or empty with the reason;
 * - `NightsInWindow` on hotel stays fetched for a window of arrival dates: the nights that fall
 *   in it (results/nights-window.ts), and `EstimatedCostInWindow`, the cost of those nights;
 * - fields that live inside free text (results/text-fields.ts): a forwarding log's `Partner`
 *   and `FailureReason`, an app activity's `ReportName`.
 */
import { SEGMENT_STATES, type SegmentState, segmentState } from '../catalog/segment-states.js';
import type { CostMeaning, RecordMeaning } from '../catalog/types.js';
import { decodeServiceDate } from '../upstream/service-date.js';
import { minorUnits, roundMoney } from './money.js';
import { nightsWindow } from './nights-window.js';
import { loadPlaces, type Places } from './places.js';
import type { Summary } from './summarize.js';
import { addTextField, TEXT_FIELDS } from './text-fields.js';
import { formatNumber } from './values.js';

type Rec = Record<string, unknown>;

export interface DerivedField {
  field: string;
  /** How it is computed, in a sentence. */
  how: string;
}

export interface Deriver {
  readonly fields: readonly DerivedField[];
  /** Adds the derived fields to one record as the service sent it. */
  apply(record: Rec): void;
}

const DAY_MS = 86_400_000;

/**
 * The deriver for a report's records, or undefined when its catalog entry declares nothing
 * they mean. `query`: the upstream query as sent (the window of NightsInWindow).
 */
export async function deriverFor(
  meaning: RecordMeaning | undefined,
  query: Readonly<Record<string, string>>,
): Promise<Deriver | undefined> {
  if (!meaning) return undefined;
  const steps: ((r: Rec) => void)[] = [];
  const fields: DerivedField[] = [];
  if (meaning.segments?.length) {
    fields.push({
      field: 'SegmentState',
      how:
        'confirmed, cancelled, waitlisted, requested or other, from the GDS status code ' +
        `(${meaning.segments.map((s) => s.status).join(', ')}); travel counts confirmed segments`,
    });
    for (const s of meaning.segments) {
      steps.push((r) => {
        for (const item of itemsAt(r, s.list)) {
          // A record without the status field is not the segment the catalog speaks of.
          if (!(s.status in item)) continue;
          item.SegmentState =
            s.cancelledFlag && item[s.cancelledFlag] === true ? 'cancelled' : segmentState(item[s.status]);
        }
      });
    }
  }
  if (meaning.airports?.length) {
    const places = await loadPlaces();
    fields.push({
      field: 'BoardCity, OffCity, BoardCountry, OffCountry',
      how: 'the IATA city code (JFK and LGA are NYC) and ISO country of each airport, from the iata-city-codes data',
    });
    for (const a of meaning.airports) steps.push((r) => addPlaces(r, a, places));
  }
  for (const c of meaning.costs ?? []) {
    fields.push({
      field: 'EstimatedCost, EstimatedCostCurrency, CostBasis',
      how:
        c.kind === 'hotel'
          ? 'rate per night x nights x rooms, for confirmed stays; CostBasis says how, or why there is none'
          : 'rate x rental periods (days, weeks or months from pick-up to drop-off by the rate type), for ' +
            'confirmed rentals; CostBasis says how, or why there is none',
    });
    const price = c.kind === 'hotel' ? priceHotel : priceCar;
    steps.push((r) => addCosts(r, c, price));
  }
  const flags = meaning.travelFlags;
  if (flags?.length) {
    fields.push({
      field: 'Travelling',
      how:
        `true when the booking holds an air, hotel or car segment (${flags.join(', ')}); a booking of ` +
        'passive lines only (a retention line) is not travel',
    });
    steps.push((r) => {
      r.Travelling = flags.some((f) => r[f] === true || r[f] === 'true' || r[f] === 'Y');
    });
  }
  const window = meaning.nightsInWindow;
  const days = window && nightsWindow(window, query);
  if (window && days) {
    const { from, to } = days;
    fields.push({
      field: 'NightsInWindow',
      how:
        `the nights of the stay that fall from ${query[window.start]} to ${query[window.end]} ` +
        '(a night is dated by its evening; a stay of several rooms counts each night once, not per room); ' +
        'NbrNights counts every night of the stay',
    });
    // The cost of those nights, beside them: EstimatedCost is the whole stay's.
    const hotel = meaning.costs?.find((c) => c.kind === 'hotel' && c.list === undefined);
    if (hotel) {
      fields.push({
        field: 'EstimatedCostInWindow',
        how:
          'rate per night x NightsInWindow x rooms, for confirmed stays, in EstimatedCostCurrency: the cost of ' +
          "the nights in the window; EstimatedCost is the whole stay's",
      });
    }
    steps.push((r) => {
      const arrive = dayOf(r[window.arrival]);
      const leave = dayOf(r[window.departure]);
      const nights =
        arrive === undefined || leave === undefined
          ? null
          : Math.max(0, Math.min(leave, to + 1) - Math.max(arrive, from));
      r.NightsInWindow = nights;
      if (hotel) r.EstimatedCostInWindow = costInWindow(r, hotel, nights);
    });
  }
  for (const name of meaning.textFields ?? []) {
    const d = TEXT_FIELDS[name];
    if (!d) throw new Error(`catalog: no field derived from text is called ${name} (results/text-fields.ts)`);
    fields.push({ field: d.field, how: d.how });
    steps.push((r) => addTextField(r, d));
  }
  if (!steps.length) return undefined;
  return {
    fields,
    apply(record: Rec): void {
      for (const step of steps) step(record);
    },
  };
}

/** The objects a meaning speaks of: the record itself, or the items of its list at `path`. */
function itemsAt(record: Rec, path: string | undefined): Rec[] {
  if (!path) return [record];
  let at: unknown = record;
  for (const key of path.split('.')) {
    if (at === null || typeof at !== 'object' || Array.isArray(at)) return [];
    at = (at as Rec)[key];
  }
  if (Array.isArray(at)) return at.filter((x): x is Rec => x !== null && typeof x === 'object' && !Array.isArray(x));
  return at !== null && typeof at === 'object' ? [at as Rec] : [];
}

function addPlaces(record: Rec, a: { list?: string; board: string; off: string }, places: Places): void {
  for (const item of itemsAt(record, a.list)) {
    const board = places.airport(item[a.board]);
    const off = places.airport(item[a.off]);
    item.BoardCity = board?.city ?? null;
    item.OffCity = off?.city ?? null;
    item.BoardCountry = board?.country ?? null;
    item.OffCountry = off?.country ?? null;
  }
}

function setCost(item: Rec, cost: number | null, currency: unknown, basis: string): void {
  item.EstimatedCost = cost;
  item.EstimatedCostCurrency = cost === null || typeof currency !== 'string' ? null : currency;
  item.CostBasis = basis;
}

/** Why a segment has no cost: it is not confirmed travel. */
function notConfirmed(item: Rec, c: CostMeaning): string | undefined {
  const state: SegmentState =
    c.cancelledFlag && item[c.cancelledFlag] === true ? 'cancelled' : segmentState(item[c.status]);
  if (state === 'confirmed') return undefined;
  const code = typeof item[c.status] === 'string' ? ` (${String(item[c.status])})` : '';
  return state === 'cancelled' ? `none: cancelled${code}` : `none: ${state}, not confirmed${code}`;
}

/** Prices each confirmed stay or rental of the record with `price`; the others get no cost, and why. */
function addCosts(record: Rec, c: CostMeaning, price: (item: Rec, c: CostMeaning) => void): void {
  for (const item of itemsAt(record, c.list)) {
    const why = notConfirmed(item, c);
    if (why) setCost(item, null, undefined, why);
    else price(item, c);
  }
}

function priceHotel(item: Rec, c: CostMeaning): void {
  const rate = toNumber(item[c.rate]);
  const nights = toNumber(c.nights ? item[c.nights] : undefined);
  const roomsSent = toNumber(c.rooms ? item[c.rooms] : undefined);
  const currency = item[c.currency];
  if (rate === undefined) setCost(item, null, undefined, 'none: no rate stated');
  else if (nights === undefined) setCost(item, null, undefined, 'none: nights not stated');
  else {
    const rooms = roomsSent ?? 1;
    const cost = roundMoney(rate * nights * rooms, currency);
    setCost(
      item,
      cost,
      currency,
      `rate per night ${rate.toFixed(minorUnits(currency))} x ${nights} night${nights === 1 ? '' : 's'} x ` +
        `${rooms} room${rooms === 1 ? '' : 's'}${roomsSent === undefined ? ' (rooms not stated: 1 assumed)' : ''}`,
    );
  }
}

/** A priced stay's cost of `nights` of its nights (priceHotel's rate and rooms); null where
 *  the stay has no cost (not confirmed, no rate) or its nights in the window are unknown. */
function costInWindow(item: Rec, c: CostMeaning, nights: number | null): number | null {
  if (typeof item.EstimatedCost !== 'number' || nights === null) return null;
  const rate = toNumber(item[c.rate]);
  if (rate === undefined) return null;
  const rooms = toNumber(c.rooms ? item[c.rooms] : undefined) ?? 1;
  return roundMoney(rate * nights * rooms, item[c.currency]);
}

/** A car rate's period in days, from the rate type or the words of the rate's text. */
type Period = { days: number; name: string };
const PERIODS: readonly [RegExp, Period][] = [
  [/^(D|DY|DLY)$|\bDAILY\b|\bPER DAY\b/i, { days: 1, name: 'daily' }],
  [/^(W|WY|WKY)$|\bWEEKLY\b|\bPER WEEK\b/i, { days: 7, name: 'weekly' }],
  [/^(M|MY|MLY)$|\bMONTHLY\b|\bPER MONTH\b/i, { days: 30, name: 'monthly' }],
];

function carPeriod(item: Rec, fields: readonly string[]): Period | undefined {
  for (const f of fields) {
    const v = item[f];
    if (typeof v !== 'string' || !v.trim()) continue;
    for (const [pattern, period] of PERIODS) if (pattern.test(v.trim())) return period;
  }
  return undefined;
}

function priceCar(item: Rec, c: CostMeaning): void {
  const rate = toNumber(item[c.rate]);
  const currency = item[c.currency];
  const period = carPeriod(item, c.period ?? []);
  const start = c.start ? instantOf(item[c.start]) : undefined;
  const end = c.end ? instantOf(item[c.end]) : undefined;
  if (rate === undefined) setCost(item, null, undefined, 'none: no rate stated');
  else if (!period) {
    setCost(
      item,
      null,
      undefined,
      `none: the rate's period (day, week, month) is not stated (${c.period?.join(', ')})`,
    );
  } else if (start === undefined || end === undefined || end < start) {
    setCost(item, null, undefined, 'none: pick-up or drop-off not readable');
  } else {
    // Rental days are 24-hour periods from pick-up, at least one.
    const days = Math.max(1, Math.ceil((end - start) / DAY_MS - 1e-9));
    const periods = days / period.days;
    const cost = roundMoney(rate * periods, currency);
    const rateText = rate.toFixed(minorUnits(currency));
    setCost(
      item,
      cost,
      currency,
      period.days === 1
        ? `daily rate ${rateText} x ${days} day${days === 1 ? '' : 's'}`
        : `${period.name} rate ${rateText} x ${days} day${days === 1 ? '' : 's'} / ${period.days}`,
    );
  }
}

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v !== 'string' || !v.trim()) return undefined;
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : undefined;
}

/** The wall-clock instant a date stands for, in ms as if it were UTC (offsets set aside:
 *  both ends of a rental are at the same place), from a service date or ISO text. */
function instantOf(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const iso = v.startsWith('/Date(') ? decodeServiceDate(v) : v;
  if (typeof iso !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?/.exec(iso);
  if (!m) return undefined;
  return Date.UTC(+m[1], +m[2] - 1, +m[3], m[4] ? +m[4] : 0, m[5] ? +m[5] : 0);
}

/** The local calendar day (days since 1970-01-01) of a date value. */
function dayOf(v: unknown): number | undefined {
  const ms = instantOf(v);
  return ms === undefined ? undefined : Math.floor(ms / DAY_MS);
}

/** The summary with the derived fields it profiles, and how each is computed. */
export function withDerived(summary: Summary, fields: readonly DerivedField[]): Summary {
  return fields.length ? { ...summary, derived: [...fields] } : summary;
}

/**
 * What a reader must know to read a report's numbers as a travel professional does, in
 * notes: how many segments are not confirmed (and their codes), that a rate is not a cost,
 * what the service's own totals do not say they count, and that a ticket's amounts are
 * counted once per ticket.
 */
export function meaningNotes(
  meaning: RecordMeaning | undefined,
  records: readonly Rec[],
  /** 'file': the records are an exported file's rows, which a spreadsheet sums as they are. */
  reader: 'answer' | 'file' = 'answer',
): string[] {
  if (!meaning) return [];
  const notes: string[] = [];
  if (!records.length) return [];
  const states = stateCounts(records, meaning);
  if (states?.total) notes.push(stateNote(states, reader));
  for (const c of meaning.costs ?? []) {
    const note = costNote(records, c);
    if (note) notes.push(note);
  }
  if (meaning.travelFlags?.length) {
    const idle = records.filter((r) => r.Travelling === false).length;
    if (idle) {
      notes.push(
        `${plural(idle, 'booking')} of ${records.length} hold no air, hotel or car segment (passive lines only, ` +
          'such as retention lines): not travelling (Travelling false).',
      );
    }
  }
  const totals = meaning.serviceTotals;
  if (totals) {
    const many = totals.fields.length > 1;
    notes.push(
      `${totals.fields.join(' and ')} ${many ? "are the service's own totals" : "is the service's own total"}: ` +
        `it does not say ${totals.unsaid}. ${totals.instead}.`,
    );
  }
  const grain = meaning.ticketGrain;
  if (grain && records.length) {
    const tickets = new Set(
      records.map((r) => r[grain.ticket]).filter((t) => t !== undefined && t !== null && t !== ''),
    );
    // Our totals count a ticket once; a sum down a file's rows counts it once per coupon.
    const totals =
      reader === 'file'
        ? `a sum down the rows counts a ticket once per coupon: total each ${grain.ticket} once`
        : `totals count each ${grain.ticket} once`;
    notes.push(
      `${grain.amounts.join(', ')} ${grain.amounts.length === 1 ? 'is' : 'are'} the ticket's, repeated on every ` +
        `coupon: ${totals} (${plural(tickets.size, 'ticket')} in ${plural(records.length, 'coupon record')}).`,
    );
  }
  return notes;
}

/** The top-level fields meaningNotes' notes on whole records rest on: SegmentState for the
 *  states, EstimatedCost and its currency for the costs (a reader without them cannot check
 *  the notes). Fields of a list's items are not among them. */
export function notesRestOn(meaning: RecordMeaning): string[] {
  return [
    ...(meaning.segments?.some((s) => s.list === undefined) ? ['SegmentState'] : []),
    ...(meaning.costs?.some((c) => c.list === undefined) ? ['EstimatedCost', 'EstimatedCostCurrency'] : []),
  ];
}

export interface StateCounts {
  total: number;
  /** State -> status code -> segments. */
  byState: Map<SegmentState, Map<string, number>>;
}

/** Counts made per records list (held lists are not changed: continue_report and masking
 *  make new ones), by the segments counted: every query_report on a result says them again. */
const counted = new WeakMap<readonly Rec[], Map<string, StateCounts>>();

/** Segments per state and code, over every segment the meaning names in `records`. */
export function stateCounts(records: readonly Rec[], meaning: RecordMeaning): StateCounts | undefined {
  if (!meaning.segments?.length) return undefined;
  const which = JSON.stringify(meaning.segments.map((s) => [s.list ?? null, s.status]));
  let known = counted.get(records);
  const hit = known?.get(which);
  if (hit) return hit;
  const counts = countStates(records, meaning.segments);
  if (!known) counted.set(records, (known = new Map()));
  known.set(which, counts);
  return counts;
}

function countStates(records: readonly Rec[], segments: NonNullable<RecordMeaning['segments']>): StateCounts {
  const byState = new Map<SegmentState, Map<string, number>>();
  let total = 0;
  for (const r of records) {
    for (const s of segments) {
      for (const item of itemsAt(r, s.list)) {
        if (!(s.status in item)) continue;
        const state = (item.SegmentState as SegmentState | undefined) ?? segmentState(item[s.status]);
        const code = typeof item[s.status] === 'string' && item[s.status] ? String(item[s.status]) : '(none)';
        let codes = byState.get(state);
        if (!codes) byState.set(state, (codes = new Map()));
        codes.set(code, (codes.get(code) ?? 0) + 1);
        total++;
      }
    }
  }
  return { total, byState };
}

/** "Segment states: 57 of 60 segments confirmed; 3 not: cancelled 2 (HX 2), waitlisted 1 (US 1)...",
 *  then how to count travel: in query_report's terms for an answer, in a spreadsheet's for a file. */
export function stateNote(counts: StateCounts, reader: 'answer' | 'file' = 'answer'): string {
  const notConfirmed = notConfirmedOf(counts);
  if (!notConfirmed) return `All ${plural(counts.total, 'segment')} are confirmed (SegmentState).`;
  const count =
    reader === 'file'
      ? 'To count travel, count only the segments whose SegmentState is confirmed.'
      : 'Counts of travel take SegmentState eq confirmed.';
  return `Segment states: ${notConfirmed}. ${count}`;
}

/** "57 of 60 segments confirmed; 3 not: cancelled 2 (HX 2), ...", or undefined when all are confirmed. */
export function notConfirmedOf({ total, byState }: StateCounts): string | undefined {
  const count = (s: SegmentState) => [...(byState.get(s)?.values() ?? [])].reduce((a, b) => a + b, 0);
  const confirmed = count('confirmed');
  if (confirmed === total) return undefined;
  const others = SEGMENT_STATES.filter((s) => s !== 'confirmed' && count(s) > 0).map((s) => {
    const codes = [...(byState.get(s) as Map<string, number>)].sort((a, b) => b[1] - a[1]);
    const shown = codes.slice(0, 6).map(([code, n]) => `${code} ${formatNumber(n)}`);
    return `${s} ${formatNumber(count(s))} (${shown.join(', ')}${codes.length > 6 ? ', ...' : ''})`;
  });
  const notCount = formatNumber(total - confirmed);
  return `${formatNumber(confirmed)} of ${plural(total, 'segment')} confirmed; ${notCount} not: ${others.join(', ')}`;
}

/** What a rate is and how many stays or rentals were priced; nothing where there are none
 *  (a booking without hotel segments has no rate to read). */
function costNote(records: readonly Rec[], c: CostMeaning): string | undefined {
  let items = 0;
  let priced = 0;
  let unknown = 0;
  for (const r of records) {
    for (const item of itemsAt(r, c.list)) {
      items++;
      if (typeof item.EstimatedCost === 'number') priced++;
      else if (
        typeof item.CostBasis === 'string' &&
        !/^none: (cancelled|waitlisted|requested|other)/.test(item.CostBasis)
      )
        unknown++;
    }
  }
  if (!items) return undefined;
  const what = c.kind === 'hotel' ? 'a rate per night' : 'a rate per rental period (day, week or month)';
  // Stays fetched for a window of arrivals also have the cost of the window's nights (deriverFor).
  const inWindow = c.list === undefined && 'EstimatedCostInWindow' in records[0];
  // A rental's cost is dated by its pick-up, as the service selects rentals: say so.
  const whose = c.kind === 'car' ? ", each whole rental's from pick-up to drop-off" : '';
  return (
    `${c.rate} is ${what}, not a cost: spend is EstimatedCost${whose}, per EstimatedCostCurrency` +
    `${inWindow ? ', and the spend on the nights in the window EstimatedCostInWindow' : ''} ` +
    `(${plural(priced, c.kind === 'hotel' ? 'stay' : 'rental')} priced` +
    `${unknown ? `; ${unknown} not priced, CostBasis says why` : ''}; unconfirmed ones have none).`
  );
}

function plural(n: number, word: string): string {
  return `${formatNumber(n)} ${word}${n === 1 ? '' : 's'}`;
}
