import { describe, expect, test } from 'vitest';
import type { PageRequest } from '../../src/upstream/client.js';
import type { Fault, SeenRequest } from '../helpers/paged-service.js';
import { client, PATH, rejection, service } from './harness.js';

const page = (over: Partial<PageRequest> = {}): PageRequest => ({
  path: PATH,
  query: {},
  offset: 0,
  limit: 10,
  envelope: 'collection',
  ...over,
});

/** Faults for the first attempts, then normal answers. */
const firstAttempts =
  (...faults: Fault[]) =>
  (r: SeenRequest) =>
    faults[r.n];

const gapsBetween = (requests: SeenRequest[]) => requests.slice(1).map((r, i) => r.at - requests[i].at);

describe('retried: connection errors, timeouts, 429, 502, 503, 504', () => {
  test.each([
    ['502', { status: 502, body: '<html>Bad Gateway</html>', contentType: 'text/html' }],
    ['503', { status: 503 }],
    ['504', { status: 504 }],
    ['429', { status: 429, headers: { 'retry-after': '0' } }],
    ['connection reset', { reset: true }],
  ] as Array<[string, Fault]>)('%s, then success', async (_, fault) => {
    const svc = await service({ total: 10, fault: firstAttempts(fault) });
    const got = await client(svc.url).getPage(page());
    expect(got.records.map((r) => r.Seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(got.attempts).toBe(2);
    expect(svc.requests).toHaveLength(2);
    expect(svc.requests.every((r) => r.signatureOk)).toBe(true);
  });

  test('a request that hangs past timeoutMs is abandoned (socket closed) and retried', async () => {
    const svc = await service({ total: 10, fault: firstAttempts({ hang: true }) });
    const logs: string[] = [];
    const started = Date.now();
    const got = await client(svc.url, { timeoutMs: 150, random: () => 0, log: (l) => logs.push(l) }).getPage(page());
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(got.attempts).toBe(2);
    expect(svc.requests[0].closedEarly).toBe(true);
    expect(svc.requests[0].endedAt! - svc.requests[0].at).toBeGreaterThanOrEqual(140);
    expect(logs[0]).toBe('retry 1/2 of /CarSegmentsByDate Offset=0 in 5 ms after timeout');
    expect(logs[1]).toMatch(/^GET \/CarSegmentsByDate Offset=0 Limit=10 -> 200 in \d+ ms$/);
  });

  test('connection refused is retried, then reported as network', async () => {
    const svc = await service({ total: 1 });
    const url = svc.url;
    await svc.close();
    const logs: string[] = [];
    const err = await rejection(client(url, { log: (l) => logs.push(l) }).getPage(page()));
    expect(err.kind).toBe('network');
    expect(err.retryable).toBe(true);
    expect(err.message).toBe(
      `Could not complete the request to ${url}/CarSegmentsByDate (ECONNREFUSED: connect ECONNREFUSED ${url.slice('http://'.length)}). Check REPORTS_BASE_URL and that the service is reachable. Gave up after 3 attempts.`,
    );
    expect(logs.filter((l) => l.startsWith('retry '))).toHaveLength(2);
  });

  test('exponential backoff with jitter: delays base*2^n scaled into [1/2, 1], capped at maxDelayMs', async () => {
    const run = async (random: number, retry: { attempts: number; baseDelayMs: number; maxDelayMs: number }) => {
      const svc = await service({ total: 1, fault: () => ({ status: 503 }) });
      const logs: string[] = [];
      const err = await rejection(
        client(svc.url, { random: () => random, retry, log: (l) => logs.push(l) }).getPage(page()),
      );
      expect(err.kind).toBe('server');
      expect(svc.requests).toHaveLength(retry.attempts);
      return { delays: logs.filter((l) => l.startsWith('retry ')), gaps: gapsBetween(svc.requests) };
    };
    const low = await run(0, { attempts: 4, baseDelayMs: 40, maxDelayMs: 1_000 });
    expect(low.delays).toEqual([
      'retry 1/3 of /CarSegmentsByDate Offset=0 in 20 ms after server 503',
      'retry 2/3 of /CarSegmentsByDate Offset=0 in 40 ms after server 503',
      'retry 3/3 of /CarSegmentsByDate Offset=0 in 80 ms after server 503',
    ]);
    low.gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual([20, 40, 80][i]));

    const high = await run(1, { attempts: 4, baseDelayMs: 40, maxDelayMs: 60 });
    expect(high.delays.map((l) => /in (\d+) ms/.exec(l)![1])).toEqual(['40', '60', '60']);
    high.gaps.forEach((gap, i) => expect(gap).toBeGreaterThanOrEqual([40, 60, 60][i]));

    const mid = await run(0.5, { attempts: 3, baseDelayMs: 40, maxDelayMs: 1_000 });
    expect(mid.delays.map((l) => /in (\d+) ms/.exec(l)![1])).toEqual(['30', '60']);
  });

  test('429 honours Retry-After (seconds) even above the backoff', async () => {
    const svc = await service({ total: 3, fault: firstAttempts({ status: 429, headers: { 'retry-after': '1' } }) });
    const logs: string[] = [];
    const got = await client(svc.url, { random: () => 0, log: (l) => logs.push(l) }).getPage(page());
    expect(got.attempts).toBe(2);
    expect(logs[1]).toBe('retry 1/2 of /CarSegmentsByDate Offset=0 in 1000 ms after rate_limited 429');
    const [gap] = gapsBetween(svc.requests);
    // Date.now() and timers both tick in whole milliseconds: allow that one.
    expect(gap).toBeGreaterThanOrEqual(999);
    expect(gap).toBeLessThan(2_500);
  });

  test('429 with Retry-After as an HTTP date', async () => {
    const T = Date.UTC(2026, 10, 22, 1, 16, 28);
    const svc = await service({
      total: 3,
      fault: firstAttempts({ status: 429, headers: { 'retry-after': 'Sun, 22 Nov 2026 01:16:28 GMT' } }),
    });
    const logs: string[] = [];
    // The client's clock says 250 ms before the date the service named.
    const got = await client(svc.url, {
      now: () => new Date(T - 250),
      random: () => 0,
      log: (l) => logs.push(l),
    }).getPage(page());
    expect(got.attempts).toBe(2);
    expect(logs[1]).toBe('retry 1/2 of /CarSegmentsByDate Offset=0 in 250 ms after rate_limited 429');
    expect(gapsBetween(svc.requests)[0]).toBeGreaterThanOrEqual(249);
  });

  test('gives up after `attempts` tries with the last error', async () => {
    const svc = await service({
      total: 1,
      fault: () => ({ status: 504, body: 'Gateway Timeout', contentType: 'text/plain' }),
    });
    const err = await rejection(client(svc.url).getPage(page()));
    expect(svc.requests).toHaveLength(3);
    expect(err.kind).toBe('server');
    expect(err.details).toEqual({ status: 504, path: PATH, upstreamMessage: undefined });
    expect(err.message).toBe(
      "/CarSegmentsByDate answered HTTP 504. The service failed; this is not caused by the request. The body (text/plain) begins: 'Gateway Timeout' Gave up after 3 attempts.",
    );
  });

  test('each retry is signed afresh: new date, new signature, each verified', async () => {
    const svc = await service({ total: 1, fault: firstAttempts({ status: 503 }, { reset: true }, { status: 429 }) });
    let tick = 0;
    const T = Date.UTC(2026, 10, 22, 1, 16, 28);
    const got = await client(svc.url, {
      retry: { attempts: 4, baseDelayMs: 5, maxDelayMs: 5 },
      now: () => new Date(T + 1000 * tick++),
    }).getPage(page());
    expect(got.attempts).toBe(4);
    expect(svc.requests).toHaveLength(4);
    expect(svc.requests.every((r) => r.signatureOk)).toBe(true);
    const dates = svc.requests.map((r) => r.headers['x-service-api-date']);
    const signatures = svc.requests.map((r) => r.headers['x-service-api-signature']);
    expect(new Set(dates).size).toBe(4);
    expect(new Set(signatures).size).toBe(4);
    expect(dates[0]).toBe('Sun, 22 Nov 2026 01:16:28 GMT');
  });
});

describe('never retried: 400, 404, 500, 401, 403, Success:false', () => {
  test.each([
    [400, 'upstream', '/CarSegmentsByDate answered HTTP 400. The service said: "BadRequest: DateStart is required"'],
    [
      404,
      'upstream',
      '/CarSegmentsByDate answered HTTP 404. /CarSegmentsByDate was not found: check REPORTS_BASE_URL (it should end where the report paths begin). The service said: "BadRequest: DateStart is required"',
    ],
    [
      500,
      'server',
      '/CarSegmentsByDate answered HTTP 500. The service failed; this is not caused by the request. The service said: "BadRequest: DateStart is required"',
    ],
    [401, 'auth', undefined],
    [403, 'auth', undefined],
  ] as Array<[number, string, string | undefined]>)('HTTP %i: exactly one request', async (status, kind, message) => {
    const body = JSON.stringify({
      ResponseMetadata: { Success: false },
      ResponseError: { ErrorCode: 'BadRequest', Message: 'DateStart is required', StatusCode: String(status) },
    });
    const svc = await service({ total: 1, fault: () => ({ status, body }) });
    const logs: string[] = [];
    const err = await rejection(client(svc.url, { log: (l) => logs.push(l) }).getPage(page()));
    expect(svc.requests).toHaveLength(1);
    expect(err.kind).toBe(kind);
    expect(err.retryable).toBe(false);
    expect(err.details.status).toBe(status);
    if (message) expect(err.message).toBe(message);
    expect(logs.filter((l) => l.startsWith('retry'))).toEqual([]);
  });
});
