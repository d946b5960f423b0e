/**
 * Records held other than as the fetch walked them (masked with REPORTS_REDACT_PII) are shared
 * and measured a page at a time as they arrive (server/run-report.ts): the measure the budget
 * keeps is the one a walk of the whole held list makes (record-memory.ts compactRecords), on a
 * report of several pages.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ResultStore } from '../../src/results/store.js';
import { compactRecords } from '../../src/upstream/record-memory.js';
import { type InProcess, startInProcess } from '../helpers/mcp.js';

type Rec = Record<string, unknown>;

/** A copy of the records with no string shared among them (every value its own copy). */
function unshared(records: Rec[]): Rec[] {
  return JSON.parse(JSON.stringify(records)) as Rec[];
}

describe('held bytes of records replaced as pages arrive', () => {
  let s: InProcess | undefined;
  afterEach(async () => {
    await s?.close();
    s = undefined;
  });

  it('masked (REPORTS_REDACT_PII): the measure of the whole held list', async () => {
    s = await startInProcess({ env: { REPORTS_PAGE_SIZE: '40', REPORTS_REDACT_PII: 'true' } });
    const r = await s.call('air_segments_by_date', { DateStart: '20260101', DateEnd: '20261231' });
    const sc = r.structuredContent as { resultId: string; fetchedRecords: number };
    const stored = (s.rt.store as ResultStore).list().find((x) => x.id === sc.resultId);
    expect(stored).toBeDefined();
    const records = stored!.records;
    // Several pages, and records held.
    expect(records.length).toBeGreaterThan(80);
    // Masked copies keep the layout of the parsed records they copy (results/pii.ts).
    expect(stored!.recordBytes).toBe(compactRecords(unshared(records), true));
  });
});
