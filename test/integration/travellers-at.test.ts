/**
 * travellers_at through a real MCP client against the sandbox. The expected travellers are
 * computed here from the sandbox's own bookings (its data module's itineraries, in UTC
 * instants), not from the server's answer: who arrives, is in place, leaves, passes through
 * or cannot be decided at SIN in the week from the data's today.
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionRuntimes } from '../../src/http/session-runtime.js';
import type { AirSegment, Booking, Dataset, HotelSegment, Traveller } from '../../src/sandbox/data.js';
import { DUTY_OF_CARE_SCENARIOS, MORE_DUTY_OF_CARE_SCENARIOS } from '../../src/sandbox/duty-of-care.js';
import { createServer } from '../../src/server/create-server.js';
import { CheckedClient } from '../helpers/checked-client.js';
import { parseCsv } from '../helpers/csv-parse.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllRecords } from '../helpers/resources.js';

type Rec = Record<string, unknown>;

/** The data's today (2026-11-15): the server's relative dates, and the sandbox's clock (signatures stay fresh). */
const NOW = () => new Date('2026-11-15T06:00:00Z');
const WEEK = { place: 'SIN', from: 'today', to: 'today+6' };
const ACTIVE = new Set(['HK', 'KK', 'TK', 'GK', 'RR']);
const DAY = 86_400_000;

/** Local wall-clock time of an instant at an offset (minutes east of UTC), 'YYYY-MM-DDTHH:MM'. */
const local = (ms: number, offset: number) => new Date(ms + offset * 60_000).toISOString().slice(0, 16);
const isoDay = (day: number) => new Date(day * DAY).toISOString().slice(0, 10);

interface ExpectedStay {
  traveller: Traveller;
  /** The bookings the stay rests on (flights and hotel), sorted. */
  locators: string[];
  status: string;
  from: string | null;
  to: string | null;
  hotels: HotelSegment[];
}

/** One flight of a traveller, with every candidate booking of theirs that holds it. */
interface TripLeg {
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
function expectedStays(ds: Dataset, companies?: readonly string[]): ExpectedStay[] {
  const t = ds.today;
  const start = `${isoDay(t)}T00:00`;
  const end = `${isoDay(t + 7)}T00:00`;
  const at = (x: string) => (x.length === 10 ? `${x}T00:00` : x);
  const arrivalAtSin = (s: AirSegment) => (s.arrivalTimeUnknown ? isoDay(s.arrDay) : local(s.arrUtc, 480));
  const trips = new Map<string, { traveller: Traveller; legs: Map<string, TripLeg> }>();
  for (const b of candidateBookings(ds, companies))
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
    out.push({ traveller, locators: [h.booking.recordLocator], status, from, to, hotels: [h] });
  }
  for (const s of out) s.locators = [...new Set(s.locators)].sort();
  return out;
}

function decided(from: string | null, to: string | null, home: boolean, start: string, end: string): string {
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

/** Confirmed hotel stays in SIN that check in from 30 days before the week to its end and touch it. */
function expectedHotels(ds: Dataset, companies?: readonly string[]): HotelSegment[] {
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

const name = (p: Traveller) => `${p.lastName}/${p.firstName} ${p.title}`;

/** One line per traveller and stay: what the answer must hold, in a comparable order. */
function expectedLines(stays: readonly ExpectedStay[]): string[] {
  return stays.map((s) => [s.locators.join(', '), name(s.traveller), s.status, s.from, s.to].join('|')).sort();
}

function answerLines(records: readonly Rec[]): string[] {
  return records
    .map((r) => [String(r.RecordLocator).split(', ').sort().join(', '), r.Traveller, r.Status, r.From, r.To].join('|'))
    .sort();
}

/** The records whose stay rests on this booking. */
function recordsOf(records: readonly Rec[], b: Booking): Rec[] {
  return records.filter((r) => String(r.RecordLocator).split(', ').includes(b.recordLocator));
}

function structured(result: CallToolResult): Rec {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Rec;
}

/** The scenario bookings, in DUTY_OF_CARE_SCENARIOS order, then MORE_DUTY_OF_CARE_SCENARIOS's (appended last). */
function scenarioBookings(ds: Dataset): Booking[] {
  const all = DUTY_OF_CARE_SCENARIOS.length + MORE_DUTY_OF_CARE_SCENARIOS.length;
  return ds.bookings.slice(ds.bookings.length - all, ds.bookings.length - MORE_DUTY_OF_CARE_SCENARIOS.length);
}

/** The second set's bookings (MORE_DUTY_OF_CARE_SCENARIOS), in its order. */
function scenarioCases(ds: Dataset): Booking[] {
  return ds.bookings.slice(ds.bookings.length - MORE_DUTY_OF_CARE_SCENARIOS.length);
}

/** The second set's booking of a case (MORE_DUTY_OF_CARE_SCENARIOS). */
function caseBooking(ds: Dataset, which: string): Booking {
  const i = MORE_DUTY_OF_CARE_SCENARIOS.findIndex((c) => c.case.startsWith(which));
  expect(i, which).toBeGreaterThanOrEqual(0);
  return ds.bookings[ds.bookings.length - MORE_DUTY_OF_CARE_SCENARIOS.length + i];
}

describe('travellers_at: who is at SIN this week', () => {
  let s: InProcess;
  let ds: Dataset;
  let answer: Rec;
  let records: Rec[];
  let exportDir: string;

  beforeAll(async () => {
    exportDir = mkdtempSync(join(tmpdir(), 'travellers-at-'));
    s = await startInProcess({ now: NOW, sandbox: { now: NOW }, env: { REPORTS_EXPORT_DIR: exportDir } });
    ds = s.rt.sandbox!.dataset;
    answer = structured(await s.call('travellers_at', WEEK));
    records = await readAllRecords(s.client, answer.resourceUri as string);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    rmSync(exportDir, { recursive: true, force: true });
  });

  it('holds exactly the stays computed from the sandbox itineraries, every traveller of each booking', () => {
    const expected = expectedLines(expectedStays(ds));
    expect(answerLines(records)).toEqual(expected);
    expect(answer.report).toBe('travellers_at');
    expect(answer.complete).toBe(true);
    expect(answer.totalRecords).toBe(expected.length);
    expect(answer.fetchedRecords).toBe(expected.length);
    expect(answer.query).toMatchObject({ place: 'SIN', placeKind: 'airport', from: '20261115', to: '20261121' });
  });

  it('holds every case: arrived before and leaving, arriving, passing through, staying beyond, no departure', () => {
    const expectedByCase = [
      'leaving',
      'leaving',
      'leaving',
      'arriving',
      'arriving and leaving',
      'passing through',
      'in place',
      'undecided',
      'undecided',
      'undecided',
    ];
    const scenarios = scenarioBookings(ds);
    scenarios.forEach((b, i) => {
      const mine = recordsOf(records, b);
      expect(
        mine.map((r) => r.Status),
        DUTY_OF_CARE_SCENARIOS[i].case,
      ).toEqual(b.passengers.map(() => expectedByCase[i]));
      expect(mine.map((r) => r.Traveller).sort()).toEqual(b.passengers.map(name).sort());
    });
    const start = '2026-11-15T00:00';
    const arrivedBeforeLeaving = records.filter(
      (r) => r.Status === 'leaving' && r.From !== null && (r.From as string) < start,
    );
    expect(arrivedBeforeLeaving.length).toBeGreaterThanOrEqual(4);
    // The connecting traveller is not in place; the stay says why.
    const through = recordsOf(records, scenarios[5])[0];
    expect(through.Reason).toMatch(/^connection: SQ\d+ leaves 2 h 40 min after SQ\d+ arrives, on to SYD/);
    expect((through.Evidence as Rec[]).map((e) => [e.Role, e.BoardPoint, e.OffPoint, e.RecordLocator])).toEqual([
      ['arrival', 'LHR', 'SIN', scenarios[5].recordLocator],
      ['departure', 'SIN', 'SYD', scenarios[5].recordLocator],
    ]);
  });

  it('lists who is there or may be first, the undecided with why, people based at the place last', () => {
    const statuses = records.map((r) => r.Status as string);
    const order = [
      'in place',
      'arriving',
      'arriving and leaving',
      'leaving',
      'passing through',
      'undecided',
      'based here',
    ];
    const ranks = statuses.map((x) => order.indexOf(x));
    expect(ranks.every((r) => r >= 0)).toBe(true);
    expect([...ranks].sort((a, b) => a - b)).toEqual(ranks);
    const [oneWay, gap, unconfirmed] = scenarioBookings(ds).slice(7);
    const reason = (b: Booking) => recordsOf(records, b)[0].Reason as string;
    expect(reason(oneWay)).toMatch(/^no departure found: no flight out of SIN is booked after LH\d+ arrives$/);
    expect(reason(gap)).toMatch(
      /^itinerary gap: after arriving on NH\d+, the next flight \(MH\d+\) leaves from KUL on 2026-11-18T23:30/,
    );
    expect(reason(unconfirmed)).toMatch(/^no confirmed departure: MH\d+ on 2026-11-18T19:00 has status UN$/);
  });

  it('says which service calls it made and that each was complete', () => {
    const notes = answer.notes as string[];
    const candidates = new Set(expectedStaysCandidates(ds));
    expect(notes).toContain(
      `Called passenger_locations_by_routing for arrivals (DateStart=20261016 DateEnd=20261121 ToAirportCode=SIN): ` +
        `${routingCount(ds, 'to', 20261016, 20261121)} records, complete.`,
    );
    expect(notes).toContain(
      'Called passenger_locations_by_routing for departures ' +
        `(DateStart=20261115 DateEnd=20261221 FromAirportCode=SIN): ` +
        `${routingCount(ds, 'from', 20261115, 20261221)} records, complete.`,
    );
    const hotelRecords = ds.hotelSegments.filter(
      (h) =>
        !h.cancelled && h.property.city.cityCode === 'SIN' && h.arrDay >= ds.today - 30 && h.arrDay <= ds.today + 6,
    );
    expect(notes).toContain(
      'Called hotel_segments for hotel stays (DateStart=20261016 DateEnd=20261121 CityCode=SIN DateSearchType=A): ' +
        `${hotelRecords.length} records, complete; ${expectedHotels(ds).length} confirmed stays at the place touch ` +
        "the window. Hotels searched in city SIN, taken as airport SIN's city (its own code: right for a city with " +
        'one airport; for one of several, such as LHR in LON, ask for city:LON).',
    );
    // The bookings whose details the sandbox refuses or no longer finds rest on their routing records.
    const unreadable = scenarioCases(ds).filter((b) => b.details);
    const gone = unreadable.filter((b) => b.details === 'gone').length;
    const bookings = notes.find((n) => n.startsWith('Called booking_details'))!;
    expect(bookings).toMatch(
      new RegExp(
        `^Called booking_details \\(Passengers, Itinerary, Emails, Phones\\) for ${candidates.size} bookings: ` +
          `${candidates.size - unreadable.length} read; ${gone} not found \\(gone since, or outside what this user ` +
          `may see\\); ${unreadable.length - gone} refused or failed \\(e\\.g\\. \\w+: The service refused .+\\); ` +
          `${unreadable.length} rest on routing data alone \\(the routing record's own itinerary and names; no ` +
          `TravellerGUID, no traveller's own contact\\): [\\w; ]+; complete\\.$`,
      ),
    );
    const routingOnly = bookings.slice(bookings.lastIndexOf(': ') + 2, -'; complete.'.length).split('; ');
    expect(routingOnly.sort()).toEqual(unreadable.map((b) => b.recordLocator).sort());
    const byPath = (path: string) => s.rt.sandbox!.requests.filter((r) => r.path === path);
    expect(byPath('/PassengerLocationsByRouting')).toHaveLength(2);
    expect(byPath('/HotelSegments')).toHaveLength(1);
    expect(new Set(byPath('/BookingDetails').map((r) => r.query.RecordLocator))).toEqual(candidates);
  });

  it('query_report groups the held answer', async () => {
    const grouped = structured(
      await s.call('query_report', { resultId: answer.resultId, groupBy: ['Status'], aggregates: [{ fn: 'count' }] }),
    );
    const counts = new Map<string, number>();
    for (const line of expectedLines(expectedStays(ds))) {
      const status = line.split('|')[2];
      counts.set(status, (counts.get(status) ?? 0) + 1);
    }
    const groups = (grouped.groups as Array<{ key: Rec; count: number }>).map((g) => [g.key.Status, g.count]).sort();
    expect(groups).toEqual([...counts].sort());
    const leaving = structured(
      await s.call('query_report', {
        resultId: answer.resultId,
        where: [{ field: 'Status', op: 'eq', value: 'passing through' }],
        fields: ['RecordLocator'],
      }),
    );
    expect((leaving.rows as Rec[]).map((r) => r.RecordLocator)).toContain(scenarioBookings(ds)[5].recordLocator);
  });

  it('continue_report refuses it: each call makes the answer whole', async () => {
    const result = await s.call('continue_report', { resultId: answer.resultId });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `Invalid argument for continue_report: resultId: ${answer.resultId} is a travellers_at answer, which each call ` +
        'makes whole: call travellers_at again (its notes say which service calls were incomplete). Nothing was sent ' +
        'to the service; correct the argument and call again.',
    );
  });

  it('export_report writes the held answer, one row per traveller and stay', async () => {
    const exported = structured(
      await s.call('export_report', {
        resultId: answer.resultId,
        format: 'csv',
        fields: ['RecordLocator', 'Traveller', 'Status', 'From', 'To'],
      }),
    );
    expect(exported.rows).toBe(records.length);
    const rows = parseCsv(readFileSync(exported.path as string, 'utf8').replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual(['RecordLocator', 'Traveller', 'Status', 'From', 'To']);
    expect(
      rows
        .slice(1)
        .map((r) => r.join('|'))
        .sort(),
    ).toEqual(records.map((r) => [r.RecordLocator, r.Traveller, r.Status, r.From ?? '', r.To ?? ''].join('|')).sort());
  });

  it('city and country codes find the same travellers (SIN is the only airport of both)', async () => {
    for (const place of ['city:SIN', 'SG']) {
      const other = structured(await s.call('travellers_at', { ...WEEK, place }));
      expect(answerLines(await readAllRecords(s.client, other.resourceUri as string))).toEqual(answerLines(records));
      expect(other.notes as string[]).toContain(
        `Airports of ${place === 'SG' ? 'country SG' : 'city SIN'} learnt from the routing answers: SIN.`,
      );
    }
  });

  it('an airport code that finds no flight suggests the city form', async () => {
    const none = structured(await s.call('travellers_at', { ...WEEK, place: 'LON' }));
    // No flight: what it holds are hotel stays in the city of that code (place-cities.ts), nothing else.
    const held = await readAllRecords(s.client, none.resourceUri as string);
    expect(held.every((r) => r.Basis === 'hotel')).toBe(true);
    expect(none.complete).toBe(true);
    expect(none.notes as string[]).toContain(
      'No flight into or out of airport LON was found; if LON is a city code (LON, NYC...), ask for city:LON.',
    );
    const london = structured(await s.call('travellers_at', { ...WEEK, place: 'city:LON' }));
    const t = ds.today;
    const airports = new Set<string>();
    for (const a of ds.airSegments) {
      if (a.status === 'HX') continue;
      if (a.to.cityCode === 'LON' && a.depDay >= t - 30 && a.depDay <= t + 6) airports.add(a.to.code);
      if (a.from.cityCode === 'LON' && a.depDay >= t && a.depDay <= t + 36) airports.add(a.from.code);
    }
    expect(airports.size).toBeGreaterThan(1);
    expect(london.notes as string[]).toContain(
      `Airports of city LON learnt from the routing answers: ${[...airports].sort().join(', ')}.`,
    );
  });

  it('refuses bad inputs before any request, naming the input, what came and what is expected', async () => {
    const before = s.rt.sandbox!.requests.length;
    const cases: Array<[Rec, RegExp]> = [
      [{ ...WEEK, place: 'Singapore' }, /place: 'Singapore' is not a place; use an airport code \(SIN\)/],
      [{ ...WEEK, place: 'city:SG' }, /place: 'city:SG' is not a place: city codes have 3 letters/],
      [{ ...WEEK, from: '2026-02-30' }, /from: '2026-02-30' is not a real date/],
      [{ ...WEEK, to: 'next week' }, /to: 'next week' is not a date; use YYYYMMDD/],
      [{ ...WEEK, to: 'today-1' }, /to: 'today-1' \(20261114\) is before from \(20261115\)/],
      [
        { ...WEEK, to: 'today+40' },
        /to: 'today\+40' is 40 days after from \(20261115\); the window is at most 31 days/,
      ],
      [{ ...WEEK, lookbackDays: 91 }, /lookbackDays: 91 \(number\) is not a whole number from 0 to 90/],
      [{ ...WEEK, city: 'SIN' }, /unknown parameter 'city'; accepted: place, from, to, lookbackDays/],
      [{ from: 'today', to: 'today' }, /place: missing; required/],
    ];
    for (const [args, message] of cases) {
      const result = await s.call('travellers_at', args);
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect(textOf(result)).toMatch(message);
    }
    expect(s.rt.sandbox!.requests.length).toBe(before);
  });
});

/**
 * The bookings the two routing fetches name (the candidates whose itineraries are read): a
 * (not cancelled) flight into SIN departing from 30 days before the week to its end, or out of
 * SIN departing from the week's start to 30 days after it.
 */
function candidateBookings(ds: Dataset, companies?: readonly string[]): Dataset['bookings'] {
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

function expectedStaysCandidates(ds: Dataset, companies?: readonly string[]): string[] {
  return candidateBookings(ds, companies).map((b) => b.recordLocator);
}

/** PassengerLocationsByRouting's record count: one per (not cancelled) flight into or out of SIN in the range. */
function routingCount(ds: Dataset, end: 'to' | 'from', from: number, to: number): number {
  const ymd = (day: number) => Number(isoDay(day).replaceAll('-', ''));
  return ds.airSegments.filter(
    (s) => s.status !== 'HX' && s[end].code === 'SIN' && ymd(s.depDay) >= from && ymd(s.depDay) <= to,
  ).length;
}

describe('travellers_at with masking, a pinned scope and incomplete upstream answers', () => {
  it('masks traveller names, e-mails and phones (REPORTS_REDACT_PII), keeps locators', async () => {
    const s = await startInProcess({ now: NOW, sandbox: { now: NOW }, env: { REPORTS_REDACT_PII: 'true' } });
    try {
      const ds = s.rt.sandbox!.dataset;
      const result = await s.call('travellers_at', WEEK);
      const answer = structured(result);
      const records = await readAllRecords(s.client, answer.resourceUri as string);
      const stays = expectedStays(ds);
      expect(records.map((r) => String(r.RecordLocator).split(', ').sort().join(', ')).sort()).toEqual(
        stays.map((x) => x.locators.join(', ')).sort(),
      );
      const everything = JSON.stringify([result, records]);
      const bookings = new Set(candidateBookings(ds));
      for (const h of expectedHotels(ds)) bookings.add(h.booking);
      for (const b of bookings) {
        for (const p of b.passengers) {
          for (const secret of [name(p), `${p.lastName}/`, p.email, p.mobile, p.businessPhone])
            expect(everything).not.toContain(secret);
        }
      }
      expect(records.every((r) => String(r.Traveller).startsWith('Traveller-'))).toBe(true);
      for (const key of ['TravellerEmail', 'BookingEmail'])
        expect(records.every((r) => r[key] === null || String(r[key]).startsWith('email-'))).toBe(true);
    } finally {
      await s.close();
    }
  }, 60_000);

  it('keeps to REPORTS_OWNING_COMPANY_CODES: only its bookings, and every request sends the codes', async () => {
    const s = await startInProcess({ now: NOW, sandbox: { now: NOW }, env: { REPORTS_OWNING_COMPANY_CODES: 'TRV2' } });
    try {
      const ds = s.rt.sandbox!.dataset;
      const answer = structured(await s.call('travellers_at', WEEK));
      const records = await readAllRecords(s.client, answer.resourceUri as string);
      const expected = expectedLines(expectedStays(ds, ['TRV2']));
      expect(answerLines(records)).toEqual(expected);
      expect(expected.length).toBeLessThan(expectedLines(expectedStays(ds)).length);
      const sent = s.rt.sandbox!.requests.filter((r) =>
        ['/PassengerLocationsByRouting', '/BookingDetails', '/HotelSegments'].includes(r.path),
      );
      expect(sent.length).toBe(3 + new Set(expectedStaysCandidates(ds, ['TRV2'])).size);
      expect(sent.every((r) => r.query.OwningCompanyCode === 'TRV2')).toBe(true);
    } finally {
      await s.close();
    }
  }, 60_000);

  it('a capped routing answer makes it incomplete; a booking that cannot be read rests on its routing record', async () => {
    // The first booking read is refused (401, not retried): its routing record's itinerary places its travellers.
    let failing = '';
    const refuseFirst = (r: { path: string; query: Record<string, string> }) => {
      if (r.path !== '/BookingDetails' || (failing && r.query.RecordLocator !== failing)) return undefined;
      failing = r.query.RecordLocator;
      return '401' as const;
    };
    const s = await startInProcess({
      now: NOW,
      env: { REPORTS_MAX_RECORDS: '10', REPORTS_PAGE_SIZE: '10' },
      sandbox: { now: NOW, faultPlan: refuseFirst },
    });
    try {
      const answer = structured(await s.call('travellers_at', WEEK));
      expect(answer.complete).toBe(false);
      const notes = answer.notes as string[];
      const arrivals = routingCount(s.rt.sandbox!.dataset, 'to', 20261016, 20261121);
      expect(notes).toContain(
        'Called passenger_locations_by_routing for arrivals (DateStart=20261016 DateEnd=20261121 ToAirportCode=SIN): ' +
          '10 records, INCOMPLETE.',
      );
      expect(notes).toContain(
        `arrivals: Fetched 10 of ${arrivals} records: ` +
          'the cap of 10 records per call (maxRecords / REPORTS_MAX_RECORDS) ' +
          'was reached. travellers_at answers are not continued by continue_report: narrow the window or the place; ' +
          'or narrow the filters.',
      );
      const bookings = notes.find((n) => n.startsWith('Called booking_details'))!;
      expect(bookings).toMatch(new RegExp(`; 1 refused or failed \\(e\\.g\\. ${failing}: .+\\); `));
      expect(bookings).toContain(`rest on routing data alone`);
      expect(bookings).toContain(failing);
      const records = await readAllRecords(s.client, answer.resourceUri as string);
      // Whatever stays it holds are read from its routing record (the section below checks one in the window).
      const placed = records.filter((r) => String(r.RecordLocator).split(', ').includes(failing));
      expect(placed.every((r) => String(r.Basis).includes('routing data only'))).toBe(true);
    } finally {
      await s.close();
    }
  }, 60_000);

  it("an HTTP person's UserName is sent on every request, and their answer is theirs alone", async () => {
    const s = await startInProcess({ now: NOW, sandbox: { now: NOW } });
    const client = new CheckedClient({ name: 'person', version: '1.0.0' });
    const ds = s.rt.sandbox!.dataset;
    const analyst = ds.appUsers.find((u) => u.role === 'analyst' && u.companyCodes.join() === 'TRV2')!;
    const person = sessionRuntimes(s.rt)({ owner: 'person-1', label: 'analyst', userName: analyst.email });
    const server = createServer(person);
    const [a, b] = InMemoryTransport.createLinkedPair();
    try {
      await Promise.all([server.connect(b), client.connect(a)]);
      const answer = structured((await client.callTool({ name: 'travellers_at', arguments: WEEK })) as CallToolResult);
      // The service runs the requests as the analyst, who sees TRV2's bookings only.
      const records = await readAllRecords(client, answer.resourceUri as string);
      expect(answerLines(records)).toEqual(expectedLines(expectedStays(ds, ['TRV2'])));
      const sent = s.rt.sandbox!.requests.filter((r) =>
        ['/PassengerLocationsByRouting', '/BookingDetails', '/HotelSegments'].includes(r.path),
      );
      expect(sent.length).toBeGreaterThan(3);
      expect(sent.every((r) => r.query.UserName === analyst.email)).toBe(true);
      // Another identity (here the stdio user) does not see it.
      const other = await s.call('query_report', { resultId: answer.resultId });
      expect(other.isError).toBe(true);
      expect(textOf(other)).toMatch(/is not a resultId this server issued/);
    } finally {
      await client.close();
      await server.close();
      await s.close();
    }
  }, 60_000);
});
