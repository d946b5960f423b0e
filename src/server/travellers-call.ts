/**
 * What a travellers_at call does (registered in travellers-tool.ts; README, "Duty of care"):
 * two passenger_locations_by_routing fetches (arrivals to the place from the look-back to the
 * window's end, departures from it during the window and the look-ahead) and the hotel stays
 * in the place's city (hotel_segments, by arrival from the look-back to the window's end), then
 * each candidate booking's BookingDetail (passengers, itinerary, e-mails, phones), all through
 * the report tools' own fetch (run-report.ts: signing, paging, limiter, deadline, pinned scope,
 * UserName). A booking whose details cannot be read is read from its routing record. The
 * travellers found are held as a result like a report's, so query_report, exports and the view
 * work on it.
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
import { cancelledError } from '../errors.js';
import { presentReport } from '../presentation/index.js';
import { hotelPlace } from '../results/place-cities.js';
import type { Window } from '../results/stays.js';
import { bookingTrip } from '../results/traveller-bookings.js';
import { hotelStaysAt, undatedHotels } from '../results/traveller-hotels.js';
import {
  candidateKey,
  candidatesOf,
  sortTravellerRecords,
  statusCounts,
  travellerRecords,
  travellersOf,
} from '../results/travellers.js';
import type { ToolContext } from './progress.js';
import { resolveContext } from './report-call.js';
import { fetchRecords } from './run-report.js';
import { callSignal, type Runtime } from './runtime.js';
import { enforceScope } from './scope.js';
import { readBookings } from './travellers-bookings.js';
import {
  bookingsNote,
  CONTACT_NOTE,
  callNote,
  findingsNote,
  hotelsNote,
  notContinued,
  placeName,
  RULES_NOTES,
} from './travellers-notes.js';

/** Most bookings one call reads: each is one request; more makes the answer incomplete, saying so. */
export const MAX_BOOKINGS = 400;
/** The columns an answer shows; every field is in the held records (Evidence lists the flights and hotels). */
const COLUMNS = [
  'Traveller',
  'Status',
  'From',
  'To',
  'RecordLocator',
  'Account',
  'TravellerPhone',
  'TravellerEmail',
  'BookingPhone',
  'BookingEmail',
  'Basis',
  'Reason',
];

type Rec = Record<string, unknown>;

export async function callTravellersAt(rt: Runtime, args: TravellersAtArgs, toolCtx: ToolContext) {
  // One signal of the call's own for its many fetches (each listens to it), so that raising
  // its listener limit leaves the caller's and the process's signals as they are.
  const signal = AbortSignal.any([callSignal(rt, toolCtx.mcpReq.signal)]);
  setMaxListeners(0, signal);
  if (signal.aborted) throw cancelledError(signal);
  return travellersAt(rt, args, toolCtx, signal);
}

async function travellersAt(rt: Runtime, args: TravellersAtArgs, toolCtx: ToolContext, signal: AbortSignal) {
  // One reading of the clock for the window and every query.
  const ctx = resolveContext(rt);
  const input = resolveTravellersAt(args, ctx);
  const routing = transaction('passenger_locations_by_routing');
  const details = transaction('booking_details');
  const hotelsDef = transaction('hotel_segments');
  const deadline = Date.now() + rt.config.callBudgetMs;
  const left = () => Math.max(1, deadline - Date.now());
  const arrivalsQuery = resolveInput(routing, input.arrivals, ctx).query;
  const departuresQuery = resolveInput(routing, input.departures, ctx).query;
  const where = await hotelPlace(input.place);
  const hotelQueries = (where.country ? [undefined] : where.cities).map(
    (city) =>
      resolveInput(
        hotelsDef,
        {
          DateSearchType: 'A',
          DateStart: input.arrivals.DateStart,
          DateEnd: input.to,
          ...(city ? { CityCode: city } : {}),
        },
        ctx,
      ).query,
  );
  await enforceScope(rt, routing, arrivalsQuery, signal);

  const fetch = (def: TransactionDef, query: Record<string, string>) =>
    fetchRecords(rt, def, query, { maxRecords: rt.config.maxRecords, signal, budgetMs: left() });
  const [arrivals, departures, ...hotelAnswers] = await Promise.all([
    fetch(routing, arrivalsQuery),
    fetch(routing, departuresQuery),
    ...hotelQueries.map((q) => fetch(hotelsDef, q)),
  ]);

  const place = placeAirports(input.place, arrivals.records, departures.records);
  const window: Window = { start: `${iso(input.from)}T00:00`, end: `${iso(shiftDays(input.to, 1))}T00:00` };
  const hotelRecords = hotelAnswers.flatMap((h) => h.records);
  const hotelWhere = { cities: new Set(where.cities), country: where.country };
  const hotels = hotelStaysAt(hotelRecords, hotelWhere, window);
  const flown = candidatesOf([...arrivals.records, ...departures.records]);
  // A hotel's booking no routing names is read too: all its travellers, their contacts, its flights.
  const named = new Set(flown.map((c) => c.recordLocator));
  const atHotels = new Set(hotels.map((h) => h.locator).filter((l) => !named.has(l)));
  const hotelOnly = candidatesOf(hotelRecords.filter((r) => atHotels.has(String(r.RecordLocator).toUpperCase())));
  const all = [...flown, ...hotelOnly];
  const candidates = all.slice(0, MAX_BOOKINGS);
  const read = await readBookings(rt, details, candidates, ctx, { signal, left, toolCtx });

  // Each booking from its details where they could be read, else from its routing record's own
  // itinerary; a hotel's booking whose details cannot be read is known by its hotel record alone.
  const trips = candidates.flatMap((c) => {
    const detail = read.found.get(candidateKey(c.routing)!);
    return detail || named.has(c.recordLocator) ? [bookingTrip(c, detail)] : [];
  });
  const travellers = travellersOf(trips, hotels);
  const records = sortTravellerRecords(travellerRecords(travellers, place, window));
  const undated = trips.reduce((n, t) => n + t.undated, 0);
  const untimed = trips.reduce((n, t) => n + t.untimed, 0);
  const hotelsUndated = undatedHotels(hotelRecords, hotelWhere);

  const complete =
    arrivals.complete &&
    departures.complete &&
    hotelAnswers.every((h) => h.complete) &&
    read.incomplete === 0 &&
    // A segment or hotel whose days cannot be read may be the one that decides a stay.
    undated === 0 &&
    hotelsUndated === 0 &&
    all.length === candidates.length;
  const hotelCalls = hotelQueries.map((q, i) => ({ query: q, got: hotelAnswers[i] }));
  const notes = [
    `${records.length} traveller stays at ${placeName(input.place)} touch ${input.from}-${input.to}: ` +
      `${statusCounts(records)}. Listed in that order: who is there or may be (undecided ones with their ` +
      'Reason) before people based at the place; Basis says what each stay rests on (flights, a hotel), ' +
      'Evidence lists the flights and hotel stays.',
    callNote('arrivals', arrivalsQuery, arrivals),
    callNote('departures', departuresQuery, departures),
    ...hotelCalls.map(({ query, got }) => hotelsNote(query, got, hotels.length, where.how)),
    ...arrivals.notes.map((n) => `arrivals: ${notContinued(n)}`),
    ...departures.notes.map((n) => `departures: ${notContinued(n)}`),
    ...hotelCalls.flatMap(({ got }) => got.notes.map((n) => `hotels: ${notContinued(n)}`)),
    bookingsNote(candidates.length, read, trips, hotelOnly.length),
    ...findingsNote(records, trips),
    ...(all.length > candidates.length
      ? [
          `${all.length} bookings were found, more than the ${MAX_BOOKINGS} one call reads: the last ` +
            `${all.length - candidates.length} were not read. Narrow the window or the place.`,
        ]
      : []),
    ...(untimed
      ? [
          `${untimed} air segments hold no arrival or departure time: each is placed by its date (From or To ` +
            'shows the day alone), not left out.',
        ]
      : []),
    ...(undated ? [`${undated} air segments had no readable date and were left out, so stays may be missing.`] : []),
    ...(hotelsUndated
      ? [`${hotelsUndated} hotel stays had no readable dates and were left out, so stays may be missing.`]
      : []),
    ...(input.place.kind === 'Airport' && !arrivals.records.length && !departures.records.length
      ? [
          `No flight into or out of airport ${input.place.code} was found; if ${input.place.code} is a city code ` +
            `(LON, NYC...), ask for city:${input.place.code}.`,
        ]
      : []),
    ...(input.place.kind === 'Airport'
      ? []
      : [
          `Airports of ${placeName(input.place)} learnt from the routing answers: ` +
            `${[...place].sort().join(', ') || 'none'}.`,
        ]),
    CONTACT_NOTE,
    ...RULES_NOTES,
  ];
  const query: Record<string, string> = {
    place: input.place.code,
    placeKind: input.place.kind.toLowerCase(),
    from: input.from,
    to: input.to,
    lookbackDays: String(input.lookbackDays),
    lookaheadDays: String(LOOKAHEAD_DAYS),
  };
  const requests = arrivals.requests + departures.requests + read.requests;
  rt.log(
    `travellers_at: ${records.length} stays from ${candidates.length} bookings and ${hotels.length} hotel stays, ` +
      `${requests + hotelAnswers.reduce((n, h) => n + h.requests, 0)} requests${complete ? '' : ' (incomplete)'}`,
  );
  // The records first: masking them learns the travellers' names, which the notes then name
  // (the findings note lists travellers whose bookings were joined).
  const masked = rt.redact.records(records);
  const stored = await rt.results.put({
    report: 'travellers_at',
    source: rt.source,
    query: rt.redact(query),
    sentQuery: query,
    totalRecords: records.length,
    complete,
    notes: notes.map(rt.redact.text),
    records: masked,
    held: [{ offset: 0, count: records.length }],
  });
  // The first answer's text: every stay that matters (all but people based here) ahead of the rest, notes whole.
  const matters = records.filter((r) => r.Status !== 'based here').length;
  return presentReport(stored, { fields: COLUMNS, defaultRows: Math.max(20, matters), wholeNotes: true });
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

function iso(ymd: string): string {
  return `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)}`;
}
