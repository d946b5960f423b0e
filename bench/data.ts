/**
 * The records the bench upstream serves: air segments as the sandbox renders them (the
 * service's field names, /Date(...)/ values, ~500 bytes of JSON each), built once from its
 * generator and repeated with a distinct ServiceRef, so any count of records and any number
 * of different reports ("variants") come from one small base.
 */
import { sharedDataset } from '../src/sandbox/data.js';
import { airSegmentByDate } from '../src/sandbox/records.js';

export type BenchRecord = Record<string, unknown>;

let base: BenchRecord[] | undefined;

function baseRecords(): BenchRecord[] {
  base ??= sharedDataset({ seed: 42, size: 2000, dataNow: new Date('2026-11-15T00:00:00Z') }).airSegments.map(
    airSegmentByDate,
  );
  return base;
}

/** Record `index` of report `variant`: a base record (rotated per variant) with its own ServiceRef. */
export function benchRecord(variant: number, index: number): BenchRecord {
  const all = baseRecords();
  const r = all[(index + variant * 97) % all.length];
  return { ...r, ServiceRef: String(variant * 10_000_000 + index) };
}

/** Records [offset, offset + count) of a report of `total` records. */
export function benchRecords(variant: number, total: number, offset: number, count: number): BenchRecord[] {
  const out: BenchRecord[] = [];
  for (let i = offset; i < Math.min(total, offset + count); i++) out.push(benchRecord(variant, i));
  return out;
}

/** Records per CarrierCode of a whole report: what query_report must answer for it. */
export function countsByCarrier(variant: number, total: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < total; i++) {
    const c = String(benchRecord(variant, i).CarrierCode);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return counts;
}
