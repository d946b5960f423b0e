/**
 * What a travellers_at call does (registered in travellers-tool.ts; README, "Duty of care"):
 * two passenger_locations_by_routing fetches (arrivals to the place from the look-back to the
 * window's end, departures from it during the window and the look-ahead), then each candidate
 * booking's BookingDetail (passengers and itinerary), all through the report tools' own fetch
 * (run-report.ts: signing, paging, limiter, deadline, pinned scope, UserName). The travellers
 * found are held as a result like a report's, so query_report, exports and the view work on it.
 */
import { setMaxListeners } from 'node:events';
import { resolveInput } from '../catalog/resolve.js';
import { findTransaction } from '../catalog/transactions.js';
import {
  LOOKAHEAD_DAYS,
  type Place,
  resolveTravellersAt,
  shiftDays,
  type TravellersAtArgs,
} from '../catalog/travellers-input.js';
import type { TransactionDef } from '../catalog/types.js';
import { cancelledError, ReportsError } from '../errors.js';
import { presentReport } from '../presentation/index.js';
import { CONNECTION_HOURS, type Window } from '../results/stays.js';
import {
  type Candidate,
  candidateKey,
  candidatesOf,
  sortTravellerRecords,
  statusCounts,
  travellerRecords,
} from '../results/travellers.js';
import { progressReporter, type ToolExtra } from './progress.js';
import { type FetchedRecords, fetchRecords } from './run-report.js';
import { callSignal, type Runtime } from './runtime.js';
import { enforceScope } from './scope.js';

/** Most bookings one call reads: each is one request; more makes the answer incomplete, saying so. */
export const MAX_BOOKINGS = 400;
/** The columns an answer shows; every field is in the held records (Evidence lists the flights). */
const COLUMNS = ['Traveller', 'Status', 'From', 'To', 'RecordLocator', 'Account', 'PhoneNbr', 'EmailAddress', 'Reason'];

type Rec = Record<string, unknown>;

export async function callTravellersAt(rt: Runtime, args: TravellersAtArgs, extra: ToolExtra) {
  // One signal for the call's many fetches (each listens to it): linked to the caller's.
  const linked = new AbortController();
  setMaxListeners(0, linked.signal);
  const outer = callSignal(rt, extra.signal);
  if (outer.aborted) throw cancelledError(outer);
  const onAbort = () => linked.abort(outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  try {
    return await travellersAt(rt, args, extra, linked.signal);
  } finally {
    outer.removeEventListener('abort', onAbort);
  }
}

async function travellersAt(rt: Runtime, args: TravellersAtArgs, extra: ToolExtra, signal: AbortSignal) {
  const input = resolveTravellersAt(args, { timeZone: rt.config.timeZone, now: rt.now() });
  const routing = transaction('passenger_locations_by_routing');
  const details = transaction('booking_details');
  const deadline = Date.now() + rt.config.callBudgetMs;
  const left = () => Math.max(1, deadline - Date.now());
  const ctx = {
    timeZone: rt.config.timeZone,
    now: rt.now(),
    defaultUserName: rt.config.userName,
    pinnedCompanyCodes: rt.config.owningCompanyCodes,
    fixedUserName: rt.fixedUserName,
  };
  const arrivalsQuery = resolveInput(routing, input.arrivals, ctx).query;
  const departuresQuery = resolveInput(routing, input.departures, ctx).query;
  await enforceScope(rt, routing, arrivalsQuery, signal);

  const fetchRouting = (query: Record<string, string>) =>
    fetchRecords(rt, routing, query, { maxRecords: rt.config.maxRecords, signal, budgetMs: left() });
  const [arrivals, departures] = await Promise.all([fetchRouting(arrivalsQuery), fetchRouting(departuresQuery)]);

  const place = placeAirports(input.place, arrivals.records, departures.records);
  const all = candidatesOf([...arrivals.records, ...departures.records]);
  const candidates = all.slice(0, MAX_BOOKINGS);
  const read = await readBookings(rt, details, candidates, ctx, { signal, left, extra });

  const window: Window = { start: `${iso(input.from)}T00:00`, end: `${iso(shiftDays(input.to, 1))}T00:00` };
  const records: Rec[] = [];
  let unreadable = 0;
  for (const c of candidates) {
    const detail = read.found.get(candidateKey(c.routing)!);
    if (!detail) continue;
    const out = travellerRecords(c, detail, place, window);
    records.push(...out.records);
    unreadable += out.unreadable;
  }
  sortTravellerRecords(records);

  const complete =
    arrivals.complete &&
    departures.complete &&
    read.failed.length === 0 &&
    read.incomplete === 0 &&
    all.length === candidates.length;
  const notes = [
    `${records.length} traveller stays at ${placeName(input.place)} touch ${input.from}-${input.to}: ${statusCounts(records)}. ` +
      'Undecided stays are listed last, each with its Reason; Evidence lists the flights each rests on.',
    callNote('arrivals', arrivalsQuery, arrivals),
    callNote('departures', departuresQuery, departures),
    ...arrivals.notes.map((n) => `arrivals: ${notContinued(n)}`),
    ...departures.notes.map((n) => `departures: ${notContinued(n)}`),
    bookingsNote(candidates.length, read),
    ...(all.length > candidates.length
      ? [
          `${all.length} bookings were found, more than the ${MAX_BOOKINGS} one call reads: the last ` +
            `${all.length - candidates.length} were not read. Narrow the window or the place.`,
        ]
      : []),
    ...(unreadable ? [`${unreadable} air segments had unreadable dates or times and were left out.`] : []),
    ...(input.place.kind === 'Airport'
      ? []
      : [
          `Airports of ${placeName(input.place)} learnt from the routing answers: ${[...place].sort().join(', ') || 'none'}.`,
        ]),
    'Rules: in place = arrived before the window and leaves after it; passing through = the onward flight leaves ' +
      `within ${CONNECTION_HOURS} h of the arrival, to somewhere else, in the same booking; a booking that starts at the place counts ` +
      `as based there; departures are looked for up to ${LOOKAHEAD_DAYS} days after the window. Times are local at the place.`,
  ];
  const query: Record<string, string> = {
    place: input.place.code,
    placeKind: input.place.kind.toLowerCase(),
    from: input.from,
    to: input.to,
    lookbackDays: String(input.lookbackDays),
    lookaheadDays: String(LOOKAHEAD_DAYS),
    arrivals: params(arrivalsQuery),
    departures: params(departuresQuery),
  };
  rt.log(
    `travellers_at: ${records.length} stays from ${candidates.length} bookings, ` +
      `${arrivals.requests + departures.requests + read.requests} requests${complete ? '' : ' (incomplete)'}`,
  );
  const stored = await rt.results.put({
    report: 'travellers_at',
    source: rt.source,
    query: rt.redact(query),
    sentQuery: query,
    totalRecords: records.length,
    complete,
    notes: notes.map(rt.redact.text),
    records: rt.redact.records(records),
    held: [{ offset: 0, count: records.length }],
  });
  return presentReport(stored, { fields: COLUMNS });
}

function transaction(tool: string): TransactionDef {
  const def = findTransaction(tool);
  if (!def) throw new Error(`travellers_at: the catalog has no ${tool}`);
  return def;
}

/** The place's airports: the code itself, or those the routing answers show arriving into and leaving from it. */
function placeAirports(place: Place, arrivals: readonly Rec[], departures: readonly Rec[]): Set<string> {
  if (place.kind === 'Airport') return new Set([place.code]);
  const codes = new Set<string>();
  for (const r of arrivals) if (typeof r.OffPoint === 'string' && r.OffPoint) codes.add(r.OffPoint.toUpperCase());
  for (const r of departures)
    if (typeof r.BoardPoint === 'string' && r.BoardPoint) codes.add(r.BoardPoint.toUpperCase());
  return codes;
}

interface BookingsRead {
  found: Map<string, Rec>;
  failed: Array<{ locator: string; why: string }>;
  /** Bookings BookingDetails did not return (outside the pinned scope, or gone). */
  missing: string[];
  incomplete: number;
  requests: number;
}

/** Each candidate's BookingDetail (passengers and itinerary), all at once within the process-wide limiter. */
async function readBookings(
  rt: Runtime,
  def: TransactionDef,
  candidates: readonly Candidate[],
  ctx: Parameters<typeof resolveInput>[2],
  call: { signal: AbortSignal; left: () => number; extra: ToolExtra },
): Promise<BookingsRead> {
  const read: BookingsRead = { found: new Map(), failed: [], missing: [], incomplete: 0, requests: 0 };
  const progress = progressReporter(call.extra, 'travellers_at');
  let done = 0;
  await Promise.all(
    candidates.map(async (c) => {
      const args: Rec = { RecordLocator: c.recordLocator, LoadOptions: 'Passengers,Itinerary' };
      if (c.created) args.PNRCreationDate = c.created;
      try {
        const query = resolveInput(def, args, ctx).query;
        const got: FetchedRecords = await fetchRecords(rt, def, query, {
          maxRecords: 10,
          signal: call.signal,
          budgetMs: call.left(),
        });
        read.requests += got.requests;
        if (!got.complete) read.incomplete++;
        const detail = got.records.find((r) => String(r.RecordLocator ?? '').toUpperCase() === c.recordLocator);
        if (detail) read.found.set(candidateKey(c.routing)!, detail);
        else read.missing.push(c.recordLocator);
      } catch (err) {
        if (err instanceof ReportsError && err.kind === 'cancelled') throw err;
        read.failed.push({ locator: c.recordLocator, why: err instanceof Error ? err.message : String(err) });
      }
      progress?.(++done, candidates.length);
    }),
  );
  return read;
}

/** A query as 'Name=value' words, unencoded (so masking finds an e-mail in a UserName). */
function params(query: Record<string, string>): string {
  return Object.entries(query)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

function callNote(what: string, query: Record<string, string>, got: FetchedRecords): string {
  return (
    `Called passenger_locations_by_routing for ${what} (${params(query)}): ${got.records.length} records, ` +
    `${got.complete ? 'complete' : 'INCOMPLETE'}.`
  );
}

function bookingsNote(asked: number, read: BookingsRead): string {
  const parts = [`Called booking_details (Passengers, Itinerary) for ${asked} bookings: ${read.found.size} read`];
  if (read.missing.length) {
    parts.push(
      `${read.missing.length} not returned (outside the scope asked, or gone: ${read.missing.slice(0, 5).join(', ')}` +
        `${read.missing.length > 5 ? ', ...' : ''})`,
    );
  }
  if (read.failed.length) {
    const first = read.failed[0];
    parts.push(
      `${read.failed.length} FAILED (e.g. ${first.locator}: ${first.why.replace(/\.$/, '')}); their travellers are ` +
        'missing: call travellers_at again',
    );
  }
  if (read.incomplete) parts.push(`${read.incomplete} incomplete`);
  return `${parts.join('; ')}; ${read.failed.length || read.incomplete ? 'INCOMPLETE' : 'complete'}.`;
}

/** A fetch's note says continue_report completes it; for this answer, what does instead. */
function notContinued(note: string): string {
  return note.replace(
    /continue_report fetches (them|the remaining [\d,]+)/,
    'travellers_at answers are not continued by continue_report: narrow the window or the place',
  );
}

function placeName(place: Place): string {
  return place.kind === 'Airport' ? place.code : `${place.kind.toLowerCase()} ${place.code}`;
}

function iso(ymd: string): string {
  return `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)}`;
}
