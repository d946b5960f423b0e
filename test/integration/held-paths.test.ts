/**
 * A fetch's walk notes its records' top-level keys (upstream/paging/record-pass.ts); when no
 * record holds a list or object there, they are the held result's field paths and
 * query_report reads them without a walk of the records (results/paths.ts notePaths). They
 * are what a walk of the held records finds, in the same order; records with lists are walked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPaths } from '../../src/results/paths.js';
import type { ResultStore } from '../../src/results/store.js';
import { type InProcess, startInProcess } from '../helpers/mcp.js';

describe('field paths of a held result', () => {
  let s: InProcess;
  beforeAll(async () => {
    s = await startInProcess({ env: { REPORTS_PAGE_SIZE: '40' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  const held = (id: string) => (s.rt.store as ResultStore).list().find((r) => r.id === id)!;

  it.each([
    ['air_segments_by_date', { DateStart: '20260101', DateEnd: '20261231' }],
    ['passenger_locations_by_routing', { DateStart: '20261101', DateEnd: '20261130' }],
  ])('%s: the paths a walk of the held records finds', async (tool, args) => {
    const r = await s.call(tool, args);
    const { resultId, fetchedRecords } = r.structuredContent as { resultId: string; fetchedRecords: number };
    expect(fetchedRecords).toBeGreaterThan(0);
    const records = held(resultId).records;
    const nested = records.some((rec) => Object.values(rec).some((v) => v !== null && typeof v === 'object'));
    expect(nested).toBe(tool !== 'air_segments_by_date');
    // A new list of the same records is walked afresh (the paths are cached per list).
    expect(collectPaths(records)).toEqual(collectPaths([...records]));
    // And a query naming a field in another case finds it through them.
    const field = collectPaths(records)[0];
    const q = await s.call('query_report', {
      resultId,
      groupBy: [field.toLowerCase()],
      aggregates: [{ fn: 'count' }],
    });
    expect((q.structuredContent as { matched: number }).matched).toBe(fetchedRecords);
  });
});
