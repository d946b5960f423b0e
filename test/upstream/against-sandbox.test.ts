/**
 * The upstream client against the sandbox over real loopback HTTP: every transaction of the
 * catalog answers through the signed client, paging covers every record exactly once, and
 * injected faults are retried or reported, never silently lost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTIONS } from '../../src/catalog/transactions.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { UpstreamClient } from '../../src/upstream/client.js';
import { Limiter } from '../../src/upstream/limiter.js';
import { fetchReport } from '../../src/upstream/paging.js';
import { decodeDates } from '../../src/upstream/service-date.js';

const WIDE = { DateStart: '20250101', DateEnd: '20271231' };

/** Arguments that make each transaction answer with records from the default dataset. */
function queryFor(transaction: string, sb: Sandbox): Record<string, string> {
  const booking = sb.dataset.bookings[0] as unknown as { recordLocator?: string; RecordLocator?: string };
  const locator = String(booking.recordLocator ?? booking.RecordLocator ?? '');
  switch (transaction) {
    case 'BookingDetails':
      return { RecordLocator: locator };
    case 'FindBookings':
      return { RecordLocator: locator };
    case 'PNRSegments':
      return { RecordLocator: locator };
    case 'TicketCouponsByStatusCode':
      return { ...WIDE, CouponCodeGroup: 'ALL', DateTracker: 'I' };
    case 'GetTicketsIssuedByNumber':
      return WIDE;
    case 'CheckFailedSubmissions':
    case 'QLogForward':
    case 'PartnerForwardingLogs':
      return { LogDateStart: WIDE.DateStart, LogDateEnd: WIDE.DateEnd };
    case 'DistributorBookingsByAirlineClass':
      return { IssueDateStart: WIDE.DateStart, IssueDateEnd: WIDE.DateEnd };
    case 'PassengerArrivals':
      return { ArrivalDateStart: WIDE.DateStart, ArrivalDateEnd: WIDE.DateEnd };
    case 'ProblematicSegments':
    case 'PassengerAirSegmentsWithMaxTravellerFlag':
      return { DepartureDateStart: WIDE.DateStart, DepartureDateEnd: WIDE.DateEnd };
    case 'BookingsWithActiveSegments':
      return { TravelDateStart: WIDE.DateStart, TravelDateEnd: WIDE.DateEnd };
    case 'TicketCouponsIssued':
      return { IssueDateStart: WIDE.DateStart, IssueDateEnd: WIDE.DateEnd };
    case 'CarSegmentCountsPerAccountByVendor':
      return { ...WIDE, VendorCode: 'ZE' };
    default:
      return WIDE;
  }
}

describe('upstream client against the sandbox', () => {
  let sb: Sandbox;
  let client: UpstreamClient;
  beforeAll(async () => {
    sb = await startSandbox({ dataNow: new Date('2026-11-15T00:00:00Z') });
    client = new UpstreamClient({
      baseUrl: sb.url,
      username: sb.username,
      key: sb.key,
      timeoutMs: 5_000,
      limiter: new Limiter(4),
    });
  });
  afterAll(async () => {
    await client.close();
    await sb.close();
  });

  it.each(TRANSACTIONS.map((t) => [t.tool, t] as const))(
    '%s answers through the signed client, every record exactly once',
    async (_tool, def) => {
      const query = queryFor(def.transaction, sb);
      const expected = sb.report(def.transaction, query).map((r) => decodeDates(r));
      expect(expected.length).toBeGreaterThan(0);
      const outcome = await fetchReport(client, {
        path: def.path,
        query,
        envelope: def.envelope,
        paged: def.marks.paging,
        pageSize: 40,
        maxRecords: 100_000,
        budgetMs: 20_000,
      });
      expect(outcome.notes).toEqual([]);
      expect(outcome.complete).toBe(true);
      expect(outcome.totalRecords).toBe(expected.length);
      expect(outcome.pages.flatMap((p) => p.records)).toEqual(expected);
      // Transactions without paging get one request without Offset/Limit.
      const sent = sb.requests.filter((r) => r.path.startsWith(def.path));
      if (!def.marks.paging) expect(sent.map((r) => [r.query.Offset, r.query.Limit])).toEqual([[undefined, undefined]]);
      sb.resetStats();
    },
  );

  it('recovers from retryable faults (502, 503, 429, resets) with every record once', async () => {
    const faulty = await startSandbox({
      dataNow: new Date('2026-11-15T00:00:00Z'),
      faultRate: 0.25,
      faultKinds: ['502', '503', '429', 'reset'],
      retryAfterSeconds: 0,
    });
    const retrying = new UpstreamClient({
      baseUrl: faulty.url,
      username: faulty.username,
      key: faulty.key,
      timeoutMs: 5_000,
      limiter: new Limiter(4),
      retry: { attempts: 8, baseDelayMs: 5, maxDelayMs: 50 },
    });
    try {
      const query = { ...WIDE, CouponCodeGroup: 'ALL', DateTracker: 'I' };
      const expected = faulty.report('TicketCouponsByStatusCode', query).map((r) => decodeDates(r));
      const outcome = await fetchReport(retrying, {
        path: '/TicketCouponsByStatusCode',
        query,
        envelope: 'collection',
        pageSize: 100,
        maxRecords: 100_000,
        budgetMs: 30_000,
      });
      expect(faulty.requests.some((r) => r.fault)).toBe(true);
      expect(outcome.complete).toBe(true);
      expect(outcome.pages.flatMap((p) => p.records)).toEqual(expected);
    } finally {
      await retrying.close();
      await faulty.close();
    }
  });

  it('reports non-retryable faults as missing pages, not as a complete result', async () => {
    const faulty = await startSandbox({
      dataNow: new Date('2026-11-15T00:00:00Z'),
      faultPlan: (req) => (req.offset === 200 ? 'html' : undefined),
    });
    const c = new UpstreamClient({
      baseUrl: faulty.url,
      username: faulty.username,
      key: faulty.key,
      timeoutMs: 5_000,
      limiter: new Limiter(2),
      retry: { attempts: 2, baseDelayMs: 5 },
    });
    try {
      const query = { ...WIDE, CouponCodeGroup: 'ALL', DateTracker: 'I' };
      const total = faulty.report('TicketCouponsByStatusCode', query).length;
      const outcome = await fetchReport(c, {
        path: '/TicketCouponsByStatusCode',
        query,
        envelope: 'collection',
        pageSize: 100,
        maxRecords: 100_000,
        budgetMs: 30_000,
      });
      expect(outcome.complete).toBe(false);
      expect(outcome.pages.reduce((n, p) => n + p.records.length, 0)).toBe(total - 100);
      expect(outcome.notes).toHaveLength(1);
      expect(outcome.notes[0]).toMatch(
        /^100 records in 1 page \(from Offset 200\) were not fetched: \/TicketCouponsByStatusCode answered HTTP 5\d\d\. /,
      );
      expect(outcome.notes[0]).toContain('continue_report fetches them.');
    } finally {
      await c.close();
      await faulty.close();
    }
  });
});
