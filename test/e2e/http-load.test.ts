/**
 * Load over HTTP: 100 concurrent sessions against one BUILT server (live mode, against a
 * sandbox started here so every upstream request is seen), each running a report and a
 * query_report. Checks values, not speed: every session answers, upstream requests in flight
 * never exceed REPORTS_CONCURRENCY, and the server's memory comes back near where it started.
 */
import { readFileSync } from 'node:fs';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { assertBuilt, connectClient, killAll, startHttpServer } from '../helpers/http-server.js';

const SESSIONS = 100;
const LIMIT = 4;
let sandbox: Sandbox;

beforeAll(async () => {
  assertBuilt();
  sandbox = await startSandbox({ latencyMs: 5 });
});
afterEach(killAll);
afterAll(() => sandbox?.close());

/** Resident memory of a process, in MB (Linux). */
function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

describe(`${SESSIONS} concurrent HTTP sessions`, () => {
  it('all answer a report and a query_report, within the upstream limit, and memory comes back', async () => {
    const server = await startHttpServer({
      env: {
        REPORTS_BASE_URL: sandbox.url,
        REPORTS_API_USERNAME: sandbox.username,
        REPORTS_API_KEY: sandbox.key,
        REPORTS_CONCURRENCY: String(LIMIT),
        REPORTS_PAGE_SIZE: '25',
      },
    });
    // Warm up one session so that "before" includes the loaded code, not a cold process.
    const warm = await connectClient(server.url);
    await warm.call('diagnose_connection', {});
    await warm.close();
    const before = rssMb(server.pid);
    sandbox.resetStats();
    sandbox.maxInFlight = 0;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(server.pid))), 100);

    const answers = await Promise.all(
      Array.from({ length: SESSIONS }, async (_, i) => {
        const c = await connectClient(server.url);
        try {
          const report = (await c.call(i % 2 ? 'hotel_segments' : 'car_segments_by_date', {
            DateStart: 'today-10',
            DateEnd: 'today+10',
          })) as CallToolResult;
          const out = report.structuredContent as { resultId: string; fetchedRecords: number; complete: boolean };
          const q = (await c.call('query_report', {
            resultId: out.resultId,
            aggregates: [{ fn: 'count' }],
          })) as CallToolResult;
          return { report, out, matched: (q.structuredContent as { matched: number }).matched, qError: q.isError };
        } finally {
          await c.close();
        }
      }),
    );
    clearInterval(sampler);

    for (const a of answers) {
      expect(a.report.isError).toBeFalsy();
      expect(a.out.complete).toBe(true);
      expect(a.qError).toBeFalsy();
      expect(a.matched).toBe(a.out.fetchedRecords);
    }
    const hotel = answers.filter((_, i) => i % 2).map((a) => a.out.fetchedRecords);
    expect(new Set(hotel).size).toBe(1); // the same question gets the same answer in every session
    expect(sandbox.maxInFlight).toBeLessThanOrEqual(LIMIT);
    const upstream = sandbox.requests.length;

    // Sessions closed and nothing running: memory settles back (V8 returns pages lazily); the
    // 100 held results (a few MB) stay until their TTL.
    let after = rssMb(server.pid);
    for (let i = 0; i < 40 && after > before + 64; i++) {
      await new Promise((r) => setTimeout(r, 250));
      after = rssMb(server.pid);
    }
    console.log(
      `load: ${SESSIONS} sessions, ${upstream} upstream requests, max in flight ${sandbox.maxInFlight} (limit ${LIMIT}); ` +
        `RSS before ${before.toFixed(0)} MB, peak ${peak.toFixed(0)} MB, after ${after.toFixed(0)} MB`,
    );
    expect(after).toBeLessThan(before + 128);
  }, 180_000);
});
