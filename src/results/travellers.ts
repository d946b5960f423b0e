/**
 * travellers_at's records (README, "Duty of care"): one per traveller and stay at the place.
 * A traveller's bookings are joined into one trip (the same TravellerGUID, or the same name
 * where a booking holds no GUID), so out on one booking and back on another is one stay; a
 * hotel stay at the place is presence, beside the flights or alone. Pure: the server fetches,
 * this reads.
 */

import {
  at,
  decidedStatus,
  type EvidenceLeg,
  type Leg,
  STATUS_ORDER,
  type Stay,
  staysAt,
  type Window,
} from './stays.js';
import { type BookingTrip, type Passenger, text } from './traveller-bookings.js';
import { type HotelEvidence, type HotelStay, hotelEvidence } from './traveller-hotels.js';

export { type Candidate, candidateKey, candidatesOf, creationDay } from './traveller-bookings.js';

type Rec = Record<string, unknown>;

/** One traveller across their bookings (and hotel stays). */
interface Traveller {
  name: string;
  bookings: Array<{ trip: BookingTrip; passenger: Passenger }>;
  hotels: HotelStay[];
}

/** Titles a name may carry or not from one booking to the next ('HALL/WEI DR' is 'HALL/WEI'). */
const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'MSTR', 'DR', 'PROF', 'SIR', 'MX', 'REV']);

/** A name as it is compared across bookings: upper case, single spaces, no title. */
export function nameKey(name: string): string {
  const words = name.toUpperCase().replace(/\s+/g, ' ').trim().split(' ');
  while (words.length > 1 && TITLES.has(words[words.length - 1])) words.pop();
  return words.join(' ').replace(/\s*\/\s*/, '/');
}

/**
 * The travellers of these bookings and hotel stays. The same TravellerGUID is one traveller; a
 * passenger without one is the traveller of that name when the name has one GUID at most
 * (several people of one name, told apart by their GUIDs, leave a GUID-less one on their own).
 * A hotel stay joins the traveller of its booking and name, else of its name, else stands alone.
 */
export function travellersOf(trips: readonly BookingTrip[], hotels: readonly HotelStay[]): Traveller[] {
  const guidsByName = new Map<string, Set<string>>();
  for (const t of trips)
    for (const p of t.passengers) {
      if (!p.guid) continue;
      const set = guidsByName.get(nameKey(p.name)) ?? new Set<string>();
      set.add(p.guid);
      guidsByName.set(nameKey(p.name), set);
    }
  const byKey = new Map<string, Traveller>();
  const keyOf = (name: string, guid?: string): string => {
    if (guid) return `guid:${guid}`;
    const guids = guidsByName.get(nameKey(name));
    return guids?.size === 1 ? `guid:${[...guids][0]}` : `name:${nameKey(name)}`;
  };
  for (const trip of trips)
    for (const passenger of trip.passengers) {
      const key = keyOf(passenger.name, passenger.guid);
      const t = byKey.get(key) ?? { name: passenger.name, bookings: [], hotels: [] };
      t.bookings.push({ trip, passenger });
      byKey.set(key, t);
    }
  for (const h of hotels) {
    const named = [...byKey.values()].filter((t) =>
      t.bookings.some((b) => nameKey(b.passenger.name) === nameKey(h.traveller)),
    );
    const sameBooking = named.find((t) => t.bookings.some((b) => b.trip.locator === h.locator));
    const owner = sameBooking ?? (named.length === 1 ? named[0] : undefined);
    if (owner) owner.hotels.push(h);
    else {
      const key = `hotel:${nameKey(h.traveller)}`;
      const t = byKey.get(key) ?? { name: h.traveller, bookings: [], hotels: [] };
      t.hotels.push(h);
      byKey.set(key, t);
    }
  }
  return [...byKey.values()];
}

/** One traveller's legs from all their bookings; a flight two of their bookings hold is one leg, naming both. */
function tripLegs(t: Traveller): Leg[] {
  const byFlight = new Map<string, Leg>();
  for (const { trip } of t.bookings)
    for (const leg of trip.legs) {
      const key = `${leg.flight}|${leg.from}|${leg.to}|${leg.departure}|${leg.status}`;
      const known = byFlight.get(key);
      if (!known) byFlight.set(key, { ...leg });
      else if (known.booking !== leg.booking && !known.alsoIn?.includes(leg.booking ?? ''))
        known.alsoIn = [...(known.alsoIn ?? []), leg.booking ?? ''];
    }
  return [...byFlight.values()];
}

/** The records of every traveller: one per stay touching the window, flights and hotels joined. */
export function travellerRecords(travellers: readonly Traveller[], place: ReadonlySet<string>, window: Window): Rec[] {
  return travellers.flatMap((t) => recordsOf(t, place, window));
}

function recordsOf(t: Traveller, place: ReadonlySet<string>, window: Window): Rec[] {
  const stays: Array<Stay & { hotels: HotelStay[] }> = staysAt(tripLegs(t), place, window).map((s) => ({
    ...s,
    hotels: [],
  }));
  const alone: HotelStay[] = [];
  for (const h of t.hotels) {
    const stay = stays.find((s) => overlaps(s, h));
    if (stay) stay.hotels.push(h);
    else alone.push(h);
  }
  const rows = stays.map((s) => {
    const locators = distinct([
      ...s.evidence.flatMap((e) => (e.RecordLocator ?? '').split(', ')),
      ...s.hotels.map((h) => h.locator),
    ]);
    const evidence: Array<EvidenceLeg | HotelEvidence> = [...s.evidence, ...s.hotels.map(hotelEvidence)];
    const hotelWords = s.hotels.length
      ? `; hotel: ${s.hotels.map((h) => `${h.property} ${h.checkIn} to ${h.checkOut}`).join(', ')}`
      : '';
    return row(t, {
      status: s.status,
      from: s.from,
      to: s.to,
      locators,
      reason: `${s.reason}${hotelWords}`,
      basis: basisOf(t, locators, s.hotels.length > 0),
      evidence,
    });
  });
  // A hotel that no flight explains: the traveller is there by the hotel's days.
  for (const h of alone) {
    rows.push(
      row(t, {
        status: decidedStatus(h.checkIn, h.checkOut, false, window),
        from: h.checkIn,
        to: h.checkOut,
        locators: [h.locator],
        reason:
          `hotel stay at ${h.property} (${h.city}) from ${h.checkIn} to ${h.checkOut}; no flight into or out of the ` +
          'place is booked for them in what was read: arrival and departure by the hotel days',
        basis: 'hotel',
        evidence: [hotelEvidence(h)],
        account: h.account,
      }),
    );
  }
  return rows;
}

interface RowParts {
  status: Stay['status'];
  from: string | null;
  to: string | null;
  locators: string[];
  reason: string;
  basis: string;
  evidence: Array<EvidenceLeg | HotelEvidence>;
  account?: string;
}

function row(t: Traveller, p: RowParts): Rec {
  // The stay's own bookings first, then the traveller's others (their own contact may be held elsewhere).
  const mine = [
    ...t.bookings.filter((b) => p.locators.includes(b.trip.locator)),
    ...t.bookings.filter((b) => !p.locators.includes(b.trip.locator)),
  ];
  const own = mine.find((b) => b.passenger.phone || b.passenger.email)?.passenger;
  const contactOf = mine.find((b) => b.trip.bookingPhone || b.trip.bookingEmail);
  const accounts = distinct(mine.filter((b) => p.locators.includes(b.trip.locator)).map((b) => b.trip.account));
  return {
    Traveller: t.name,
    Status: p.status,
    From: p.from,
    To: p.to,
    RecordLocator: p.locators.join(', '),
    Account: p.account ?? (accounts.join(', ') || (t.hotels[0]?.account ?? '')),
    TravellerPhone: own?.phone ?? null,
    TravellerEmail: own?.email ?? null,
    BookingPhone: contactOf?.trip.bookingPhone ?? null,
    BookingEmail: contactOf?.trip.bookingEmail ?? null,
    ContactRecordLocator: contactOf?.trip.locator ?? null,
    Basis: p.basis,
    Reason: p.reason,
    Evidence: p.evidence,
  };
}

/** What a stay rests on: flights (read from booking details, or from routing data alone), a hotel, or both. */
function basisOf(t: Traveller, locators: readonly string[], hotel: boolean): string {
  const used = t.bookings.filter((b) => locators.includes(b.trip.locator));
  const routing = used.filter((b) => b.trip.basis === 'routing').map((b) => b.trip.locator);
  const flights = !used.length
    ? ''
    : routing.length === used.length
      ? 'flights (routing data only)'
      : routing.length
        ? `flights (routing data only for ${distinct(routing).join(', ')})`
        : 'flights';
  return [flights, hotel ? 'hotel' : ''].filter(Boolean).join(' + ');
}

/** Whether a hotel stay (days) and a stay (times, open ends) share a day. */
function overlaps(s: Stay, h: HotelStay): boolean {
  const begins = s.from === null ? null : at(s.from).slice(0, 10);
  const ends = s.to === null ? null : at(s.to).slice(0, 10);
  return (ends === null || h.checkIn <= ends) && (begins === null || h.checkOut >= begins);
}

function distinct(values: readonly string[]): string[] {
  return [...new Set(values.filter(Boolean))];
}

/** In STATUS_ORDER (who is there first, people based at the place last), then by arrival, then by name. */
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
