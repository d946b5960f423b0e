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
import type { Booking, Dataset } from '../../src/sandbox/data.js';
import { DUTY_OF_CARE_SCENARIOS } from '../../src/sandbox/duty-of-care.js';
import { createServer } from '../../src/server/create-server.js';
import { CheckedClient } from '../helpers/checked-client.js';
import { parseCsv } from '../helpers/csv-parse.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllRecords } from '../helpers/resources.js';
import {
  answerLines,
  candidateBookings,
  expectedHotels,
  expectedLines,
  expectedStays,
  expectedStaysCandidates,
  hotelBookings,
  NOW,
  name,
  type Rec,
  readBookings,
  recordsOf,
  routingCount,
  scenarioBookings,
  scenarioCases,
  structured,
  WEEK,
} from '../helpers/travellers-expected.js';

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
    const flown = new Set(expectedStaysCandidates(ds));
    const hotelOnly = hotelBookings(ds).filter((b) => !flown.has(b.recordLocator));
    const candidates = new Set([...flown, ...hotelOnly.map((b) => b.recordLocator)]);
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
        'the window. Hotels searched in city SIN, the IATA city of airport SIN.',
    );
    // The bookings whose details the sandbox refuses or no longer finds rest on their routing records.
    const unreadable = scenarioCases(ds).filter((b) => b.details);
    const gone = unreadable.filter((b) => b.details === 'gone').length;
    const bookings = notes.find((n) => n.startsWith('Called booking_details'))!;
    expect(bookings).toMatch(
      new RegExp(
        `^Called booking_details \\(Passengers, Itinerary, Emails, Phones\\) for ${candidates.size} bookings ` +
          `\\(${hotelOnly.length} of them known by a hotel stay alone\\): ` +
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
      // Locators are identifiers, never masked: in their fields, in the reasons and in the notes.
      const locators = new Set(ds.bookings.map((b) => b.recordLocator));
      for (const r of records) {
        for (const l of String(r.RecordLocator).split(', ')) expect(locators.has(l), l).toBe(true);
        if (r.ContactRecordLocator !== null) expect(locators.has(String(r.ContactRecordLocator))).toBe(true);
        for (const m of String(r.Reason).matchAll(/two bookings: (\S+), then (\S+)\)/g))
          expect(
            [m[1], m[2]].every((l) => locators.has(l)),
            String(r.Reason),
          ).toBe(true);
      }
      const joined = (answer.notes as string[]).find((n) => n.startsWith('Found: '))!;
      const named = [...joined.matchAll(/(\w{6}), (\w{6}) \(Traveller-/g)];
      expect(named.length).toBeGreaterThan(0);
      for (const m of named) expect(locators.has(m[1]) && locators.has(m[2])).toBe(true);
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
      expect(sent.length).toBe(3 + readBookings(ds, ['TRV2']).length);
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
