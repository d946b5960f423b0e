/**
 * Case 8. The scale curve (CONTRACT section 9): 10,000, 100,000 and 1,000,000 distinct
 * real-shaped air segments (bench/data.ts), each run in fresh server processes (the built
 * server over stdio, bench/own-server.ts) with REPORTS_RESULTS_MAX_MB large enough to hold
 * them, both sides asking for gzip. For each size: fetch and hold at 0 ms (against the
 * hand-written concurrent pass-through that asks for gzip, inflates and parses) and at 50 ms,
 * peak RSS growth and held bytes against the JSON served, bytes on the wire, query_report's
 * group-by (against a hand-written Map group-by over the pass-through's plain objects),
 * sql_query with its tables built on first use and again once built, export_report's CSV, and
 * the first resource page read. Between 100,000 and 1,000,000 the log-log slope of each
 * time and memory figure says whether it grows linearly (0.9 to 1.1).
 * BENCH_SCALE=1000000 runs one size alone (a comma list of sizes).
 */
import { countsByCarrier } from '../data.js';
import { type OwnServer, startOwnServer } from '../own-server.js';
import { passThroughAgent, rawRequest } from '../pass-through.js';
import { median, type Row, row } from '../stats.js';
import type { BenchUpstream, PageSet } from '../upstream.js';
import { baseUrl, expectComplete, structured } from './context.js';

export const SCALE_SIZES = (process.env.BENCH_SCALE ?? '10000,100000,1000000').split(',').map(Number);
const PAGE_SIZE = 500;
const CONCURRENCY = 4;
const LATENCY_MS = 50;
/** One variant per size: every size's records are its own. */
const variantOf = (total: number) => 20 + Math.round(Math.log10(total));

export function scaleSets(): PageSet[] {
  return SCALE_SIZES.map((total) => ({ variant: variantOf(total), total, pageSize: PAGE_SIZE }));
}

export interface SizeRun {
  fetchMs: number;
  passMs: number;
  slowFetchMs: number;
  /** Peak RSS growth and held bytes, and each / the JSON served. */
  growthBytes: number;
  heldBytes: number;
  growth: number;
  held: number;
  queryMs: number;
  handGroupMs: number;
  sqlFirstMs: number;
  sqlMs: number;
  exportMs: number;
  pageMs: number;
  wire: number;
}

const ms = (t: number) => performance.now() - t;

function env(total: number): Record<string, string> {
  return {
    REPORTS_MAX_RECORDS: String(total),
    REPORTS_PAGE_SIZE: String(PAGE_SIZE),
    REPORTS_CONCURRENCY: String(CONCURRENCY),
    REPORTS_CALL_BUDGET_MS: '3600000',
    REPORTS_TIMEOUT_MS: '600000',
    // Enough for the result, its SQL tables (about its JSON size again) and nothing evicted.
    REPORTS_RESULTS_MAX_MB: String(Math.max(256, Math.ceil((total * 3000) / 1_048_576))),
    REPORTS_SQL_TIMEOUT_MS: '600000',
  };
}

/** The hand-written pass-through's records of a whole report, and its wall time. */
async function passThrough(url: string, total: number): Promise<{ ms: number; records: Record<string, unknown>[] }> {
  const agent = passThroughAgent(CONCURRENCY);
  const t = performance.now();
  const pages: Record<string, unknown>[][] = [];
  const offsets: number[] = [];
  for (let o = 0; o < total; o += PAGE_SIZE) offsets.push(o);
  const page = (o: number) =>
    `${url}/AirSegmentsByDate?DateStart=20260101&DateEnd=20261231&Offset=${o}&Limit=${PAGE_SIZE}`;
  const worker = async () => {
    for (let o = offsets.shift(); o !== undefined; o = offsets.shift())
      pages[o / PAGE_SIZE] = (await rawRequest(agent, page(o))).records as Record<string, unknown>[];
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const took = ms(t);
  await agent.close();
  return { ms: took, records: pages.flat() };
}

/** A hand-written count per CarrierCode over plain objects: what query_report's group-by is measured against. */
function handGroupBy(records: Record<string, unknown>[]): { ms: number; groups: Map<unknown, number> } {
  const t = performance.now();
  const groups = new Map<unknown, number>();
  for (const r of records) groups.set(r.CarrierCode, (groups.get(r.CarrierCode) ?? 0) + 1);
  return { ms: ms(t), groups };
}

async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const v = await f();
  return [ms(t), v];
}

/** What one run needs of the upstream: its origin, and the bytes it has sent. */
export type RunUpstream = Pick<BenchUpstream, 'origin' | 'sent'>;

/** One run of one size, in fresh server processes (bench/worker.ts runs it in a process of
 *  its own: see scaleCase). */
export async function scaleRun(upstream: RunUpstream, total: number, json: number): Promise<SizeRun> {
  const variant = variantOf(total);
  const fastUrl = baseUrl(upstream.origin, 0, variant, total);
  const expected = countsByCarrier(variant, total);
  let ours: OwnServer | undefined = await startOwnServer(fastUrl, env(total));
  let run: Omit<SizeRun, 'passMs' | 'slowFetchMs' | 'handGroupMs'>;
  try {
    await ours.warmUp();
    await ours.idle();
    const before = ours.memory().rss;
    await upstream.sent();
    const [fetchMs, r] = await timed(() => ours!.report());
    const sent = await upstream.sent();
    // After what follows the answer (the result written to disk): the peak counts it too.
    await ours.idle();
    const growth = ours.memory().hwm - before;
    expectComplete(r, total);
    if (!sent.gzip || sent.identity)
      throw new Error(`scale: the server did not ask for gzip (${JSON.stringify(sent)})`);
    const { resultId, table, resourceUri } = structured(r) as { resultId: string; table: string; resourceUri: string };
    const [queryMs, q] = await timed(() =>
      ours!.call('query_report', {
        resultId,
        groupBy: ['CarrierCode'],
        aggregates: [{ fn: 'count' }],
        limit: 1000,
      }),
    );
    const groups = (structured(q).groups as Array<{ key: { CarrierCode: string }; count: number }>).map(
      (g) => [g.key.CarrierCode, g.count] as const,
    );
    if (groups.length !== expected.size || groups.some(([k, n]) => expected.get(k) !== n))
      throw new Error(`scale: query_report over ${total} answered ${JSON.stringify(groups).slice(0, 300)}`);
    const sql = `SELECT CarrierCode, COUNT(*) AS n FROM ${table} GROUP BY CarrierCode`;
    const [sqlFirstMs, s1] = await timed(() => ours!.call('sql_query', { sql }));
    const [sqlMs] = await timed(() => ours!.call('sql_query', { sql }));
    const rows = structured(s1).rows as Array<{ CarrierCode: string; n: number }>;
    if (rows.length !== expected.size || rows.some((x) => expected.get(x.CarrierCode) !== x.n))
      throw new Error(`scale: sql_query over ${total} answered ${JSON.stringify(rows).slice(0, 300)}`);
    const [exportMs, e] = await timed(() => ours!.call('export_report', { resultId, format: 'csv' }));
    if (structured(e).rows !== total) throw new Error(`scale: export_report wrote ${structured(e).rows} rows`);
    const [pageMs, page] = await timed(() => ours!.client.readResource({ uri: resourceUri }));
    if (!page.contents.length) throw new Error('scale: the first resource page is empty');
    run = {
      fetchMs,
      growthBytes: growth,
      heldBytes: ours.heldBytes[0],
      growth: growth / json,
      held: ours.heldBytes[0] / json,
      queryMs,
      sqlFirstMs,
      sqlMs,
      exportMs,
      pageMs,
      wire: sent.gzip.bytes / json,
    };
  } finally {
    await ours.close();
    ours = undefined;
  }
  // The hand-written client alone on the machine, as ours was.
  const pass = await passThrough(fastUrl, total);
  if (pass.records.length !== total) throw new Error(`scale: the pass-through read ${pass.records.length}`);
  const hand = handGroupBy(pass.records);
  if (hand.groups.size !== expected.size) throw new Error('scale: the hand-written group-by is wrong');
  pass.records.length = 0;
  const slow = await startOwnServer(baseUrl(upstream.origin, LATENCY_MS, variant, total), env(total));
  try {
    await slow.warmUp();
    const [slowFetchMs, r] = await timed(() => slow.report());
    expectComplete(r, total);
    return { ...run, passMs: pass.ms, slowFetchMs, handGroupMs: hand.ms };
  } finally {
    await slow.close();
  }
}

/** log(b/a) / log(sizeB/sizeA): 1 is linear. */
function slope(a: number, b: number, sizeA: number, sizeB: number): number {
  return Math.log(b / a) / Math.log(sizeB / sizeA);
}

/**
 * Every size, `runs` times. Each run goes through `run`: the orchestrator (bench/run.ts) runs
 * scaleRun in a fresh process, as every other case, so that no run measures beside the heap the
 * runs before it left (the pass-through's million plain records among them).
 */
export async function scaleCase(
  upstream: BenchUpstream,
  runs: number,
  log: (s: string) => void,
  run: (total: number, json: number) => Promise<SizeRun>,
) {
  const rows: Row[] = [];
  const bySize = new Map<number, SizeRun[]>();
  for (const total of SCALE_SIZES) {
    const set = { variant: variantOf(total), total, pageSize: PAGE_SIZE };
    log(`scale: serving ${total.toLocaleString('en-US')} records`);
    const prepared = await upstream.prepare([set]);
    const json = prepared.bytes[`${set.variant}/${total}`];
    const all: SizeRun[] = [];
    for (let i = 0; i < runs; i++) {
      log(`scale: ${total.toLocaleString('en-US')} records, run ${i + 1} of ${runs}`);
      all.push(await run(total, json));
    }
    upstream.drop([set]);
    bySize.set(total, all);
    const c = `8 scale ${total.toLocaleString('en-US')} records (${(json / 1_048_576).toFixed(0)} MB JSON)`;
    const big = total >= 1_000_000;
    const mid = total === 100_000;
    const pick = (f: (r: SizeRun) => number) => all.map(f);
    rows.push(
      row(
        c,
        'fetch and hold, 0 ms',
        'ms',
        pick((r) => r.fetchMs),
      ),
      row(
        c,
        'hand-written pass-through (gzip, concurrency 4), 0 ms',
        'ms',
        pick((r) => r.passMs),
      ),
      row(
        c,
        'fetch and hold / pass-through, 0 ms',
        'x',
        pick((r) => r.fetchMs / r.passMs),
        big ? 1.5 : undefined,
      ),
      row(
        c,
        `fetch and hold, ${LATENCY_MS} ms`,
        'ms',
        pick((r) => r.slowFetchMs),
      ),
      row(
        c,
        'peak RSS growth / JSON',
        'x',
        pick((r) => r.growth),
        big ? 1.5 : mid ? 1.6 : undefined,
      ),
      row(
        c,
        'held bytes / JSON',
        'x',
        pick((r) => r.held),
        big ? 0.6 : undefined,
      ),
      row(
        c,
        'bytes on the wire / JSON',
        'x',
        pick((r) => r.wire),
        big ? 0.25 : undefined,
      ),
      row(
        c,
        'query_report group-by CarrierCode',
        'ms',
        pick((r) => r.queryMs),
      ),
      row(
        c,
        'hand-written Map group-by, plain objects',
        'ms',
        pick((r) => r.handGroupMs),
      ),
      row(
        c,
        'query_report group-by / hand-written',
        'x',
        pick((r) => r.queryMs / r.handGroupMs),
        big ? 2 : undefined,
      ),
      row(
        c,
        'sql_query group-by, tables built on first use',
        'ms',
        pick((r) => r.sqlFirstMs),
      ),
      row(
        c,
        'sql_query group-by, tables built',
        'ms',
        pick((r) => r.sqlMs),
        big ? 2000 : undefined,
      ),
      row(
        c,
        'export_report CSV',
        'ms',
        pick((r) => r.exportMs),
      ),
      row(
        c,
        'first resource page read',
        'ms',
        pick((r) => r.pageMs),
      ),
    );
  }
  const [a, b] = [100_000, 1_000_000];
  const ra = bySize.get(a);
  const rb = bySize.get(b);
  if (ra && rb) {
    const c = '8 scale, log-log slope 100,000 -> 1,000,000 (medians; 1 is linear)';
    const figures: Array<[string, (r: SizeRun) => number]> = [
      ['fetch and hold, 0 ms', (r) => r.fetchMs],
      [`fetch and hold, ${LATENCY_MS} ms`, (r) => r.slowFetchMs],
      ['peak RSS growth', (r) => r.growthBytes],
      ['held bytes', (r) => r.heldBytes],
      ['query_report group-by', (r) => r.queryMs],
      ['sql_query group-by, tables built on first use', (r) => r.sqlFirstMs],
      ['sql_query group-by, tables built', (r) => r.sqlMs],
      ['export_report CSV', (r) => r.exportMs],
      ['first resource page read', (r) => r.pageMs],
    ];
    for (const [name, f] of figures)
      rows.push(row(c, name, 'slope', [slope(median(ra.map(f)), median(rb.map(f)), a, b)], 1.1));
  }
  return { rows, details: Object.fromEntries([...bySize].map(([k, v]) => [String(k), v])) };
}
