/**
 * Giving memory back when held results change by a lot (docs/architecture.md, "Memory of held
 * results"). V8 collects garbage when its heap has grown by a factor of what was live at the
 * last collection, so after a large report (tens of MB of page text and replaced strings) or
 * after evicting results, the process can sit on hundreds of MB that nothing holds: the budget
 * would be kept in what is held and not in what the machine sees. A full collection at those
 * moments, and only then, makes RSS follow what is held; small reports never pay it. It runs
 * on the event loop's next turn, once the answer of the call that asked for it is written: it
 * took 110-260 ms after a 100,000-record report (more the more is held), which the answer
 * waited for when it ran before it. What it frees is garbage either way, and the peak is the
 * fetch's.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** A result holding this much (about 40,000 air segments) is large; evictions adding up to
 *  this much too. */
export const RECLAIM_AFTER_BYTES = 16 * 1024 * 1024;

let collect: (() => void) | undefined;

function collector(): () => void {
  if (!collect) {
    // The gc function V8 exposes under --expose-gc, made available for this purpose only.
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  return collect;
}

let evicted = 0;

/** After a result of `bytes` was put: collects when it is large. */
export function reclaimAfterPut(bytes: number): void {
  if (bytes >= RECLAIM_AFTER_BYTES) collectSoon();
}

/** After a result of `bytes` was evicted: collects once evictions add up. */
export function reclaimAfterEviction(bytes: number): void {
  evicted += bytes;
  if (evicted >= RECLAIM_AFTER_BYTES) collectSoon();
}

let scheduled = false;

/** One collection on the next turn, however often it is asked for before then. */
function collectSoon(): void {
  evicted = 0;
  if (scheduled) return;
  scheduled = true;
  setImmediate(() => {
    scheduled = false;
    collector()();
  });
}
