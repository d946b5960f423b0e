/**
 * Tool calls running, and work that waits until they are quiet (docs/architecture.md, "Work
 * after the answer"): a full garbage collection (reclaim.ts) and the copy of a held result on
 * disk (results/disk-store.ts). Both run after an answer is written, and both took the CPU from
 * the next call when calls came back to back: the collection stopped everything for 225-300 ms
 * with the budget full, and a small report's copy took about 1.2 ms of the main thread and 3 ms
 * of CPU in all, which a model calling tools one after another paid on each next call. Once no
 * call has run for QUIET_MS they take time from nobody; a deadline bounds how long work may wait
 * while calls keep coming.
 */

/** How long no tool call runs before the work waiting for quiet runs: longer than a client's
 *  turn between back-to-back calls, far shorter than a person's or a model's. */
export const QUIET_MS = 250;

interface Waiter {
  resolve: () => void;
  /** performance.now() past which it runs whether calls are quiet or not. */
  deadline: number;
}

let running = 0;
let lastEnded = Number.NEGATIVE_INFINITY;
const waiting = new Set<Waiter>();
let timer: NodeJS.Timeout | undefined;

/** Runs a tool call (every tool's handler runs so: boundary.ts guard). */
export async function whileCalling<T>(call: () => Promise<T>): Promise<T> {
  running++;
  try {
    return await call();
  } finally {
    running--;
    lastEnded = performance.now();
    arm();
  }
}

/** Resolves once no tool call has run for QUIET_MS (at once when none has), or `withinMs` from
 *  now, whichever comes first. */
export function whenQuiet(withinMs = Number.POSITIVE_INFINITY): Promise<void> {
  if (quiet(performance.now())) return Promise.resolve();
  return new Promise<void>((resolve) => {
    waiting.add({ resolve, deadline: performance.now() + withinMs });
    arm();
  });
}

function quiet(now: number): boolean {
  return running === 0 && now - lastEnded >= QUIET_MS;
}

/** One timer, for the next moment a waiter may run: calls quiet, or its deadline. */
function arm(): void {
  clearTimeout(timer);
  timer = undefined;
  if (!waiting.size) return;
  let at = running === 0 ? lastEnded + QUIET_MS : Number.POSITIVE_INFINITY;
  for (const w of waiting) at = Math.min(at, w.deadline);
  if (at === Number.POSITIVE_INFINITY) return;
  timer = setTimeout(wake, Math.max(0, at - performance.now()));
  // Nothing waiting here keeps the process alive: a store stopping writes what waits (flush).
  timer.unref();
}

function wake(): void {
  timer = undefined;
  const now = performance.now();
  const all = quiet(now);
  for (const w of waiting) {
    if (!all && w.deadline > now) continue;
    waiting.delete(w);
    w.resolve();
  }
  arm();
}
