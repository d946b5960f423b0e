import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { decodeServiceDate } from '../../src/upstream/service-date.js';
import { call, getJson, recordsOf, walk } from './helpers.js';

let sb: Sandbox;
let clock = new Date('2026-11-15T09:00:00Z');

beforeAll(async () => {
  sb = await startSandbox({ size: 800, now: () => clock });
});
afterAll(async () => {
  await sb.close();
});

const at = (): { date: Date } => ({ date: clock });

describe('sandbox paging', () => {
  it('walking the pages covers every record exactly once, in report() order', async () => {
    const params = { DateStart: '20260101', DateEnd: '20261231' };
    const expected = sb.report('AirSegmentsByDate', params);
    expect(expected.length).toBeGreaterThan(300);
    const records: unknown[] = [];
    const limit = 37;
    for (let offset = 0; offset < expected.length; offset += limit) {
      const env = await getJson(
        sb,
        '/AirSegmentsByDate',
        { ...params, Offset: String(offset), Limit: String(limit) },
        at(),
      );
      const pm = env.ResponseMetadata.PagingMetadata!;
      expect(pm).toEqual({
        Offset: String(offset),
        Limit: String(limit),
        TotalRecords: expected.length,
        ResponseRecords: Math.min(limit, expected.length - offset),
      });
      records.push(...recordsOf(env));
    }
    expect(records).toEqual(expected);
    const ids = records.map(
      (r) =>
        `${(r as Record<string, unknown>).ServiceRef}/${(r as Record<string, unknown>).FlightNbr}/${(r as Record<string, unknown>).DepartureDate}`,
    );
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('pages collection reports the same way (TicketCouponsByStatusCode, RN continuous)', async () => {
    const params = { DateStart: '20251101', DateEnd: '20261115', CouponCodeGroup: 'ALL', DateTracker: 'I' };
    const { records, pages } = await walk(sb, '/TicketCouponsByStatusCode', params, 250, at());
    expect(pages.length).toBeGreaterThan(2);
    expect(records).toEqual(sb.report('TicketCouponsByStatusCode', params));
    expect((records as Array<Record<string, unknown>>).map((r) => r.RN)).toEqual(records.map((_, i) => String(i + 1)));
  });

  it('defaults Limit to 100 and answers an empty page past the end', async () => {
    const env = await getJson(sb, '/HotelSegments', {}, at());
    expect(env.ResponseMetadata.PagingMetadata!.Limit).toBe('100');
    expect(env.ResponseMetadata.PagingMetadata!.Offset).toBe('0');
    expect(recordsOf(env)).toHaveLength(100);
    const total = env.ResponseMetadata.PagingMetadata!.TotalRecords;
    const past = await getJson(sb, '/HotelSegments', { Offset: String(total + 10) }, at());
    expect(past.ResponseMetadata.Success).toBe(true);
    expect(recordsOf(past)).toEqual([]);
    expect(past.ResponseMetadata.PagingMetadata!.ResponseRecords).toBe(0);
    expect(past.ResponseMetadata.PagingMetadata!.TotalRecords).toBe(total);
  });

  it('FindBookings and TicketsIssuedByNumber are not paged: every record, no PagingMetadata', async () => {
    const env = await getJson(sb, '/FindBookings', { Account: 'ACME', Limit: '5' }, at());
    expect(env.ResponseMetadata.HasPaging).toBe(false);
    expect(env.ResponseMetadata.PagingMetadata).toBeUndefined();
    expect(recordsOf(env).length).toBe(sb.dataset.bookings.filter((b) => b.account.code === 'ACME').length);
    expect(recordsOf(env).length).toBeGreaterThan(100);
  });

  it('reports the cache: the same query (any Offset) within 60 s is IsFromCache', async () => {
    const params = { DateStart: '20260301', DateEnd: '20260331', Limit: '20' };
    clock = new Date('2026-11-15T10:00:00Z');
    const first = await getJson(sb, '/CarSegmentsByDate', params, at());
    expect(first.ResponseMetadata.CacheMetadata).toEqual({
      IsFromCache: false,
      CachedAt: `/Date(${clock.getTime()}-0000)/`,
      CacheExpiresAt: `/Date(${clock.getTime() + 60_000}-0000)/`,
    });
    clock = new Date('2026-11-15T10:00:30Z');
    const second = await getJson(sb, '/CarSegmentsByDate', { ...params, Offset: '20' }, at());
    expect(second.ResponseMetadata.CacheMetadata!.IsFromCache).toBe(true);
    expect(decodeServiceDate(second.ResponseMetadata.CacheMetadata!.CachedAt)).toBe('2026-11-15T10:00:00.000Z');
    // Another Limit is another query.
    const other = await getJson(sb, '/CarSegmentsByDate', { ...params, Limit: '21' }, at());
    expect(other.ResponseMetadata.CacheMetadata!.IsFromCache).toBe(false);
    clock = new Date('2026-11-15T10:01:01Z');
    const expired = await getJson(sb, '/CarSegmentsByDate', params, at());
    expect(expired.ResponseMetadata.CacheMetadata!.IsFromCache).toBe(false);
    expect(decodeServiceDate(expired.ResponseMetadata.CacheMetadata!.CachedAt)).toBe('2026-11-15T10:01:01.000Z');
    // The Date header follows the sandbox's clock too.
    const res = await call(sb, '/CarSegmentsByDate?DateStart=20260301&DateEnd=20260331', at());
    expect(res.headers.get('date')).toBe('Sun, 15 Nov 2026 10:01:01 GMT');
  });

  it('logs every request with its paging window', async () => {
    sb.resetStats();
    await getJson(sb, '/HotelSegments', { Offset: '40', Limit: '20', Account: 'ACME' }, at());
    expect(sb.requests).toHaveLength(1);
    const r = sb.requests[0];
    expect(r).toMatchObject({
      method: 'GET',
      path: '/HotelSegments',
      transaction: 'HotelSegments',
      offset: 40,
      limit: 20,
      status: 200,
    });
    expect(r.query).toEqual({ Offset: '40', Limit: '20', Account: 'ACME' });
    expect(r.endedAt).toBeGreaterThanOrEqual(r.startedAt);
    expect(r.n).toBeGreaterThan(1);
    expect(sb.maxInFlight).toBe(1);
  });
});
