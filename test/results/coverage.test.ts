import { describe, expect, it } from 'vitest';
import { incompleteLine } from '../../src/results/coverage.js';

describe('the incomplete line', () => {
  const base = { id: 'r_x', complete: false, totalRecords: 1200, fetched: 500 };

  it('a report: how many of how many, and continue_report for the rest', () => {
    expect(incompleteLine({ ...base, report: 'air_segments_by_date' })).toBe(
      'INCOMPLETE: this covers 500 of 1,200 records of the report; continue_report {"resultId":"r_x"} fetches the 700 missing.',
    );
    expect(incompleteLine({ ...base, report: 'air_segments_by_date', complete: true })).toBeUndefined();
  });

  it('a derived answer: what it rests on, and calling it again, never continue_report', () => {
    const travellers = incompleteLine({ ...base, report: 'travellers_at', totalRecords: 500 });
    expect(travellers).toMatch(/^INCOMPLETE: some service calls or bookings this answer rests on were incomplete/);
    expect(travellers).toContain('call travellers_at again');
    expect(travellers).not.toContain('data changed');
    const sql = incompleteLine({ ...base, report: 'sql_query' });
    expect(sql).toMatch(/^INCOMPLETE: the statement read an incomplete result or produced more rows than are held/);
  });
});
