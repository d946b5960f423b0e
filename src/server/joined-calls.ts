/**
 * A report call identical to one in progress for the same person attaches to it; one
 * identical to a call completed within the last minute answers from that call's held result
 * (docs/held-results.md, "Repeated calls"). Hosts re-issue a call that timed out or whose
 * stream broke, and a model often asks for the same report twice in one turn: each would
 * otherwise fetch every page again. `fresh: true` always fetches (and others may join it).
 * A call whose stream broke leaves its fetch running for RECENT_MS, so the call the client
 * issues again attaches to it; a cancel stops it at once.
 */
import { cancelledError, ReportsError } from '../errors.js';
import type { StoredResult } from '../results/store.js';

/** How long a completed call's result answers an identical call. */
export const RECENT_MS = 60_000;
/** How often a fetch left by a broken stream looks for the cancel that may follow it. */
const CANCEL_POLL_MS = 200;
/** Most completed calls remembered (the oldest forgotten first). */
const MAX_RECENT = 1_000;

type Progress = (fetched: number, total: number) => void;

interface Running {
  promise: Promise<StoredResult>;
  controller: AbortController;
  /** Callers waiting for it; when the last one goes (cancelled), the fetch is stopped. */
  waiting: number;
  progress: Set<Progress>;
}

/** How an answer came about: its own fetch, another call's running one, or a recent one's result. */
export type Joined = { kind: 'fetched' } | { kind: 'running' } | { kind: 'recent'; ageMs: number };

export interface JoinOptions {
  /** Fetch again even when an identical call completed within RECENT_MS. */
  fresh?: boolean;
  /** The caller's own signal (its cancel, or the server stopping). */
  signal: AbortSignal;
  onProgress?: Progress;
  /** Whether the caller's signal was aborted by its stream breaking, not by a cancel. */
  streamBroke?: () => boolean;
}

export class JoinedCalls {
  private readonly running = new Map<string, Running>();
  private readonly recent = new Map<string, { id: string; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /**
   * The result for the call `key` names (owner, tool, resolved query, controls): joined,
   * recent, or from `fetch`, which is given a signal that aborts only when every caller
   * waiting for it has gone. `held` reads a recent result again (undefined when it is not held).
   */
  async run(
    key: string,
    options: JoinOptions,
    fetch: (signal: AbortSignal, onProgress: Progress) => Promise<StoredResult>,
    held: (id: string) => Promise<StoredResult | undefined>,
  ): Promise<{ stored: StoredResult; joined: Joined }> {
    const running = this.running.get(key);
    if (running) return { stored: await this.wait(running, options), joined: { kind: 'running' } };
    if (!options.fresh) {
      const recent = this.recent.get(key);
      const ageMs = recent ? this.now() - recent.at : Infinity;
      if (recent && ageMs <= RECENT_MS) {
        const stored = await held(recent.id);
        if (stored) return { stored, joined: { kind: 'recent', ageMs } };
        this.recent.delete(key);
      }
    }
    const controller = new AbortController();
    const entry: Running = { promise: Promise.resolve() as never, controller, waiting: 0, progress: new Set() };
    const onProgress: Progress = (fetched, total) => {
      for (const p of entry.progress) p(fetched, total);
    };
    entry.promise = fetch(controller.signal, onProgress).then(
      (stored) => {
        this.running.delete(key);
        this.remember(key, stored.id);
        return stored;
      },
      (err) => {
        this.running.delete(key);
        throw err;
      },
    );
    // Settled by whoever waits; never an unhandled rejection when all have gone.
    entry.promise.catch(() => {});
    this.running.set(key, entry);
    return { stored: await this.wait(entry, options), joined: { kind: 'fetched' } };
  }

  /** The running fetch's result, for one caller; that caller's cancel ends only its own wait. */
  private async wait(entry: Running, options: JoinOptions): Promise<StoredResult> {
    const { signal, onProgress } = options;
    if (signal.aborted) throw cancelledError(signal);
    entry.waiting++;
    if (onProgress) entry.progress.add(onProgress);
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => reject(cancelledError(signal));
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([entry.promise, aborted]);
    } finally {
      signal.removeEventListener('abort', onAbort as () => void);
      if (onProgress) entry.progress.delete(onProgress);
      entry.waiting--;
      if (entry.waiting === 0 && signal.aborted) this.orphaned(entry, signal, options.streamBroke ?? (() => false));
    }
  }

  /**
   * The last caller has gone: stop the fetch, or, when its stream broke, after RECENT_MS
   * unless a caller joins. A cancel may arrive after the stream broke (over HTTP it is a
   * request of its own): it is looked for every CANCEL_POLL_MS meanwhile.
   */
  private orphaned(entry: Running, signal: AbortSignal, streamBroke: () => boolean): void {
    const stop = () => {
      clearInterval(timer);
      if (entry.waiting === 0)
        entry.controller.abort(signal.reason instanceof ReportsError ? signal.reason : cancelledError(signal));
    };
    const until = this.now() + RECENT_MS;
    const timer = setInterval(() => {
      if (entry.waiting > 0) clearInterval(timer);
      else if (!streamBroke() || this.now() >= until) stop();
    }, CANCEL_POLL_MS);
    timer.unref();
    if (!streamBroke()) stop();
    entry.promise.then(
      () => clearInterval(timer),
      () => clearInterval(timer),
    );
  }

  private remember(key: string, id: string): void {
    const now = this.now();
    this.recent.delete(key);
    this.recent.set(key, { id, at: now });
    // Map order is completion order: the oldest are first.
    for (const [k, r] of this.recent) {
      if (this.recent.size <= MAX_RECENT && now - r.at <= RECENT_MS) break;
      this.recent.delete(k);
    }
  }
}
