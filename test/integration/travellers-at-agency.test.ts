/**
 * travellers_at on data shaped as a real agency's (issue 30), through a real MCP client against
 * the sandbox's hand-made cases at SIN (src/sandbox/duty-of-care.ts, MORE_DUTY_OF_CARE_SCENARIOS):
 * bookings whose details the service refuses or no longer finds, a flight with no arrival time,
 * trips split over two bookings, a traveller known only by a hotel stay, two passengers with
 * their own contacts, and what the first answer's text shows. Expected values come from the
 * sandbox's own itineraries and hotel stays (test/helpers/travellers-expected.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Booking, Dataset, Traveller } from '../../src/sandbox/data.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllRecords } from '../helpers/resources.js';
import {
  caseBooking,
  decided,
  type ExpectedStay,
  expectedHotels,
  expectedStays,
  isoDay,
  local,
  NOW,
  name,
  type Rec,
  recordsOf,
  scenarioBookings,
  structured,
  WEEK,
} from '../helpers/travellers-expected.js';

const START = '2026-11-15T00:00';
const END = '2026-11-22T00:00';

describe("travellers_at on a real agency's data", () => {
  let s: InProcess;
  let ds: Dataset;
  let answer: Rec;
  let text: string;
  let records: Rec[];
  let expected: ExpectedStay[];

  beforeAll(async () => {
    s = await startInProcess({ now: NOW, sandbox: { now: NOW } });
    ds = s.rt.sandbox!.dataset;
    const result = await s.call('travellers_at', WEEK);
    answer = structured(result);
    text = textOf(result);
    records = await readAllRecords(s.client, answer.resourceUri as string);
    expected = expectedStays(ds);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  /** The expected stays resting on a booking, as answer lines. */
  const expectedOf = (b: Booking) =>
    expected
      .filter((x) => x.locators.includes(b.recordLocator))
      .map((x) => `${name(x.traveller)}|${x.status}|${x.from}|${x.to}`)
      .sort();
  const linesOf = (rows: readonly Rec[]) => rows.map((r) => `${r.Traveller}|${r.Status}|${r.From}|${r.To}`).sort();

  it('decides from what can be read: refused and gone bookings rest on their routing records, named in the notes', async () => {
    const refused = caseBooking(ds, 'details refused');
    const gone = caseBooking(ds, 'details gone');
    // The service refuses the one (no rights) and no longer finds the other, as booking_details shows.
    const asked = await s.call('booking_details', { RecordLocator: refused.recordLocator });
    expect(asked.isError).toBe(true);
    expect(textOf(asked)).toContain(`No rights to booking ${refused.recordLocator}`);
    const lookup = structured(await s.call('booking_details', { RecordLocator: gone.recordLocator }));
    expect(lookup.fetchedRecords).toBe(0);
    for (const b of [refused, gone]) {
      const mine = recordsOf(records, b);
      // Every traveller of the booking is placed, as its itinerary says (before, the answer held none of them).
      expect(linesOf(mine), b.recordLocator).toEqual(expectedOf(b));
      expect(mine.length).toBe(b.passengers.length);
      expect(mine.every((r) => String(r.Basis).startsWith('flights (routing data only'))).toBe(true);
    }
    expect(recordsOf(records, refused).map((r) => r.Status)).toEqual(['arriving and leaving', 'arriving and leaving']);
    expect(recordsOf(records, gone).map((r) => r.Status)).toEqual(['in place']);
    const note = (answer.notes as string[]).find((n) => n.startsWith('Called booking_details'))!;
    const named = note.slice(note.lastIndexOf(': ') + 2, -'; complete.'.length).split('; ');
    const unreadable = ds.bookings.filter((b) => b.details).map((b) => b.recordLocator);
    expect(named.sort()).toEqual(unreadable.sort());
    expect(answer.complete).toBe(true);
  });

  it('places a flight that holds no arrival time by its date, not leaving it out', () => {
    const b = caseBooking(ds, 'arrives during the week, the arrival time not held');
    const inbound = b.air.find((a) => a.arrivalTimeUnknown)!;
    const mine = recordsOf(records, b);
    expect(linesOf(mine)).toEqual(expectedOf(b));
    expect(mine).toHaveLength(1);
    expect(mine[0].Status).toBe('arriving');
    expect(mine[0].From).toBe(isoDay(inbound.arrDay));
    expect(mine[0].Reason).toMatch(/no arrival time held for QF\d+: placed by its date/);
    const untimed = ds.bookings
      .filter((x) => recordsOf(records, x).length || expected.some((e) => e.locators.includes(x.recordLocator)))
      .flatMap((x) => x.air)
      .filter((a) => a.arrivalTimeUnknown).length;
    expect(answer.notes as string[]).toContain(
      `${untimed} air segments hold no arrival or departure time: each is placed by its date (From or To shows the ` +
        'day alone), not left out.',
    );
    expect((answer.notes as string[]).some((n) => n.includes('unreadable dates or times'))).toBe(false);
  });

  it("joins a traveller's bookings into one trip: out on one, back on another is one stay, one row each", () => {
    for (const [out, back] of [
      ['split trip, outbound booking', 'split trip, return booking'],
      ['split trip over a gone booking: arrived', 'split trip over a gone booking: the return'],
    ]) {
      const a = caseBooking(ds, out);
      const b = caseBooking(ds, back);
      const traveller = a.passengers[0];
      const mine = records.filter((r) => r.Traveller === name(traveller));
      expect(mine, out).toHaveLength(1);
      const [stay] = mine;
      expect(String(stay.RecordLocator).split(', ')).toEqual([a.recordLocator, b.recordLocator]);
      expect(stay.Status).toBe('leaving');
      expect(stay.From).toBe(local(a.air[0].arrUtc, 480));
      expect(stay.To).toBe(local(b.air[0].depUtc, 480));
      expect(stay.Reason).toContain(`one trip over two bookings: ${a.recordLocator}, then ${b.recordLocator}`);
    }
    // Nobody is listed twice for one stay: a traveller's stays never overlap.
    const byTraveller = new Map<string, Rec[]>();
    for (const r of records) byTraveller.set(String(r.Traveller), [...(byTraveller.get(String(r.Traveller)) ?? []), r]);
    for (const [who, stays] of byTraveller) {
      const spans = stays
        .map((r) => [String(r.From ?? '0000'), String(r.To ?? '9999')] as const)
        .sort((x, y) => (x[0] < y[0] ? -1 : 1));
      for (let i = 1; i < spans.length; i++) expect(spans[i][0] >= spans[i - 1][1], who).toBe(true);
    }
    const joined = expected.filter((x) => new Set(x.locators).size > 1 && !x.hotels.length);
    expect(
      records.filter((r) => String(r.RecordLocator).includes(',') && !String(r.Basis).includes('hotel')),
    ).toHaveLength(joined.length);
  });

  it('counts a hotel stay at the place as presence, beside the flights or alone, and says so', () => {
    const hotels = expectedHotels(ds);
    // Every hotel stay at SIN touching the week is evidence of exactly one record.
    for (const h of hotels) {
      const holding = records.filter((r) =>
        (r.Evidence as Rec[]).some((e) => e.Role === 'hotel' && e.RecordLocator === h.booking.recordLocator),
      );
      expect(holding, h.booking.recordLocator).toHaveLength(1);
      expect(holding[0].Traveller).toBe(name(h.booking.passengers[0]));
    }
    const alone = caseBooking(ds, 'hotel only');
    const stay = alone.hotels[0];
    const [hotelOnly] = recordsOf(records, alone);
    expect(hotelOnly).toMatchObject({
      Traveller: name(alone.passengers[0]),
      Status: decided(isoDay(stay.arrDay), isoDay(stay.depDay), false, START, END),
      From: isoDay(stay.arrDay),
      To: isoDay(stay.depDay),
      Basis: 'hotel',
      Account: alone.account.code,
    });
    expect(hotelOnly.Evidence).toEqual([
      {
        Role: 'hotel',
        RecordLocator: alone.recordLocator,
        Hotel: stay.property.name,
        CityCode: 'SIN',
        CheckIn: isoDay(stay.arrDay),
        CheckOut: isoDay(stay.depDay),
        SegmentStatus: 'HK',
      },
    ]);
    // Its booking is read too (no routing names it): the traveller's own contact, not only a name.
    expect(hotelOnly.TravellerEmail).toBe(alone.passengers[0].email);
    expect(
      s.rt.sandbox!.requests.some((r) => r.path === '/BookingDetails' && r.query.RecordLocator === alone.recordLocator),
    ).toBe(true);
    const beside = caseBooking(ds, 'split trip, outbound booking');
    const [withFlights] = recordsOf(records, beside);
    expect(withFlights.Basis).toBe('flights + hotel');
    expect((withFlights.Evidence as Rec[]).map((e) => e.Role)).toEqual(['arrival', 'departure', 'hotel']);
    expect(withFlights.Reason).toContain(`; hotel: ${beside.hotels[0].property.name} `);
    expect(records.filter((r) => r.Basis === 'hotel')).toHaveLength(expected.filter((x) => x.hotelOnly).length);
  });

  it("names a booking-level contact as the booking's, and shows a traveller's own where the booking holds one each", () => {
    const byLocator = new Map(ds.bookings.map((b) => [b.recordLocator, b]));
    for (const r of records) {
      // The traveller: the passenger of that name in the stay's bookings (two people may share a name).
      const who = String(r.RecordLocator)
        .split(', ')
        .flatMap((l) => byLocator.get(l)!.passengers)
        .find((p) => name(p) === r.Traveller)!;
      expect(who, String(r.Traveller)).toBeDefined();
      // A traveller's own contact is theirs; never another traveller's.
      if (r.TravellerEmail !== null) expect(r.TravellerEmail, String(r.Traveller)).toBe(who.email);
      if (r.TravellerPhone !== null) expect([who.mobile, who.businessPhone]).toContain(r.TravellerPhone);
      // The booking's contact is its lead passenger's (what the service holds at booking level), named by booking.
      if (r.BookingEmail !== null) {
        const booking = byLocator.get(String(r.ContactRecordLocator))!;
        expect(String(r.RecordLocator).split(', ').concat(booking.recordLocator)).toContain(booking.recordLocator);
        expect(r.BookingEmail).toBe(booking.passengers[0].email);
      }
    }
    // Two passengers, each with their own contact: the second is not given the lead's.
    const sydney = scenarioBookings(ds)[1];
    const [lead, second] = sydney.passengers;
    const rows = recordsOf(records, sydney);
    const of = (p: Traveller) => rows.find((r) => r.Traveller === name(p))!;
    expect(of(second)).toMatchObject({ TravellerEmail: second.email, BookingEmail: lead.email });
    expect(of(lead)).toMatchObject({ TravellerEmail: lead.email, BookingEmail: lead.email });
    expect(of(second).TravellerPhone).not.toBe(lead.mobile);
    // Read from routing data alone: no traveller's own contact, the booking's named as such.
    const refused = caseBooking(ds, 'details refused');
    for (const r of recordsOf(records, refused)) {
      expect(r).toMatchObject({
        TravellerEmail: null,
        TravellerPhone: null,
        BookingEmail: refused.passengers[0].email,
        ContactRecordLocator: refused.recordLocator,
      });
    }
  });

  it('shows in the first answer every stay that matters before people based here, and its rules and calls whole', () => {
    const lines = text.split('\n');
    const rowAt = (r: Rec) =>
      lines.findIndex((l) => l.startsWith(`| ${r.Traveller} | ${r.Status} | ${r.From ?? ''} | ${r.To ?? ''} |`));
    const matters = records.filter((r) => r.Status !== 'based here');
    expect(matters.length).toBeGreaterThan(20);
    for (const r of matters) expect(rowAt(r), `${r.Traveller} ${r.Status}`).toBeGreaterThan(0);
    const lastMatters = Math.max(...matters.map(rowAt));
    for (const r of records.filter((x) => x.Status === 'based here')) {
      const at = rowAt(r);
      if (at >= 0) expect(at).toBeGreaterThan(lastMatters);
    }
    for (const note of answer.notes as string[]) expect(lines).toContain(`Note: ${note}`);
    const head = lines.slice(
      0,
      lines.findIndex((l) => l.startsWith('resultId:')),
    );
    expect(head.join('\n')).not.toContain('[cut:');
    expect(text.length).toBeLessThanOrEqual(16_000);
    expect(JSON.stringify(answer).length).toBeLessThanOrEqual(32_000);
  });
});
