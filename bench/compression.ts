/**
 * Compressed answers from the service (issue 31): one report of about 100,000 air segments
 * through the server in demo mode, the sandbox adding 50 ms of latency to every answer, with
 * and without compression. Prints the body bytes the sandbox sent (what crosses the wire,
 * headers aside), the encodings it used and the wall time of the call, for each in turn
 * (BENCH_RUNS rounds, default 3). A one-off measurement for docs, not part of `npm run bench`.
 * Run: npm run build && node dist/bench/compression.js
 */

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server/create-server.js';
import { createRuntime } from '../src/server/runtime.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SIZE = Number(process.env.BENCH_SIZE ?? 68_000);
const LATENCY_MS = 50;
/** The data's today, for both clocks (signatures stay fresh). */
const NOW = () => new Date('2026-11-15T12:00:00Z');

async function once(compress: boolean): Promise<{ ms: number; bytes: number; records: number; encodings: string }> {
  const { config } = loadConfig({
    REPORTS_DEMO: 'true',
    REPORTS_TIMEZONE: 'UTC',
    REPORTS_CALL_BUDGET_MS: '600000',
    REPORTS_MAX_RECORDS: '100000',
  });
  const rt = await createRuntime(config, {
    log: () => {},
    sandbox: { size: SIZE, latencyMs: LATENCY_MS, compress, dataNow: new Date('2026-11-15T00:00:00Z'), now: NOW },
    now: NOW,
  });
  const server = createServer(rt);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await Promise.all([server.connect(b), client.connect(a)]);
  try {
    // The dataset is generated on first use: not part of what is measured.
    rt.sandbox!.report('AirSegmentsByDate', { DateStart: '20261115', DateEnd: '20261115' });
    rt.sandbox!.resetStats();
    const started = performance.now();
    const result = await client.callTool({
      name: 'air_segments_by_date',
      arguments: { DateStart: '2025-01-01', DateEnd: '2027-12-31', maxRecords: 100_000, fresh: true },
    });
    const ms = performance.now() - started;
    if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 500));
    const sc = result.structuredContent as { fetchedRecords: number; complete: boolean };
    const log = rt.sandbox!.requests;
    return {
      ms,
      bytes: log.reduce((n, r) => n + r.bodyBytes, 0),
      records: sc.fetchedRecords,
      encodings: [...new Set(log.map((r) => r.encoding ?? 'none'))].join(','),
    };
  } finally {
    await client.close();
    await server.close();
    await rt.close();
  }
}

const mb = (n: number) => `${(n / 1_048_576).toFixed(1)} MB`;
for (let i = 0; i < RUNS; i++)
  for (const compress of [false, true]) {
    const r = await once(compress);
    console.log(
      `${compress ? 'compressed' : 'plain     '} ${r.records} records, ${mb(r.bytes)} of bodies (${r.encodings}), ` +
        `${Math.round(r.ms)} ms`,
    );
  }
