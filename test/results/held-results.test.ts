/**
 * One suite, two stores: the in-memory ResultStore and the Redis store (a real redis-server
 * started here) behave the same through the HeldResults interface and the owner check.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HeldResults, ownedBy } from '../../src/results/held-results.js';
import { RedisResultStore } from '../../src/results/redis-store.js';
import { type NewResult, ResultStore } from '../../src/results/store.js';
import { connectRedis, type RedisLink } from '../../src/upstream/redis-link.js';
import { programPath } from '../helpers/programs.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

/** redis-server on PATH; '' when missing, and then the Redis suites are skipped (test/helpers/system-programs.ts). */
const REDIS = programPath('redis-server');

let redis: RedisServer;
let link: RedisLink;
const logs: string[] = [];

beforeAll(async () => {
  if (!REDIS) return;
  redis = await startRedis();
  link = await connectRedis(redis.url, (l) => logs.push(l));
});
afterAll(async () => {
  await link?.close();
  await redis?.kill();
});

function result(owner: string, report: string, n: number): NewResult {
  const records = Array.from({ length: n }, (_, i) => ({ Id: i, Account: `A${i % 3}`, Fare: i * 1.5 }));
  return {
    owner,
    report,
    source: 'demo',
    query: { DateStart: '20261101' },
    sentQuery: { DateStart: '20261101' },
    totalRecords: n,
    complete: true,
    notes: [],
    records,
    held: [{ offset: 0, count: n }],
  };
}

const stores: Array<[string, (ttlMs: number) => HeldResults]> = [
  ['in memory', (ttlMs) => new ResultStore({ ttlMs })],
  ...(REDIS
    ? [['in Redis', (ttlMs: number) => new RedisResultStore(link, ttlMs)] as [string, (ttlMs: number) => HeldResults]]
    : []),
];

describe.each(stores)('held results %s', (_, make) => {
  it('holds a result whole: records, summary, held ranges, owner', async () => {
    const store = make(60_000);
    const put = await store.put(result('ana', 'air_segments_by_date', 30));
    expect(put.id).toMatch(/^r_[\w-]{16}$/);
    const got = await store.get(put.id);
    expect(got.records).toEqual(result('ana', 'x', 30).records);
    expect(got.owner).toBe('ana');
    expect(got.summary?.recordCount).toBe(30);
    expect(got.summary).toEqual(put.summary);
    expect(got.held).toEqual([{ offset: 0, count: 30 }]);
    expect(got.bytes).toBe(put.bytes);
  });

  it('update replaces records and recomputes the summary; the id and creation time stay', async () => {
    const store = make(60_000);
    const put = await store.put({ ...result('ana', 'r', 5), complete: false, totalRecords: 9 });
    const more = result('ana', 'r', 9).records;
    const updated = await store.update(put.id, { records: more, complete: true, held: [{ offset: 0, count: 9 }] });
    expect(updated.id).toBe(put.id);
    expect(updated.createdAt).toBe(put.createdAt);
    const got = await store.get(put.id);
    expect(got.records).toHaveLength(9);
    expect(got.complete).toBe(true);
    expect(got.summary?.recordCount).toBe(9);
    const notes = await store.update(put.id, { notes: ['checked'] });
    expect((await store.get(put.id)).notes).toEqual(['checked']);
    expect(notes.records).toHaveLength(9);
  });

  it("an owner sees only their results; another's answers exactly like an unknown one", async () => {
    const store = make(60_000);
    const ana = ownedBy(store, `ana-${Math.random()}`);
    const ben = ownedBy(store, `ben-${Math.random()}`);
    const a1 = await ana.put(result('ignored', 'a1', 3));
    const a2 = await ana.put(result('ignored', 'a2', 4));
    const b1 = await ben.put(result('ignored', 'b1', 2));
    expect(a1.owner).toBe(ana.owner);
    expect((await ana.list()).map((r) => r.id).sort()).toEqual([a1.id, a2.id].sort());
    expect((await ben.list()).map((r) => r.id)).toEqual([b1.id]);
    const unknown = await ben.get('r_AAAAAAAAAAAAAAAAAAAAAAAA').catch((e: Error) => e.message);
    const theirs = await ben.get(a1.id).catch((e: Error) => e.message);
    expect(theirs).toBe(String(unknown).replace('r_AAAAAAAAAAAAAAAAAAAAAAAA', a1.id));
    await expect(ben.update(a1.id, { notes: ['x'] })).rejects.toThrow(`No result '${a1.id}' is held`);
    expect((await ana.get(a1.id)).notes).toEqual([]);
  });

  it('a result unused for its TTL is gone; its owner is told it expired, anyone else that it is unknown', async () => {
    const store = make(300);
    const ana = ownedBy(store, `ana-${Math.random()}`);
    const ben = ownedBy(store, `ben-${Math.random()}`);
    const put = await ana.put(result('ignored', 'air_segments_by_date', 2));
    await new Promise((r) => setTimeout(r, 700));
    const message = (p: Promise<unknown>) => p.then(String, (e: Error) => e.message);
    expect(await message(ana.get(put.id))).toBe(
      `No result '${put.id}' is held: it expired, unused for 300 ms (REPORTS_RESULTS_TTL_MINUTES). ` +
        'Run air_segments_by_date again for a new resultId.',
    );
    const unknown = 'r_AAAAAAAAAAAAAAAAAAAAAAAA';
    const neverIssued =
      "No result 'r_AAAAAAAAAAAAAAAAAAAAAAAA' is held: it is not a resultId this server issued, or it was " +
      'issued before the server restarted. Run the report again for a new resultId.';
    expect(await message(ana.get(unknown))).toBe(neverIssued);
    expect(await message(ben.get(put.id))).toBe(neverIssued.replace(unknown, put.id));
    // The store itself (no owner check) throws at once in memory, rejects in Redis.
    await expect(Promise.resolve().then(() => store.get(put.id))).rejects.toThrow(`No result '${put.id}' is held`);
  });
});

describe.skipIf(!REDIS)('the Redis store when Redis goes away', () => {
  it('answers with a clear error at once (no hang, no crash) and works again when Redis is back', async () => {
    const store = new RedisResultStore(link, 60_000);
    const put = await store.put(result('ana', 'before', 2));
    await redis.kill();
    const err = await store.get(put.id).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(
      /^The shared result store \(Redis, REPORTS_REDIS_URL\) could not read a held result: /,
    );
    await redis.start();
    // Reconnection is the client's own; wait for it, then a fresh (empty) Redis holds new results.
    let after: Error | undefined;
    for (let i = 0; i < 100; i++) {
      after = await store.put(result('ana', 'after', 2)).then(
        () => undefined,
        (e: Error) => e,
      );
      if (!after) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(after).toBeUndefined();
    await expect(store.get(put.id)).rejects.toThrow(`No result '${put.id}' is held`);
    expect(logs.some((l) => /Redis at redis:\/\/127\.0\.0\.1:\d+\/? is unreachable/.test(l))).toBe(true);
    expect(logs.some((l) => /is back/.test(l))).toBe(true);
  });
});
