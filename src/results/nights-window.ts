/**
 * The window NightsInWindow counts nights in (docs/travel-meaning.md, "Nights in the period"),
 * and what a result fetched for it leaves out. Nights "in October" are the nights that fall in
 * October; the service selects hotel stays by arrival date, so a stay that arrived in
 * September and was still in-house on 1 October is not among the stays fetched for October,
 * and its October nights are in no sum of NightsInWindow. The answer says so, with the call
 * and the statement that count them (a wider fetch, then sql_query).
 */
import type { RecordMeaning, TransactionDef } from '../catalog/types.js';

type NightsMeaning = NonNullable<RecordMeaning['nightsInWindow']>;

const DAY_MS = 86_400_000;

/** How far before the window the remedy fetches: stays of more nights are rare. */
export const LOOKBACK_DAYS = 30;

/** The first and last day of the window (days since 1970), when the query sent one that
 *  selects stays by arrival date; undefined otherwise (a window of booking or segment creation
 *  dates holds stays whose nights fall anywhere: no night is counted in it). */
export function nightsWindow(
  w: NightsMeaning,
  query: Readonly<Record<string, string>>,
): { from: number; to: number } | undefined {
  const basis = query[w.byArrival.param];
  if (basis !== undefined && basis !== w.byArrival.value) return undefined;
  const from = dayOfQuery(query[w.start]);
  const to = dayOfQuery(query[w.end]);
  return from === undefined || to === undefined ? undefined : { from, to };
}

/**
 * What the result's NightsInWindow leaves out, and how to count it: the stays in-house at the
 * window's start that arrived before it. Undefined where no NightsInWindow is derived. Within
 * the 400 characters a report's text gives a note, so the statement is never cut.
 */
export function inHouseNote(w: NightsMeaning, query: Readonly<Record<string, string>>): string | undefined {
  const window = nightsWindow(w, query);
  if (!window) return undefined;
  const start = query[w.start];
  const first = isoDay(window.from);
  const after = isoDay(window.to + 1);
  const lookback = isoDay(window.from - LOOKBACK_DAYS).replaceAll('-', '');
  return (
    `NightsInWindow counts nights from ${start} to ${query[w.end]} of the stays here, which the service ` +
    `selects by ${w.arrival}: stays already in-house on ${start} are not here. To count them too, ` +
    `fetch from ${w.start}=${lookback} (${LOOKBACK_DAYS} days before) and sum in sql_query over ` +
    `confirmed stays: MAX(0, julianday(MIN(substr(${w.departure},1,10), '${after}')) - ` +
    `julianday(MAX(substr(${w.arrival},1,10), '${first}')))`
  );
}

/**
 * inHouseNote for a report's result fetched with `query`, when the report derives
 * NightsInWindow. Its words are this server's (the query's dates, validated as dates, and the
 * catalog's field names): the notes are not name-masked, as masking a traveller called Max or
 * Min would break the statement's MAX( and MIN(.
 */
export function inHouseNoteOf(def: TransactionDef | undefined, query: Readonly<Record<string, string>>) {
  const nights = def?.answer.meaning?.nightsInWindow;
  return nights && inHouseNote(nights, query);
}

/** The fields derived for the window (results/derived.ts): its nights and their cost. */
export const WINDOW_FIELDS = ['NightsInWindow', 'EstimatedCostInWindow'] as const;

/** The derived cost of a whole stay (results/derived.ts): a total of it over a window of
 *  arrivals, like one of the stay's nights, is not the window's. */
const STAY_COST = 'EstimatedCost';

/** The fields of the stays fetched for `def` whose total counts every night of each stay
 *  (its nights and STAY_COST); none where no NightsInWindow is derived. */
export function wholeStayFields(def: TransactionDef | undefined): string[] {
  const w = def?.answer.meaning?.nightsInWindow;
  return w ? [w.nights, STAY_COST] : [];
}

/**
 * What a total of `totalled` (wholeStayFields) over stays fetched for a window of arrival
 * dates counts: every night of each stay, those after the window included, not the window's
 * nights. Undefined where no NightsInWindow is derived (a window of booking dates, no window).
 */
export function wholeStayNoteOf(
  def: TransactionDef | undefined,
  query: Readonly<Record<string, string>>,
  totalled: readonly string[],
): string | undefined {
  const w = def?.answer.meaning?.nightsInWindow;
  if (!w || !nightsWindow(w, query) || !totalled.length) return undefined;
  const subject =
    totalled.length > 1
      ? `${totalled.join(' and ')} are of every night of each stay`
      : totalled[0] === STAY_COST
        ? `${STAY_COST} is the cost of every night of each stay`
        : `${totalled[0]} counts every night of each stay`;
  return (
    `${subject}, nights after ${w.end}=${query[w.end]} included: these stays were selected by ${w.arrival} ` +
    `from ${query[w.start]} to ${query[w.end]}. The nights that fall in that window are NightsInWindow, ` +
    'their cost EstimatedCostInWindow.'
  );
}

/** The day of a query date as sent upstream (YYYYMMDD). */
function dayOfQuery(v: string | undefined): number | undefined {
  const m = v === undefined ? null : /^(\d{4})(\d{2})(\d{2})$/.exec(v);
  return m ? Math.floor(Date.UTC(+m[1], +m[2] - 1, +m[3]) / DAY_MS) : undefined;
}

function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}
