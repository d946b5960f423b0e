/**
 * Giving memory back when held results change by a lot (docs/architecture.md, "Memory of held
 * results"). V8 collects garbage when its heap has grown by a factor of what was live at the
 * last collection, so after a large report (tens of MB of page text and replaced strings) or
 * after evicting a result, the process can sit on hundreds of MB that nothing holds: the
 * budget would be kept in what is held and not in what the machine sees. A full collection at
 * those moments, and only then, makes RSS follow what is held. It costs tens of milliseconds
 * against the seconds such a fetch takes; small calls never pay it.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Bytes of records allocated or dropped since the last collection that make one worth it. */
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

let owed = 0;

/** Counts `bytes` allocated or freed for held results; collects once they add up. */
export function reclaimAfter(bytes: number): void {
  owed += bytes;
  if (owed < RECLAIM_AFTER_BYTES) return;
  owed = 0;
  collector()();
}
