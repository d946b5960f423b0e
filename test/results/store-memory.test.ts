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
import { RecordPass } from '../../src/upstream/paging/record-pass.js';
import { listBytes } from '../../src/upstream/record-memory.js';
import { completeResult } from '../helpers/held-result.js';

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
    ...completeResult(`report_${n}`, records),
    owner: 'local',
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

it('measures records as the fetch walked them as the heap they occupy, repeated texts shared for real', () => {
  // Parsed pages as the service sends them: texts of every length repeating across records
  // (names, remarks, days), identifiers and amounts that do not.
  const names = Array.from({ length: 300 }, (_, i) => `TRAVELLER${i}/FIRSTNAME NUMBER ${i}`);
  const remarks = Array.from(
    { length: 200 },
    (_, i) => `remark ${i}: ${'please confirm the aisle seat '.repeat(1 + (i % 4))}`,
  );
  const pages = Array.from({ length: 20 }, (_, p) =>
    JSON.stringify(
      Array.from({ length: 1000 }, (_, j) => {
        const i = p * 1000 + j;
        return {
          Id: `ID-${String(i).padStart(12, '0')}`,
          Name: names[(i * 7) % names.length],
          Remarks: remarks[(i * 13) % remarks.length],
          Day: `/Date(${1_767_225_600_000 + (i % 400) * 86_400_000})/`,
          // Values that hardly repeat, counted at the end of the fetch (not shared): short
          // texts (interned by JSON.parse, one string each) and instants to the second.
          Locator: `L${i % 15_000}`,
          // Short texts that repeat, found in their table and left in place: JSON.parse
          // interns texts of up to 10 characters (INTERNED_MAX), so the heap holds each once.
          // If it ever stopped doing so, the heap would hold 20,000 and the measure 50.
          Code: `CODE${i % 50}`,
          Stamp: `/Date(${1_767_225_600_000 + (i % 17_000) * 1_000})/`,
          Nested: { Name: names[(i * 11) % names.length], Fare: 100 + i / 100 },
        };
      }),
    ),
  );
  gc();
  const start = heap();
  let pass: RecordPass | undefined = new RecordPass(true);
  const held: unknown[][] = [];
  for (const page of pages) {
    const records = JSON.parse(page) as Record<string, unknown>[];
    pass.beginPage();
    for (const r of records) pass.record(r);
    held.push(records);
  }
  pass.finish();
  const fields = pass.values.fields.map((f) => f.name);
  const deferred = pass.values.fields.filter((f) => f.deferred !== undefined).map((f) => f.name);
  const measured = pass.memory.bytes + held.length * listBytes(1000);
  // The pass (its fields' tables of values) is the fetch's working set, not what is held.
  pass = undefined;
  gc();
  const grown = heap() - start;
  console.error(`walked: measured ${(measured / MB).toFixed(2)} MB, heap grew ${(grown / MB).toFixed(2)} MB`);
  expect(fields).toEqual(['Id', 'Name', 'Remarks', 'Day', 'Locator', 'Code', 'Stamp', 'Nested']);
  expect(deferred).toEqual(['Locator']);
  expect(measured / grown).toBeGreaterThan(0.9);
  expect(measured / grown).toBeLessThan(1.1);
  expect(held.length).toBe(20);
});
