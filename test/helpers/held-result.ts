/**
 * A complete demo result of `records`, as a report tool would hand it to the store: for tests
 * that hold records of their own making and then read them back through a tool.
 */
import type { NewResult } from '../../src/results/store.js';

export function completeResult(report: string, records: Record<string, unknown>[]): Omit<NewResult, 'owner'> {
  return {
    report,
    source: 'demo',
    query: {},
    sentQuery: {},
    totalRecords: records.length,
    complete: true,
    notes: [],
    held: [{ offset: 0, count: records.length }],
    records,
  };
}
