/**
 * REPORTS_CONCURRENCY across replicas: a semaphore in Redis whose holders are leases with an
 * expiry (a sorted set scored by expiry time, in Redis's own clock). A holder renews its lease
 * while its request runs; a replica that dies stops renewing, and its leases free themselves
 * within LEASE_MS. Within a process a local Limiter queues first, so at most `limit` waiters
 * per replica ask Redis.
 */
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { cancelledError } from '../errors.js';
import { type ConcurrencyLimit, Limiter } from './limiter.js';
import type { RedisLink } from './redis-link.js';

export const LEASES_KEY = 'travel-reports:upstream-leases';
/** A lease not renewed for this long is free again. */
export const LEASE_MS = 5_000;
const RENEW_EVERY_MS = 1_500;

// Drops expired leases, then takes one if fewer than the limit are held. Returns 1 when taken.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
  redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) * 2)
  return 1
end
return 0`;

// Extends a lease still held (XX: a lease that already expired is not brought back).
const RENEW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], 'XX', now + tonumber(ARGV[1]), ARGV[2])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[1]) * 2)
return 1`;

export class SharedLimiter implements ConcurrencyLimit {
  private readonly local: Limiter;

  constructor(
    private readonly redis: RedisLink,
    readonly limit: number,
  ) {
    this.local = new Limiter(limit);
  }

  get inFlight(): number {
    return this.local.inFlight;
  }

  get maxActive(): number {
    return this.local.maxActive;
  }

  run<T>(task: (done: () => void) => Promise<T>, signal?: AbortSignal): Promise<T> {
    return this.local.run(async (localDone) => {
      const lease = await this.acquire(signal);
      const renew = setInterval(() => {
        this.redis
          .run('renew a lease', (c) => c.eval(RENEW, { keys: [LEASES_KEY], arguments: [String(LEASE_MS), lease] }))
          .catch(() => {}); // Redis away: the lease lapses, which only ever frees capacity.
      }, RENEW_EVERY_MS);
      // The lease given back once, when the task says it is done or when it ends.
      let released: Promise<unknown> | undefined;
      const done = () => {
        if (released) return;
        clearInterval(renew);
        released = this.redis.run('release a lease', (c) => c.zRem(LEASES_KEY, lease)).catch(() => {});
        localDone();
      };
      try {
        return await task(done);
      } finally {
        done();
        await released;
      }
    }, signal);
  }

  private async acquire(signal?: AbortSignal): Promise<string> {
    const lease = `${process.pid}:${randomBytes(8).toString('hex')}`;
    for (let wait = 10; ; wait = Math.min(wait * 2, 100)) {
      if (signal?.aborted) throw cancelledError(signal);
      const taken = await this.redis.run('take a share of the upstream concurrency limit', (c) =>
        c.eval(ACQUIRE, { keys: [LEASES_KEY], arguments: [String(this.limit), String(LEASE_MS), lease] }),
      );
      if (taken === 1) return lease;
      try {
        await sleep(wait / 2 + Math.random() * wait, undefined, { signal });
      } catch {
        throw cancelledError(signal);
      }
    }
  }
}
