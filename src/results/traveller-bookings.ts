/**
 * One booking as travellers_at reads it (README, "Duty of care"): its travellers, their air legs
 * and its contacts, from the booking's BookingDetail where it could be read, else from the
 * routing record that named it (which carries the booking's own Itinerary, PassengerInfo and
 * booking-level contact). Pure: the server fetches, this reads.
 */
import type { Leg } from './stays.js';
import { travellerNames } from './traveller-names.js';

type Rec = Record<string, unknown>;

/** A booking the routing answers named, with what they said about it. */
export interface Candidate {
  recordLocator: string;
  /** Booking creation day, YYYYMMDD (a reused locator is told apart by it), when stated. */
  created?: string;
  routing: Rec;
}

export interface Passenger {
  /** SURNAME/GIVEN as the booking writes it. */
  name: string;
  /** BookingDetail's TravellerGUID, where the booking holds one. */
  guid?: string;
  /** The traveller's own phone and e-mail: only where the booking holds one per passenger. */
  phone?: string;
  email?: string;
}

export interface BookingTrip {
  locator: string;
  account: string;
  /** What it was read from: its BookingDetail, or the routing record alone (details unreadable). */
  basis: 'details' | 'routing';
  passengers: Passenger[];
  legs: Leg[];
  /** Air segments without a readable date, left out (they may be the flight that decides a stay). */
  undated: number;
  /** Air segments placed by their date alone (no time of day held). */
  untimed: number;
  /** The contact held at booking level (BookingDetail CTCM/CTCE, or the routing record's): the booking's, not a traveller's. */
  bookingPhone: string | null;
  bookingEmail: string | null;
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

/** A booking read from its BookingDetail (`detail`), or from its routing record alone when that is missing. */
export function bookingTrip(candidate: Candidate, detail?: Rec): BookingTrip {
  const routing = candidate.routing;
  const source = detail ?? routing;
  const locator = text(source.RecordLocator).toUpperCase() || candidate.recordLocator;
  const { legs, undated, untimed } = legsOf(source, locator);
  return {
    locator,
    account: text(source.Account) || text(routing.Account),
    basis: detail ? 'details' : 'routing',
    passengers: detail ? passengersOf(detail) : routingPassengers(routing),
    legs,
    undated,
    untimed,
    bookingPhone: (detail && text(detail.CTCM)) || text(routing.PhoneNbr) || null,
    bookingEmail: (detail && text(detail.CTCE)) || text(routing.EmailAddress) || null,
  };
}

/** The air legs of an Itinerary (BookingDetail's or a routing record's), with local departure and arrival times. */
export function legsOf(record: Rec, booking?: string): { legs: Leg[]; undated: number; untimed: number } {
  const itinerary = Array.isArray(record.Itinerary) ? (record.Itinerary as Rec[]) : [];
  const legs: Leg[] = [];
  let undated = 0;
  let untimed = 0;
  for (const s of itinerary) {
    if (!s || typeof s !== 'object' || text(s.SegmentType).toUpperCase() !== 'AIR') continue;
    const start = isoDay(s.StartDate);
    const end = isoDay(s.EndDate) ?? (start ? addDays(start, Number(text(s.ChangeOfDayFormatted) || 0)) : undefined);
    if (!start || !end) {
      undated++;
      continue;
    }
    // A time the booking does not hold: the leg is placed by its date (stays.ts), not left out.
    const dep = hhmm(s.DepartureTimeFormatted);
    const arr = hhmm(s.ArrivalTimeFormatted);
    if (!dep || !arr) untimed++;
    legs.push({
      ...(booking ? { booking } : {}),
      segmentNbr: typeof s.SegmentNbr === 'number' ? s.SegmentNbr : null,
      flight: `${text(s.OperatorCode)}${text(s.OperatorService)}`,
      from: text(s.BoardPoint).toUpperCase(),
      to: text(s.OffPoint).toUpperCase(),
      departure: dep ? `${start}T${dep}` : start,
      arrival: arr ? `${end}T${arr}` : end,
      status: text(s.SegmentStatus).toUpperCase(),
    });
  }
  return { legs, undated, untimed };
}

/**
 * BookingDetail's Passengers, in their order, each with their own phone and e-mail where the
 * booking holds one per passenger: as many traveller e-mails (Emails) or phones (Phones, the
 * agency's own left aside) as passengers, taken in order. Otherwise none is anyone's own.
 */
export function passengersOf(detail: Rec): Passenger[] {
  const list = Array.isArray(detail.Passengers) ? (detail.Passengers as Rec[]).filter(isRecord) : [];
  const ordered = [...list].sort((a, b) => seq(a) - seq(b));
  const passengers = ordered
    .map((p) => ({ name: nameOf(p.LastName, p.FirstName), guid: text(p.TravellerGUID) || undefined }))
    .filter((p) => p.name !== '');
  const emails = listOf(detail.Emails)
    .sort((a, b) => seq(a) - seq(b))
    .map((e) => text(e.Email))
    .filter(Boolean);
  const phones = listOf(detail.Phones)
    .filter((p) => text(p.PhoneType).toUpperCase() !== 'A')
    .sort((a, b) => seq(a) - seq(b))
    .map((p) => text(p.Number))
    .filter(Boolean);
  const perPassenger = (values: string[]) => values.length === passengers.length && passengers.length > 0;
  return passengers.map((p, i) => ({
    name: p.name,
    ...(p.guid ? { guid: p.guid } : {}),
    ...(perPassenger(phones) ? { phone: phones[i] } : {}),
    ...(perPassenger(emails) ? { email: emails[i] } : {}),
  }));
}

/** A routing record's travellers: PassengerInfo, else PaxList; no GUID, no contact of their own. */
function routingPassengers(routing: Rec): Passenger[] {
  const info = listOf(routing.PassengerInfo)
    .map((p) => nameOf(p.LastName, p.FirstName))
    .filter(Boolean);
  if (info.length) return info.map((name) => ({ name }));
  const list = text(routing.PaxList);
  return (list ? travellerNames(list) : ['(not named)']).map((name) => ({ name }));
}

function nameOf(last: unknown, first: unknown): string {
  return [text(last), text(first)].filter(Boolean).join('/');
}

function listOf(value: unknown): Rec[] {
  return Array.isArray(value) ? value.filter(isRecord) : [];
}

function isRecord(value: unknown): value is Rec {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function seq(r: Rec): number {
  return typeof r.SequenceNbr === 'number' ? r.SequenceNbr : Number.MAX_SAFE_INTEGER;
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
}

export function isoDay(value: unknown): string | undefined {
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
