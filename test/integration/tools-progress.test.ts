/**
 * Long report calls as a client sees them: progress notifications (one per page, in records,
 * against the record count) when a progressToken is sent, and cancellation through the
 * request's AbortSignal stopping the upstream fetch.
 */

import type { CallToolResult, Progress } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';

const DAY_MS = 86_400_000;
/** Data anchored on today, so that relative windows on the real clock find records. */
const DATA_NOW = new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('progress notifications', () => {
  const PAGE_SIZE = 50;
  let s: InProcess;
  beforeAll(async () => {
    s = await startInProcess({ env: { REPORTS_PAGE_SIZE: String(PAGE_SIZE) }, sandbox: { dataNow: DATA_NOW } });
  });
  afterAll(async () => {
    await s?.close();
  });

  test('with a progressToken: one notification per page, increasing, total = record count, last = total', async () => {
    const progress: Progress[] = [];
    const result = (await s.client.callTool(
      { name: 'air_segments_by_date', arguments: { DateStart: 'today-30', DateEnd: 'today' } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    )) as CallToolResult;
    expect(result.isError, textOf(result)).toBeFalsy();
    const total = (result.structuredContent as { fetchedRecords: number; totalRecords: number }).totalRecords;
    expect(total).toBeGreaterThan(4 * PAGE_SIZE);
    // Notifications may trail the result by a tick.
    for (let i = 0; i < 20 && progress.at(-1)?.progress !== total; i++) await sleep(10);

    expect(progress).toHaveLength(Math.ceil(total / PAGE_SIZE));
    const values = progress.map((p) => p.progress);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]);
    expect(values[0]).toBe(PAGE_SIZE);
    expect(progress.every((p) => p.total === total)).toBe(true);
    expect(progress.at(-1)).toEqual({
      progress: total,
      total,
      message: `air_segments_by_date: ${total} of ${total} records`,
    });
  });

  test('a capped call counts progress against the cap, not the whole report', async () => {
    const progress: Progress[] = [];
    const result = (await s.client.callTool(
      { name: 'air_segments_by_date', arguments: { DateStart: 'today-30', DateEnd: 'today', maxRecords: 120 } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    )) as CallToolResult;
    expect((result.structuredContent as { fetchedRecords: number }).fetchedRecords).toBe(120);
    for (let i = 0; i < 20 && progress.at(-1)?.progress !== 120; i++) await sleep(10);
    expect(progress.map((p) => [p.progress, p.total])).toEqual([
      [50, 120],
      [100, 120],
      [120, 120],
    ]);
  });
});

describe('cancellation', () => {
  const LATENCY_MS = 300;
  const PAGE_SIZE = 10;
  const CONCURRENCY = 4;
  const args = { DateStart: 'today-30', DateEnd: 'today' };
  let s: InProcess;
  let fullFetchMs: number;

  beforeAll(async () => {
    s = await startInProcess({
      sandbox: { latencyMs: LATENCY_MS, dataNow: DATA_NOW },
      env: { REPORTS_PAGE_SIZE: String(PAGE_SIZE), REPORTS_CONCURRENCY: String(CONCURRENCY) },
    });
    // What the whole fetch would take: the first page, then the rest CONCURRENCY at a time.
    const today = new Date(DATA_NOW).toISOString().slice(0, 10).replace(/-/g, '');
    const start = new Date(DATA_NOW.getTime() - 30 * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '');
    const records = s.rt.sandbox!.report('AirSegmentsByDate', { DateStart: start, DateEnd: today }).length;
    const pages = Math.ceil(records / PAGE_SIZE);
    expect(pages).toBeGreaterThan(20);
    fullFetchMs = LATENCY_MS * (1 + Math.ceil((pages - 1) / CONCURRENCY));
  });
  afterAll(async () => {
    await s?.close();
  });

  /** Starts the call and aborts it when `when` says so (polled every 5 ms). */
  async function cancelWhen(when: (elapsedMs: number, requests: number) => boolean) {
    const sandbox = s.rt.sandbox!;
    sandbox.resetStats();
    const controller = new AbortController();
    const started = Date.now();
    let abortedAt = 0;
    const call = s.client.callTool({ name: 'air_segments_by_date', arguments: args }, undefined, {
      signal: controller.signal,
    });
    const poll = setInterval(() => {
      if (!abortedAt && when(Date.now() - started, sandbox.requests.length)) {
        abortedAt = Date.now();
        controller.abort();
      }
    }, 5);
    try {
      await expect(call).rejects.toThrow(/AbortError|aborted/);
    } finally {
      clearInterval(poll);
    }
    const rejectedAt = Date.now();
    const atRejection = sandbox.requests.length;
    // Long enough for two more rounds of pages, had the fetch gone on.
    await sleep(2 * LATENCY_MS + 100);
    return {
      abortedAfter: abortedAt - started,
      rejectedAfter: rejectedAt - started,
      rejectionDelay: rejectedAt - abortedAt,
      atRejection,
      later: sandbox.requests.length,
      requests: sandbox.requests,
    };
  }

  test('abort after ~150 ms, during the first page: rejects at once, no further page is requested', async () => {
    const r = await cancelWhen((elapsed) => elapsed >= 150);
    expect(r.rejectionDelay).toBeLessThan(150);
    expect(r.rejectedAfter).toBeLessThan(fullFetchMs / 4);
    expect(r.atRejection).toBe(1);
    expect(r.later).toBe(r.atRejection);
    // The one in flight was dropped, not answered.
    expect(r.requests.map((q) => [q.offset, q.status])).toEqual([[0, 0]]);
  });

  test('abort while pages are fetched concurrently: rejects at once, queued pages are never requested', async () => {
    const r = await cancelWhen((_elapsed, requests) => requests >= 1 + CONCURRENCY);
    expect(r.rejectionDelay).toBeLessThan(150);
    expect(r.rejectedAfter).toBeLessThan(fullFetchMs / 2);
    // The first page and one round of CONCURRENCY pages, in flight at the abort; no more.
    expect(r.atRejection).toBe(1 + CONCURRENCY);
    expect(r.later).toBe(r.atRejection);
    expect(r.requests[0].status).toBe(200);
    expect(r.requests.slice(1).map((q) => q.status)).toEqual(Array(CONCURRENCY).fill(0));
  });

  test('after cancellations the server still answers (limiter slots released)', async () => {
    const result = await s.call('air_segments_by_date', { DateStart: 'today', DateEnd: 'today' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(s.rt.upstream.limiter.inFlight).toBe(0);
    expect(s.logs.filter((l) => /unexpected error/.test(l))).toEqual([]);
  });
});
