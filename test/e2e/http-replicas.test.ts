/**
 * Two replicas of the BUILT server sharing a real redis-server, in live mode against a
 * sandbox started here (so the test sees every upstream request): results follow a person
 * from one replica to the other, the concurrency limit holds across both, a killed replica's
 * leases free themselves, and Redis going away gives clear errors, then recovery.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { LEASES_KEY } from '../../src/upstream/redis-limiter.js';
import {
  assertBuilt,
  connectClient,
  type HttpClient,
  type HttpServerProcess,
  killAll,
  startHttpServer,
} from '../helpers/http-server.js';
import { programPath } from '../helpers/programs.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

/** redis-server on PATH; '' when missing, and then the Redis suites are skipped (test/helpers/system-programs.ts). */
const REDIS = programPath('redis-server');

const TOKEN = 'replica-team-token-8c1f';
const LIMIT = 2;
let redis: RedisServer;
let sandbox: Sandbox;
const clients: HttpClient[] = [];

type Out = Record<string, unknown>;
const structured = (r: CallToolResult) => r.structuredContent as Out;
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

beforeAll(async () => {
  if (!REDIS) return;
  assertBuilt();
  redis = await startRedis();
  sandbox = await startSandbox({ latencyMs: 20 });
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.client.close().catch(() => {});
  killAll();
});
afterAll(async () => {
  await sandbox?.close();
  await redis?.kill();
});

function replica(upstream: Sandbox = sandbox): Promise<HttpServerProcess> {
  return startHttpServer({
    env: {
      REPORTS_BASE_URL: upstream.url,
      REPORTS_API_USERNAME: upstream.username,
      REPORTS_API_KEY: upstream.key,
      REPORTS_HTTP_TOKEN: TOKEN,
      REPORTS_REDIS_URL: redis.url,
      REPORTS_CONCURRENCY: String(LIMIT),
      REPORTS_PAGE_SIZE: '50',
    },
  });
}

async function connect(server: HttpServerProcess): Promise<HttpClient> {
  const c = await connectClient(server.url, TOKEN);
  clients.push(c);
  return c;
}

describe.skipIf(!REDIS)('two replicas sharing Redis', () => {
  it('a report fetched through one replica is queried, continued and read through the other', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const ca = await connect(a);
    const cb = await connect(b);
    const first = await ca.call('air_segments_by_date', {
      DateStart: 'today-30',
      DateEnd: 'today+30',
      maxRecords: 120,
    });
    const out = structured(first);
    expect(out.complete).toBe(false);
    expect(out.fetchedRecords).toBe(120);
    const total = Number(out.totalRecords);
    expect(total).toBeGreaterThan(120);

    const q = structured(await cb.call('query_report', { resultId: out.resultId, aggregates: [{ fn: 'count' }] }));
    expect(q.matched).toBe(120);
    const continued = await cb.call('continue_report', { resultId: out.resultId });
    expect(continued.isError).toBeFalsy();
    expect(structured(continued).resultId).toBe(out.resultId);
    expect(structured(continued).complete).toBe(true);
    expect(structured(continued).fetchedRecords).toBe(total);

    const back = structured(await ca.call('query_report', { resultId: out.resultId, groupBy: ['Account'] }));
    expect(back.matched).toBe(total);
    const readA = await ca.client.readResource({ uri: String(out.resourceUri) });
    const readB = await cb.client.readResource({ uri: String(out.resourceUri) });
    const page = JSON.parse((readB.contents[0] as { text: string }).text) as { records: unknown[]; pages: number };
    expect(page.pages).toBe(1);
    const records = page.records;
    expect(records).toHaveLength(total);
    expect((readA.contents[0] as { text: string }).text).toBe((readB.contents[0] as { text: string }).text);
    expect(new Set(records.map((r) => JSON.stringify(r))).size).toBe(total);
    const listed = (await cb.client.listResources()).resources.map((r) => r.uri);
    expect(listed).toContain(String(out.resourceUri));
    console.log(`replicas: ${total} records, 120 fetched through replica A, ${total - 120} continued through B`);
  });

  it('sql_query through either replica reads the same tables, numbered once for both (Redis INCR)', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const ca = await connect(a);
    const cb = await connect(b);
    const first = structured(await ca.call('air_segments_by_date', { DateStart: 'today-30', DateEnd: 'today+30' }));
    const second = structured(await cb.call('air_segments_by_date', { DateStart: 'today-10', DateEnd: 'today+10' }));
    const number = Number(/^air_segments_by_date_(\d+)$/.exec(String(first.table))?.[1]);
    expect(second.table).toBe(`air_segments_by_date_${number + 1}`);
    const sql = `SELECT (SELECT COUNT(*) FROM ${first.table}) AS a, (SELECT COUNT(*) FROM ${second.table}) AS b`;
    const viaB = structured(await cb.call('sql_query', { sql }));
    expect(viaB.rows).toEqual([{ a: first.fetchedRecords, b: second.fetchedRecords }]);
    expect(structured(await ca.call('sql_query', { sql })).rows).toEqual(viaB.rows);
  });

  it('two replicas never exceed the concurrency limit together', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const sessions = await Promise.all([a, a, a, b, b, b].map(connect));
    sandbox.resetStats();
    sandbox.maxInFlight = 0;
    const answers = await Promise.all(
      sessions.map((c, i) =>
        c.call(i % 2 ? 'air_segments_by_date' : 'car_segments_by_date', { DateStart: 'today-40', DateEnd: 'today+40' }),
      ),
    );
    for (const r of answers) {
      expect(r.isError).toBeFalsy();
      expect(structured(r).complete).toBe(true);
    }
    const pages = sandbox.requests.length;
    expect(pages).toBeGreaterThan(6 * LIMIT);
    expect(sandbox.maxInFlight).toBeLessThanOrEqual(LIMIT);
    expect(sandbox.maxInFlight).toBe(LIMIT);
    console.log(
      `replicas: 6 reports over 2 replicas, ${pages} upstream requests, at most ${sandbox.maxInFlight} in flight (limit ${LIMIT})`,
    );
  });

  it('killing a replica mid-report frees its leases; the other carries on', async () => {
    const slow = await startSandbox({ latencyMs: 120_000 });
    const redisClient = createClient({ url: redis.url });
    await redisClient.connect();
    try {
      const [dying, survivor] = await Promise.all([replica(slow), replica()]);
      const cd = await connect(dying);
      void cd.call('air_segments_by_date', { DateStart: 'today-30', DateEnd: 'today+30' }).catch(() => {});
      await until(async () => slow.requests.length >= 1 && (await redisClient.zCard(LEASES_KEY)) >= 1);
      const held = await redisClient.zCard(LEASES_KEY);
      expect(held).toBeGreaterThanOrEqual(1);
      dying.kill();
      await dying.exited;
      // Until its leases lapse the survivor waits; then it fetches within the whole limit.
      const cs = await connect(survivor);
      const r = await cs.call('hotel_segments', { DateStart: 'today-5', DateEnd: 'today+5' });
      expect(r.isError).toBeFalsy();
      expect(structured(r).complete).toBe(true);
      await until(async () => (await redisClient.zCard(LEASES_KEY)) === 0);
      expect(await redisClient.zCard(LEASES_KEY)).toBe(0);
      console.log(`replicas: killed replica held ${held} lease(s); freed by expiry, survivor answered`);
    } finally {
      await redisClient.close();
      await slow.close();
    }
  }, 60_000);

  it('Redis going away turns calls into clear errors, and the replica recovers when it is back', async () => {
    const server = await replica();
    const c = await connect(server);
    const before = structured(await c.call('hotel_segments', { DateStart: 'today-5', DateEnd: 'today+5' }));
    await redis.kill();
    const q = await c.call('query_report', { resultId: before.resultId });
    expect(q.isError).toBe(true);
    expect(text(q)).toMatch(/The shared result store \(Redis, REPORTS_REDIS_URL\) could not read a held result/);
    const r = await c.call('hotel_segments', { DateStart: 'today-5', DateEnd: 'today+5' });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/REPORTS_REDIS_URL/);
    await redis.start();
    let again: CallToolResult | undefined;
    for (let i = 0; i < 100; i++) {
      again = await c.call('hotel_segments', { DateStart: 'today-5', DateEnd: 'today+5' });
      if (!again.isError) break;
      await new Promise((res) => setTimeout(res, 100));
    }
    expect(again?.isError).toBeFalsy();
    expect(structured(again!).complete).toBe(true);
    expect(server.stderr()).toMatch(/Redis at redis:\/\/127\.0\.0\.1:\d+\/? is unreachable/);
    expect(server.stderr()).toMatch(/is back/);
    expect(server.child.exitCode).toBeNull();
  });
});

async function until(check: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
}
