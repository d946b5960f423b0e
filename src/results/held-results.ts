/**
 * Where held results live: in this process (store.ts) or in Redis (redis-store.ts), behind
 * one interface, and the owner check every caller goes through.
 */
import { ReportsError } from '../errors.js';
import type { FetchAgain, PageCopy } from './disk/page-copy.js';
import type { DropListener, MemoryBudget, NewResult, ResultPatch, StoredResult } from './store.js';
import { resultNotFound } from './store.js';

type MaybePromise<T> = T | Promise<T>;

/** A held result without its records: what listing needs. */
export type ResultInfo = Omit<StoredResult, 'records'>;

/** A store of results by id. The in-memory store answers at once, Redis asynchronously. */
export interface HeldResults {
  readonly ttlMs: number;
  put(input: NewResult): MaybePromise<StoredResult>;
  /** Throws not_found when unknown, expired or evicted (saying which, with the owner of a
   *  gone one in its details); marks the result as just used. */
  get(id: string): MaybePromise<StoredResult>;
  update(id: string, patch: ResultPatch): MaybePromise<StoredResult>;
  /** Held results, most recently updated first: all of them, or (Redis) only `owner`'s. */
  list(owner?: string): MaybePromise<ResultInfo[]>;
  /** In-process stores: the bytes of a result's SQL tables, counted against the budget. */
  setExternalBytes?(id: string, bytes: number): void;
  /** In-process stores: told of every result dropped, so its SQL tables go with it. */
  onDropped?(listener: DropListener): void;
  /** In-process stores: the memory budget results are held within (REPORTS_RESULTS_MAX_MB). With
   *  Redis, Redis's own maxmemory is the budget, and this is absent. */
  readonly memoryBudget?: MemoryBudget;
  /** A store that keeps results on disk: a copy of the pages of a fetch about to run, which
   *  put() then keeps in place of the records (NewResult.pages). */
  pageCopy?(): PageCopy;
  /** With pageCopy: how a result kept as its pages is fetched again from them. */
  fetchPagesWith?(fetch: FetchAgain): void;
}

/** One owner's view of the store: their results only. */
export interface OwnedResults {
  readonly owner: string;
  put(input: Omit<NewResult, 'owner'>): Promise<StoredResult>;
  get(id: string): Promise<StoredResult>;
  update(id: string, patch: Omit<ResultPatch, 'owner'>): Promise<StoredResult>;
  list(): Promise<ResultInfo[]>;
}

/**
 * Someone else's result answers exactly like an unknown one, so a resultId seen in a log or
 * a shared screen tells another person nothing, not even that it exists.
 */
export function ownedBy(store: HeldResults, owner: string): OwnedResults {
  const mine = async (id: string): Promise<StoredResult> => {
    let result: StoredResult;
    try {
      result = await store.get(id);
    } catch (err) {
      // Why a result went is told only to its owner; to anyone else it is unknown.
      if (err instanceof ReportsError && err.kind === 'not_found' && err.details.goneOwner !== owner)
        throw resultNotFound(id, store.ttlMs);
      throw err;
    }
    if (result.owner !== owner) throw resultNotFound(id, store.ttlMs);
    return result;
  };
  return {
    owner,
    put: async (input) => store.put({ ...input, owner }),
    get: mine,
    update: async (id, patch) => {
      await mine(id);
      return store.update(id, { ...patch, owner });
    },
    list: async () => (await store.list(owner)).filter((r) => r.owner === owner),
  };
}
