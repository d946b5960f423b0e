import type { IncomingMessage, ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterEach, describe, expect, test } from 'vitest';
import { NotWanted, type PageSource } from '../../src/upstream/client.js';
import { type ConcurrencyLimit, Limiter } from '../../src/upstream/limiter.js';
import { type FetchRequest, fetchReport } from '../../src/upstream/paging.js';
import { page } from '../helpers/hostile-upstream.js';
import { type LoopbackServer, listenOnLoopback } from '../helpers/loopback-server.js';
import { client, PATH, range, requestedWindows, seqs, service } from './harness.js';

let server: LoopbackServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const req = (over: Partial<FetchRequest> = {}): FetchRequest => ({
  path: PATH,
  query: {},
  envelope: 'collection',
  pageSize: 500,
  maxRecords: 50_000,
  budgetMs: 10_000,
  ...over,
});

describe('concurrency', () => {
  test('limit 4 with 20 pages of 40 ms latency: exactly 4 in flight, never more', async () => {
    const svc = await service({ total: 10_000, latencyMs: 40 });
    const limiter = new Limiter(4);
    const out = await fetchReport(client(svc.url, { limiter }), req());
    expect(out.complete).toBe(true);
    expect(svc.requests).toHaveLength(20);
    expect(svc.maxInFlight).toBe(4);
    expect(limiter.maxActive).toBe(4);
    expect(limiter.inFlight).toBe(0);
  });

  test('a request gives its slot back once its body is read, before the body is parsed', async () => {
    // The page at Offset 500 is not JSON (a malformed answer: not retried, its records missing).
    const svc = await service({
      total: 1500,
      latencyMs: 5,
      fault: (r) => (r.offset === 500 ? { status: 200, body: '{"Respo' } : undefined),
    });
    const inner = new Limiter(1);
    const events: string[] = [];
    // The limiter's own done is called when a task ends in any case; the task's, only when the
    // client calls it.
    const limiter: ConcurrencyLimit = {
      limit: 1,
      inFlight: 0,
      maxActive: 0,
      run: (task, signal) =>
        inner.run(
          (done) =>
            task(() => {
              events.push('done');
              done();
            }).finally(() => events.push('ended')),
          signal,
        ),
    };
    const out = await fetchReport(client(svc.url, { limiter }), req());
    expect(seqs(out)).toEqual([...range(0, 500), ...range(1000, 1500)]);
    expect(out.complete).toBe(false);
    expect(svc.requests.map((r) => r.offset).sort((a, b) => a - b)).toEqual([0, 500, 1000]);
    // Each request said it was done before it ended, the one whose body was not JSON too:
    // done is said when the body is read, whatever parsing it then gives.
    expect(events).toEqual(['done', 'ended', 'done', 'ended', 'done', 'ended']);
    expect(svc.maxInFlight).toBe(1);
  });

  test('a request no longer wanted when its turn to be sent comes is not sent', async () => {
    const svc = await service({ total: 1000, latencyMs: 20 });
    const c = client(svc.url, { limiter: new Limiter(1) });
    let ended = false;
    const first = c.getPage({ path: PATH, query: {}, envelope: 'collection', offset: 0, limit: 500 });
    // Wanted when asked for; it waits for the only slot, and no longer is when its turn comes.
    const second = c.getPage({
      path: PATH,
      query: {},
      envelope: 'collection',
      offset: 500,
      limit: 500,
      wanted: () => !ended,
    });
    ended = true;
    expect((await first).records).toHaveLength(500);
    await expect(second).rejects.toBeInstanceOf(NotWanted);
    expect(svc.requests.map((r) => r.offset)).toEqual([0]);
  });

  test('limit 1: strictly one request at a time', async () => {
    const svc = await service({ total: 3000, latencyMs: 5 });
    const limiter = new Limiter(1);
    const out = await fetchReport(client(svc.url, { limiter }), req());
    expect(seqs(out)).toEqual(range(0, 3000));
    expect(svc.maxInFlight).toBe(1);
    expect(limiter.maxActive).toBe(1);
    for (let i = 1; i < svc.requests.length; i++)
      expect(svc.requests[i].at).toBeGreaterThanOrEqual(svc.requests[i - 1].endedAt!);
  });

  test('two calls sharing one Limiter (two clients, as two tool calls) together stay within it', async () => {
    const svc = await service({ total: 6000, latencyMs: 15 });
    const limiter = new Limiter(3);
    const a = client(svc.url, { limiter });
    const b = client(svc.url, { limiter });
    const [x, y] = await Promise.all([fetchReport(a, req()), fetchReport(b, req({ query: { Account: 'B' } }))]);
    expect(seqs(x)).toEqual(range(0, 6000));
    expect(seqs(y)).toEqual(range(0, 6000));
    expect(svc.requests).toHaveLength(24);
    expect(svc.maxInFlight).toBe(3);
    expect(limiter.maxActive).toBe(3);
  });

  test('a short first page is walked before any other window is asked for', async () => {
    // The service answers 300 of the 500 asked at Offset 0, and says 3,000 in all.
    const svc = await service({
      total: 3000,
      latencyMs: 5,
      fault: (r) => (r.offset === 0 ? { records: 300 } : undefined),
    });
    const limiter = new Limiter(4);
    let atFirst: number | undefined;
    const prepare = (r: Record<string, unknown>) => {
      if (r.Seq === 0) atFirst = limiter.inFlight;
    };
    const out = await fetchReport(client(svc.url, { limiter }), req({ prepare }));
    expect(atFirst).toBe(0);
    expect(out.complete).toBe(false);
    expect(out.notes.join(' ')).toContain('records 300-499 are missing');
  });

  test("a worker asks for its next window once a page's body is read, before the page is decoded and parsed", async () => {
    // Compressed pages: each is inflated on the thread pool, then parsed, after its body is read.
    const all = Array.from({ length: 500 }, (_, i) => ({ Seq: i, Remark: `record ${i} `.repeat(8) }));
    server = await listenOnLoopback(async (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const [offset, limit] = [Number(url.searchParams.get('Offset')), Number(url.searchParams.get('Limit'))];
      const body = page(all.slice(offset, offset + limit), { total: all.length, offset, limit });
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify(body)));
    });
    const real = client(server.url, { limiter: new Limiter(1) });
    const events: string[] = [];
    const source: PageSource = {
      limiter: real.limiter,
      getPage: async (r) => {
        events.push(`ask ${r.offset}`);
        const answer = await real.getPage(r);
        events.push(`parsed ${r.offset}`);
        return answer;
      },
    };
    const out = await fetchReport(source, req({ pageSize: 100 }));
    expect(seqs(out)).toEqual(range(0, 500));
    // The first page is parsed before any other is asked for (it says how many there are);
    // after it, each window is asked for before the page before it is parsed. (Asked for once
    // that page was parsed, they alternated: ask 100, parsed 100, ask 200, ...)
    expect(events).toEqual([
      'ask 0',
      'parsed 0',
      'ask 100',
      'ask 200',
      'parsed 100',
      'ask 300',
      'parsed 200',
      'ask 400',
      'parsed 300',
      'parsed 400',
    ]);
  });

  test('with more than two pages read and not walked, a worker asks for its next window only once its page is parsed', async () => {
    // A page source whose bodies are read and answered when the test says (the edge here).
    const pages = new Map<number, { read: () => void; answer: () => void }>();
    const events: string[] = [];
    const source: PageSource = {
      limiter: { limit: 4 },
      getPage: (r) => {
        const offset = r.offset ?? 0;
        events.push(`ask ${offset}`);
        const records = Array.from({ length: 100 }, (_, i) => ({ Seq: offset + i }));
        const page = { records, totalRecords: 1000, responseRecords: 100, fromCache: false, attempts: 1 };
        if (offset === 0) return Promise.resolve(page);
        return new Promise((resolve) => {
          pages.set(offset, { read: () => r.bodyRead?.(), answer: () => resolve(page) });
        });
      },
    };
    const flush = () => new Promise((r) => setTimeout(r, 5));
    /** Reads or answers the pages at `offsets`, lets the fetch run, and gives the asks made since. */
    const after = async (what: 'read' | 'answer', ...offsets: number[]) => {
      const before = events.length;
      for (const offset of offsets) pages.get(offset)?.[what]();
      await flush();
      return events.slice(before);
    };
    const fetching = fetchReport(source, req({ pageSize: 100 }));
    await flush();
    expect(events).toEqual(['ask 0', 'ask 100', 'ask 200', 'ask 300', 'ask 400']);
    // Bodies of 100 and 200 read: one and two pages wait, each worker asks at once.
    expect(await after('read', 100, 200)).toEqual(['ask 500', 'ask 600']);
    // A third and a fourth read: their workers wait for their pages to be parsed.
    expect(await after('read', 300, 400)).toEqual([]);
    expect(await after('answer', 400)).toEqual(['ask 700']);
    // 100 and 200 parsed and walked: 300 alone waits, so a read of 500 (a second) asks at once.
    expect(await after('answer', 100, 200)).toEqual([]);
    expect(await after('read', 500)).toEqual(['ask 800']);
    // A read of 600 makes three: its worker waits for its parse.
    expect(await after('read', 600)).toEqual([]);
    expect(await after('answer', 600)).toEqual(['ask 900']);
    for (const offset of [300, 500, 700, 800, 900]) {
      pages.get(offset)?.read();
      pages.get(offset)?.answer();
      await flush();
    }
    const out = await fetching;
    expect(out.complete).toBe(true);
    expect(seqs(out)).toEqual(range(0, 1000));
  });

  test('the concurrent walk requests every window once, whatever the completion order', async () => {
    // Earlier pages answer slower than later ones.
    const svc = await service({ total: 4000, fault: (r) => ({ delayMs: Math.max(0, 40 - r.offset / 100) }) });
    const out = await fetchReport(client(svc.url, { limiter: new Limiter(8) }), req());
    expect(out.complete).toBe(true);
    expect(seqs(out)).toEqual(range(0, 4000));
    expect(requestedWindows(svc)).toHaveLength(8);
  });
});

describe('done-when figure: 10,000 records in pages of 500, 20 ms latency per page', () => {
  test('concurrency 4 and concurrency 1 (sequential), both timed in the same run', async () => {
    const timeOne = async (concurrency: number) => {
      const svc = await service({ total: 10_000, latencyMs: 20 });
      const limiter = new Limiter(concurrency);
      const c = client(svc.url, { limiter });
      const started = performance.now();
      const out = await fetchReport(c, req());
      const ms = performance.now() - started;
      expect(out).toMatchObject({ totalRecords: 10_000, complete: true, notes: [], requests: 20 });
      expect(seqs(out)).toEqual(range(0, 10_000));
      expect(requestedWindows(svc)).toHaveLength(20);
      expect(svc.requests.every((r) => r.signatureOk)).toBe(true);
      expect(svc.maxInFlight).toBe(concurrency);
      return ms;
    };
    // A warm-up run so neither timed run pays for first-use costs (JIT, connection setup code).
    await timeOne(4);
    const concurrent = await timeOne(4);
    const sequential = await timeOne(1);
    console.error(
      `[paging figure] 10,000 records, 20 pages of 500, 20 ms latency: concurrency 4 ${concurrent.toFixed(0)} ms; ` +
        `concurrency 1 ${sequential.toFixed(0)} ms (ratio ${(sequential / concurrent).toFixed(2)})`,
    );
  });
});
