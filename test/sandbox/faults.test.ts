import { afterEach, describe, expect, it } from 'vitest';
import { type FaultKind, type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/service.js';
import { call, recordsOf } from './helpers.js';

const PATH = '/HotelSegments?Account=ACME&Limit=40';
let open: Sandbox[] = [];

async function sandbox(opts: SandboxOptions): Promise<Sandbox> {
  const sb = await startSandbox({ size: 150, ...opts });
  open.push(sb);
  return sb;
}

afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});

describe('sandbox faults', () => {
  it('faultPlan: a scripted 503 on the first request only', async () => {
    const sb = await sandbox({ faultPlan: (r) => (r.n === 1 ? '503' : undefined) });
    const first = await call(sb, PATH);
    expect(first.status).toBe(503);
    expect(first.json().ResponseError?.ErrorCode).toBe('ServiceUnavailable');
    const second = await call(sb, PATH);
    expect(second.status).toBe(200);
    expect(sb.requests.map((r) => [r.n, r.status, r.fault])).toEqual([
      [1, 503, '503'],
      [2, 200, undefined],
    ]);
  });

  it('faultPlan sees the request: method, path, transaction, query and paging', async () => {
    const seen: unknown[] = [];
    const sb = await sandbox({
      faultPlan: (r) => {
        seen.push(r);
        return r.offset === 40 ? '500' : undefined;
      },
    });
    expect((await call(sb, '/HotelSegments?Account=ACME&Offset=0&Limit=40')).status).toBe(200);
    const failed = await call(sb, '/HotelSegments?Account=ACME&Offset=40&Limit=40');
    expect(failed.status).toBe(500);
    expect(failed.json().ResponseError?.StatusCode).toBe('500');
    expect(seen[1]).toEqual({
      n: 2,
      method: 'GET',
      path: '/HotelSegments',
      transaction: 'HotelSegments',
      query: { Account: 'ACME', Offset: '40', Limit: '40' },
      offset: 40,
      limit: 40,
    });
  });

  it('429 carries Retry-After', async () => {
    const sb = await sandbox({ faultPlan: () => '429', retryAfterSeconds: 7 });
    const res = await call(sb, PATH);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect(res.json().ResponseError?.ErrorCode).toBe('TooManyRequests');
  });

  it('html, 502 and 401 faults', async () => {
    const kinds: FaultKind[] = ['html', '502', '401'];
    const sb = await sandbox({ faultPlan: (r) => kinds[r.n - 1] });
    const html = await call(sb, PATH);
    expect(html.status).toBe(502);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.text).toMatch(/<html>.*Bad Gateway/s);
    const gw = await call(sb, PATH);
    expect(gw.status).toBe(502);
    expect(() => gw.json()).toThrow();
    const unauth = await call(sb, PATH);
    expect(unauth.status).toBe(401);
    expect(unauth.json().ResponseError?.ErrorCode).toBe('Unauthorized');
  });

  it('truncated: a 200 whose JSON is cut mid-way', async () => {
    const sb = await sandbox({ faultPlan: (r) => (r.n === 2 ? 'truncated' : undefined) });
    const whole = await call(sb, PATH);
    const cut = await call(sb, PATH);
    expect(cut.status).toBe(200);
    expect(cut.headers.get('content-type')).toMatch(/application\/json/);
    expect(cut.text.length).toBeGreaterThan(10);
    expect(cut.text.length).toBeLessThan(whole.text.length);
    expect(whole.text.startsWith(cut.text.slice(0, 40))).toBe(true);
    expect(() => JSON.parse(cut.text)).toThrow();
  });

  it('reset: the connection is dropped without an answer', async () => {
    const sb = await sandbox({ faultPlan: () => 'reset' });
    await expect(call(sb, PATH)).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 20));
    expect(sb.requests[0].status).toBe(0);
    expect(sb.requests[0].fault).toBe('reset');
  });

  it('short-page: fewer records than ResponseRecords promises', async () => {
    const sb = await sandbox({ faultPlan: () => 'short-page' });
    const env = (await call(sb, '/HotelSegments?Limit=40')).json();
    const pm = env.ResponseMetadata.PagingMetadata!;
    expect(pm.ResponseRecords).toBe(40);
    expect(recordsOf(env).length).toBe(20);
  });

  it('totalDrift changes the reported TotalRecords per request', async () => {
    const sb = await sandbox({ totalDrift: (r) => (r.offset > 0 ? 5 : 0) });
    const real = sb.report('HotelSegments', { Account: 'ACME' }).length;
    const p1 = (await call(sb, '/HotelSegments?Account=ACME&Offset=0&Limit=10')).json();
    const p2 = (await call(sb, '/HotelSegments?Account=ACME&Offset=10&Limit=10')).json();
    expect(p1.ResponseMetadata.PagingMetadata!.TotalRecords).toBe(real);
    expect(p2.ResponseMetadata.PagingMetadata!.TotalRecords).toBe(real + 5);
  });

  it('faultRate draws from faultKinds with the seeded generator', async () => {
    const always = await sandbox({ faultRate: 1, faultKinds: ['500'] });
    expect((await call(always, PATH)).status).toBe(500);
    const statuses = async (): Promise<number[]> => {
      const sb = await sandbox({ faultRate: 0.5, seed: 9 });
      const out: number[] = [];
      for (let i = 0; i < 16; i++) out.push((await call(sb, PATH)).status);
      return out;
    };
    const a = await statuses();
    const b = await statuses();
    expect(a).toEqual(b);
    expect(a.filter((s) => s === 200).length).toBeGreaterThan(2);
    expect(a.filter((s) => s !== 200).length).toBeGreaterThan(2);
    expect(a.every((s) => [200, 500, 502, 503, 429].includes(s))).toBe(true);
  });

  it('hang: never answers until the client aborts, and close() still ends promptly', async () => {
    const sb = await startSandbox({ size: 50, faultPlan: () => 'hang' });
    const started = Date.now();
    await expect(call(sb, PATH, { signal: AbortSignal.timeout(150) })).rejects.toThrow();
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    // Another one left hanging while we close.
    const pending = call(sb, PATH).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    await sb.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});

describe('sandbox latency and concurrency', () => {
  it('applies a fixed latency before answering', async () => {
    const sb = await sandbox({ latencyMs: 120 });
    const t0 = Date.now();
    expect((await call(sb, PATH)).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(115);
    const r = sb.requests[0];
    expect(r.endedAt - r.startedAt).toBeGreaterThanOrEqual(115);
  });

  it('applies a random latency within the range, and counts requests in flight', async () => {
    const sb = await sandbox({ latencyMs: [150, 200] });
    await call(sb, PATH); // warm the dataset
    sb.resetStats();
    expect(sb.requests).toEqual([]);
    await Promise.all(Array.from({ length: 5 }, () => call(sb, PATH)));
    expect(sb.maxInFlight).toBe(5);
    for (const r of sb.requests) {
      expect(r.endedAt - r.startedAt).toBeGreaterThanOrEqual(145);
      expect(r.endedAt - r.startedAt).toBeLessThan(2000);
    }
    sb.resetStats();
    expect(sb.maxInFlight).toBe(0);
  });

  it('close() ends promptly while latency-delayed requests are pending', async () => {
    const sb = await startSandbox({ size: 50, latencyMs: 5000 });
    const pending = call(sb, PATH).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const t0 = Date.now();
    await sb.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});
