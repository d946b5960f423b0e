/**
 * Case 4, one run per fresh process (the orchestrator starts one for each run).
 * a) Peak RSS growth while a 100,000-record report is fetched and held, against the raw
 *    JSON bytes served; and what the held result occupies by the budget's own measure.
 * b) Six different 100,000-record reports with REPORTS_RESULTS_MAX_MB=256: RSS after them
 *    against the RSS at start, and query_report on every result still held answers exactly
 *    (records per CarrierCode, as the bench data has them); the others were evicted.
 */

import type { ResultStore } from '../../src/results/store.js';
import { countsByCarrier } from '../data.js';
import { startOurs } from '../ours.js';
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
  const ours = await startOurs(baseUrl(input.origin, 0, MEMORY.peakVariant, MEMORY.total), env);
  try {
    await ours.client.listTools();
    const before = process.memoryUsage.rss();
    const r = await ours.report();
    expectComplete(r, MEMORY.total);
    const peak = process.resourceUsage().maxRSS * 1024;
    const store = ours.rt.store as ResultStore;
    return {
      growthBytes: peak - before,
      rawBytes: input.rawBytes[`${MEMORY.peakVariant}/${MEMORY.total}`],
      heldBytes: store.bytesOf(String(structured(r).resultId)),
    };
  } finally {
    await ours.close();
  }
}

export interface BudgetRun {
  startRss: number;
  endRss: number;
  peakRss: number;
  held: number;
  evicted: number;
  /** The budget's measure of all held results after the six. */
  storeBytes: number;
}

export async function budgetRun(input: CaseInput): Promise<BudgetRun> {
  // One server, so one store: variant 0 in the base URL makes the bench upstream take the
  // variant from DateStart's year (2011 -> 11).
  const ours = await startOurs(baseUrl(input.origin, 0, 0, MEMORY.total), {
    ...env,
    REPORTS_RESULTS_MAX_MB: String(MEMORY.budgetMb),
  });
  try {
    await ours.client.listTools();
    const startRss = process.memoryUsage.rss();
    const ids: Array<{ variant: number; id: string }> = [];
    for (const variant of MEMORY.budgetVariants) {
      const r = await ours.report({ DateStart: `${2000 + variant}0101`, DateEnd: `${2000 + variant}1231` });
      expectComplete(r, MEMORY.total);
      ids.push({ variant, id: String(structured(r).resultId) });
    }
    const endRss = process.memoryUsage.rss();
    const peakRss = process.resourceUsage().maxRSS * 1024;
    const storeBytes = (ours.rt.store as ResultStore).bytes;
    let held = 0;
    let evicted = 0;
    for (const { variant, id } of ids) {
      const answer = await ours.client.callTool({
        name: 'query_report',
        arguments: { resultId: id, groupBy: ['CarrierCode'], aggregates: [{ fn: 'count' }], limit: 1000 },
      });
      if (answer.isError) {
        const text = JSON.stringify(answer.content);
        if (!/No result/.test(text)) throw new Error(`query_report ${id}: ${text.slice(0, 300)}`);
        evicted++;
        continue;
      }
      const groups = (answer.structuredContent as { groups: Array<{ key: { CarrierCode: string }; count: number }> })
        .groups;
      const expected = countsByCarrier(variant, MEMORY.total);
      const got = new Map(groups.map((g) => [g.key.CarrierCode, g.count]));
      if (got.size !== expected.size || [...expected].some(([k, n]) => got.get(k) !== n))
        throw new Error(`query_report on variant ${variant} answered ${JSON.stringify(groups).slice(0, 300)}`);
      held++;
    }
    return { startRss, endRss, peakRss, held, evicted, storeBytes };
  } finally {
    await ours.close();
  }
}

export { MB };
