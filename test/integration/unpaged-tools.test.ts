/**
 * find_bookings and tickets_issued_by_number are not marked P: the service answers everything
 * at once and ignores Offset/Limit. Whatever the page size, each record is held once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcess, startInProcess } from '../helpers/mcp.js';

describe('transactions without paging', () => {
  let s: InProcess;
  beforeAll(async () => {
    // A page size equal to or above the whole answer used to make the walk ask again and
    // collect the same records page after page.
    s = await startInProcess({ env: { REPORTS_PAGE_SIZE: '2000' } });
  });
  afterAll(() => s.close());

  it.each(['find_bookings', 'tickets_issued_by_number'])('%s: one request, every record once', async (tool) => {
    s.rt.sandbox!.resetStats();
    const result = await s.call(tool, {});
    const sc = result.structuredContent as {
      resultId: string;
      complete: boolean;
      totalRecords: number;
      fetchedRecords: number;
      query: Record<string, string>;
    };
    const transaction = tool === 'find_bookings' ? 'FindBookings' : 'GetTicketsIssuedByNumber';
    const expected = s.rt.sandbox!.report(transaction, sc.query).length;
    expect(expected).toBeGreaterThan(0);
    expect(sc).toMatchObject({ complete: true, totalRecords: expected, fetchedRecords: expected });
    expect(s.rt.sandbox!.requests.map((r) => [r.query.Offset, r.query.Limit])).toEqual([[undefined, undefined]]);
    const key = tool === 'find_bookings' ? 'RecordLocator' : 'TktNumber';
    const q = await s.call('query_report', {
      resultId: sc.resultId,
      aggregates: [{ fn: 'countDistinct', field: key }, { fn: 'count' }],
    });
    const group = (q.structuredContent as { groups: Array<Record<string, number>> }).groups[0];
    expect(group[`countDistinct_${key}`]).toBe(expected);
    expect(group.count).toBe(expected);
  });
});
