/**
 * Giving memory back when held results change by a lot (docs/architecture.md, "Memory of held
 * results"). V8 collects garbage when its heap has grown by a factor of what was live at the
 * last collection, so after a large report (tens of MB of page text and replaced strings) or
 * after evicting results, the process can sit on hundreds of MB that nothing holds: the budget
 * would be kept in what is held and not in what the machine sees. A full collection at those
 * moments, and only then, makes RSS follow what is held. It costs tens of milliseconds against
 * the seconds such a fetch takes; small reports never pay it.
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
  if (bytes >= RECLAIM_AFTER_BYTES) collectNow();
}

/** After a result of `bytes` was evicted: collects once evictions add up. */
export function reclaimAfterEviction(bytes: number): void {
  evicted += bytes;
  if (evicted >= RECLAIM_AFTER_BYTES) collectNow();
}

function collectNow(): void {
  evicted = 0;
  collector()();
}
