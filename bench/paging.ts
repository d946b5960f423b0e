/**
 * `npm run bench`: paging throughput against the sandbox on loopback. The sandbox runs in
 * its own process (as the real service would), with a fixed latency per request; the same
 * 10,000 records are fetched in 500-record pages with REPORTS_CONCURRENCY 4 and with 1
 * (one page after another), in one run, and the ratio is reported. Results go to stdout and
 * bench/results.json. Figures are ratios measured in the same run, not absolute targets.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UpstreamClient } from '../src/upstream/client.js';
import { Limiter } from '../src/upstream/limiter.js';
import { fetchReport } from '../src/upstream/paging.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const RECORDS = 10_000;
const PAGE = 500;
const LATENCY_MS = 20;

async function startSandboxProcess(): Promise<{ url: string; username: string; key: string; stop: () => void }> {
  const child = spawn(process.execPath, [path.join(here, '..', 'src', 'sandbox', 'cli.js')], {
    env: {
      ...process.env,
      SANDBOX_PORT: '0',
      SANDBOX_SIZE: '8000',
      SANDBOX_LATENCY_MS: String(LATENCY_MS),
      SANDBOX_DATA_NOW: '2026-11-15',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  for await (const chunk of child.stdout) {
    out += chunk;
    const url = /REPORTS_BASE_URL=(\S+)/.exec(out)?.[1];
    const username = /REPORTS_API_USERNAME=(\S+)/.exec(out)?.[1];
    const key = /REPORTS_API_KEY=(\S+)/.exec(out)?.[1];
    if (url && username && key) return { url, username, key, stop: () => child.kill('SIGTERM') };
  }
  throw new Error(`the sandbox did not start: ${out}`);
}

async function timeFetch(sandbox: { url: string; username: string; key: string }, concurrency: number) {
  const limiter = new Limiter(concurrency);
  const client = new UpstreamClient({
    baseUrl: sandbox.url,
    username: sandbox.username,
    key: sandbox.key,
    timeoutMs: 30_000,
    limiter,
  });
  const query = { DateStart: '20240101', DateEnd: '20281231', CouponCodeGroup: 'ALL', DateTracker: 'I' };
  const started = performance.now();
  const outcome = await fetchReport(client, {
    path: '/TicketCouponsByStatusCode',
    query,
    envelope: 'collection',
    pageSize: PAGE,
    maxRecords: RECORDS,
    budgetMs: 120_000,
  });
  const ms = performance.now() - started;
  await client.close();
  const fetched = outcome.pages.reduce((n, p) => n + p.records.length, 0);
  if (fetched !== RECORDS)
    throw new Error(
      `expected ${RECORDS} records, fetched ${fetched} (total ${outcome.totalRecords}): ${outcome.notes.join(' ')}`,
    );
  return { ms, maxInFlight: limiter.maxActive };
}

const sandbox = await startSandboxProcess();
try {
  await timeFetch(sandbox, 4); // warm-up: dataset generation, JIT, connections
  const parallel = await timeFetch(sandbox, 4);
  const sequential = await timeFetch(sandbox, 1);
  const results = {
    date: new Date().toISOString(),
    records: RECORDS,
    pageSize: PAGE,
    latencyMsPerRequest: LATENCY_MS,
    concurrent4Ms: Math.round(parallel.ms),
    sequentialMs: Math.round(sequential.ms),
    ratio: Number((parallel.ms / sequential.ms).toFixed(3)),
    maxInFlight: { concurrent: parallel.maxInFlight, sequential: sequential.maxInFlight },
  };
  process.stdout.write(
    [
      '| benchmark | concurrency 4 | sequential | ratio |',
      '|---|---|---|---|',
      `| ${RECORDS} records, ${PAGE}/page, ${LATENCY_MS} ms latency | ${results.concurrent4Ms} ms | ${results.sequentialMs} ms | ${results.ratio} |`,
      '',
    ].join('\n'),
  );
  await writeFile(path.join(here, '..', '..', 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
} finally {
  sandbox.stop();
}
