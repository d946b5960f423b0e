/**
 * Every report tool called through a real SDK Client against the embedded sandbox, its
 * records checked against what the sandbox holds for the same query (the whole record set,
 * in order, dates decoded), its result shape against the report result schema, and the company
 * scope and default UserName of the configuration. Small pages (50) so that paging is exercised.
 */

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { TRANSACTIONS } from '../../src/catalog/transactions.js';
import type { Dataset, Sandbox } from '../../src/sandbox/service.js';
import { decodeDates } from '../../src/upstream/service-date.js';
import { isStandingNote, withDays } from '../helpers/days.js';
import { isMeaningNote, otherNotes, withoutDerived } from '../helpers/derived.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllRecords } from '../helpers/resources.js';

const PAGE_SIZE = 50;
const DAY_MS = 86_400_000;

interface ReportContent {
  report: string;
  source: 'live' | 'demo';
  query: Record<string, string>;
  totalRecords: number | null;
  fetchedRecords: number;
  complete: boolean;
  notes: string[];
  resultId: string;
  resourceUri: string;
  summary: { recordCount: number };
  rows: Record<string, unknown>[];
}
type Rec = Record<string, unknown>;

/** Day number (days since 1970-01-01 UTC) of today in REPORTS_TIMEZONE=UTC, plus `offset` days. */
const dayOf = (offset = 0) => Math.floor(Date.now() / DAY_MS) + offset;
const isoOfDay = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);
/** YYYYMMDD of today (UTC, real clock) plus `offset` days: what the server must send. */
const ymd = (offset = 0) => isoOfDay(dayOf(offset)).replace(/-/g, '');
/** YYYY-MM-DD of today plus `offset` days: an argument form the tools accept. */
const dashed = (offset = 0) => isoOfDay(dayOf(offset));
const _dayOfYmd = (text: string) =>
  Date.UTC(Number(text.slice(0, 4)), Number(text.slice(4, 6)) - 1, Number(text.slice(6, 8))) / DAY_MS;
/** The calendar day an ISO date names as written (its own offset kept). */
const dayOfIso = (iso: string) =>
  Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10))) / DAY_MS;
const count = (n: number) => new Intl.NumberFormat('en-US').format(n);
/** The synthetic data anchored on today (as in production demo mode), so that relative
 *  windows such as today-7..today resolved on the real clock always find records. */
const DATA_NOW = new Date(dayOf(0) * DAY_MS);

function content(r: CallToolResult): ReportContent {
  expect(r.isError, textOf(r)).toBeFalsy();
  return r.structuredContent as unknown as ReportContent;
}

async function readRecords(s: InProcess, uri: string): Promise<Rec[]> {
  const res = await s.client.readResource({ uri });
  expect(res.contents).toHaveLength(1);
  expect(res.contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return withoutDerived(await readAllRecords(s.client, uri)) as Rec[];
}

interface Checked {
  sc: ReportContent;
  records: Rec[];
  text: string;
  /** Sandbox requests this call made. */
  requests: Sandbox['requests'];
}

/**
 * Calls a report tool and checks everything that holds for any successful report call:
 * records = sandbox.report(transaction, query) decoded, in order; counts; rows; text; link.
 */
async function callAndCompare(
  s: InProcess,
  tool: string,
  transaction: string,
  args: Record<string, unknown>,
  paged = true,
): Promise<Checked> {
  const sandbox = s.rt.sandbox!;
  const before = sandbox.requests.length;
  const result = await s.call(tool, args);
  const sc = content(result);
  const requests = sandbox.requests.slice(before);
  const expected = withDays(decodeDates(sandbox.report(transaction, sc.query)) as Rec[]);
  const records = await readRecords(s, sc.resourceUri);

  expect(sc.report).toBe(tool);
  expect(sc.source).toBe('demo');
  expect(sc.complete).toBe(true);
  // The only note a complete default answer may carry: wide rows cut to fit the default view.
  const rowsNote = `structuredContent.rows holds the first ${sc.rows.length} of the ${Math.min(20, expected.length)} rows`;
  const notes = otherNotes(sc.notes).filter((note) => !isStandingNote(note));
  expect(notes.filter((note) => !note.startsWith(rowsNote))).toEqual([]);
  expect(sc.totalRecords).toBe(expected.length);
  expect(sc.fetchedRecords).toBe(expected.length);
  expect(sc.summary.recordCount).toBe(expected.length);
  expect(records).toEqual(expected);
  // The first 20 records, or fewer (at least one) when wide records fill the default view of
  // 32,000 characters, which the note above then says.
  expect(withoutDerived(sc.rows)).toEqual(records.slice(0, sc.rows.length));
  expect(sc.rows.length).toBeGreaterThanOrEqual(Math.min(1, records.length));
  if (sc.rows.length < Math.min(20, records.length)) expect(notes).toHaveLength(1);
  else expect(notes).toEqual([]);
  expect(sc.resourceUri).toBe(`reports://results/${sc.resultId}`);

  // The upstream requests: the query as echoed, then windows of REPORTS_PAGE_SIZE (the last
  // one asking only for what is left) covering every record exactly once; one request for
  // the unpaged transactions.
  expect(requests.every((r) => r.status === 200)).toBe(true);
  for (const r of requests) {
    const { Offset, Limit, ...sent } = r.query;
    expect(sent).toEqual(sc.query);
    // Unpaged transactions are asked without a window at all.
    expect(Offset).toBe(paged ? String(r.offset) : undefined);
    expect(Limit).toBe(paged ? String(r.limit) : undefined);
  }
  const windows = requests.map((r) => [r.offset, r.limit]).sort((a, b) => a[0] - b[0]);
  if (paged) {
    const pages = Math.max(1, Math.ceil(expected.length / PAGE_SIZE));
    expect(windows).toEqual(
      // Limit is the page size on every page, the last included.
      Array.from({ length: pages }, (_, i) => [i * PAGE_SIZE, PAGE_SIZE]),
    );
  } else {
    expect(requests).toHaveLength(1);
  }

  const text = textOf(result);
  const params = Object.entries(sc.query)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
  expect(text.split('\n')[0]).toBe(
    `${tool} (demo data) ${params}: ${count(expected.length)} record${expected.length === 1 ? '' : 's'}, complete.`,
  );
  // Under the headline: the date basis, then the notes (what the numbers mean, the days), then the id.
  const basis = sc.notes.filter((note) => note.startsWith('Dates: '));
  const others = sc.notes
    .filter((note) => !note.startsWith('Dates: ') && !note.startsWith(rowsNote))
    .map((note) => `Note: ${note}`);
  expect(others.every((note) => isMeaningNote(note.slice(6)) || isStandingNote(note.slice(6)))).toBe(true);
  expect(text.split('\n').slice(1, 2 + basis.length + others.length)).toEqual([
    ...basis,
    ...others,
    `resultId: ${sc.resultId}`,
  ]);
  expect(result.content).toHaveLength(2);
  expect(result.content[1]).toEqual({
    type: 'resource_link',
    uri: sc.resourceUri,
    name: `${tool} ${sc.resultId}`,
    mimeType: 'application/json',
    description: `All ${expected.length} fetched records of ${tool} as a JSON array (append .csv for CSV).`,
  });
  return { sc, records, text, requests };
}

let s: InProcess;
let ds: Dataset;
let sandbox: Sandbox;
/** Record counts per tool, to check that paging was exercised. */
const fetched = new Map<string, number>();

beforeAll(async () => {
  s = await startInProcess({ env: { REPORTS_PAGE_SIZE: String(PAGE_SIZE) }, sandbox: { dataNow: DATA_NOW } });
  sandbox = s.rt.sandbox!;
  ds = sandbox.dataset;
});
afterAll(async () => {
  await s?.close();
});

/** A booking with air segments, tickets and a hotel, for the single-booking reports. */
function richBooking() {
  const bk = ds.bookings.find((b) => b.air.length >= 2 && b.tickets.length > 0 && b.hotels.length > 0 && !b.cancelled);
  if (!bk) throw new Error('the dataset has no booking with air, tickets and hotel');
  return bk;
}

function accountCompany(code: string): string {
  const account = ds.accounts.find((a) => a.code === code);
  if (!account) throw new Error(`unknown account ${code}`);
  return account.companyCode;
}

describe('each report tool returns what the sandbox holds for the same query', () => {
  test('booking_details: one booking by RecordLocator and YYYY-MM-DD creation date, chosen sections', async () => {
    const bk = richBooking();
    const { sc, records } = await callAndCompare(s, 'booking_details', 'BookingDetails', {
      RecordLocator: bk.recordLocator,
      PNRCreationDate: isoOfDay(bk.createdDay),
      LoadOptions: ['Passengers', 'Itinerary', 'Tickets', 'Phones'],
    });
    expect(sc.query).toEqual({
      LoadOptions: 'Passengers,Itinerary,Tickets,Phones',
      RecordLocator: bk.recordLocator,
      PNRCreationDate: isoOfDay(bk.createdDay).replace(/-/g, ''),
    });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      RecordLocator: bk.recordLocator,
      ServiceRef: bk.serviceRef,
      OwningCompanyCode: bk.company.code,
    });
    expect((records[0].Passengers as Rec[]).map((p) => p.LastName)).toEqual(bk.passengers.map((p) => p.lastName));
    fetched.set('booking_details', sc.fetchedRecords);
  });

  test('find_bookings: free-form parameters, relative dates resolved; one unpaged answer kept whole', async () => {
    const { sc, records } = await callAndCompare(
      s,
      'find_bookings',
      'FindBookings',
      {
        parameters: { DateStart: 'today-60', DateEnd: 'today' },
      },
      false,
    );
    expect(sc.query).toEqual({ DateStart: ymd(-60), DateEnd: ymd(0) });
    // More than a page: the service ignores Offset/Limit here and answers everything at once.
    expect(records.length).toBeGreaterThan(PAGE_SIZE);
    const expected = ds.bookings
      .filter((b) => b.createdDay >= dayOf(-60) && b.createdDay <= dayOf(0))
      .map((b) => b.recordLocator);
    expect(records.map((r) => r.RecordLocator)).toEqual(expected);
    fetched.set('find_bookings', sc.fetchedRecords);
  });

  test('car_segments_by_date: YYYY-MM-DD dates sent as YYYYMMDD', async () => {
    const { sc } = await callAndCompare(s, 'car_segments_by_date', 'CarSegmentsByDate', {
      DateStart: dashed(-30),
      DateEnd: dashed(30),
      DateSearchType: 'T',
      SegmentType: 'Active',
    });
    expect(sc.query).toEqual({ SegmentType: 'Active', DateStart: ymd(-30), DateEnd: ymd(30), DateSearchType: 'T' });
    fetched.set('car_segments_by_date', sc.fetchedRecords);
  });

  test('air_segments_by_date: today-7..today, a company list sent comma-joined', async () => {
    const { sc, records } = await callAndCompare(s, 'air_segments_by_date', 'AirSegmentsByDate', {
      DateStart: 'today-7',
      DateEnd: 'today',
      DateSearchType: 'T',
      OwningCompanyCode: ['TRV1', 'GLB1'],
    });
    expect(sc.query).toEqual({
      DateStart: ymd(-7),
      DateEnd: ymd(0),
      DateSearchType: 'T',
      OwningCompanyCode: 'TRV1,GLB1',
    });
    // Independently of sandbox.report: the dataset's segments departing in the window, in scope.
    const expected = ds.airSegments.filter(
      (a) => a.depDay >= dayOf(-7) && a.depDay <= dayOf(0) && ['TRV1', 'GLB1'].includes(a.booking.company.code),
    );
    expect(records.map((r) => [r.RecordLocator, r.CarrierCode, r.FlightNbr])).toEqual(
      expected.map((a) => [a.booking.recordLocator, a.carrier.code, a.flightNbr]),
    );
    for (const r of records) {
      expect(dayOfIso(r.DepartureDate as string)).toBeGreaterThanOrEqual(dayOf(-7));
      expect(dayOfIso(r.DepartureDate as string)).toBeLessThanOrEqual(dayOf(0));
      expect(['TRV1', 'GLB1']).toContain(accountCompany(r.Account as string));
    }
    fetched.set('air_segments_by_date', sc.fetchedRecords);
  });

  test("pnr_segments: one booking's segments", async () => {
    const bk = richBooking();
    const { sc, records } = await callAndCompare(s, 'pnr_segments', 'PNRSegments', {
      RecordLocator: bk.recordLocator,
      SegmentType: 'Air,Hotel',
    });
    expect(sc.query).toEqual({ RecordLocator: bk.recordLocator, SegmentType: 'Air,Hotel' });
    expect(records).toHaveLength(1);
    fetched.set('pnr_segments', sc.fetchedRecords);
  });

  test('ticket_coupons_by_status_code: USED coupons flown in the last 60 days for three accounts', async () => {
    const accounts = ['ACME', 'GLOBEX', 'HOOLI'];
    const { sc, records } = await callAndCompare(s, 'ticket_coupons_by_status_code', 'TicketCouponsByStatusCode', {
      DateStart: 'today-60',
      DateEnd: 'today',
      CouponCodeGroup: 'USED',
      DateTracker: 'T',
      Account: accounts.join(', '),
    });
    expect(sc.query).toEqual({
      DateStart: ymd(-60),
      DateEnd: ymd(0),
      CouponCodeGroup: 'USED',
      DateTracker: 'T',
      Account: 'ACME,GLOBEX,HOOLI',
    });
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      expect(r.FlightCouponStatus).toBe('USED');
      expect(accounts).toContain(r.Account);
      expect(dayOfIso(r.FlightDate as string)).toBeGreaterThanOrEqual(dayOf(-60));
      expect(dayOfIso(r.FlightDate as string)).toBeLessThanOrEqual(dayOf(0));
    }
    const expected = ds.coupons.filter(
      (c) =>
        c.status === 'USED' &&
        accounts.includes(c.ticket.booking.account.code) &&
        c.segment.depDay >= dayOf(-60) &&
        c.segment.depDay <= dayOf(0),
    );
    expect(records.map((r) => r.AirTktSegId).sort()).toEqual(expected.map((c) => String(c.id)).sort());
    fetched.set('ticket_coupons_by_status_code', sc.fetchedRecords);
  });

  test('tickets_issued_by_number: two tickets by number (free-form)', async () => {
    const [t1, t2] = [ds.tickets[3], ds.tickets[40]];
    const { sc, records } = await callAndCompare(
      s,
      'tickets_issued_by_number',
      'GetTicketsIssuedByNumber',
      {
        parameters: { TicketNumber: `${t1.number},${t2.number}` },
      },
      false,
    );
    expect(sc.query).toEqual({ TicketNumber: `${t1.number},${t2.number}` });
    expect(records).toHaveLength(2);
    fetched.set('tickets_issued_by_number', sc.fetchedRecords);
  });

  test('check_failed_submissions: logged in the last 90 days', async () => {
    const { sc } = await callAndCompare(s, 'check_failed_submissions', 'CheckFailedSubmissions', {
      LogDateStart: 'today-90',
      LogDateEnd: 'today',
    });
    expect(sc.query).toEqual({ LogDateStart: ymd(-90), LogDateEnd: ymd(0) });
    fetched.set('check_failed_submissions', sc.fetchedRecords);
  });

  test('qlog_forward: one company by id, last 90 days', async () => {
    const company = ds.companies[0];
    const { sc } = await callAndCompare(s, 'qlog_forward', 'QLogForward', {
      CompanyID: company.id,
      LogDateStart: 'today-90',
      LogDateEnd: 'today',
    });
    expect(sc.query).toEqual({ CompanyID: String(company.id), LogDateStart: ymd(-90), LogDateEnd: ymd(0) });
    fetched.set('qlog_forward', sc.fetchedRecords);
  });

  test('qc_comments_for_consultant: two PCCs, dates by comment', async () => {
    const { sc } = await callAndCompare(s, 'qc_comments_for_consultant', 'QcCommentsForConsultant', {
      DateStart: 'today-120',
      DateEnd: 'today',
      OwningAgencyLocationID: ['1ABC', '2DEF'],
      DateByComments: true,
    });
    expect(sc.query).toEqual({
      DateStart: ymd(-120),
      DateEnd: ymd(0),
      OwningAgencyLocationID: '1ABC,2DEF',
      DateByComments: 'true',
    });
    fetched.set('qc_comments_for_consultant', sc.fetchedRecords);
  });

  test('distributor_bookings_by_airline_class: one distributor, itinerary included', async () => {
    const company = ds.companies[0];
    const { sc } = await callAndCompare(
      s,
      'distributor_bookings_by_airline_class',
      'DistributorBookingsByAirlineClass',
      {
        DistributorID: company.id,
        IssueDateStart: 'today-60',
        IssueDateEnd: 'today',
        IncludeItinerary: true,
        ItineraryFormatting: '0',
      },
    );
    expect(sc.query).toEqual({
      DistributorID: String(company.id),
      IssueDateStart: ymd(-60),
      IssueDateEnd: ymd(0),
      IncludeItinerary: 'true',
      ItineraryFormatting: '0',
    });
    fetched.set('distributor_bookings_by_airline_class', sc.fetchedRecords);
  });

  test('hotel_segments: arrivals in the next 30 days with notepad, non-passive', async () => {
    const { sc } = await callAndCompare(s, 'hotel_segments', 'HotelSegments', {
      DateStart: 'today',
      DateEnd: 'today+30',
      DateSearchType: 'A',
      WithNotepad: '1',
      IsPassive: '0',
    });
    expect(sc.query).toEqual({
      DateStart: ymd(0),
      DateEnd: ymd(30),
      WithNotepad: '1',
      DateSearchType: 'A',
      IsPassive: '0',
    });
    fetched.set('hotel_segments', sc.fetchedRecords);
  });

  test('passenger_arrivals: arriving in the next 14 days', async () => {
    const { sc } = await callAndCompare(s, 'passenger_arrivals', 'PassengerArrivals', {
      ArrivalDateStart: 'today',
      ArrivalDateEnd: 'today+14',
    });
    expect(sc.query).toEqual({ ArrivalDateStart: ymd(0), ArrivalDateEnd: ymd(14) });
    fetched.set('passenger_arrivals', sc.fetchedRecords);
  });

  test('partner_forwarding_logs: failures of the last 30 days (boolean sent as false)', async () => {
    const { sc, records } = await callAndCompare(s, 'partner_forwarding_logs', 'PartnerForwardingLogs', {
      LogDateStart: 'today-30',
      LogDateEnd: 'today',
      IsSuccess: false,
    });
    expect(sc.query).toEqual({ LogDateStart: ymd(-30), LogDateEnd: ymd(0), IsSuccess: 'false' });
    expect(records.every((r) => r.Success === false)).toBe(true);
    fetched.set('partner_forwarding_logs', sc.fetchedRecords);
  });

  test('passenger_locations_by_routing: travelling to Europe in the next 30 days', async () => {
    const { sc } = await callAndCompare(s, 'passenger_locations_by_routing', 'PassengerLocationsByRouting', {
      DateStart: 'today',
      DateEnd: 'today+30',
      ToRegionCode: 'EUR',
    });
    expect(sc.query).toEqual({ DateStart: ymd(0), DateEnd: ymd(30), ToRegionCode: 'EUR' });
    fetched.set('passenger_locations_by_routing', sc.fetchedRecords);
  });

  test('problematic_segments: departing in the next 60 days', async () => {
    const { sc } = await callAndCompare(s, 'problematic_segments', 'ProblematicSegments', {
      DepartureDateStart: 'today',
      DepartureDateEnd: 'today+60',
    });
    expect(sc.query).toEqual({ DepartureDateStart: ymd(0), DepartureDateEnd: ymd(60) });
    fetched.set('problematic_segments', sc.fetchedRecords);
  });

  test('bookings_with_active_segments: travelling in the next 30 days', async () => {
    const { sc } = await callAndCompare(s, 'bookings_with_active_segments', 'BookingsWithActiveSegments', {
      TravelDateStart: 'today',
      TravelDateEnd: 'today+30',
    });
    expect(sc.query).toEqual({ TravelDateStart: ymd(0), TravelDateEnd: ymd(30) });
    fetched.set('bookings_with_active_segments', sc.fetchedRecords);
  });

  test('passenger_air_segments_with_max_traveller_flag: two accounts, departures within 14 days either side', async () => {
    const accounts = ['ACME', 'HOOLI'];
    const { sc, records } = await callAndCompare(
      s,
      'passenger_air_segments_with_max_traveller_flag',
      'PassengerAirSegmentsWithMaxTravellerFlag',
      {
        Account: accounts,
        DepartureDateStart: 'today-14',
        DepartureDateEnd: 'today+14',
      },
    );
    expect(sc.query).toEqual({ Account: 'ACME,HOOLI', DepartureDateStart: ymd(-14), DepartureDateEnd: ymd(14) });
    // Independently: one record per passenger per (not cancelled) segment of those accounts in the window.
    const segments = ds.airSegments.filter(
      (a) =>
        a.status !== 'HX' &&
        accounts.includes(a.booking.account.code) &&
        a.depDay >= dayOf(-14) &&
        a.depDay <= dayOf(14),
    );
    expect(records.length).toBe(segments.reduce((n, a) => n + a.booking.passengers.length, 0));
    for (const r of records) {
      expect(accounts).toContain(r.Account);
      expect((r.DepartureDate as string) >= dashed(-14) && (r.DepartureDate as string) <= dashed(14)).toBe(true);
    }
    fetched.set('passenger_air_segments_with_max_traveller_flag', sc.fetchedRecords);
  });

  test('ticket_coupons_issued: open coupons (one-letter O) issued in the last 30 days', async () => {
    const { sc, records } = await callAndCompare(s, 'ticket_coupons_issued', 'TicketCouponsIssued', {
      IssueDateStart: 'today-30',
      IssueDateEnd: 'today',
      FlightCouponStatus: 'O',
    });
    expect(sc.query).toEqual({ IssueDateStart: ymd(-30), IssueDateEnd: ymd(0), FlightCouponStatus: 'O' });
    expect(records.length).toBeGreaterThan(0);
    expect(new Set(records.map((r) => r.FlightCouponStatus))).toEqual(new Set(['OPEN']));
    const expected = ds.coupons.filter(
      (c) => c.status === 'OPEN' && c.ticket.issueDay >= dayOf(-30) && c.ticket.issueDay <= dayOf(0),
    );
    expect(records.length).toBe(expected.length);
    fetched.set('ticket_coupons_issued', sc.fetchedRecords);
  });

  test('app_users_activity: last 7 days without e-mail subscriptions', async () => {
    const { sc, records } = await callAndCompare(s, 'app_users_activity', 'AppUsersActivity', {
      DateStart: 'today-7',
      DateEnd: 'today',
      ExcludeEmailSubscriptions: true,
    });
    expect(sc.query).toEqual({ DateStart: ymd(-7), DateEnd: ymd(0), ExcludeEmailSubscriptions: 'true' });
    const expected = ds.activities.filter(
      (a) => !a.emailSubscription && Math.floor(a.ms / DAY_MS) >= dayOf(-7) && Math.floor(a.ms / DAY_MS) <= dayOf(0),
    );
    expect(records.length).toBe(expected.length);
    fetched.set('app_users_activity', sc.fetchedRecords);
  });

  test('hotel_segment_counts_per_location: per chain, totals equal the hotel segments arriving in the window', async () => {
    const { sc, records } = await callAndCompare(
      s,
      'hotel_segment_counts_per_location',
      'HotelSegmentCountsPerLocation',
      {
        DateStart: 'today-30',
        DateEnd: 'today+30',
      },
    );
    expect(sc.query).toEqual({ DateStart: ymd(-30), DateEnd: ymd(30) });
    const stays = ds.hotelSegments.filter((h) => !h.cancelled && h.arrDay >= dayOf(-30) && h.arrDay <= dayOf(30));
    expect(records.reduce((n, r) => n + (r.TotalSegments as number), 0)).toBe(stays.length);
    expect(records.reduce((n, r) => n + (r.TotalNights as number), 0)).toBe(stays.reduce((n, h) => n + h.nights, 0));
    fetched.set('hotel_segment_counts_per_location', sc.fetchedRecords);
  });

  test('car_segment_counts_per_account_by_vendor: the busiest vendor, counts equal its rentals', async () => {
    const window = ds.carSegments.filter((c) => c.pickDay >= dayOf(-60) && c.pickDay <= dayOf(60));
    const byVendor = new Map<string, number>();
    for (const c of window) byVendor.set(c.vendor.code, (byVendor.get(c.vendor.code) ?? 0) + 1);
    const [vendor, rentals] = [...byVendor].sort((a, b) => b[1] - a[1])[0];
    const { sc, records } = await callAndCompare(
      s,
      'car_segment_counts_per_account_by_vendor',
      'CarSegmentCountsPerAccountByVendor',
      {
        DateStart: 'today-60',
        DateEnd: 'today+60',
        VendorCode: vendor,
      },
    );
    expect(sc.query).toEqual({ DateStart: ymd(-60), DateEnd: ymd(60), VendorCode: vendor });
    expect(records.reduce((n, r) => n + (r.TotalSegments as number), 0)).toBe(rentals);
    fetched.set('car_segment_counts_per_account_by_vendor', sc.fetchedRecords);
  });

  test('every report tool of the catalog has a case above and returned records, several needing many pages', () => {
    expect([...fetched.keys()].sort()).toEqual(TRANSACTIONS.map((d) => d.tool).sort());
    for (const [tool, n] of fetched) expect(n, tool).toBeGreaterThan(0);
    expect([...fetched.values()].filter((n) => n > PAGE_SIZE).length).toBeGreaterThanOrEqual(8);
  });
});

describe('results beyond the first call', () => {
  test('a capped call is incomplete; continue_report fetches the rest without refetching, same records', async () => {
    const first = content(
      await s.call('air_segments_by_date', { DateStart: 'today-30', DateEnd: 'today', maxRecords: 120 }),
    );
    const expected = withDays(decodeDates(sandbox.report('AirSegmentsByDate', first.query)) as Rec[]);
    expect(expected.length).toBeGreaterThan(200);
    expect(first).toMatchObject({ complete: false, totalRecords: expected.length, fetchedRecords: 120 });
    expect(otherNotes(first.notes).filter((note) => !isStandingNote(note))).toEqual([
      `Fetched 120 of ${expected.length} records: the cap of 120 records per call (maxRecords / REPORTS_MAX_RECORDS) was reached. continue_report fetches the remaining ${expected.length - 120}; or narrow the filters.`,
    ]);
    const before = sandbox.requests.length;
    const next = content(await s.call('continue_report', { resultId: first.resultId }));
    expect(sandbox.requests.slice(before).every((r) => r.offset >= 120)).toBe(true);
    expect(next).toMatchObject({
      resultId: first.resultId,
      complete: true,
      totalRecords: expected.length,
      fetchedRecords: expected.length,
    });
    expect(otherNotes(next.notes).filter((note) => !isStandingNote(note))).toEqual([]);
    expect(await readRecords(s, first.resourceUri)).toEqual(expected);
  });

  test('an unpaged report capped below its size continues from the one answer, no duplicates', async () => {
    const args = { parameters: { DateStart: 'today-60', DateEnd: 'today' }, maxRecords: 30 };
    const first = content(await s.call('find_bookings', args));
    const expected = withDays(decodeDates(sandbox.report('FindBookings', first.query)) as Rec[]);
    expect(first).toMatchObject({ complete: false, totalRecords: expected.length, fetchedRecords: 30 });
    const next = content(await s.call('continue_report', { resultId: first.resultId }));
    expect(next).toMatchObject({ complete: true, totalRecords: expected.length, fetchedRecords: expected.length });
    expect(await readRecords(s, first.resourceUri)).toEqual(expected);
  });
});

describe('pinned company scope and default UserName', () => {
  let p: InProcess;
  let pinned: string;
  let user: string;

  beforeAll(async () => {
    pinned = ds.companies[1].code;
    const appUser = ds.appUsers.find((u) => u.companyCodes.length === 1 && u.companyCodes[0] === pinned);
    if (!appUser) throw new Error(`no application user of ${pinned} only`);
    user = appUser.email;
    p = await startInProcess({
      env: { REPORTS_PAGE_SIZE: String(PAGE_SIZE), REPORTS_OWNING_COMPANY_CODES: pinned, REPORTS_USER_NAME: user },
      sandbox: { dataNow: DATA_NOW },
    });
  });
  afterAll(async () => {
    await p?.close();
  });

  test('the pinned scope and the default UserName are sent by default; every record is in scope', async () => {
    const { sc, records } = await callAndCompare(p, 'ticket_coupons_by_status_code', 'TicketCouponsByStatusCode', {
      DateStart: 'today-90',
      DateEnd: 'today',
      CouponCodeGroup: 'ALL',
      DateTracker: 'I',
    });
    expect(sc.query).toEqual({
      DateStart: ymd(-90),
      DateEnd: ymd(0),
      CouponCodeGroup: 'ALL',
      DateTracker: 'I',
      OwningCompanyCode: pinned,
      UserName: user,
    });
    expect(records.length).toBeGreaterThan(0);
    expect(new Set(records.map((r) => r.OwningCompanyCode))).toEqual(new Set([pinned]));

    const air = await callAndCompare(p, 'air_segments_by_date', 'AirSegmentsByDate', {
      DateStart: 'today-7',
      DateEnd: 'today',
    });
    expect(air.sc.query).toEqual({ DateStart: ymd(-7), DateEnd: ymd(0), OwningCompanyCode: pinned, UserName: user });
    expect(air.records.length).toBeGreaterThan(0);
    for (const r of air.records) expect(accountCompany(r.Account as string)).toBe(pinned);

    const booking = ds.bookings.find((b) => b.company.code === pinned)!;
    const one = await callAndCompare(p, 'booking_details', 'BookingDetails', { RecordLocator: booking.recordLocator });
    expect(one.sc.query).toEqual({ RecordLocator: booking.recordLocator, OwningCompanyCode: pinned, UserName: user });
    expect(one.records.map((r) => r.OwningCompanyCode)).toEqual([pinned]);
  });

  test('a code of the pinned scope in other case is accepted as the configured spelling', async () => {
    const { sc } = await callAndCompare(p, 'problematic_segments', 'ProblematicSegments', {
      DepartureDateStart: 'today',
      DepartureDateEnd: 'today+60',
      OwningCompanyCode: pinned.toLowerCase(),
    });
    expect(sc.query.OwningCompanyCode).toBe(pinned);
  });

  test('another company code is refused before any request', async () => {
    const other = ds.companies.find((c) => c.code !== pinned)!.code;
    const before = p.rt.sandbox!.requests.length;
    const r = await p.call('air_segments_by_date', {
      DateStart: 'today-7',
      DateEnd: 'today',
      OwningCompanyCode: [pinned, other],
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      `Invalid argument for air_segments_by_date: OwningCompanyCode: '${other}' is outside the configured company scope; ` +
        `allowed: ${pinned} (omit OwningCompanyCode for all of them). Nothing was sent to the service; correct the argument and call again.`,
    );
    const free = await p.call('find_bookings', { parameters: { OwningCompanyCode: other } });
    expect(free.isError).toBe(true);
    expect(textOf(free)).toContain(
      `OwningCompanyCode: '${other}' is outside the configured company scope; allowed: ${pinned}`,
    );
    expect(p.rt.sandbox!.requests.length).toBe(before);
  });

  test('the default UserName goes to every tool that takes it, under its own name, and yields to an explicit one', async () => {
    // Transactions that neither take company codes nor return them are refused while the
    // scope is pinned (see test/hostile/scope.test.ts), before anything is sent.
    for (const tool of ['app_users_activity', 'hotel_segment_counts_per_location', 'qlog_forward']) {
      const refused = await p.call(tool, {});
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain(`${tool} cannot be kept within REPORTS_OWNING_COMPANY_CODES`);
    }

    const admin = ds.appUsers.find((u) => u.companyCodes.includes(pinned) && u.email !== user)!.email;
    const explicit = await callAndCompare(p, 'passenger_arrivals', 'PassengerArrivals', {
      ArrivalDateStart: 'today',
      ArrivalDateEnd: 'today+14',
      UserName: admin,
    });
    expect(explicit.sc.query).toEqual({
      ArrivalDateStart: ymd(0),
      ArrivalDateEnd: ymd(14),
      OwningCompanyCode: pinned,
      UserName: admin,
    });
  });
});
