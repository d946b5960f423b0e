/**
 * Giving memory back after a large put or evictions (src/server/reclaim.ts): one full
 * collection; after a large put on the event loop's next turn (the caller has gone on), after
 * evictions adding up once no tool call (a guarded handler, as every tool's is) has run for
 * QUIET_MS (server/quiet.ts). Asked for twice before it runs, it runs once.
 */
import { constants, type PerformanceEntry, PerformanceObserver } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { guard } from '../../src/server/boundary.js';
import { QUIET_MS } from '../../src/server/quiet.js';
import { RECLAIM_AFTER_BYTES, reclaimAfterEviction, reclaimAfterPut } from '../../src/server/reclaim.js';

/** Start times of the forced full collections since the test began. */
let forced: number[] = [];
const observer = new PerformanceObserver((list) => {
  for (const e of list.getEntries() as Array<PerformanceEntry & { detail?: { kind: number; flags: number } }>) {
    const isForced = (e.detail?.flags ?? 0) & constants.NODE_PERFORMANCE_GC_FLAGS_FORCED;
    if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR && isForced) forced.push(e.startTime);
  }
});
beforeEach(() => {
  forced = [];
  observer.observe({ entryTypes: ['gc'] });
});
afterEach(() => observer.disconnect());

/** Long enough for a collection asked for to have run, and its entry to reach the observer. */
const settle = () => sleep(QUIET_MS + 200);

test('a large put collects once on the next turn, evictions asked for meanwhile with it', async () => {
  reclaimAfterPut(RECLAIM_AFTER_BYTES);
  reclaimAfterEviction(RECLAIM_AFTER_BYTES);
  const returned = performance.now();
  await settle();
  expect(forced).toHaveLength(1);
  expect(forced[0]).toBeGreaterThanOrEqual(returned);
  expect(forced[0] - returned).toBeLessThan(QUIET_MS);
});

test('evictions, with no call running for QUIET_MS, collect once they add up', async () => {
  reclaimAfterEviction(RECLAIM_AFTER_BYTES / 2);
  await settle();
  expect(forced).toEqual([]);
  reclaimAfterEviction(RECLAIM_AFTER_BYTES / 2);
  await settle();
  expect(forced).toHaveLength(1);
});

test('a small put collects nothing', async () => {
  reclaimAfterPut(RECLAIM_AFTER_BYTES - 1);
  await settle();
  expect(forced).toEqual([]);
});

test('no collection after evictions runs while a tool call runs; it runs QUIET_MS after the last', async () => {
  let ended = 0;
  const call = guard(
    'report',
    [],
    () => {},
    async (ms: number) => {
      reclaimAfterEviction(RECLAIM_AFTER_BYTES);
      await sleep(ms);
      ended = performance.now();
      return { content: [] };
    },
  );
  // Two calls overlapping, each asking for a collection, both running past QUIET_MS.
  const first = call(3 * QUIET_MS);
  await sleep(QUIET_MS);
  await Promise.all([first, call(2 * QUIET_MS)]);
  expect(forced).toEqual([]);
  await settle();
  expect(forced).toHaveLength(1);
  expect(forced[0] - ended).toBeGreaterThanOrEqual(QUIET_MS - 1);
});

test('a call that throws still ends as a call: the collection runs after it', async () => {
  const failing = guard(
    'report',
    [],
    () => {},
    async () => {
      reclaimAfterEviction(RECLAIM_AFTER_BYTES);
      throw new Error('upstream down');
    },
  );
  const answer = await failing();
  expect(answer.isError).toBe(true);
  await settle();
  expect(forced).toHaveLength(1);
});

test('a large put during a call collects on the next turn, not waiting for the call', async () => {
  let put = 0;
  const call = guard(
    'report',
    [],
    () => {},
    async () => {
      reclaimAfterPut(RECLAIM_AFTER_BYTES);
      put = performance.now();
      await sleep(2 * QUIET_MS);
      return { content: [] };
    },
  );
  await call();
  await sleep(100);
  expect(forced).toHaveLength(1);
  expect(forced[0] - put).toBeLessThan(QUIET_MS);
});
