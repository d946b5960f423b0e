/**
 * The results budget holds as memory, measured: records whose JSON is small but whose
 * objects are not (many short distinct strings: about 3x the JSON in the heap). A store that
 * only counts estimated JSON keeps far more than its budget; the store measuring the
 * process's memory keeps within it. Memory is read after a full garbage collection (so the
 * figures are what is held, not garbage waiting), via V8's gc exposed for this file only.
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

it('keeps the measured memory of held results within REPORTS_RESULTS_MAX_MB, evicting the least recently used', () => {
  gc();
  const start = heap();
  const measured = new ResultStore({ maxBytes: BUDGET, memory: heap });
  const { grown, ids } = fill(measured, start);
  expect(grown).toBeLessThanOrEqual(BUDGET * 1.2);
  // The newest result is always held; evicted ones are the oldest, and answer not_found.
  expect(measured.size).toBeGreaterThanOrEqual(1);
  expect(measured.size).toBeLessThan(REPORTS);
  const held = ids.slice(REPORTS - measured.size);
  for (const id of held) expect(measured.get(id).records[19_999].F19).toBe(`${ids.indexOf(id)}1999919`);
  expect(() => measured.get(ids[0])).toThrow(/No result/);
});

it('(the same puts, counted by estimated JSON only, hold well past the budget: the check above can fail)', () => {
  gc();
  const start = heap();
  const estimated = new ResultStore({ maxBytes: BUDGET });
  const { grown } = fill(estimated, start);
  expect(estimated.size).toBeGreaterThan(REPORTS / 2);
  expect(grown).toBeGreaterThan(BUDGET * 1.5);
});
