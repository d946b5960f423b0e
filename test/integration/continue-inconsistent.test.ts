/**
 * A result whose TotalRecords changed while it was read holds every record it was promised
 * yet is not complete; continue_report has nothing to fetch and says to run the report again
 * instead of pretending to mend it.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { otherNotes } from '../helpers/derived.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';

describe('continue_report on a result whose data changed while it was read', () => {
  let s: InProcess;
  beforeAll(async () => {
    s = await startInProcess({
      env: { REPORTS_PAGE_SIZE: '50' },
      // The third page reports one more record than the others did.
      sandbox: { totalDrift: (req) => (req.offset === 100 ? 1 : 0) },
    });
  });
  afterAll(() => s.close());

  it('is incomplete with the TotalRecords note, and continue_report fetches nothing', async () => {
    const args = { DateStart: '20261001', DateEnd: '20261130' };
    const first = await s.call('air_segments_by_date', args);
    const sc = first.structuredContent as {
      resultId: string;
      complete: boolean;
      notes: string[];
      totalRecords: number;
      fetchedRecords: number;
    };
    expect(sc.complete).toBe(false);
    expect(sc.fetchedRecords).toBe(sc.totalRecords);
    expect(otherNotes(sc.notes)).toEqual([
      `TotalRecords changed from ${sc.totalRecords} to ${sc.totalRecords + 1} between pages: the data changed while it was read, so records may be missing or repeated; run the report again.`,
    ]);
    expect(textOf(first)).toContain('INCOMPLETE');

    const before = s.rt.sandbox!.requests.length;
    const again = await s.call('continue_report', { resultId: sc.resultId });
    const sc2 = again.structuredContent as typeof sc;
    expect(s.rt.sandbox!.requests.length).toBe(before);
    expect(sc2.resultId).toBe(sc.resultId);
    expect(sc2.complete).toBe(false);
    expect(sc2.notes.at(-1)).toBe(
      'Nothing is missing to fetch: every record was read, but the data changed while it was read (see notes). Run the report again for a consistent result.',
    );
  });
});
