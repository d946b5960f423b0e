/**
 * Giving memory back when held results change by a lot (docs/architecture.md, "Memory of held
 * results"). V8 collects garbage when its heap has grown by a factor of what was live at the
 * last collection, so after a large report (tens of MB of page text and replaced strings) or
 * after evicting results, the process can sit on hundreds of MB that nothing holds: the budget
 * would be kept in what is held and not in what the machine sees. A full collection at those
 * moments, and only then, makes RSS follow what is held; small reports never pay it. It stops
 * everything for as long as it takes to mark the whole heap: 110-260 ms after a
 * 100,000-record report, more the more is held.
 *
 * After a large report it runs on the event loop's next turn, once that call's answer is
 * written: the pause is a small part of the fetch that made the garbage, and the page buffers
 * outside V8's heap are given back before the next one piles up its own (six such reports
 * back to back, collected only once calls were quiet, left RSS at 1.28x the budget, against
 * 1.13x). After evictions it waits until tool calls are quiet (quiet.ts): with the budget full
 * they add up to 16 MB with every 16 MB of new results, and 50 calls of 2,000 records at once,
 * back to back, paid two or three pauses of 225-300 ms a round, a round's time growing from 1.6
 * to 2.4 s as the heap filled (bench case 5). While calls keep coming, V8's own collections,
 * which mostly run beside the program, free that garbage.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { whenQuiet } from './quiet.js';

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
/** A collection is due: on the next turn, or once calls are quiet. */
let due = false;

/** After a result of `bytes` was put: collects when it is large, on the next turn. */
export function reclaimAfterPut(bytes: number): void {
  if (bytes < RECLAIM_AFTER_BYTES) return;
  due = true;
  setImmediate(collectOnce);
}

/** After a result of `bytes` was evicted: collects once evictions add up and calls are quiet. */
export function reclaimAfterEviction(bytes: number): void {
  evicted += bytes;
  if (evicted < RECLAIM_AFTER_BYTES || due) return;
  due = true;
  void whenQuiet().then(collectOnce);
}

/** One collection answers every one asked for until it runs. */
function collectOnce(): void {
  if (!due) return;
  due = false;
  evicted = 0;
  collector()();
}
