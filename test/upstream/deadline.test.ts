import { describe, expect, test } from 'vitest';
import { Limiter } from '../../src/upstream/limiter.js';
import { type FetchRequest, fetchReport } from '../../src/upstream/paging.js';
import { client, PATH, range, rejection, seqs, service } from './harness.js';

const req = (over: Partial<FetchRequest> = {}): FetchRequest => ({
  path: PATH,
  query: {},
  envelope: 'collection',
  pageSize: 100,
  maxRecords: 50_000,
  budgetMs: 5_000,
  ...over,
});

const until = async (cond: () => boolean, ms = 2_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await new Promise((r) => setTimeout(r, 2));
  }
};

describe('call budget (REPORTS_CALL_BUDGET_MS)', () => {
  test('expiry mid-paging returns what it has, incomplete, with a note naming the budget', async () => {
    // Pages from Offset 200 hang: four of them hold the limiter until the deadline, the rest
    // are refused on start because the budget is gone. (The budget leaves the two answering
    // pages ample time even on a loaded machine.)
    const svc = await service({ total: 1000, fault: (r) => (r.offset >= 200 ? { hang: true } : undefined) });
    const started = Date.now();
    const out = await fetchReport(client(svc.url, { limiter: new Limiter(4) }), req({ budgetMs: 1_000 }));
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(995);
    // Returned at the budget, not at the 30 s request timeout (loose: the machine is shared).
    expect(elapsed).toBeLessThan(10_000);
    expect(seqs(out)).toEqual(range(0, 200));
    expect(out).toMatchObject({ totalRecords: 1000, complete: false });
    expect(out.notes).toEqual([
      '800 records in 8 pages (from Offset 200) were not fetched: The time budget of 1000 ms (REPORTS_CALL_BUDGET_MS) ran out. continue_report fetches them.',
    ]);
    // The hanging requests were abandoned at the deadline, not left open; nothing past it was sent.
    const hung = svc.requests.filter((r) => r.offset >= 200);
    expect(hung.length).toBeGreaterThanOrEqual(4);
    expect(hung.length).toBeLessThanOrEqual(8);
    await until(() => hung.every((r) => r.endedAt !== undefined));
    expect(hung.every((r) => r.closedEarly)).toBe(true);
    // (50 ms: a request sent just before the deadline reaches the server just after it.)
    expect(svc.requests.every((r) => r.at <= started + 1_000 + 50)).toBe(true);
  });

  test('the first page past the budget throws a timeout', async () => {
    const svc = await service({ total: 2000, fault: () => ({ hang: true }) });
    const started = Date.now();
    const err = await rejection(fetchReport(client(svc.url), req({ budgetMs: 200 })));
    expect(Date.now() - started).toBeLessThan(800);
    expect(err.kind).toBe('timeout');
    expect(err.retryable).toBe(false);
    expect(err.message).toBe(
      "The call's time budget of 200 ms (REPORTS_CALL_BUDGET_MS) ran out while waiting for /CarSegmentsByDate.",
    );
    expect(svc.requests).toHaveLength(1);
  });

  test('a per-request timeout shorter than the budget is retried and then reported as REPORTS_TIMEOUT_MS', async () => {
    const svc = await service({ total: 2000, fault: () => ({ hang: true }) });
    const err = await rejection(fetchReport(client(svc.url, { timeoutMs: 100 }), req({ budgetMs: 5_000 })));
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe(
      '/CarSegmentsByDate did not answer within 100 ms (REPORTS_TIMEOUT_MS). Gave up after 3 attempts.',
    );
    expect(svc.requests).toHaveLength(3);
  });

  test('a backoff that would pass the deadline is not waited for', async () => {
    const svc = await service({ total: 2000, fault: () => ({ status: 503 }) });
    const started = Date.now();
    const err = await rejection(
      fetchReport(
        client(svc.url, { random: () => 1, retry: { attempts: 4, baseDelayMs: 2_000, maxDelayMs: 2_000 } }),
        req({ budgetMs: 1_000 }),
      ),
    );
    expect(Date.now() - started).toBeLessThan(500);
    expect(svc.requests).toHaveLength(1);
    expect(err.kind).toBe('server');
    expect(err.message).toBe(
      "/CarSegmentsByDate answered HTTP 503. The service failed; this is not caused by the request. The body was empty. Not retried: waiting 2000 ms would pass the call's time budget (REPORTS_CALL_BUDGET_MS).",
    );
  });

  test('a Retry-After larger than the remaining budget: gives up at once', async () => {
    const svc = await service({ total: 2000, fault: () => ({ status: 429, headers: { 'retry-after': '5' } }) });
    const started = Date.now();
    const err = await rejection(fetchReport(client(svc.url), req({ budgetMs: 2_000 })));
    expect(Date.now() - started).toBeLessThan(500);
    expect(svc.requests).toHaveLength(1);
    expect(err.kind).toBe('rate_limited');
    expect(err.details.retryAfterMs).toBe(5_000);
    expect(err.message).toBe(
      "The service is rate limiting requests to /CarSegmentsByDate (HTTP 429). It asked to wait 5 s. Lower REPORTS_CONCURRENCY or try again shortly. Not retried: waiting 5000 ms would pass the call's time budget (REPORTS_CALL_BUDGET_MS).",
    );
  });
});

describe('cancellation', () => {
  test('an abort ends in-flight requests at once (the server sees the sockets close) and throws cancelled', async () => {
    const svc = await service({ total: 2000, fault: (r) => (r.offset > 0 ? { hang: true } : undefined) });
    const limiter = new Limiter(4);
    const controller = new AbortController();
    const call = fetchReport(client(svc.url, { limiter }), req({ budgetMs: 10_000, signal: controller.signal }));
    await until(() => svc.inFlight === 4);
    const abortedAt = Date.now();
    controller.abort();
    const err = await rejection(call);
    expect(Date.now() - abortedAt).toBeLessThan(300);
    expect(err.kind).toBe('cancelled');
    expect(err.message).toMatch(/^The request was cancelled/);
    await until(() => svc.inFlight === 0, 500);
    const hung = svc.requests.filter((r) => r.offset > 0);
    expect(hung).toHaveLength(4);
    expect(hung.every((r) => r.closedEarly && r.endedAt! - abortedAt < 300)).toBe(true);
    // Queued pages were never sent, and the limiter is free again.
    await new Promise((r) => setTimeout(r, 50));
    expect(svc.requests).toHaveLength(5);
    expect(limiter.inFlight).toBe(0);
  });

  test('an abort during page 0', async () => {
    const svc = await service({ total: 2000, fault: () => ({ hang: true }) });
    const controller = new AbortController();
    const call = fetchReport(client(svc.url), req({ signal: controller.signal }));
    await until(() => svc.inFlight === 1);
    const abortedAt = Date.now();
    controller.abort();
    const err = await rejection(call);
    expect(Date.now() - abortedAt).toBeLessThan(300);
    expect(err.kind).toBe('cancelled');
    expect(err.message).toBe('The request was cancelled by the client.');
    await until(() => svc.inFlight === 0, 500);
    expect(svc.requests[0].closedEarly).toBe(true);
  });

  test('an abort during a retry backoff stops waiting', async () => {
    const svc = await service({ total: 10, fault: () => ({ status: 503 }) });
    const controller = new AbortController();
    const c = client(svc.url, { random: () => 1, retry: { attempts: 3, baseDelayMs: 5_000, maxDelayMs: 5_000 } });
    const call = c.getPage({
      path: PATH,
      query: {},
      offset: 0,
      limit: 10,
      envelope: 'collection',
      signal: controller.signal,
    });
    await until(() => svc.requests.length === 1 && svc.inFlight === 0);
    const abortedAt = Date.now();
    controller.abort();
    const err = await rejection(call);
    expect(Date.now() - abortedAt).toBeLessThan(300);
    expect(err.kind).toBe('cancelled');
    expect(svc.requests).toHaveLength(1);
  });

  test('an already aborted signal sends nothing', async () => {
    const svc = await service({ total: 10 });
    const err = await rejection(fetchReport(client(svc.url), req({ signal: AbortSignal.abort() })));
    expect(err.kind).toBe('cancelled');
    expect(svc.requests).toHaveLength(0);
  });
});
