/**
 * The server's side of the SQL engine (docs/sql.md): one worker thread holding every caller's
 * database, fed with the tables a statement needs (built on first use, page by page from the
 * held records) and told to drop those of results that are gone. One task at a time, in
 * order; a statement that outlives the timeout has its worker terminated (the only way to
 * stop synchronous WASM), and the next call starts a fresh worker that rebuilds on demand.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { ReportsError } from '../errors.js';
import type { RunLimits, RunOutput, WorkerReply, WorkerRequest } from './protocol.js';

/**
 * Records sent to the worker per message: each chunk is flattened into prepared INSERTs. A
 * chunk and its rows live until its INSERTs are done, and the worker's young generation is
 * 4 MB (WORKER_LIMITS): a chunk of 2,000 took 2.7 s to build 100,000 records, and at 500
 * most of a chunk was still live at each young collection, which copied it (the collector
 * took 38% of the worker's CPU profile of 300,000 records). At 125 it took 7%: 300,000
 * bench records built in 2.2-3.2 s against 3.6-3.7 at 500, 1,000,000 in 7.5-9.8 s against
 * 14-19 (in process, same hour); bench case 7, 0.98 s against 1.51. The built server as its
 * own process did not move (bench case 8, 1,000,000: 10.1 s first use before, 10.7 after):
 * there the worker waits on SQLite's inserts, its collector 2.8% of its profile.
 */
export const CHUNK_RECORDS = 125;

/** A held result whose tables a statement may read. */
export interface TableSource {
  id: string;
  table: string;
  /** Changes whenever its records do (continue_report): the tables are then rebuilt. */
  updatedAt: number;
  records: () => Promise<readonly Record<string, unknown>[]>;
}

export interface SqlEngineOptions {
  timeoutMs: number;
  /** Told the bytes a result's tables occupy once built (counted against the results budget). */
  onTableBytes?: (resultId: string, bytes: number) => void;
}

/** A statement SQLite refused or failed: its message, for the caller to correct the statement. */
export class SqlFailure extends Error {
  constructor(
    message: string,
    readonly refused: boolean,
  ) {
    super(message);
  }
}

interface Loaded {
  table: string;
  updatedAt: number;
}

type Body = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

export class SqlEngine {
  private worker?: Worker;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: WorkerReply) => void; reject: (e: Error) => void }>();
  private queue: Promise<unknown> = Promise.resolve();
  /** Per owner, what their database holds: resultId -> its table. */
  private readonly loaded = new Map<string, Map<string, Loaded>>();

  constructor(private readonly options: SqlEngineOptions) {}

  /** Runs `sql` over `owner`'s database after building the tables of `sources` it lacks and dropping
   *  those of results no longer in `held`. */
  query(
    owner: string,
    sources: readonly TableSource[],
    held: ReadonlySet<string>,
    sql: string,
    limits: RunLimits,
    signal?: AbortSignal,
  ) {
    return this.serial(async () => {
      await this.prepare(owner, sources, held, signal);
      signal?.throwIfAborted();
      // A cancelled call stops its statement the only way there is: the worker goes.
      const cancel = () => this.reset(new ReportsError('cancelled', 'The sql_query call was cancelled.'));
      signal?.addEventListener('abort', cancel, { once: true });
      try {
        return (await this.ask({ op: 'run', owner, sql, limits }, this.options.timeoutMs)).value as RunOutput;
      } finally {
        signal?.removeEventListener('abort', cancel);
      }
    });
  }

  /** Every table of `owner`'s results in `sources` with its columns (built first when needed). */
  describe(owner: string, sources: readonly TableSource[], held: ReadonlySet<string>) {
    return this.serial(async () => {
      await this.prepare(owner, sources, held);
      return (await this.ask({ op: 'describe', owner })).value as { table: string; columns: string[] }[];
    });
  }

  /** The result is gone (evicted, expired): its tables go too. */
  forget(owner: string, resultId: string): void {
    const entry = this.loaded.get(owner)?.get(resultId);
    if (!entry) return;
    this.loaded.get(owner)?.delete(resultId);
    void this.serial(() => this.ask({ op: 'drop', owner, table: entry.table })).catch(() => {});
  }

  async close(): Promise<void> {
    this.reset(new ReportsError('cancelled', 'The server is shutting down; the SQL statement was not finished.'));
  }

  private serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }

  /**
   * Builds what `sources` lack, a chunk at a time. A cancelled call stops between chunks: a
   * million records take tens of seconds to build, which would otherwise hold every other
   * caller's statement behind a call nobody waits for. The table left half built is not
   * noted as loaded, so the next statement that needs it drops and builds it whole.
   */
  private async prepare(
    owner: string,
    sources: readonly TableSource[],
    held: ReadonlySet<string>,
    signal?: AbortSignal,
  ): Promise<void> {
    let mine = this.loaded.get(owner);
    if (!mine) {
      mine = new Map();
      this.loaded.set(owner, mine);
    }
    for (const [id, entry] of mine) {
      if (held.has(id)) continue;
      mine.delete(id);
      await this.ask({ op: 'drop', owner, table: entry.table });
    }
    for (const source of sources) {
      const had = mine.get(source.id);
      if (had && had.updatedAt === source.updatedAt) continue;
      mine.delete(source.id);
      const before = tablesBytes(await this.ask({ op: 'drop', owner, table: source.table }));
      const records = await source.records();
      // The next chunk is copied to the worker while it inserts this one: one chunk ahead at
      // most, so no more than two are held as copies at once.
      let inserting: Promise<unknown> | undefined;
      for (let i = 0; i < records.length; i += CHUNK_RECORDS) {
        signal?.throwIfAborted();
        const chunk = records.slice(i, i + CHUNK_RECORDS) as Record<string, unknown>[];
        const added = this.ask({ op: 'add', owner, table: source.table, records: chunk });
        // Should the chunk before fail, that failure is the one thrown; this one's is then moot.
        added.catch(() => {});
        await inserting;
        inserting = added;
      }
      await inserting;
      const after = tablesBytes(await this.ask({ op: 'finish', owner, table: source.table }));
      mine.set(source.id, { table: source.table, updatedAt: source.updatedAt });
      this.options.onTableBytes?.(source.id, Math.max(0, after - before));
    }
  }

  /** One request to the worker; with `timeoutMs`, the worker is terminated when it takes longer. */
  private async ask(body: Body, timeoutMs?: number): Promise<Extract<WorkerReply, { ok: true }>> {
    const worker = this.ensureWorker();
    const id = this.nextId++;
    const reply = await new Promise<WorkerReply>((resolve, reject) => {
      const timer =
        timeoutMs === undefined ? undefined : setTimeout(() => this.reset(timeoutError(timeoutMs)), timeoutMs);
      this.pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      worker.postMessage({ ...body, id });
    });
    if (!reply.ok) throw new SqlFailure(reply.message, reply.refused);
    return reply;
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = startWorker();
    worker.on('message', (reply: WorkerReply) => {
      const entry = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      entry?.resolve(reply);
    });
    worker.on('error', (err) => this.reset(new ReportsError('server', `The SQL engine failed: ${err.message}`)));
    worker.on('exit', () => {
      if (this.worker === worker) this.reset(new ReportsError('server', 'The SQL engine stopped unexpectedly.'));
    });
    // The worker must not keep the process alive once the server is done.
    worker.unref();
    this.worker = worker;
    return worker;
  }

  /** Ends the worker and everything it held; pending requests fail with `error`. */
  private reset(error: Error): void {
    const worker = this.worker;
    this.worker = undefined;
    this.loaded.clear();
    for (const entry of this.pending.values()) entry.reject(error);
    this.pending.clear();
    void worker?.terminate();
  }
}

function timeoutError(ms: number): ReportsError {
  return new ReportsError(
    'timeout',
    `sql_query: the statement ran longer than REPORTS_SQL_TIMEOUT_MS (${ms.toLocaleString('en-US')} ms) and was ` +
      'stopped. Narrow it (a WHERE on the joined keys, fewer rows before a join, a LIMIT) and call again.',
  );
}

declare const __SQL_WORKER_SOURCE__: string | undefined;

/**
 * A small young generation: each chunk of records cloned into the worker is garbage once
 * inserted, and collecting it sooner about halves the process's growth while building
 * (bench case 7, 100,000 records, same machine: 760 bytes per record instead of 1,430, for
 * 1.4 s of building instead of 1.0 s).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 4 };

/**
 * The worker: in the shipped bundle its source is embedded at build time
 * (scripts/bundle-server.ts), beside the tsc output it is worker.js, and under the tests (TypeScript sources, which a
 * worker thread cannot load) it is the built one: the test run builds first.
 */
function startWorker(): Worker {
  if (typeof __SQL_WORKER_SOURCE__ === 'string')
    return new Worker(__SQL_WORKER_SOURCE__, { eval: true, resourceLimits: WORKER_LIMITS });
  const here = import.meta.url;
  const built = here.endsWith('.ts') ? new URL('../../dist/src/sql/worker.js', here) : new URL('./worker.js', here);
  if (!existsSync(fileURLToPath(built)))
    throw new ReportsError(
      'configuration',
      `The SQL engine's worker ${fileURLToPath(built)} is missing; run npm run build.`,
    );
  return new Worker(built, { resourceLimits: WORKER_LIMITS });
}

/** The bytes the owner's tables occupy, which the worker answers a drop and a finish with. */
function tablesBytes(reply: { bytes?: number }): number {
  if (reply.bytes === undefined) throw new ReportsError('server', "The SQL engine answered without its tables' size.");
  return reply.bytes;
}
