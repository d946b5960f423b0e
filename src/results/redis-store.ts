/**
 * Held results in Redis (REPORTS_REDIS_URL), shared by every replica: a report fetched
 * through one replica is queried, continued and read through another. Each result is two
 * keys, its description and its records (so listing reads no records), and each owner has an
 * index of their result ids; all three expire REPORTS_RESULTS_TTL_MINUTES after the last use.
 * Memory: Redis's own `maxmemory` with `maxmemory-policy volatile-lru` is the budget (every key
 * here has a TTL); a result whose keys were evicted answers as expired. A small `issued` key
 * per result outlives it by days, so an expired resultId is told apart from an unknown one.
 */
import type { RedisLink } from '../upstream/redis-link.js';
import type { HeldResults, ResultInfo } from './held-results.js';
import {
  type NewResult,
  newStoredResult,
  patchedStoredResult,
  type ResultPatch,
  resultNotFound,
  type StoredResult,
} from './store.js';

const PREFIX = 'travel-reports:';
const infoKey = (id: string) => `${PREFIX}result:${id}:info`;
const recordsKey = (id: string) => `${PREFIX}result:${id}:records`;
const ownerKey = (owner: string) => `${PREFIX}owner:${owner}`;
/** Whose result an id was and of which report, kept long after the result, to say it expired. */
const issuedKey = (id: string) => `${PREFIX}result:${id}:issued`;
const ISSUED_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The owner's last table number: INCR here, so replicas never give one number twice. */
const tablesKey = (owner: string) => `${PREFIX}owner:${owner}:tables`;

export class RedisResultStore implements HeldResults {
  constructor(
    private readonly redis: RedisLink,
    readonly ttlMs: number,
  ) {}

  async put(input: NewResult): Promise<StoredResult> {
    const number = await this.redis.run('number a table', async (c) => {
      const replies = await c
        .multi()
        .incr(tablesKey(input.owner))
        .pExpire(tablesKey(input.owner), ISSUED_TTL_MS)
        .exec();
      return Number(replies[0]);
    });
    const result = newStoredResult(input, Date.now(), `${input.report}_${number}`);
    await this.write(result, true);
    return result;
  }

  async get(id: string): Promise<StoredResult> {
    const ttl = this.ttlMs;
    const [info, records] = await this.redis.run('read a held result', async (c) => {
      const replies = await c
        .multi()
        .get(infoKey(id))
        .get(recordsKey(id))
        .pExpire(infoKey(id), ttl)
        .pExpire(recordsKey(id), ttl)
        .exec();
      return [replies[0], replies[1]] as unknown as [string | null, string | null];
    });
    if (!info || !records) {
      const issued = await this.redis.run('read a held result', (c) => c.get(issuedKey(id)));
      const gone = issued ? (JSON.parse(issued) as { owner: string; report: string }) : undefined;
      // Expired, or evicted by Redis's maxmemory policy: from here the two look the same.
      throw resultNotFound(id, ttl, gone && { ...gone, reason: 'expired' });
    }
    const result = JSON.parse(info) as Omit<StoredResult, 'records'>;
    await this.redis.run('mark a result as used', (c) => c.multi().pExpire(ownerKey(result.owner), ttl).exec());
    return { ...result, records: JSON.parse(records) as Record<string, unknown>[] };
  }

  async update(id: string, patch: ResultPatch): Promise<StoredResult> {
    const result = patchedStoredResult(await this.get(id), patch, Date.now());
    await this.write(result, !!patch.records);
    return result;
  }

  /** The owner's results (every owner's is never asked for: it would scan all of Redis). */
  async list(owner?: string): Promise<ResultInfo[]> {
    if (owner === undefined) return [];
    const ids = await this.redis.run('list held results', (c) => c.zRange(ownerKey(owner), 0, -1, { REV: true }));
    if (ids.length === 0) return [];
    const infos = await this.redis.run('list held results', (c) => c.mGet(ids.map(infoKey)));
    const gone = ids.filter((_, i) => infos[i] === null);
    if (gone.length) await this.redis.run('list held results', (c) => c.zRem(ownerKey(owner), gone));
    return infos.filter((s): s is string => s !== null).map((s) => JSON.parse(s) as ResultInfo);
  }

  private async write(result: StoredResult, withRecords: boolean): Promise<void> {
    const { records, ...info } = result;
    const ttl = this.ttlMs;
    await this.redis.run('hold the result', async (c) => {
      const m = c.multi().set(infoKey(result.id), JSON.stringify(info), { PX: ttl });
      if (withRecords) m.set(recordsKey(result.id), JSON.stringify(records), { PX: ttl });
      else m.pExpire(recordsKey(result.id), ttl);
      const issued = { owner: result.owner, report: result.report };
      m.set(issuedKey(result.id), JSON.stringify(issued), { PX: ISSUED_TTL_MS });
      await m
        .zAdd(ownerKey(result.owner), { score: result.updatedAt, value: result.id })
        .pExpire(ownerKey(result.owner), ttl)
        .exec();
    });
  }
}
