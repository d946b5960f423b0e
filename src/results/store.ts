/**
 * Results held in memory under an unguessable id, so query_report, continue_report and
 * resources/read can work on them without calling the service again. Bounded two ways: a
 * memory budget (REPORTS_RESULTS_MAX_MB; least recently used dropped first) and a TTL
 * counted from the last use. The budget counts what each result holds, measured from its
 * structures (docs/architecture.md, "Memory of held results"): its records' heap bytes, its
 * summary, and bytes held for it elsewhere (its SQL tables) as reported through
 * setExternalBytes(). Dropping a result frees exactly what it was counted for.
 */
import { quote, ReportsError } from '../errors.js';
import type { Interval } from '../upstream/paging/intervals.js';
import { Compactor, compactRecords, listBytes } from '../upstream/record-memory.js';
import type { PageCopy, PageCopyInfo } from './disk/page-copy.js';
import { pooledRandomBytes } from './random-bytes.js';
import { type Summary, summarize } from './summarize.js';

export interface StoredResult {
  id: string;
  /** Its table for sql_query: the report's name and a number per owner (`air_segments_by_date_1`). */
  table: string;
  /** Who fetched it ('local' on stdio, one HTTP identity): nobody else sees it. */
  owner: string;
  /** Tool name of the report. */
  report: string;
  source: 'live' | 'demo';
  /** The upstream parameters actually sent, as shown (PII masked when configured). */
  query: Record<string, string>;
  /** The same parameters unmasked, to send again (continue_report); never shown. */
  sentQuery: Record<string, string>;
  /** Read back from disk with masking on, where the unmasked parameters are not kept
   *  (docs/held-results.md): `sentQuery` is then the masked query, not to be sent again. */
  sentQueryWithheld?: boolean;
  totalRecords: number | null;
  complete: boolean;
  notes: string[];
  /** All fetched records, in upstream order. */
  records: Record<string, unknown>[];
  /** The record ranges [offset, offset + count) held, in order; `records` is their
   *  concatenation. continue_report fetches what lies between them. */
  held: Interval[];
  createdAt: number;
  updatedAt: number;
  /** Heap bytes the result holds: its records as held (repeated short strings shared), the
   *  list of them and its summary. Bytes held for it elsewhere are counted by the store. */
  bytes: number;
  /** The records' part of `bytes` (record-memory.ts). */
  recordBytes: number;
  /** Profile of `records`, recomputed whenever they change. */
  summary?: Summary;
}

export type NewResult = Omit<
  StoredResult,
  'id' | 'table' | 'createdAt' | 'updatedAt' | 'bytes' | 'recordBytes' | 'summary'
> & {
  /** The summary of `records` when the caller built it already (page by page); else computed here. */
  summary?: Summary;
  /** Heap bytes of `records` when the caller measured them as they were fetched (record-memory.ts,
   *  the list of them excluded); else they are measured here (and their short strings shared). */
  recordBytes?: number;
  /** The pages the records were fetched from, copied as they came (DiskStore.pageCopy): a
   *  store that keeps results on disk keeps them so; any other store drops the copy. */
  pages?: KeptPages;
};
/** `recordBytes` goes with `records` only (else they are measured here). */
export type ResultPatch = Partial<Omit<NewResult, 'summary' | 'pages'>>;

/** A copy of a result's pages, and what fetching its records again from it needs. */
export interface KeptPages extends Omit<PageCopyInfo, 'nonce'> {
  copy: PageCopy;
}

/** Why a result left the store: evicted ('budget', 'expired') or delete()d. */
export type DropReason = EvictionReason | 'deleted';

/** Told when a result leaves the store, or when its records are replaced ('replaced'). */
export type DropListener = (result: { id: string; owner: string }, reason: DropReason | 'replaced') => void;

/** 'budget': least recently used, dropped to make room; 'expired': unused for ttlMs. */
export type EvictionReason = 'budget' | 'expired';

/** What is remembered of a result after its records are dropped: enough to say why. */
export interface GoneResult {
  owner: string;
  report: string;
  reason: EvictionReason;
}

/** Gone results remembered (about 100 bytes each), oldest forgotten first. */
const MAX_GONE = 10_000;

export interface ResultStoreOptions {
  /** Byte budget for all held results (default 256 MB). */
  maxBytes?: number;
  /** Time a result is kept after its last use (default 1 hour). */
  ttlMs?: number;
  now?: () => number;
  /** Called for every result dropped (for a log line). */
  onEvict?: (result: StoredResult, reason: EvictionReason) => void;
}

/** The bytes results are held within in memory, and whether a result that leaves memory for
 *  them is still kept on disk, to be read back on its next use (disk-store.ts). */
export interface MemoryBudget {
  maxBytes: number;
  keptOnDisk: boolean;
}

export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
export const DEFAULT_TTL_MS = 60 * 60 * 1000;

interface Entry {
  result: StoredResult;
  lastUsed: number;
}

export class ResultStore {
  readonly maxBytes: number;
  readonly ttlMs: number;
  private readonly now: () => number;
  private readonly onEvict?: (result: StoredResult, reason: EvictionReason) => void;
  /** Map order is recency order: least recently used first. */
  private readonly entries = new Map<string, Entry>();
  /** Results dropped (expired or for the budget), so asking for one says which. */
  private readonly gone = new Map<string, GoneResult>();
  /** Bytes held for a result outside the store (its SQL tables), by result id. */
  private readonly external = new Map<string, number>();
  private readonly dropListeners: DropListener[] = [];
  /** The last table number given per owner. */
  private readonly tableNumbers = new Map<string, number>();
  private totalBytes = 0;

  constructor(options: ResultStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    // The time of this process's start plus a clock that never steps back: a wall clock set
    // back would leave results in the expiry walk's order past their TTL (see dropExpired).
    this.now = options.now ?? (() => performance.timeOrigin + performance.now());
    this.onEvict = options.onEvict;
  }

  /** Results leaving memory for the budget are gone (a DiskStore around this one keeps them). */
  get memoryBudget(): MemoryBudget {
    return { maxBytes: this.maxBytes, keptOnDisk: false };
  }

  /**
   * The hook for memory held for a result elsewhere (an engine's tables of its records): those
   * bytes count in the budget with the result's own, and may evict others (never this one).
   * Reported again, the new figure replaces the old. Ignored for a result not held.
   */
  setExternalBytes(id: string, bytes: number): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.totalBytes += bytes - (this.external.get(id) ?? 0);
    this.external.set(id, bytes);
    this.fitBudget(id);
  }

  /**
   * Tells `listener` when a result leaves (evicted, expired or deleted), and when its records
   * are replaced ('replaced', by continue_report): whatever was built from them is then to be
   * dropped, and its external bytes no longer count.
   */
  onDropped(listener: DropListener): void {
    this.dropListeners.push(listener);
  }

  put(input: NewResult): StoredResult {
    this.dropExpired();
    const now = this.now();
    const number = (this.tableNumbers.get(input.owner) ?? 0) + 1;
    this.tableNumbers.set(input.owner, number);
    const result = newStoredResult(input, now, `${input.report}_${number}`);
    this.entries.set(result.id, { result, lastUsed: now });
    this.totalBytes += result.bytes;
    this.fitBudget(result.id);
    return result;
  }

  /** The result, marked as just used. Throws not_found when unknown, expired or evicted. */
  get(id: string): StoredResult {
    this.dropExpired();
    const entry = this.entries.get(id);
    if (!entry) throw resultNotFound(id, this.ttlMs, this.gone.get(id), this.maxBytes);
    this.touch(id, entry);
    return entry.result;
  }

  /**
   * Holds again a result kept elsewhere (read back from disk), under its own id and table, as
   * just used. Its records are measured here (their short strings shared, as put() does).
   */
  restore(kept: Omit<StoredResult, 'bytes' | 'recordBytes'>): StoredResult {
    this.dropExpired();
    this.noteTable(kept.owner, kept.table);
    // Read back with JSON.parse: its objects' layout.
    const recordBytes = compactRecords(kept.records, true);
    const summary = kept.summary ?? summarize(kept.records, { report: kept.report });
    const bytes = recordBytes + listBytes(kept.records.length) + summaryBytes(summary);
    const result: StoredResult = { ...kept, summary, recordBytes, bytes };
    this.remove(result.id, 'replaced');
    this.gone.delete(result.id);
    this.entries.set(result.id, { result, lastUsed: this.now() });
    this.totalBytes += bytes;
    this.fitBudget(result.id);
    return result;
  }

  /** A table name given before (by an earlier process): later results of `owner` are numbered past it. */
  noteTable(owner: string, table: string): void {
    const number = Number(/_(\d+)$/.exec(table)?.[1] ?? 0);
    if (number > (this.tableNumbers.get(owner) ?? 0)) this.tableNumbers.set(owner, number);
  }

  /** Remembers why a result held elsewhere went (expired on disk), so asking for it says so. */
  noteGone(id: string, gone: GoneResult): void {
    if (this.entries.has(id)) return;
    if (this.gone.size >= MAX_GONE) this.gone.delete(this.gone.keys().next().value as string);
    this.gone.set(id, gone);
  }

  /** Whether `id` is held now (not marking it used, not dropping anything). */
  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** Replaces the given properties; records changes recompute bytes and summary. */
  update(id: string, patch: ResultPatch): StoredResult {
    const old = this.get(id);
    const now = this.now();
    const result = patchedStoredResult(old, patch, now);
    // get() made it the most recently used, last in the map: set() keeps it there.
    this.entries.set(id, { result, lastUsed: now });
    this.totalBytes += result.bytes - old.bytes;
    if (patch.records) this.dropExternal(result, 'replaced');
    this.fitBudget(id);
    return result;
  }

  /** Held results, most recently created or updated first. */
  list(): StoredResult[] {
    this.dropExpired();
    return [...this.entries.values()].map((e) => e.result).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  delete(id: string): boolean {
    return this.remove(id, 'deleted');
  }

  private remove(id: string, reason: DropReason | 'replaced'): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    this.totalBytes -= entry.result.bytes;
    this.dropExternal(entry.result, reason);
    return true;
  }

  private dropExternal(result: { id: string; owner: string }, reason: DropReason | 'replaced'): void {
    this.totalBytes -= this.external.get(result.id) ?? 0;
    this.external.delete(result.id);
    for (const listener of this.dropListeners) listener({ id: result.id, owner: result.owner }, reason);
  }

  /** Bytes held by every result: their own (StoredResult.bytes) and those held for them elsewhere. */
  get bytes(): number {
    return this.totalBytes;
  }

  /** Bytes held for one result, its external bytes included (0 when not held). */
  bytesOf(id: string): number {
    const entry = this.entries.get(id);
    return entry ? entry.result.bytes + (this.external.get(id) ?? 0) : 0;
  }

  get size(): number {
    return this.entries.size;
  }

  private touch(id: string, entry: Entry): void {
    entry.lastUsed = this.now();
    this.entries.delete(id);
    this.entries.set(id, entry);
  }

  private dropExpired(): void {
    const cutoff = this.now() - this.ttlMs;
    // Least recently used first: the first one still in time ends the walk.
    for (const [id, e] of this.entries) {
      if (e.lastUsed > cutoff) return;
      this.evict(id, 'expired');
    }
  }

  /**
   * Drops least recently used results (never `keep`, which stays even when alone too big)
   * while the bytes held exceed the budget. The bytes are the results' own measures, so
   * each result dropped lowers them by exactly what it held.
   */
  private fitBudget(keep: string): void {
    // Nearly always within it: no list of every result held is made.
    if (this.totalBytes <= this.maxBytes) return;
    for (const id of [...this.entries.keys()]) {
      if (this.totalBytes <= this.maxBytes) return;
      if (id !== keep) this.evict(id, 'budget');
    }
  }

  private evict(id: string, reason: EvictionReason): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.remove(id, reason);
    if (this.gone.size >= MAX_GONE) this.gone.delete(this.gone.keys().next().value as string);
    this.gone.set(id, { owner: e.result.owner, report: e.result.report, reason });
    this.onEvict?.(e.result, reason);
  }
}

/** `r_` and 16 characters: 96 random bits, base64url. */
function newResultId(): string {
  return `r_${pooledRandomBytes(12).toString('base64url')}`;
}

/** A new held result: its id, table name, times, size and summary (the page-by-page one when given). */
export function newStoredResult(input: NewResult, now: number, table: string): StoredResult {
  const { pages, ...held } = input;
  void pages?.copy.abandon();
  const recordBytes = input.recordBytes ?? compactRecords(input.records);
  const summary = input.summary ?? summarize(input.records, { report: input.report });
  return {
    ...held,
    id: newResultId(),
    table,
    createdAt: now,
    updatedAt: now,
    recordBytes,
    bytes: recordBytes + listBytes(input.records.length) + summaryBytes(summary),
    summary,
  };
}

/** `old` with `patch` applied; new records bring a new size and summary. */
export function patchedStoredResult(old: StoredResult, patch: ResultPatch, now: number): StoredResult {
  const result: StoredResult = { ...old, ...patch, id: old.id, createdAt: old.createdAt, updatedAt: now };
  if (patch.records) {
    result.summary = summarize(patch.records, { report: result.report });
    result.recordBytes = patch.recordBytes ?? compactRecords(patch.records);
    result.bytes = result.recordBytes + listBytes(patch.records.length) + summaryBytes(result.summary);
  } else result.recordBytes = old.recordBytes;
  return result;
}

/** Heap bytes of a summary, counted like records (it is small: bounded lists of values). */
function summaryBytes(summary: Summary): number {
  const c = new Compactor();
  c.value(summary);
  return c.bytes;
}

/**
 * The answer for a resultId that is not held. Unknown (never issued here, or before a
 * restart) or gone (expired, or dropped for the memory budget), saying which and how to get
 * it again. A gone result's owner is in the details: ownedBy() answers anyone else as if
 * it were unknown, so a resultId seen on a shared screen tells them nothing.
 */
export function resultNotFound(id: string, ttlMs: number, gone?: GoneResult, maxBytes?: number): ReportsError {
  const held = `No result ${quote(id)} is held`;
  if (!gone) {
    return new ReportsError(
      'not_found',
      `${held}: it is not a resultId this server issued, or it was issued before the server restarted. ` +
        'Run the report again for a new resultId.',
    );
  }
  const ttl =
    ttlMs >= 60_000
      ? `${Math.round(ttlMs / 60_000)} minutes`
      : ttlMs >= 1000
        ? `${Math.round(ttlMs / 1000)} seconds`
        : `${ttlMs} ms`;
  const why =
    gone.reason === 'expired'
      ? `it expired, unused for ${ttl} (REPORTS_RESULTS_TTL_MINUTES)`
      : `it was dropped to keep held results within REPORTS_RESULTS_MAX_MB` +
        `${maxBytes && maxBytes >= 1_048_576 ? ` (${Math.round(maxBytes / 1_048_576)} MB)` : ''}, the least recently used first`;
  return new ReportsError('not_found', `${held}: ${why}. Run ${gone.report} again for a new resultId.`, {
    goneOwner: gone.owner,
  });
}
