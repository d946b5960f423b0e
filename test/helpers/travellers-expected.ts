/**
 * What travellers_at must answer at SIN in the week from the data's today, computed from the
 * sandbox's own data (its itineraries in UTC instants, its hotel stays), not from the server's
 * answer: shared by the travellers_at tests.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { AirSegment, Booking, Dataset, HotelSegment, Traveller } from '../../src/sandbox/data.js';
import { DUTY_OF_CARE_SCENARIOS, MORE_DUTY_OF_CARE_SCENARIOS } from '../../src/sandbox/duty-of-care.js';
import { textOf } from './mcp.js';

export type Rec = Record<string, unknown>;

/** The data's today (2026-11-15): the server's relative dates, and the sandbox's clock (signatures stay fresh). */
export const NOW = () => new Date('2026-11-15T06:00:00Z');
export const WEEK = { place: 'SIN', from: 'today', to: 'today+6' };
export const ACTIVE = new Set(['HK', 'KK', 'TK', 'GK', 'RR']);
export const DAY = 86_400_000;

/** Local wall-clock time of an instant at an offset (minutes east of UTC), 'YYYY-MM-DDTHH:MM'. */
export const local = (ms: number, offset: number) => new Date(ms + offset * 60_000).toISOString().slice(0, 16);
export const isoDay = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

export interface ExpectedStay {
  traveller: Traveller;
  /** The bookings the stay rests on (flights and hotel), sorted. */
  locators: string[];
  status: string;
  from: string | null;
  to: string | null;
  hotels: HotelSegment[];
  /** Known by a hotel stay alone (no flight of theirs explains it). */
  hotelOnly?: boolean;
}

/** One flight of a traveller, with every candidate booking of theirs that holds it. */
export interface TripLeg {
  seg: AirSegment;
  bookings: string[];
}

/**
 * The stays at SIN touching the week [today, today+7), by the rules the README states,
 * computed on the dataset's segments: candidates are the bookings with a (not cancelled)
 * flight into SIN departing from 30 days before the week to its end, or out of SIN departing
 * from the week's start to 30 days after it. Each traveller's flights from all their candidate
 * bookings are one trip, in UTC order; a confirmed hotel stay in SIN touching the week (check-in
 * from 30 days before it) joins the traveller's stay it overlaps, or is a stay of its own.
 */
export function expectedStays(ds: Dataset, companies?: readonly string[]): ExpectedStay[] {
  const t = ds.today;
  const start = `${isoDay(t)}T00:00`;
  const end = `${isoDay(t + 7)}T00:00`;
  const at = (x: string) => (x.length === 10 ? `${x}T00:00` : x);
  const arrivalAtSin = (s: AirSegment) => (s.arrivalTimeUnknown ? isoDay(s.arrDay) : local(s.arrUtc, 480));
  const trips = new Map<string, { traveller: Traveller; legs: Map<string, TripLeg> }>();
  for (const b of readBookings(ds, companies))
    for (const p of b.passengers) {
      const trip = trips.get(p.guid) ?? { traveller: p, legs: new Map<string, TripLeg>() };
      trips.set(p.guid, trip);
      for (const s of b.air) {
        if (!ACTIVE.has(s.status)) continue;
        const key = `${s.carrier.code}${s.flightNbr}|${s.depUtc}`;
        const known = trip.legs.get(key);
        if (known) known.bookings.push(b.recordLocator);
        else trip.legs.set(key, { seg: s, bookings: [b.recordLocator] });
      }
    }
  const out: ExpectedStay[] = [];
  for (const { traveller, legs: byKey } of trips.values()) {
    const legs = [...byKey.values()].sort((x, y) => x.seg.depUtc - y.seg.depUtc);
    const home = legs.length > 0 && legs[0].seg.from.code === 'SIN';
    type Found = Omit<ExpectedStay, 'traveller' | 'hotels'> & { home?: boolean; earliest?: string; latest?: string };
    const found: Found[] = [];
    const books = (...ls: Array<TripLeg | null | undefined>) => ls.flatMap((l) => l?.bookings ?? []);
    let open: TripLeg | null | undefined; // undefined: not at SIN; null: at SIN since the start
    legs.forEach((leg, i) => {
      const s = leg.seg;
      if (open !== undefined && s.from.code !== 'SIN') {
        found.push({
          locators: books(open, leg),
          status: 'undecided',
          from: open && arrivalAtSin(open.seg),
          to: null,
          latest: local(s.depUtc, s.from.offset),
        });
        open = undefined;
      }
      if (s.from.code === 'SIN' && s.to.code !== 'SIN') {
        const to = local(s.depUtc, 480);
        if (open) {
          const through = s.depUtc - open.seg.arrUtc < 12 * 3_600_000 && s.to.code !== open.seg.from.code;
          found.push({
            locators: books(open, leg),
            status: through ? 'passing through' : 'decided',
            from: arrivalAtSin(open.seg),
            to,
          });
        } else if (i === 0) found.push({ locators: books(leg), status: 'decided', from: null, to, home: true });
        else {
          const prev = legs[i - 1].seg;
          found.push({
            locators: books(legs[i - 1], leg),
            status: 'undecided',
            from: null,
            to,
            earliest: local(prev.arrUtc, prev.to.offset),
          });
        }
        open = undefined;
      }
      if (s.from.code !== 'SIN' && s.to.code === 'SIN') open = leg;
    });
    if (open) {
      const from = arrivalAtSin(open.seg);
      found.push(
        home
          ? { locators: books(open), status: 'decided', from, to: null, home: true }
          : { locators: books(open), status: 'undecided', from, to: null },
      );
    }
    for (const s of found) {
      const begins = s.from ?? s.earliest ?? null;
      const ends = s.to ?? s.latest ?? null;
      if ((begins !== null && at(begins) >= end) || (ends !== null && at(ends) < start)) continue;
      const status = s.status === 'decided' ? decided(s.from, s.to, !!s.home, start, end) : s.status;
      out.push({ traveller, locators: s.locators, status, from: s.from, to: s.to, hotels: [] });
    }
  }
  for (const h of expectedHotels(ds, companies)) {
    const traveller = h.booking.passengers[0];
    const overlapping = out.find(
      (s) =>
        s.traveller.guid === traveller.guid &&
        (s.to === null || isoDay(h.arrDay) <= at(s.to).slice(0, 10)) &&
        (s.from === null || isoDay(h.depDay) >= at(s.from).slice(0, 10)),
    );
    if (overlapping) {
      overlapping.hotels.push(h);
      overlapping.locators.push(h.booking.recordLocator);
      continue;
    }
    const from = isoDay(h.arrDay);
    const to = isoDay(h.depDay);
    const status = decided(from, to, false, start, end);
    out.push({ traveller, locators: [h.booking.recordLocator], status, from, to, hotels: [h], hotelOnly: true });
  }
  for (const s of out) s.locators = [...new Set(s.locators)].sort();
  return out;
}

export function decided(from: string | null, to: string | null, home: boolean, start: string, end: string): string {
  const at = (x: string) => (x.length === 10 ? `${x}T00:00` : x);
  const arrives = from !== null && at(from) >= start;
  const leaves = to !== null && at(to) < end;
  return arrives && leaves
    ? 'arriving and leaving'
    : arrives
      ? 'arriving'
      : leaves
        ? 'leaving'
        : home
          ? 'based here'
          : 'in place';
}

/**
 * The bookings whose itineraries are read: the routing candidates, and the bookings of hotel
 * stays at SIN that no routing names (when their details can be read).
 */
export function readBookings(ds: Dataset, companies?: readonly string[]): Booking[] {
  const flown = candidateBookings(ds, companies);
  const hotelOnly = hotelBookings(ds, companies).filter((b) => !flown.includes(b) && !b.details);
  return [...flown, ...hotelOnly];
}

/** The bookings of the hotel stays at SIN touching the week, once each. */
export function hotelBookings(ds: Dataset, companies?: readonly string[]): Booking[] {
  return [...new Set(expectedHotels(ds, companies).map((h) => h.booking))];
}

/** Confirmed hotel stays in SIN that check in from 30 days before the week to its end and touch it. */
export function expectedHotels(ds: Dataset, companies?: readonly string[]): HotelSegment[] {
  const t = ds.today;
  return ds.hotelSegments.filter(
    (h) =>
      (!companies || companies.includes(h.booking.company.code)) &&
      h.property.city.cityCode === 'SIN' &&
      !h.cancelled &&
      ACTIVE.has(h.status) &&
      h.arrDay >= t - 30 &&
      h.arrDay <= t + 6 &&
      h.depDay >= t,
  );
}

export const name = (p: Traveller) => `${p.lastName}/${p.firstName} ${p.title}`;

/** One line per traveller and stay: what the answer must hold, in a comparable order. */
export function expectedLines(stays: readonly ExpectedStay[]): string[] {
  return stays.map((s) => [s.locators.join(', '), name(s.traveller), s.status, s.from, s.to].join('|')).sort();
}

export function answerLines(records: readonly Rec[]): string[] {
  return records
    .map((r) => [String(r.RecordLocator).split(', ').sort().join(', '), r.Traveller, r.Status, r.From, r.To].join('|'))
    .sort();
}

/** The records whose stay rests on this booking. */
export function recordsOf(records: readonly Rec[], b: Booking): Rec[] {
  return records.filter((r) => String(r.RecordLocator).split(', ').includes(b.recordLocator));
}

export function structured(result: CallToolResult): Rec {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Rec;
}

/** The scenario bookings, in DUTY_OF_CARE_SCENARIOS order, then MORE_DUTY_OF_CARE_SCENARIOS's (appended last). */
export function scenarioBookings(ds: Dataset): Booking[] {
  const all = DUTY_OF_CARE_SCENARIOS.length + MORE_DUTY_OF_CARE_SCENARIOS.length;
  return ds.bookings.slice(ds.bookings.length - all, ds.bookings.length - MORE_DUTY_OF_CARE_SCENARIOS.length);
}

/** The second set's bookings (MORE_DUTY_OF_CARE_SCENARIOS), in its order. */
export function scenarioCases(ds: Dataset): Booking[] {
  return ds.bookings.slice(ds.bookings.length - MORE_DUTY_OF_CARE_SCENARIOS.length);
}

/** The second set's booking of a case (MORE_DUTY_OF_CARE_SCENARIOS). */
export function caseBooking(ds: Dataset, which: string): Booking {
  const i = MORE_DUTY_OF_CARE_SCENARIOS.findIndex((c) => c.case.startsWith(which));
  expect(i, which).toBeGreaterThanOrEqual(0);
  return ds.bookings[ds.bookings.length - MORE_DUTY_OF_CARE_SCENARIOS.length + i];
}

/**
 * The bookings the two routing fetches name (the candidates whose itineraries are read): a
 * (not cancelled) flight into SIN departing from 30 days before the week to its end, or out of
 * SIN departing from the week's start to 30 days after it.
 */
export function candidateBookings(ds: Dataset, companies?: readonly string[]): Dataset['bookings'] {
  const t = ds.today;
  return ds.bookings.filter(
    (b) =>
      (!companies || companies.includes(b.company.code)) &&
      b.air.some(
        (s) =>
          s.status !== 'HX' &&
          ((s.to.code === 'SIN' && s.depDay >= t - 30 && s.depDay <= t + 6) ||
            (s.from.code === 'SIN' && s.depDay >= t && s.depDay <= t + 36)),
      ),
  );
}

export function expectedStaysCandidates(ds: Dataset, companies?: readonly string[]): string[] {
  return candidateBookings(ds, companies).map((b) => b.recordLocator);
}

/** PassengerLocationsByRouting's record count: one per (not cancelled) flight into or out of SIN in the range. */
export function routingCount(ds: Dataset, end: 'to' | 'from', from: number, to: number): number {
  const ymd = (day: number) => Number(isoDay(day).replaceAll('-', ''));
  return ds.airSegments.filter(
    (s) => s.status !== 'HX' && s[end].code === 'SIN' && ymd(s.depDay) >= from && ymd(s.depDay) <= to,
  ).length;
}
