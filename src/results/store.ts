/**
 * Results held in memory under an unguessable id, so query_report, continue_report and
 * resources/read can work on them without calling the service again. Bounded two ways: a byte
 * budget (least recently used dropped first) and a TTL counted from the last use.
 */
import { randomBytes } from 'node:crypto';
import { quote, ReportsError } from '../errors.js';
import type { Interval } from '../upstream/paging/intervals.js';
import { type Summary, summarize } from './summarize.js';

export interface StoredResult {
  id: string;
  /** Who fetched it ('local' on stdio, one HTTP identity): nobody else sees it. */
  owner: string;
  /** Tool name of the report. */
  report: string;
  /** Its table for sql_query: the report's name and a number per owner (`air_segments_by_date_1`). */
  table: string;
  source: 'live' | 'demo';
  /** The upstream parameters actually sent, as shown (PII masked when configured). */
  query: Record<string, string>;
  /** The same parameters unmasked, to send again (continue_report); never shown. */
  sentQuery: Record<string, string>;
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
  /** Approximate size of the records as JSON. */
  bytes: number;
  /** Profile of `records`, recomputed whenever they change. */
  summary?: Summary;
}

export type NewResult = Omit<StoredResult, 'id' | 'table' | 'createdAt' | 'updatedAt' | 'bytes' | 'summary'> & {
  /** The summary of `records` when the caller built it already (page by page); else computed here. */
  summary?: Summary;
};
export type ResultPatch = Partial<Omit<NewResult, 'summary'>>;

/** Told of every result the store drops (evicted, expired or deleted). */
export type DropListener = (result: { id: string; owner: string }) => void;

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
  /**
   * The process's memory now, in bytes (the server passes its RSS). When given, the budget
   * holds against how much it has grown since the store was made, as measured, not against
   * estimates: held results are what a long-lived server accumulates.
   */
  memory?: () => number;
}

export const DEFAULT_MAX_BYTES = 256 * 1024 * 1024;
export const DEFAULT_TTL_MS = 60 * 60 * 1000;

interface Entry {
  result: StoredResult;
  lastUsed: number;
  /** Bytes held for it outside its records: its SQL tables (src/sql/), once built. */
  tableBytes: number;
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
  private totalBytes = 0;
  private readonly memory?: () => number;
  /** The process's memory when the store was made: growth beyond it is what the budget bounds. */
  private readonly baseline: number;
  /** The last table number given per owner. */
  private readonly tableNumbers = new Map<string, number>();
  private readonly dropListeners: DropListener[] = [];

  constructor(options: ResultStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.now = options.now ?? Date.now;
    this.onEvict = options.onEvict;
    this.memory = options.memory;
    this.baseline = options.memory?.() ?? 0;
  }

  /** Growth of the process's memory since the store was made (0 when not measured). */
  get measuredGrowth(): number {
    return this.memory ? Math.max(0, this.memory() - this.baseline) : 0;
  }

  put(input: NewResult): StoredResult {
    this.dropExpired();
    const now = this.now();
    const number = (this.tableNumbers.get(input.owner) ?? 0) + 1;
    this.tableNumbers.set(input.owner, number);
    const result = newStoredResult(input, now, `${input.report}_${number}`);
    this.entries.set(result.id, { result, lastUsed: now, tableBytes: 0 });
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

  /** Replaces the given properties; records changes recompute bytes and summary. */
  update(id: string, patch: ResultPatch): StoredResult {
    const old = this.get(id);
    const now = this.now();
    const result = patchedStoredResult(old, patch, now);
    const tableBytes = this.entries.get(id)?.tableBytes ?? 0;
    this.entries.set(id, { result, lastUsed: now, tableBytes });
    this.totalBytes += result.bytes - old.bytes;
    this.fitBudget(id);
    return result;
  }

  /** Held results, most recently created or updated first. */
  list(): StoredResult[] {
    this.dropExpired();
    return [...this.entries.values()].map((e) => e.result).sort((a, b) => b.updatedAt - a.updatedAt);
  }

  delete(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.entries.delete(id);
    this.totalBytes -= entry.result.bytes + entry.tableBytes;
    for (const listener of this.dropListeners) listener({ id, owner: entry.result.owner });
    return true;
  }

  /** The SQL engine built `id`'s tables in `bytes`: they count against the budget until it is dropped. */
  holdTableBytes(id: string, bytes: number): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.totalBytes += bytes - entry.tableBytes;
    entry.tableBytes = bytes;
    this.fitBudget(id);
  }

  /** `listener` is told of every result dropped, so what is built from it (SQL tables) goes too. */
  onDropped(listener: DropListener): void {
    this.dropListeners.push(listener);
  }

  /** Bytes currently held (sum of the results' estimates). */
  get bytes(): number {
    return this.totalBytes;
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
    for (const [id, e] of this.entries) {
      if (e.lastUsed <= cutoff) this.evict(id, 'expired');
    }
  }

  /** Drops least recently used results until within budget; `keep` stays even if alone too big. */
  /**
   * Drops least recently used results (never `keep`) while over budget. Over budget means the
   * estimates, or, when memory is measured, the process's growth: each result dropped then
   * counts as freeing its share of that growth (its estimate times the growth per estimated
   * byte held). Memory freed returns at the next garbage collection, not at once, so this
   * errs towards dropping more, never towards growing past the budget.
   */
  private fitBudget(keep: string): void {
    const grown = this.measuredGrowth;
    const perByte = this.totalBytes > 0 ? Math.max(1, grown / this.totalBytes) : 1;
    let projected = Math.max(grown, this.totalBytes);
    for (const [id, entry] of this.entries) {
      if (projected <= this.maxBytes) return;
      if (id === keep) continue;
      projected -= (entry.result.bytes + entry.tableBytes) * perByte;
      this.evict(id, 'budget');
    }
  }

  private evict(id: string, reason: EvictionReason): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.delete(id);
    if (this.gone.size >= MAX_GONE) this.gone.delete(this.gone.keys().next().value as string);
    this.gone.set(id, { owner: e.result.owner, report: e.result.report, reason });
    this.onEvict?.(e.result, reason);
  }
}

/** A new held result: its id, table name, times, size and summary (the page-by-page one when given). */
export function newStoredResult(input: NewResult, now: number, table: string): StoredResult {
  return {
    ...input,
    id: `r_${randomBytes(12).toString('base64url')}`,
    table,
    createdAt: now,
    updatedAt: now,
    bytes: estimateBytes(input.records),
    summary: input.summary ?? summarize(input.records, { report: input.report }),
  };
}

/** `old` with `patch` applied; new records bring a new size and summary. */
export function patchedStoredResult(old: StoredResult, patch: ResultPatch, now: number): StoredResult {
  const result: StoredResult = { ...old, ...patch, id: old.id, createdAt: old.createdAt, updatedAt: now };
  if (patch.records) {
    result.bytes = estimateBytes(patch.records);
    result.summary = summarize(patch.records, { report: result.report });
  }
  return result;
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

/** JSON length of the records; over 500 records, scaled from one record in each of 500 equal
 *  slices (at a jittered position, so periodic data does not bias the sample). */
export function estimateBytes(records: readonly unknown[]): number {
  const n = records.length;
  const size = (r: unknown) => JSON.stringify(r)?.length ?? 4;
  let chars = 0;
  if (n <= SAMPLE) {
    for (const r of records) chars += size(r);
    return chars + n + 1;
  }
  const slice = n / SAMPLE;
  for (let k = 0; k < SAMPLE; k++) chars += size(records[Math.floor((k + ((k * GOLDEN) % 1)) * slice)]);
  return Math.ceil((chars / SAMPLE) * n) + n + 1;
}

const SAMPLE = 500;
const GOLDEN = 0.6180339887498949;
