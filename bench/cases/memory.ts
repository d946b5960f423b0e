/**
 * Case 4, one run per fresh server process (the built server over stdio, as a desktop host
 * runs it: bench/own-server.ts), memory read from that process's /proc status.
 * a) Peak RSS growth (VmHWM against VmRSS before the call) while a 100,000-record report is
 *    fetched and held, against the raw JSON bytes served; and what the held result occupies
 *    by the budget's own measure (the server's log line).
 * b) Six different 100,000-record reports with REPORTS_RESULTS_MAX_MB=256: RSS after them
 *    against the RSS at start, and query_report on every result answers exactly (records per
 *    CarrierCode, as the bench data has them): those the budget dropped are read back from disk.
 */

import { countsByCarrier } from '../data.js';
import { startOwnServer } from '../own-server.js';
import { baseUrl, type CaseInput, expectComplete, structured } from './context.js';

export const MEMORY = {
  total: 100_000,
  pageSize: 500,
  peakVariant: 10,
  budgetVariants: [11, 12, 13, 14, 15, 16],
  budgetMb: 256,
};

const MB = 1024 * 1024;
const env = {
  REPORTS_MAX_RECORDS: String(MEMORY.total),
  REPORTS_PAGE_SIZE: String(MEMORY.pageSize),
  REPORTS_CALL_BUDGET_MS: '600000',
};

export interface PeakRun {
  growthBytes: number;
  rawBytes: number;
  /** What the result holds by the budget's own measure (the store's bytes for it). */
  heldBytes: number;
}

export async function peakRun(input: CaseInput): Promise<PeakRun> {
  const ours = await startOwnServer(baseUrl(input.origin, 0, MEMORY.peakVariant, MEMORY.total), env);
  try {
    await ours.warmUp();
    await ours.idle();
    const before = ours.memory().rss;
    const r = await ours.report();
    expectComplete(r, MEMORY.total);
    // After what follows the answer (the result written to disk): the peak counts it too.
    await ours.idle();
    return {
      growthBytes: ours.memory().hwm - before,
      rawBytes: input.rawBytes[`${MEMORY.peakVariant}/${MEMORY.total}`],
      heldBytes: ours.heldBytes[0],
    };
  } finally {
    await ours.close();
  }
}

export interface BudgetRun {
  startRss: number;
  endRss: number;
  peakRss: number;
  /** Results whose query_report answered exactly: held, or read back from disk (stdio keeps
   *  every result on disk, docs/held-results.md) after the budget dropped it from memory. */
  held: number;
}

export async function budgetRun(input: CaseInput): Promise<BudgetRun> {
  // One server, so one store: variant 0 in the base URL makes the bench upstream take the
  // variant from DateStart's year (2011 -> 11).
  const ours = await startOwnServer(baseUrl(input.origin, 0, 0, MEMORY.total), {
    ...env,
    REPORTS_RESULTS_MAX_MB: String(MEMORY.budgetMb),
  });
  try {
    await ours.warmUp();
    await ours.idle();
    const startRss = ours.memory().rss;
    const ids: Array<{ variant: number; id: string }> = [];
    for (const variant of MEMORY.budgetVariants) {
      const r = await ours.report({ DateStart: `${2000 + variant}0101`, DateEnd: `${2000 + variant}1231` });
      expectComplete(r, MEMORY.total);
      ids.push({ variant, id: String(structured(r).resultId) });
    }
    await ours.idle();
    const { rss: endRss, hwm: peakRss } = ours.memory();
    let held = 0;
    for (const { variant, id } of ids) {
      const answer = await ours.call('query_report', {
        resultId: id,
        groupBy: ['CarrierCode'],
        aggregates: [{ fn: 'count' }],
        limit: 1000,
      });
      const groups = (answer.structuredContent as { groups: Array<{ key: { CarrierCode: string }; count: number }> })
        .groups;
      const expected = countsByCarrier(variant, MEMORY.total);
      const got = new Map(groups.map((g) => [g.key.CarrierCode, g.count]));
      if (got.size !== expected.size || [...expected].some(([k, n]) => got.get(k) !== n))
        throw new Error(`query_report on variant ${variant} answered ${JSON.stringify(groups).slice(0, 300)}`);
      held++;
    }
    return { startRss, endRss, peakRss, held };
  } finally {
    await ours.close();
  }
}

export { MB };
