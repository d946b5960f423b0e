import { cancelledError } from '../errors.js';

/**
 * A counting semaphore: at most `limit` upstream requests in flight at once. One instance is
 * shared by every call in the process (REPORTS_CONCURRENCY), so two concurrent tool calls
 * together never exceed it. Waiters are served first come, first served.
 */
/** What the upstream client needs of a concurrency limit: this process's, or one shared in Redis. */
export interface ConcurrencyLimit {
  readonly limit: number;
  /** Requests of this process holding a slot now, and the most seen at once. */
  readonly inFlight: number;
  readonly maxActive: number;
  /**
   * Runs `task` holding a slot. The task may give its slot back before it ends by calling
   * `done` (once or more): a request is in flight until its body is read, not while its JSON
   * is parsed, so the next request goes out while this one's page is parsed.
   */
  run<T>(task: (done: () => void) => Promise<T>, signal?: AbortSignal): Promise<T>;
}

export class Limiter implements ConcurrencyLimit {
  private active = 0;
  private readonly waiting: Array<{
    resolve: () => void;
    reject: (e: unknown) => void;
    signal?: AbortSignal;
    onAbort?: () => void;
  }> = [];
  /** Highest number of holders seen at once (tests and benchmarks read it). */
  maxActive = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new RangeError(`Limiter limit must be an integer >= 1, got ${limit}`);
  }

  get inFlight(): number {
    return this.active;
  }

  async run<T>(task: (done: () => void) => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    let held = true;
    const done = () => {
      if (!held) return;
      held = false;
      this.release();
    };
    try {
      return await task(done);
    } finally {
      done();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(cancelledError(signal));
    if (this.active < this.limit) {
      this.take();
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: (typeof this.waiting)[number] = { resolve, reject, signal };
      if (signal) {
        waiter.onAbort = () => {
          const i = this.waiting.indexOf(waiter);
          if (i !== -1) this.waiting.splice(i, 1);
          reject(cancelledError(signal));
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.waiting.push(waiter);
    });
  }

  private take(): void {
    this.active++;
    if (this.active > this.maxActive) this.maxActive = this.active;
  }

  private release(): void {
    this.active--;
    const next = this.waiting.shift();
    if (next) {
      if (next.onAbort) next.signal?.removeEventListener('abort', next.onAbort);
      this.take();
      next.resolve();
    }
  }
}
