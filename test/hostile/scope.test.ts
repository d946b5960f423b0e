/**
 * Item 8 of the hostile-data issue: with REPORTS_OWNING_COMPANY_CODES pinned, every tool
 * sends the codes, verifies the booking first, or is refused naming the variable; records
 * outside the scope that a service answers anyway are dropped with a note; and free-form
 * `parameters` never carry transport keys (Skip, Take, jsconfig, debug, ordering).
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type HostileUpstream, page, startHostileUpstream, window } from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';
import { textOf } from '../helpers/mcp.js';

let upstream: HostileUpstream | undefined;
let live: LiveServer | undefined;
afterEach(async () => {
  await live?.close();
  await upstream?.close();
  live = upstream = undefined;
});
const PINNED = { REPORTS_OWNING_COMPANY_CODES: 'TRV1' };

describe('pinned scope on every tool', () => {
  test.each([
    ['qlog_forward', {}],
    ['distributor_bookings_by_airline_class', {}],
    ['app_users_activity', {}],
    ['hotel_segment_counts_per_location', {}],
  ])('%s can neither send nor check the codes: refused naming the variable, nothing sent', async (tool, args) => {
    upstream = await startHostileUpstream((req) => ({ body: window([{ A: 1 }], req) }));
    live = await startLive(upstream.url, PINNED);
    const result = await live.call(tool, args);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `${tool} failed (configuration): ${tool} cannot be kept within REPORTS_OWNING_COMPANY_CODES (TRV1): the service takes no company codes for it and its records carry none, so it is refused while the scope is pinned. Nothing was sent.`,
    );
    expect(upstream.requests).toHaveLength(0);
  });

  test('pnr_segments first checks the booking within the codes: another company’s booking is not read', async () => {
    upstream = await startHostileUpstream((req) =>
      req.path === '/BookingDetails'
        ? { body: page([{ RecordLocator: 'XYZ789', OwningCompanyCode: 'TRV2' }]) }
        : { body: window([{ Summary: { RecordLocator: 'XYZ789' } }], req) },
    );
    live = await startLive(upstream.url, PINNED);
    const result = await live.call('pnr_segments', { RecordLocator: 'XYZ789' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      "RecordLocator 'XYZ789' is not a booking of the companies REPORTS_OWNING_COMPANY_CODES pins (TRV1)",
    );
    expect(upstream.requests.map((r) => [r.path, r.query.get('OwningCompanyCode')])).toEqual([
      ['/BookingDetails', 'TRV1'],
    ]);
  });

  test('pnr_segments of a booking in scope is read', async () => {
    upstream = await startHostileUpstream((req) =>
      req.path === '/BookingDetails'
        ? { body: page([{ RecordLocator: 'ABC123', OwningCompanyCode: 'TRV1' }]) }
        : { body: window([{ Summary: { RecordLocator: 'ABC123' } }], req) },
    );
    live = await startLive(upstream.url, PINNED);
    const result = await live.call('pnr_segments', { RecordLocator: 'ABC123' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ fetchedRecords: 1, complete: true });
    expect(upstream.requests.map((r) => r.path)).toEqual(['/BookingDetails', '/PNRSegments']);
  });

  test('records outside the scope that the service answers anyway are dropped, with a note', async () => {
    const records = Array.from({ length: 9 }, (_, i) => ({
      ServiceRef: i,
      OwningCompanyCode: i % 3 === 0 ? 'TRV9' : 'trv1',
    }));
    upstream = await startHostileUpstream((req) => ({ body: window(records, req, true) }));
    live = await startLive(upstream.url, { ...PINNED, REPORTS_PAGE_SIZE: '4' });
    const result = await live.call('air_segments_by_date', {
      DateStart: '20261101',
      DateEnd: '20261102',
      maxRecords: 4,
    });
    const sc = result.structuredContent as { resultId: string; fetchedRecords: number; notes: string[] };
    expect(upstream.requests[0].query.get('OwningCompanyCode')).toBe('TRV1');
    expect(sc.fetchedRecords).toBe(2);
    expect(sc.notes).toContain(
      '2 records whose OwningCompanyCode is outside REPORTS_OWNING_COMPANY_CODES (TRV1) were dropped; the service answered beyond the codes it was sent.',
    );
    // continue_report reads on from the positions read, not from the records kept.
    const next = await live.call('continue_report', { resultId: sc.resultId });
    const all = next.structuredContent as { fetchedRecords: number; complete: boolean };
    expect(all.fetchedRecords).toBe(6);
    expect(upstream.requests.map((r) => r.offset)).toEqual([0, 4, 8]);
    const q = await live.call('query_report', {
      resultId: sc.resultId,
      groupBy: ['OwningCompanyCode'],
      aggregates: [{ fn: 'count' }],
    });
    expect((q.structuredContent as { groups: unknown[] }).groups).toEqual([
      { key: { OwningCompanyCode: 'trv1' }, count: 6 },
    ]);
  });
});

describe('transport keys in free-form parameters', () => {
  test.each(['Skip', 'Take', 'jsconfig', 'debug', 'OrderBy', 'orderByDesc', 'Offset', 'format', 'callback'])(
    '%s is refused by name, nothing sent',
    async (key) => {
      upstream = await startHostileUpstream((req) => ({ body: window([], req) }));
      live = await startLive(upstream.url);
      const result = await live.call('find_bookings', { parameters: { [key]: '5' } });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(`parameters.${key}: '5' is not allowed`);
      expect(upstream.requests).toHaveLength(0);
    },
  );
});
