/**
 * travellers_at's records (README, "Duty of care"), from the service's own records: the
 * routing records that made a booking a candidate (account, contact, the place's airports) and
 * the booking's BookingDetail (passengers, itinerary). One record per traveller and stay at the
 * place, in STATUS_ORDER, then by arrival. Pure: the server fetches, this reads.
 */
import { type Leg, STATUS_ORDER, type Stay, staysAt, type Window } from './stays.js';

type Rec = Record<string, unknown>;

/** A booking the routing answers named, with what they said about it. */
export interface Candidate {
  recordLocator: string;
  /** Booking creation day, YYYYMMDD (a reused locator is told apart by it), when stated. */
  created?: string;
  routing: Rec;
}

/** The key a booking is known by across the routing answers. */
export function candidateKey(record: Rec): string | null {
  const locator = text(record.RecordLocator);
  if (!locator) return null;
  return `${locator.toUpperCase()}|${creationDay(record.PNRCreationDate) ?? ''}`;
}

/** The bookings the routing records name, once each, in the order first named. */
export function candidatesOf(records: readonly Rec[]): Candidate[] {
  const byKey = new Map<string, Candidate>();
  for (const r of records) {
    const key = candidateKey(r);
    if (key === null || byKey.has(key)) continue;
    byKey.set(key, {
      recordLocator: text(r.RecordLocator).toUpperCase(),
      created: creationDay(r.PNRCreationDate),
      routing: r,
    });
  }
  return [...byKey.values()];
}

/** 'YYYYMMDD' of a decoded date ('2026-11-01T10:00:00.000+08:00', the local day as written), if any. */
export function creationDay(value: unknown): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text(value));
  return m ? `${m[1]}${m[2]}${m[3]}` : undefined;
}

/** The air legs of a BookingDetail's Itinerary, with local departure and arrival times. */
export function legsOf(detail: Rec): { legs: Leg[]; unreadable: number } {
  const itinerary = Array.isArray(detail.Itinerary) ? (detail.Itinerary as Rec[]) : [];
  const legs: Leg[] = [];
  let unreadable = 0;
  for (const s of itinerary) {
    if (!s || typeof s !== 'object' || text(s.SegmentType).toUpperCase() !== 'AIR') continue;
    const start = isoDay(s.StartDate);
    const end = isoDay(s.EndDate) ?? (start ? addDays(start, Number(text(s.ChangeOfDayFormatted) || 0)) : undefined);
    const dep = hhmm(s.DepartureTimeFormatted);
    const arr = hhmm(s.ArrivalTimeFormatted);
    if (!start || !end || !dep || !arr) {
      unreadable++;
      continue;
    }
    legs.push({
      segmentNbr: typeof s.SegmentNbr === 'number' ? s.SegmentNbr : null,
      flight: `${text(s.OperatorCode)}${text(s.OperatorService)}`,
      from: text(s.BoardPoint).toUpperCase(),
      to: text(s.OffPoint).toUpperCase(),
      departure: `${start}T${dep}`,
      arrival: `${end}T${arr}`,
      status: text(s.SegmentStatus).toUpperCase(),
    });
  }
  return { legs, unreadable };
}

/** The booking's travellers as SURNAME/GIVEN, from its Passengers, else the routing PaxList. */
export function travellersOf(detail: Rec, routing: Rec): string[] {
  const passengers = Array.isArray(detail.Passengers) ? (detail.Passengers as Rec[]) : [];
  const names = passengers
    .map((p) => [text(p?.LastName), text(p?.FirstName)].filter(Boolean).join('/'))
    .filter((n) => n !== '');
  if (names.length) return names;
  const list = text(routing.PaxList);
  return list ? list.split(/\s*[,;]\s*/).filter(Boolean) : ['(not named)'];
}

/** One record per traveller and stay of one booking; `unreadable` counts air segments left out (no dates or times). */
export function travellerRecords(
  candidate: Candidate,
  detail: Rec,
  place: ReadonlySet<string>,
  window: Window,
): { records: Rec[]; unreadable: number } {
  const { legs, unreadable } = legsOf(detail);
  const stays = staysAt(legs, place, window);
  const routing = candidate.routing;
  const account = text(detail.Account) || text(routing.Account);
  const records = travellersOf(detail, routing).flatMap((traveller) =>
    stays.map((stay) => ({
      Traveller: traveller,
      Status: stay.status,
      From: stay.from,
      To: stay.to,
      RecordLocator: text(detail.RecordLocator) || candidate.recordLocator,
      Account: account,
      PhoneNbr: text(routing.PhoneNbr) || null,
      EmailAddress: text(routing.EmailAddress) || null,
      Reason: stay.reason,
      Evidence: stay.evidence,
    })),
  );
  return { records, unreadable };
}

/** Decided stays first (in place, leaving, arriving, based here), then passing through, then undecided; by arrival. */
export function sortTravellerRecords(records: Rec[]): Rec[] {
  const rank = (r: Rec) => STATUS_ORDER.indexOf(r.Status as Stay['status']);
  const key = (r: Rec) => text(r.From ?? r.To);
  return records.sort(
    (a, b) => rank(a) - rank(b) || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) || cmp(a.Traveller, b.Traveller),
  );
}

/** Counts per status, in STATUS_ORDER: '3 in place, 4 leaving, 1 undecided'. */
export function statusCounts(records: readonly Rec[]): string {
  const counts = STATUS_ORDER.map((s) => [s, records.filter((r) => r.Status === s).length] as const).filter(
    ([, n]) => n > 0,
  );
  return counts.length ? counts.map(([s, n]) => `${n} ${s}`).join(', ') : 'none';
}

function cmp(a: unknown, b: unknown): number {
  const x = text(a);
  const y = text(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

function isoDay(value: unknown): string | undefined {
  const t = text(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(t) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(t);
  return iso ? `${iso[1]}-${iso[2]}-${iso[3]}` : undefined;
}

function hhmm(value: unknown): string | undefined {
  const m = /^(\d{1,2}):?(\d{2})/.exec(text(value));
  return m ? `${m[1].padStart(2, '0')}:${m[2]}` : undefined;
}

function addDays(day: string, n: number): string | undefined {
  // A change of day is -1 to +2 in practice; anything far off is unreadable, not a date.
  if (!Number.isInteger(n) || Math.abs(n) > 7) return undefined;
  const ms = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10))) + n * 86_400_000;
  return new Date(ms).toISOString().slice(0, 10);
}
