/**
 * Giving memory back after a large put or evictions (src/server/reclaim.ts): one full
 * collection, on the event loop's next turn, so the answer of the call that asked for it is
 * written before it runs; asked for twice before then, it runs once.
 */
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { expect, test } from 'vitest';
import { RECLAIM_AFTER_BYTES, reclaimAfterEviction, reclaimAfterPut } from '../../src/server/reclaim.js';

/** Start times of the forced full collections observed while `run` runs. */
async function forcedCollections(run: () => Promise<number>): Promise<{ starts: number[]; returned: number }> {
  const starts: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries() as Array<PerformanceEntry & { detail?: { kind: number; flags: number } }>) {
      const forced = (e.detail?.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED;
      if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR && forced) starts.push(e.startTime);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  try {
    const returned = await run();
    // Entries reach the observer after the collection, on a later turn.
    await new Promise((resolve) => setTimeout(resolve, 100));
    return { starts, returned };
  } finally {
    observer.disconnect();
  }
}

test('a large put and evictions adding up collect once, after the caller has gone on', async () => {
  const before = performance.now();
  const { starts, returned } = await forcedCollections(async () => {
    reclaimAfterPut(RECLAIM_AFTER_BYTES);
    reclaimAfterEviction(RECLAIM_AFTER_BYTES);
    return performance.now();
  });
  expect(starts.filter((t) => t >= before)).toHaveLength(1);
  expect(starts[0]).toBeGreaterThanOrEqual(returned);
});

test('a small put collects nothing', async () => {
  const { starts } = await forcedCollections(async () => {
    reclaimAfterPut(RECLAIM_AFTER_BYTES - 1);
    return performance.now();
  });
  expect(starts).toEqual([]);
});
