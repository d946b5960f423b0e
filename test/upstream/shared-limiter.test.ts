/**
 * The upstream concurrency limit shared through a real redis-server: limiters of two
 * "replicas" (two connections) together never exceed it, and a lease its holder stops
 * renewing (a replica that died) frees itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEASE_MS, LEASES_KEY, SharedLimiter } from '../../src/upstream/redis-limiter.js';
import { connectRedis, type RedisLink } from '../../src/upstream/redis-link.js';
import { programPath } from '../helpers/programs.js';
import { type RedisServer, startRedis } from '../helpers/redis-server.js';

/** redis-server on PATH; '' when missing, and then the Redis suites are skipped (test/helpers/system-programs.ts). */
const REDIS = programPath('redis-server');

let redis: RedisServer;
let links: RedisLink[];

beforeAll(async () => {
  if (!REDIS) return;
  redis = await startRedis();
  links = [await connectRedis(redis.url, () => {}), await connectRedis(redis.url, () => {})];
});
afterAll(async () => {
  for (const l of links ?? []) await l.close();
  await redis?.kill();
});

describe.skipIf(!REDIS)('SharedLimiter', () => {
  it('two replicas with limit 3 never hold more than 3 together, and every task runs once', async () => {
    const [a, b] = links.map((l) => new SharedLimiter(l, 3));
    let now = 0;
    let max = 0;
    const ran: number[] = [];
    const task = (i: number) => async () => {
      now++;
      max = Math.max(max, now);
      await new Promise((r) => setTimeout(r, 15));
      now--;
      ran.push(i);
      return i;
    };
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).run(task(i))));
    expect(results).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(ran.sort((x, y) => x - y)).toEqual(results);
    expect(max).toBe(3);
    expect(await links[0].client.zCard(LEASES_KEY)).toBe(0);
  });

  it('a lease nobody renews (its replica died) frees itself within LEASE_MS', async () => {
    const limiter = new SharedLimiter(links[1], 1);
    // A dead replica's lease: taken, never renewed, never released.
    const t = (await links[0].client.sendCommand(['TIME'])) as unknown as string[];
    const nowMs = Number(t[0]) * 1000 + Math.floor(Number(t[1]) / 1000);
    await links[0].client.zAdd(LEASES_KEY, { score: nowMs + LEASE_MS, value: 'dead-replica:1' });
    let ran = false;
    const run = limiter.run(async () => {
      ran = true;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(ran).toBe(false); // the dead replica's lease still counts
    await run;
    expect(ran).toBe(true);
    expect(await links[0].client.zScore(LEASES_KEY, 'dead-replica:1')).toBeNull();
  });

  it('a task that says it is done gives its lease back while it still runs', async () => {
    const [a, b] = links.map((l) => new SharedLimiter(l, 1));
    let finish!: () => void;
    let saidDone!: () => void;
    const isDone = new Promise<void>((r) => (saidDone = r));
    const first = a.run(async (done) => {
      done();
      saidDone();
      await new Promise<void>((r) => (finish = r));
      return 'first';
    });
    await isDone;
    // The other replica takes the only share while the first task has not ended.
    expect(await b.run(async () => 'second')).toBe('second');
    finish();
    expect(await first).toBe('first');
    expect(await links[0].client.zCard(LEASES_KEY)).toBe(0);
  });

  it('a waiting call is cancelled by its signal', async () => {
    const limiter = new SharedLimiter(links[0], 1);
    let release!: () => void;
    let running!: () => void;
    const isRunning = new Promise<void>((r) => (running = r));
    const holding = limiter.run(
      () =>
        new Promise<void>((r) => {
          release = r;
          running();
        }),
    );
    await isRunning;
    const controller = new AbortController();
    const waiting = limiter.run(async () => 'ran', controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow(/cancelled/);
    release();
    await holding;
  });
});
