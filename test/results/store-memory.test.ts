/**
 * The results budget holds as memory: records whose JSON is small but whose objects are not
 * (many short distinct strings: about 3x the JSON in the heap) are measured as the heap they
 * occupy, so the store keeps within its budget, and dropping a result frees what it was
 * counted for. Memory is read after a full garbage collection (so the figures are what is
 * held, not garbage waiting), via V8's gc exposed for this file only.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';
import { type NewResult, ResultStore } from '../../src/results/store.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const heap = () => process.memoryUsage().heapUsed;
const MB = 1024 * 1024;
const BUDGET = 40 * MB;
const REPORTS = 10;

function report(n: number): NewResult {
  const records = Array.from({ length: 20_000 }, (_, i) => {
    const r: Record<string, string> = {};
    for (let k = 0; k < 20; k++) r[`F${k}`] = `${n}${i}${k}`;
    return r;
  });
  return {
    owner: 'local',
    report: `report_${n}`,
    source: 'demo',
    query: {},
    sentQuery: {},
    totalRecords: records.length,
    complete: true,
    notes: [],
    records,
    held: [{ offset: 0, count: records.length }],
    summary: { recordCount: records.length, fields: {}, emptyFields: [] },
  };
}

/** Puts REPORTS results into `store`; returns the heap growth held afterwards and the ids. */
function fill(store: ResultStore, start: number): { grown: number; ids: string[] } {
  const ids = [];
  for (let n = 0; n < REPORTS; n++) ids.push(store.put(report(n)).id);
  gc();
  return { grown: heap() - start, ids };
}

it('measures a result as the heap it occupies, and dropping it frees what it was counted for', () => {
  const store = new ResultStore({ maxBytes: 1024 * MB });
  gc();
  const start = heap();
  const { id, bytes } = store.put(report(0));
  gc();
  const grown = heap() - start;
  console.error(`one result: measured ${(bytes / MB).toFixed(2)} MB, heap grew ${(grown / MB).toFixed(2)} MB`);
  expect(bytes / grown).toBeGreaterThan(0.9);
  expect(bytes / grown).toBeLessThan(1.1);
  expect(store.bytes).toBe(bytes);
  store.delete(id);
  expect(store.bytes).toBe(0);
  gc();
  expect(heap() - start).toBeLessThan(grown * 0.05);
});

it('keeps the memory of held results within REPORTS_RESULTS_MAX_MB, evicting the least recently used', () => {
  gc();
  const start = heap();
  const store = new ResultStore({ maxBytes: BUDGET });
  const { grown, ids } = fill(store, start);
  expect(store.bytes).toBeLessThanOrEqual(BUDGET);
  expect(grown).toBeLessThanOrEqual(BUDGET * 1.1);
  // The newest result is always held; evicted ones are the oldest, and answer not_found.
  expect(store.size).toBeGreaterThanOrEqual(1);
  expect(store.size).toBeLessThan(REPORTS);
  const held = ids.slice(REPORTS - store.size);
  for (const id of held) expect(store.get(id).records[19_999].F19).toBe(`${ids.indexOf(id)}1999919`);
  expect(() => store.get(ids[0])).toThrow(/No result/);
});
