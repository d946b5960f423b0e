/**
 * Held results that outlive a restart (stdio mode; docs/held-results.md): the in-memory store
 * holds and answers as before, and every result it holds is also written, sealed
 * (disk/sealed-file.ts), to this key's subfolder of REPORTS_RESULTS_DIR. Start-up reads only
 * each result's small description (its `.meta` file); a result's records (`.data`) are read
 * back on its first use. A result's last use is its `.meta` file's modification time, so a
 * restarted server, and the disk budget, know it without reading the result.
 *
 * Nothing here ever fails a call: a write that fails leaves the result in memory (said once in
 * the log); a file that cannot be read is dropped with a log line and the others still load.
 */
import { readdir, stat, unlink, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { quote, ReportsError } from '../errors.js';
import type { Logger } from '../log.js';
import type { FolderKey } from './disk/folder-key.js';
import { changedSettings, type KeptSettings, OtherSettingsError } from './disk/kept-settings.js';
import { type FetchAgain, PageCopy, type PageCopyInfo, readPageCopy } from './disk/page-copy.js';
import { readSealedJson, readSealedRecords, writeSealedJson, writeSealedRecords } from './disk/sealed-file.js';
import type { HeldResults, ResultInfo } from './held-results.js';
import type {
  DropListener,
  KeptPages,
  MemoryBudget,
  NewResult,
  ResultPatch,
  ResultStore,
  StoredResult,
} from './store.js';

/** What a `.meta` file holds: the result without its records, and how many records its `.data` has. */
interface KeptMeta extends Omit<StoredResult, 'records'> {
  v: 1;
  recordCount: number;
  /** Set when `.data` is the copy of the pages the records were fetched from (page-copy.ts);
   *  else it holds the records. */
  pages?: PageCopyInfo;
  /** The settings it was held under (disk/kept-settings.ts); absent in files of versions before. */
  settings?: KeptSettings;
}

interface Kept {
  meta: KeptMeta;
  /** Last use (ms): the `.meta` file's modification time. */
  lastUsed: number;
  /** When the `.meta` file's time was last set. */
  touched: number;
  bytes: number;
}

/** A file left by another key (or an unknown one) is deleted past the longest TTL a server may have. */
const LONGEST_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** A temporary or half-written file older than this is a failed write's leftover. */
const LEFTOVER_MS = 60 * 60 * 1000;
/** The folder is counted again after this long even when what this process wrote fits. */
const RECOUNT_MS = 60_000;

export interface DiskStoreOptions {
  /** The store that holds and answers (its budget and TTL apply as before). */
  memory: ResultStore;
  /** REPORTS_RESULTS_DIR. */
  root: string;
  key: FolderKey;
  /** REPORTS_RESULTS_DISK_MB, in bytes. */
  maxBytes: number;
  log: Logger;
  /** Wall clock (ms): kept files carry it, read again by the next process. */
  now?: () => number;
  /** This server's settings (disk/kept-settings.ts): written with every result, and a result
   *  kept under others is dropped at its first use. */
  settings: KeptSettings;
  /** Resolves once tool calls are quiet, or `withinMs` from now (server/quiet.ts): each copy
   *  waits for it, so that writing it takes no CPU from a call that comes next. Without it, a
   *  copy is written on the event loop's next turn. */
  quiet?: (withinMs: number) => Promise<void>;
}

/** A copy waits for quiet at most this long after its result was held: while calls keep
 *  coming, it is on disk within about this much (a flush or a stop writes it at once). */
export const WRITE_WITHIN_MS = 2_000;

export class DiskStore implements HeldResults {
  private readonly memory: ResultStore;
  private readonly root: string;
  private readonly folder: string;
  private readonly key: Buffer;
  private readonly maxBytes: number;
  private readonly log: Logger;
  private readonly now: () => number;
  private readonly settings: KeptSettings;
  private readonly quiet: DiskStoreOptions['quiet'];
  /** Lets the write waiting for quiet go now (flush). */
  private hurry: (() => void) | undefined;
  /** Flushes running: writes then go without waiting for quiet. */
  private flushing = 0;
  /** How results kept as pages are fetched again (fetchPagesWith); without it, such a result
   *  is dropped at its first use. */
  private fetchAgain: FetchAgain | undefined;
  /** Results kept on disk, by id. */
  private readonly kept = new Map<string, Kept>();
  /** Reads of kept records in progress, so two first uses read once. */
  private readonly reading = new Map<string, Promise<StoredResult>>();
  /** The latest write asked for each result, and whether a write still owed must include its records. */
  private readonly versions = new Map<string, number>();
  private readonly owesRecords = new Set<string>();
  /** Writes run one at a time, in order. */
  private writes: Promise<void> = Promise.resolve();
  /** The folder's bytes at its last count plus what was written here since (an upper bound
   *  of what this process knows of), and when it was counted: see fitDisk. */
  private diskBytes: number | undefined;
  private countedAt = 0;
  private writeFailureSaid = false;
  private readonly sweeper: NodeJS.Timeout;
  readonly ready: Promise<void>;

  constructor(options: DiskStoreOptions) {
    this.memory = options.memory;
    this.root = options.root;
    this.folder = options.key.folder;
    this.key = options.key.key;
    this.maxBytes = options.maxBytes;
    this.log = options.log;
    this.now = options.now ?? Date.now;
    this.settings = options.settings;
    this.quiet = options.quiet;
    // Expired, deleted: gone from disk too. Dropped for the memory budget: still kept, read back when next used.
    this.memory.onDropped((r, reason) => {
      if (reason !== 'expired' && reason !== 'deleted') return;
      // A write still queued for it finds no version and does nothing.
      this.versions.delete(r.id);
      this.forget(r.id);
    });
    this.ready = this.loadIndex().catch((err) => this.log(`kept results could not be listed: ${message(err)}`));
    const ttl = this.memory.ttlMs;
    this.sweeper = setInterval(() => void this.sweep(), Math.min(60_000, Math.max(1_000, ttl / 10)));
    this.sweeper.unref();
  }

  get ttlMs(): number {
    return this.memory.ttlMs;
  }

  get memoryBudget(): MemoryBudget {
    return { maxBytes: this.memory.maxBytes, keptOnDisk: true };
  }

  fetchPagesWith(fetch: FetchAgain): void {
    this.fetchAgain = fetch;
  }

  /** A copy of the pages of a fetch about to run, for put() (NewResult.pages). */
  pageCopy(): PageCopy {
    return new PageCopy(this.folder, this.key);
  }

  async put(input: NewResult): Promise<StoredResult> {
    const { pages, ...held } = input;
    await this.ready;
    const result = this.memory.put(held);
    this.schedule(result, true, pages);
    return result;
  }

  async get(id: string): Promise<StoredResult> {
    await this.ready;
    if (this.memory.has(id)) {
      const result = this.memory.get(id);
      this.used(id);
      return result;
    }
    // The copy is waited for, not answered as gone.
    if (this.unwritten(id)) await this.flush();
    const kept = this.kept.get(id);
    if (kept && !this.expired(kept)) return this.readBack(id, kept);
    if (kept) this.expire(id, kept);
    return this.memory.get(id);
  }

  async update(id: string, patch: ResultPatch): Promise<StoredResult> {
    await this.get(id);
    const result = this.memory.update(id, patch);
    this.schedule(result, !!patch.records);
    return result;
  }

  async list(owner?: string): Promise<ResultInfo[]> {
    await this.ready;
    // Listed once its copy is written.
    if ([...this.versions.keys()].some((id) => this.unwritten(id))) await this.flush();
    const held = this.memory.list() as ResultInfo[];
    const shown = new Set(held.map((r) => r.id));
    const out = [...held];
    for (const [id, kept] of this.kept) {
      if (shown.has(id) || (owner !== undefined && kept.meta.owner !== owner)) continue;
      if (this.expired(kept)) this.expire(id, kept);
      else out.push(infoOf(kept.meta));
    }
    return out.sort((a, b) => b.updatedAt - a.updatedAt);
  }

  /** Whether a result left memory before its copy was written (one larger than the budget,
   *  dropped by the next one held at once): neither here nor on disk, its write queued. */
  private unwritten(id: string): boolean {
    return this.versions.has(id) && !this.kept.has(id) && !this.memory.has(id);
  }

  setExternalBytes(id: string, bytes: number): void {
    this.memory.setExternalBytes(id, bytes);
  }

  onDropped(listener: DropListener): void {
    this.memory.onDropped(listener);
  }

  /** Waits for the writes (and deletions) asked so far. */
  async flush(): Promise<void> {
    await this.ready;
    this.flushing++;
    this.hurry?.();
    try {
      let writes: Promise<void>;
      do {
        writes = this.writes;
        await writes;
      } while (writes !== this.writes);
    } finally {
      this.flushing--;
    }
  }

  /** Stops the expiry sweep and waits for the writes asked so far (a server stopping keeps what it holds). */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await this.flush();
  }

  /** Bytes of this folder's kept results (for tests and the log). */
  get keptBytes(): number {
    let n = 0;
    for (const k of this.kept.values()) n += k.bytes;
    return n;
  }

  // ---- reading -------------------------------------------------------------------------------

  private async loadIndex(): Promise<void> {
    const names = await readdir(this.folder);
    const metas = names.filter((n) => n.endsWith('.meta'));
    const files = new Set(names);
    for (const name of metas) {
      const stem = name.slice(0, -'.meta'.length);
      const path = join(this.folder, name);
      try {
        if (!files.has(`${stem}.data`)) throw new Error('its records file is missing');
        const [metaStat, dataStat] = await Promise.all([stat(path), stat(join(this.folder, `${stem}.data`))]);
        const meta = checkMeta(await readSealedJson(path, this.key, `meta:${idOfStem(stem)}`), stem);
        const kept: Kept = {
          meta,
          lastUsed: metaStat.mtimeMs,
          touched: metaStat.mtimeMs,
          bytes: metaStat.size + dataStat.size,
        };
        this.memory.noteTable(meta.owner, meta.table);
        if (this.expired(kept)) {
          this.kept.set(meta.id, kept);
          this.expire(meta.id, kept);
        } else this.kept.set(meta.id, kept);
      } catch (err) {
        this.log(`kept result file ${name} could not be read and is dropped: ${message(err)}`);
        await removeStem(this.folder, stem);
      }
    }
    await this.removeLeftovers(names, files);
    await this.fitDisk();
  }

  /** A kept result's records, read back into memory on its first use. */
  private readBack(id: string, kept: Kept): Promise<StoredResult> {
    let reading = this.reading.get(id);
    if (!reading) {
      reading = (async () => {
        const path = join(this.folder, `${stemOf(id)}.data`);
        let records: Record<string, unknown>[];
        try {
          const changed = changedSettings(kept.meta.settings, this.settings, kept.meta.pages !== undefined);
          if (changed) throw new OtherSettingsError(changed);
          records = kept.meta.pages
            ? await this.fetchFromPages(path, kept.meta, kept.meta.pages)
            : await readSealedRecords(path, this.key, `data:${id}`);
          if (records.length !== kept.meta.recordCount)
            throw new Error(`it holds ${records.length} records, not ${kept.meta.recordCount}`);
        } catch (err) {
          this.log(`kept result ${id} (${kept.meta.report}) could not be read and is dropped: ${message(err)}`);
          this.forget(id);
          const why =
            err instanceof OtherSettingsError
              ? `was made under other settings (${err.message})`
              : 'could not be read (damaged)';
          throw new ReportsError(
            'not_found',
            `No result ${quote(id)} is held: its copy kept on disk ${why}, so it was dropped. ` +
              `Run ${kept.meta.report} again for a new resultId.`,
            { goneOwner: kept.meta.owner },
          );
        }
        const { v: _v, recordCount: _n, bytes: _b, recordBytes: _r, pages: _p, settings: _s, ...rest } = kept.meta;
        const result = this.memory.restore({ ...rest, records });
        this.used(id);
        return result;
      })().finally(() => this.reading.delete(id));
      this.reading.set(id, reading);
    }
    return reading;
  }

  /** A result's records fetched again from the copy of its pages. */
  private async fetchFromPages(path: string, meta: KeptMeta, copy: PageCopyInfo): Promise<Record<string, unknown>[]> {
    if (!this.fetchAgain) throw new Error('its records are kept as pages, and this store cannot fetch them again');
    const pages = await readPageCopy(path, this.key, copy.nonce);
    return this.fetchAgain({ report: meta.report, query: meta.sentQuery, copy, pages });
  }

  // ---- writing -------------------------------------------------------------------------------

  /** Writes `result` after what is already queued; a later version of it supersedes this one. */
  private schedule(result: StoredResult, withRecords: boolean, pages?: KeptPages): void {
    const version = (this.versions.get(result.id) ?? 0) + 1;
    this.versions.set(result.id, version);
    if (withRecords) this.owesRecords.add(result.id);
    // Its last use is now, when it was held, not when its turn to be written comes.
    const at = this.now();
    // Begun on the event loop's next turn at the earliest: the call that held the result answers
    // first (its answer is written in this turn), and the copy's CPU does not delay it; then,
    // with `quiet`, once calls are quiet, so that it does not delay the next call either.
    const deadline = performance.now() + WRITE_WITHIN_MS;
    this.writes = this.writes
      .then(() => nextTurn())
      .then(() => this.turnToWrite(deadline))
      .then(() => this.write(result, version, at, pages))
      .catch((err) => {
        void pages?.copy.abandon();
        this.writeFailed(result, err);
      });
  }

  /** Resolves when the next copy may be written: calls quiet, its deadline (performance.now())
   *  passed, or a flush asking for it. Writes run one at a time, so one waits at most. */
  private turnToWrite(deadline: number): Promise<void> {
    if (!this.quiet || this.flushing > 0) return Promise.resolve();
    const quiet = this.quiet;
    return new Promise<void>((resolve) => {
      this.hurry = resolve;
      void quiet(Math.max(0, deadline - performance.now())).then(resolve);
    }).finally(() => {
      this.hurry = undefined;
    });
  }

  private async write(result: StoredResult, version: number, at: number, pages?: KeptPages): Promise<void> {
    const { id } = result;
    // Superseded by a later version, or dropped (expired, deleted) before its turn came.
    if (this.versions.get(id) !== version) return pages?.copy.abandon();
    const stem = stemOf(id);
    const withRecords = this.owesRecords.has(id) || !this.kept.has(id);
    const dataPath = join(this.folder, `${stem}.data`);
    const metaPath = join(this.folder, `${stem}.meta`);
    // Records not written again stay as they were kept: as records, or as pages.
    const keptPages = withRecords ? undefined : this.kept.get(id)?.meta.pages;
    // From here the copy on disk is not this result's until both files are written.
    this.kept.delete(id);
    let dataBytes: number;
    let copy: PageCopyInfo | undefined;
    if (pages) {
      const { copy: file, ...fetched } = pages;
      const written = await file.finish(dataPath);
      dataBytes = written.bytes;
      copy = { ...fetched, nonce: written.nonce };
    } else if (withRecords) dataBytes = await writeSealedRecords(dataPath, this.key, `data:${id}`, result.records);
    else {
      dataBytes = (await stat(dataPath)).size;
      copy = keptPages;
    }
    this.owesRecords.delete(id);
    const meta = metaOf(result, copy, this.settings);
    // Its time is its last use (see the top of this file).
    const lastUsed = at;
    const metaBytes = await writeSealedJson(metaPath, this.key, `meta:${id}`, meta, lastUsed);
    this.kept.set(id, { meta, lastUsed, touched: lastUsed, bytes: metaBytes + dataBytes });
    // Dropped while it was written: its files go too.
    if (!this.versions.has(id)) this.forget(id);
    else await this.fitDisk(id);
  }

  private writeFailed(result: StoredResult, err: unknown): void {
    // A partial copy never answers: both files go, the result stays in memory.
    this.forget(result.id);
    if (this.writeFailureSaid) return;
    this.writeFailureSaid = true;
    this.log(
      `held results cannot be kept on disk in ${this.root} (${message(err)}): they stay in memory only, until ` +
        'the server stops; check REPORTS_RESULTS_DIR (this is said once)',
    );
  }

  // ---- use, expiry, budget ---------------------------------------------------------------------

  private used(id: string): void {
    const kept = this.kept.get(id);
    if (!kept) return;
    const now = this.now();
    kept.lastUsed = now;
    // The file's time is the use the next process sees: set at most every tenth of the TTL.
    if (now - kept.touched < Math.min(60_000, this.memory.ttlMs / 10)) return;
    kept.touched = now;
    const path = join(this.folder, `${stemOf(id)}.meta`);
    void utimes(path, now / 1000, now / 1000).catch(() => {});
  }

  private expired(kept: Kept): boolean {
    return kept.lastUsed + this.memory.ttlMs <= this.now();
  }

  private expire(id: string, kept: Kept): void {
    this.memory.noteGone(id, { owner: kept.meta.owner, report: kept.meta.report, reason: 'expired' });
    this.forget(id);
  }

  /** Its files deleted, after the writes queued (so no write puts them back); a failure to delete
   *  is found again at the next start. */
  private forget(id: string): void {
    this.kept.delete(id);
    const stem = stemOf(id);
    this.writes = this.writes.then(() => removeStem(this.folder, stem));
  }

  private async sweep(): Promise<void> {
    this.memory.list();
    for (const [id, kept] of this.kept) if (!this.memory.has(id) && this.expired(kept)) this.expire(id, kept);
  }

  /**
   * Keeps the whole folder (every key's results) within REPORTS_RESULTS_DISK_MB: the least
   * recently used first, by their `.meta` file's time (this key's by the use seen here). A
   * result that alone exceeds the budget is not kept (it stays in memory).
   */
  private async fitDisk(justWritten?: string): Promise<void> {
    // Counting the folder stats every file in it: after every write, a server that had kept a
    // few hundred results spent more on that than on the call itself. While the last count
    // plus what was written since is within the budget, and the count is recent (other
    // processes may write to the folder too), nothing can be over it.
    const written = justWritten === undefined ? 0 : (this.kept.get(justWritten)?.bytes ?? 0);
    const recent = this.now() - this.countedAt < RECOUNT_MS;
    if (this.diskBytes !== undefined && recent && this.diskBytes + written <= this.maxBytes) {
      this.diskBytes += written;
      return;
    }
    const groups = await this.folderGroups();
    let total = groups.reduce((n, g) => n + g.bytes, 0);
    this.countedAt = this.now();
    this.diskBytes = total;
    if (total <= this.maxBytes) return;
    groups.sort((a, b) => a.lastUsed - b.lastUsed);
    for (const g of groups) {
      if (total <= this.maxBytes) break;
      if (g.id !== undefined && g.id === justWritten) continue;
      total -= g.bytes;
      if (g.id !== undefined) {
        const kept = this.kept.get(g.id);
        this.log(
          `kept result ${g.id} (${kept?.meta.report ?? 'unknown'}) deleted from disk to stay within ` +
            `REPORTS_RESULTS_DISK_MB (${Math.round(this.maxBytes / 1_048_576)} MB), the least recently used first` +
            `${this.memory.has(g.id) ? '; it stays in memory' : ''}`,
        );
        this.kept.delete(g.id);
      }
      await Promise.all(g.paths.map((p) => unlink(p).catch(() => {})));
    }
    this.diskBytes = total;
    // The one just written does not fit the budget even alone.
    if (total > this.maxBytes && justWritten && this.kept.has(justWritten)) {
      this.log(
        `result ${justWritten} is larger than REPORTS_RESULTS_DISK_MB (${Math.round(this.maxBytes / 1_048_576)} MB) ` +
          'on disk: it is held in memory only',
      );
      this.forget(justWritten);
    }
  }

  /** Every result's files in the folder, this key's and others', with their size and last use. */
  private async folderGroups(): Promise<{ id?: string; paths: string[]; bytes: number; lastUsed: number }[]> {
    const out = new Map<string, { id?: string; paths: string[]; bytes: number; lastUsed: number }>();
    const subfolders = (await readdir(this.root, { withFileTypes: true })).filter((e) => e.isDirectory());
    for (const sub of subfolders) {
      const dir = join(this.root, sub.name);
      const names = await readdir(dir).catch(() => [] as string[]);
      const present = new Set(names);
      for (const name of names) {
        const path = join(dir, name);
        const s = await stat(path).catch(() => undefined);
        if (!s?.isFile()) continue;
        const stem = name.replace(/\.(meta|data)$/, '');
        const group = out.get(join(dir, stem)) ?? { paths: [], bytes: 0, lastUsed: 0 };
        group.paths.push(path);
        group.bytes += s.size;
        // A result's last use is its description's time; a file without one, its own.
        if (name.endsWith('.meta')) group.lastUsed = s.mtimeMs;
        else if (!present.has(`${stem}.meta`)) group.lastUsed = Math.max(group.lastUsed, s.mtimeMs);
        if (dir === this.folder && name.endsWith('.meta')) {
          const id = idOfStem(stem);
          const kept = this.kept.get(id);
          if (kept) {
            group.id = id;
            group.lastUsed = kept.lastUsed;
          }
        }
        out.set(join(dir, stem), group);
      }
    }
    return [...out.values()];
  }

  /** Temporary files of failed writes, records without a description, other keys' results past any TTL. */
  private async removeLeftovers(names: string[], files: Set<string>): Promise<void> {
    const now = this.now();
    for (const name of names) {
      const orphan = name.endsWith('.data') && !files.has(`${name.slice(0, -'.data'.length)}.meta`);
      if (!orphan && !name.endsWith('.tmp')) continue;
      const s = await stat(join(this.folder, name)).catch(() => undefined);
      if (s && now - s.mtimeMs > LEFTOVER_MS) await unlink(join(this.folder, name)).catch(() => {});
    }
    for (const sub of await readdir(this.root, { withFileTypes: true })) {
      const dir = join(this.root, sub.name);
      if (!sub.isDirectory() || dir === this.folder) continue;
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        const s = await stat(join(dir, name)).catch(() => undefined);
        if (s && now - s.mtimeMs > LONGEST_TTL_MS) await unlink(join(dir, name)).catch(() => {});
      }
    }
  }
}

/** File names: the id's bytes in hex, so names differ on file systems that ignore case. */
function stemOf(id: string): string {
  return Buffer.from(id.slice(2), 'base64url').toString('hex');
}

function idOfStem(stem: string): string {
  return `r_${Buffer.from(stem, 'hex').toString('base64url')}`;
}

function metaOf(result: StoredResult, pages: PageCopyInfo | undefined, settings: KeptSettings): KeptMeta {
  const { records, ...rest } = result;
  const meta: KeptMeta = { v: 1, ...rest, recordCount: records.length, settings, ...(pages ? { pages } : {}) };
  // With masking on, the parameters as sent may name a traveller: only the masked ones are
  // kept, and the result read back cannot be continued (docs/held-results.md).
  if (!sameQuery(result.query, result.sentQuery)) {
    meta.sentQuery = result.query;
    meta.sentQueryWithheld = true;
  }
  return meta;
}

function infoOf(meta: KeptMeta): ResultInfo {
  const { v: _v, recordCount: _n, pages: _p, settings: _s, ...info } = meta;
  return info;
}

function sameQuery(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** A `.meta` file's content, checked to be one (the file authenticated: this is against our own mistakes). */
function checkMeta(value: unknown, stem: string): KeptMeta {
  const m = value as Partial<KeptMeta> | null;
  const ok =
    !!m &&
    m.v === 1 &&
    m.id === idOfStem(stem) &&
    typeof m.owner === 'string' &&
    typeof m.report === 'string' &&
    typeof m.table === 'string' &&
    Array.isArray(m.held) &&
    typeof m.recordCount === 'number' &&
    typeof m.updatedAt === 'number';
  if (!ok) throw new Error('its description is not one this version writes');
  return m as KeptMeta;
}

async function removeStem(folder: string, stem: string): Promise<void> {
  await Promise.all(['meta', 'data'].map((ext) => unlink(join(folder, `${stem}.${ext}`)).catch(() => {})));
}

function message(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e?.code ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(err);
}
