import { inspect } from 'node:util';
import { describe, expect, test } from 'vitest';
import { ReportsError } from '../../src/errors.js';
import type { PageRequest } from '../../src/upstream/client.js';
import { Limiter } from '../../src/upstream/limiter.js';
import { type FetchRequest, fetchReport } from '../../src/upstream/paging.js';
import type { Fault, SeenRequest } from '../helpers/paged-service.js';
import { client, KEY, PATH, rejection, service } from './harness.js';

const page = (over: Partial<PageRequest> = {}): PageRequest => ({
  path: PATH,
  query: {},
  offset: 0,
  limit: 10,
  envelope: 'collection',
  ...over,
});
const req = (over: Partial<FetchRequest> = {}): FetchRequest => ({
  path: PATH,
  query: {},
  envelope: 'collection',
  pageSize: 100,
  maxRecords: 50_000,
  budgetMs: 5_000,
  ...over,
});

const SERVICE_DATE = 'Sun, 22 Nov 2026 01:16:28 GMT';
const T = Date.parse(SERVICE_DATE);
const UNAUTHORIZED = JSON.stringify({
  ResponseMetadata: { Success: false },
  ResponseError: { ErrorCode: 'Unauthorized', Message: 'Invalid signature', StatusCode: '401' },
});

describe('401/403: check the credentials, and the clock when the service says its time', () => {
  test('a wrong key: the service refuses it, the clock agrees', async () => {
    const svc = await service({ total: 10 });
    const err = await rejection(client(svc.url, { key: 'wrong-key-123' }).getPage(page()));
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0].signatureOk).toBe(false);
    expect(err.kind).toBe('auth');
    expect(err.details).toEqual({ status: 401, path: PATH, upstreamMessage: 'Unauthorized: Invalid signature' });
    expect(err.message).toBe(
      `The service refused the credentials for /CarSegmentsByDate (HTTP 401). Check REPORTS_API_USERNAME and REPORTS_API_KEY. The local clock agrees with the service's (within 1 s), so the clock is not the cause. The service said: "Unauthorized: Invalid signature"`,
    );
  });

  test.each([
    [+7, 'ahead of'],
    [-7, 'behind'],
  ])(
    'a client clock %i minutes off (real server Date header) is named with its direction',
    async (minutes, direction) => {
      const svc = await service({ total: 10, fault: () => ({ status: 401, body: UNAUTHORIZED }) });
      const err = await rejection(
        client(svc.url, { now: () => new Date(Date.now() + minutes * 60_000) }).getPage(page()),
      );
      // The service's Date has whole seconds, so the measured skew is 7 min give or take 1 s.
      expect(err.message).toMatch(
        new RegExp(
          `^The service refused the credentials for /CarSegmentsByDate \\(HTTP 401\\)\\. Check REPORTS_API_USERNAME and REPORTS_API_KEY\\. ` +
            `The local clock is (6 min 59 s|7 min 0 s|7 min 1 s) ${direction} the service's \\(its Date: [A-Z][a-z]{2}, \\d\\d [A-Z][a-z]{2} \\d{4} \\d\\d:\\d\\d:\\d\\d GMT\\); ` +
            `signatures carry the time, so correct the system clock\\. The service said: "Unauthorized: Invalid signature"$`,
        ),
      );
    },
  );

  test('exact texts against a fixed service Date: 7 min ahead, 7 min behind, 403', async () => {
    const svc = await service({
      total: 10,
      fault: (r) => ({ status: r.n === 2 ? 403 : 401, body: UNAUTHORIZED, headers: { Date: SERVICE_DATE } }),
    });
    const ahead = await rejection(client(svc.url, { now: () => new Date(T + 7 * 60_000) }).getPage(page()));
    expect(ahead.message).toBe(
      `The service refused the credentials for /CarSegmentsByDate (HTTP 401). Check REPORTS_API_USERNAME and REPORTS_API_KEY. The local clock is 7 min 0 s ahead of the service's (its Date: Sun, 22 Nov 2026 01:16:28 GMT); signatures carry the time, so correct the system clock. The service said: "Unauthorized: Invalid signature"`,
    );
    const behind = await rejection(client(svc.url, { now: () => new Date(T - 7 * 60_000 - 30_000) }).getPage(page()));
    expect(behind.message).toBe(
      `The service refused the credentials for /CarSegmentsByDate (HTTP 401). Check REPORTS_API_USERNAME and REPORTS_API_KEY. The local clock is 7 min 30 s behind the service's (its Date: Sun, 22 Nov 2026 01:16:28 GMT); signatures carry the time, so correct the system clock. The service said: "Unauthorized: Invalid signature"`,
    );
    const forbidden = await rejection(client(svc.url, { now: () => new Date(T + 2_000) }).getPage(page()));
    expect(forbidden.kind).toBe('auth');
    expect(forbidden.message).toBe(
      `The service refused the credentials for /CarSegmentsByDate (HTTP 403). Check REPORTS_API_USERNAME and REPORTS_API_KEY. The local clock agrees with the service's (within 2 s), so the clock is not the cause. The service said: "Unauthorized: Invalid signature"`,
    );
    expect(svc.requests).toHaveLength(3);
  });

  test('no Date header: says the clock could not be compared', async () => {
    const svc = await service({
      total: 10,
      fault: () => ({ status: 403, body: 'Forbidden', contentType: 'text/plain', noDate: true }),
    });
    const err = await rejection(client(svc.url).getPage(page()));
    expect(err.message).toBe(
      "The service refused the credentials for /CarSegmentsByDate (HTTP 403). Check REPORTS_API_USERNAME and REPORTS_API_KEY. The service sent no Date header, so the clock could not be compared. The body (text/plain) begins: 'Forbidden'",
    );
  });
});

describe('bodies that are not the JSON envelope', () => {
  const html = `<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>We'll be back soon</h1><p>${'The reporting service is down for maintenance. '.repeat(8)}</p></body></html>`;

  test('an HTML page with 200: status, content type and the first 200 characters', async () => {
    const svc = await service({
      total: 10,
      fault: () => ({ status: 200, body: html, contentType: 'text/html; charset=utf-8' }),
    });
    const err = await rejection(client(svc.url).getPage(page()));
    expect(svc.requests).toHaveLength(1);
    expect(err.kind).toBe('malformed_response');
    expect(err.retryable).toBe(false);
    expect(err.details).toEqual({ status: 200, path: PATH });
    expect(html.slice(0, 200)).toBe(
      "<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>We'll be back soon</h1><p>The reporting service is down for maintenance. The reporting service is down for maintenance. The report",
    );
    expect(err.message).toBe(
      "/CarSegmentsByDate answered HTTP 200 with text/html; charset=utf-8 that is not valid JSON; first 200 characters: '<!DOCTYPE html><html><head><title>Maintenance</title></head><body><h1>We'll be back soon</h1><p>The reporting service is down for maintenance. The reporting service is down for maintenance. The report'",
    );
  });

  test('truncated JSON', async () => {
    const truncated = '{"ResponseMetadata":{"Success":true,"HasPaging":true},"ResponseReport":[{"Seq":0},{"Se';
    const svc = await service({ total: 10, fault: () => ({ status: 200, body: truncated }) });
    const err = await rejection(client(svc.url).getPage(page()));
    expect(err.kind).toBe('malformed_response');
    expect(err.message).toBe(
      `/CarSegmentsByDate answered HTTP 200 with application/json that is not valid JSON; first 200 characters: '${truncated}'`,
    );
  });

  test('an empty body with no content type', async () => {
    const svc = await service({ total: 10, fault: () => ({ status: 200, body: '', contentType: '' }) });
    const err = await rejection(client(svc.url).getPage(page()));
    expect(err.message).toBe(
      '/CarSegmentsByDate answered HTTP 200 with no content type that is not valid JSON; first 200 characters: (empty body)',
    );
  });

  test('a 502 HTML page is retried, then reported with its snippet', async () => {
    const page502 =
      '<html>\n  <head><title>502 Bad Gateway</title></head>\n  <body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body>\n</html>\n';
    const svc = await service({ total: 10, fault: () => ({ status: 502, body: page502, contentType: 'text/html' }) });
    const logs: string[] = [];
    const err = await rejection(client(svc.url, { random: () => 0, log: (l) => logs.push(l) }).getPage(page()));
    expect(svc.requests).toHaveLength(3);
    expect(logs.filter((l) => l.startsWith('retry'))).toEqual([
      'retry 1/2 of /CarSegmentsByDate Offset=0 in 5 ms after server 502',
      'retry 2/2 of /CarSegmentsByDate Offset=0 in 10 ms after server 502',
    ]);
    expect(err.kind).toBe('server');
    expect(err.message).toBe(
      "/CarSegmentsByDate answered HTTP 502. The service failed; this is not caused by the request. The body (text/html) begins: '<html> <head><title>502 Bad Gateway</title></head> <body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body> </html>' Gave up after 3 attempts.",
    );
  });
});

describe('secrets: the key and the signatures never leave', () => {
  test('no error kind, note or log line carries the key or any signature the service saw', async () => {
    const logs: string[] = [];
    const signaturesSeen: string[] = [];
    const outcomes: Array<{ kind: string; error?: unknown; notes?: string[] }> = [];
    /** Upstreams that echo what they were sent (debug pages, verbose errors) are the realistic leak. */
    const echo = (r: SeenRequest) =>
      `key=${KEY} signature=${String(r.headers['x-service-api-signature'])} date=${String(r.headers['x-service-api-date'])}`;
    const envelopeEcho = (r: SeenRequest, code: string) =>
      JSON.stringify({
        ResponseMetadata: { Success: false },
        ResponseError: {
          ErrorCode: code,
          Message: `Signature ${String(r.headers['x-service-api-signature'])} rejected`,
          StatusCode: '401',
          VerboseMessage: echo(r),
        },
      });

    const run = async (
      kind: string,
      fault: ((r: SeenRequest) => Fault | undefined) | undefined,
      over: { fetch?: Partial<FetchRequest>; client?: object; abortAfterMs?: number; baseUrl?: string } = {},
    ) => {
      const svc = await service({ total: 300, fault });
      const controller = new AbortController();
      const c = client(over.baseUrl ?? svc.url, {
        log: (l) => logs.push(l),
        retry: { attempts: 2, baseDelayMs: 5, maxDelayMs: 5 },
        ...over.client,
      });
      if (over.abortAfterMs !== undefined) setTimeout(() => controller.abort(), over.abortAfterMs);
      try {
        const out = await fetchReport(c, req({ signal: controller.signal, ...over.fetch }));
        outcomes.push({ kind, notes: out.notes });
        expect(out.notes.length).toBeGreaterThan(0);
      } catch (error) {
        outcomes.push({ kind, error });
        expect(error).toBeInstanceOf(ReportsError);
        expect((error as ReportsError).kind).toBe(kind);
      }
      signaturesSeen.push(...svc.requests.map((r) => String(r.headers['x-service-api-signature'])));
    };

    await run('auth', (r) => ({ status: 401, body: envelopeEcho(r, 'Unauthorized') }));
    await run('auth', (r) => ({ status: 403, body: `<html>${echo(r)}</html>`, contentType: 'text/html' }));
    await run('auth', undefined, { client: { key: 'a-wrong-key-456' } });
    await run('rate_limited', (r) => ({
      status: 429,
      body: envelopeEcho(r, 'TooMany'),
      headers: { 'retry-after': '0' },
    }));
    await run('server', (r) => ({ status: 502, body: `<pre>${echo(r)}</pre>`, contentType: 'text/html' }));
    await run('server', (r) => ({ status: 500, body: envelopeEcho(r, 'Internal') }));
    await run('upstream', (r) => ({ status: 200, body: envelopeEcho(r, 'Denied') }));
    await run('upstream', (r) => ({ status: 400, body: echo(r), contentType: 'text/plain' }));
    await run('malformed_response', (r) => ({ status: 200, body: `<html>${echo(r)}`, contentType: 'text/html' }));
    await run('malformed_response', (r) => ({ status: 200, body: `{"ResponseMetadata": "${echo(r)}"` }));
    await run('timeout', () => ({ hang: true }), { client: { timeoutMs: 100 } });
    await run('timeout', () => ({ hang: true }), { fetch: { budgetMs: 150 } });
    await run('network', () => ({ reset: true }));
    await run('cancelled', (r) => (r.offset > 0 ? { hang: true } : undefined), { abortAfterMs: 80 });
    // Inconsistencies and failed pages become notes on a partial result.
    await run('inconsistent', (r) =>
      r.offset === 100 ? { records: 3 } : r.offset === 200 ? { total: 301 } : undefined,
    );
    await run('inconsistent', (r) =>
      r.offset === 200 ? { status: 503, body: echo(r), contentType: 'text/plain' } : undefined,
    );
    await run(
      'inconsistent',
      (r) => (r.offset === 100 ? { status: 401, body: envelopeEcho(r, 'Unauthorized') } : undefined),
      { client: { limiter: new Limiter(1) } },
    );

    expect(outcomes.map((o) => o.kind)).toEqual([
      'auth',
      'auth',
      'auth',
      'rate_limited',
      'server',
      'server',
      'upstream',
      'upstream',
      'malformed_response',
      'malformed_response',
      'timeout',
      'timeout',
      'network',
      'cancelled',
      'inconsistent',
      'inconsistent',
      'inconsistent',
    ]);
    expect(outcomes.filter((o) => o.error).length).toBe(14);
    // (Retries within the same second repeat a signature: the date has whole seconds.)
    expect(new Set(signaturesSeen).size).toBeGreaterThanOrEqual(20);
    expect(logs.length).toBeGreaterThan(20);

    const secrets = [KEY, 'a-wrong-key-456', ...signaturesSeen];
    for (const o of outcomes) {
      const err = o.error as ReportsError | undefined;
      const texts = err
        ? [
            err.message,
            String(err),
            err.stack ?? '',
            JSON.stringify(err),
            JSON.stringify(Object.keys(err)),
            JSON.stringify(Object.values(err)),
            inspect(err, { depth: 10, showHidden: true }),
          ]
        : [JSON.stringify(o.notes)];
      for (const text of texts) for (const s of secrets) expect(text, `${o.kind}: ${text}`).not.toContain(s);
    }
    for (const line of logs) for (const s of secrets) expect(line).not.toContain(s);
    // The echoes did reach the messages, redacted: the tests above would notice a leak.
    const messages = outcomes
      .map((o) => (o.error as ReportsError | undefined)?.message ?? o.notes!.join(' '))
      .join('\n');
    expect(messages).toContain('key=[redacted] signature=[redacted]');
  });
});
