/**
 * Case 5. 50 concurrent 2,000-record reports (4 pages of 500 each) at 20 ms a request,
 * concurrency 4, the server as its own process over stdio: wall time against the bound
 * (total pages x latency / concurrency). The 50 calls differ (each its own DateStart, which
 * the bench upstream ignores): identical calls would join one fetch (server/joined-calls.ts).
 */
import { startOwnServer } from '../own-server.js';
import { row } from '../stats.js';
import { baseUrl, type CaseInput, type CaseOutput, expectComplete } from './context.js';

export const THROUGHPUT = { variant: 3, total: 2000, pageSize: 500, latencyMs: 20, concurrency: 4, reports: 50 };

/** 2026-01-01 plus `i` days, as the service writes a date (yyyymmdd). */
function day(i: number): string {
  return new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10).replaceAll('-', '');
}

export async function throughputCase(input: CaseInput): Promise<CaseOutput> {
  const { variant, total, pageSize, latencyMs, concurrency, reports } = THROUGHPUT;
  const ours = await startOwnServer(baseUrl(input.origin, latencyMs, variant, total), {
    REPORTS_PAGE_SIZE: String(pageSize),
    REPORTS_CONCURRENCY: String(concurrency),
  });
  const boundMs = (reports * Math.ceil(total / pageSize) * latencyMs) / concurrency;
  const many = () => Promise.all(Array.from({ length: reports }, (_, i) => ours.report({ DateStart: day(i) })));
  try {
    for (const r of await many()) expectComplete(r, total);
    const wall: number[] = [];
    const ratio: number[] = [];
    const mainBusy: number[] = [];
    for (let run = 0; run < input.runs; run++) {
      const main0 = ours.mainCpuMs();
      const t = performance.now();
      const results = await many();
      const ms = performance.now() - t;
      mainBusy.push((ours.mainCpuMs() - main0) / ms);
      for (const r of results) expectComplete(r, total);
      wall.push(ms);
      ratio.push(ms / boundMs);
    }
    const c = '5 throughput 50 x 2,000';
    return {
      rows: [
        row(c, `wall (bound ${boundMs} ms)`, 'ms', wall),
        row(c, 'wall / bound', 'x', ratio, 1.5),
        row(c, 'server main thread CPU / wall', 'x', mainBusy),
      ],
      // Each run's wall in order: a run slower than those before it is the held results' growth.
      details: { boundMs, wallMs: wall.map(Math.round) },
    };
  } finally {
    await ours.close();
  }
}
