/**
 * Case 5. 50 concurrent 2,000-record reports (4 pages of 500 each) at 20 ms a request,
 * concurrency 4: wall time against the bound (total pages x latency / concurrency).
 */
import { startOurs } from '../ours.js';
import { row } from '../stats.js';
import { baseUrl, type CaseInput, type CaseOutput, expectComplete } from './context.js';

export const THROUGHPUT = { variant: 3, total: 2000, pageSize: 500, latencyMs: 20, concurrency: 4, reports: 50 };

export async function throughputCase(input: CaseInput): Promise<CaseOutput> {
  const { variant, total, pageSize, latencyMs, concurrency, reports } = THROUGHPUT;
  const ours = await startOurs(baseUrl(input.origin, latencyMs, variant, total), {
    REPORTS_PAGE_SIZE: String(pageSize),
    REPORTS_CONCURRENCY: String(concurrency),
  });
  const boundMs = (reports * Math.ceil(total / pageSize) * latencyMs) / concurrency;
  const many = () => Promise.all(Array.from({ length: reports }, () => ours.report()));
  try {
    for (const r of await many()) expectComplete(r, total);
    const wall: number[] = [];
    const ratio: number[] = [];
    for (let run = 0; run < input.runs; run++) {
      const t = performance.now();
      const results = await many();
      const ms = performance.now() - t;
      for (const r of results) expectComplete(r, total);
      wall.push(ms);
      ratio.push(ms / boundMs);
    }
    const c = '5 throughput 50 x 2,000';
    return {
      rows: [row(c, `wall (bound ${boundMs} ms)`, 'ms', wall), row(c, 'wall / bound', 'x', ratio, 1.5)],
      details: { boundMs },
    };
  } finally {
    await ours.close();
  }
}
