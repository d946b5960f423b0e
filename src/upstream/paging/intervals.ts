/**
 * Record ranges [offset, offset + count): what a result holds, what a call fetched, what is
 * still missing. The one place this arithmetic lives, shared by the paging strategies (which
 * ranges to request) and continue_report (what a held result lacks, and how its records map
 * back to the ranges they came from). See docs/upstream.md, "Paging".
 */
import { ReportsError } from '../../errors.js';

/** A run of records held or fetched: records [offset, offset + count). */
export interface Interval {
  offset: number;
  count: number;
  /** Records held of this run when fewer than `count` (records dropped as out of the pinned
   *  company scope): positions read and records kept then differ. */
  held?: number;
}

/** Records that start at a known offset (one fetched page, or one held run). */
export interface FetchedPage {
  offset: number;
  records: Record<string, unknown>[];
  /** Upstream positions the page covers, when records were dropped from it. */
  span?: number;
}

/** Sorted, non-overlapping, adjacent runs joined. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.count > 0).sort((a, b) => a.offset - b.offset);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.offset === last.offset + last.count && (last.held !== undefined || i.held !== undefined)) {
      // Adjacent runs with dropped records: the records held add up.
      last.held = (last.held ?? last.count) + (i.held ?? i.count);
      last.count += i.count;
    } else if (last && i.offset <= last.offset + last.count) {
      last.count = Math.max(last.count, i.offset + i.count - last.offset);
    } else out.push({ ...i });
  }
  return out;
}

/** The parts of [0, total) not covered by `held` (merged). */
export function gaps(held: readonly Interval[], total: number): Interval[] {
  const out: Interval[] = [];
  let at = 0;
  for (const h of held) {
    if (h.offset >= total) break;
    if (h.offset > at) out.push({ offset: at, count: h.offset - at });
    at = Math.max(at, h.offset + h.count);
  }
  if (at < total) out.push({ offset: at, count: total - at });
  return out;
}

/** Where the first record not held from 0 onwards starts. */
export function firstGapStart(held: readonly Interval[]): number {
  return held.length && held[0].offset === 0 ? held[0].offset + held[0].count : 0;
}

/** Length of the first gap, so the first request never re-reads a held record. */
export function firstGapLength(held: readonly Interval[], total: number | null): number {
  const start = firstGapStart(held);
  const next = held.find((h) => h.offset > start);
  if (next) return next.offset - start;
  return total !== null && total > start ? total - start : Infinity;
}

/** Records in `intervals` (held ones do not overlap). */
export function recordsIn(intervals: readonly Interval[]): number {
  return intervals.reduce((n, i) => n + i.count, 0);
}

/** Records of [0, total) that `held` covers. */
export function coveredCount(held: readonly Interval[], total: number): number {
  return held.reduce((n, h) => n + Math.max(0, Math.min(h.offset + h.count, total) - Math.min(h.offset, total)), 0);
}

/** True when `held` covers every record of [0, total). */
export function coversAll(held: readonly Interval[], total: number): boolean {
  const merged = mergeIntervals(held);
  return total === 0 || (merged.length === 1 && merged[0].offset === 0 && merged[0].count >= total);
}

/** `gaps` cut into request windows of at most `size` records, `most` records in all. */
export function windows(gaps: readonly Interval[], size: number, most: number): Interval[] {
  const plan: Interval[] = [];
  let left = most;
  for (const gap of gaps) {
    for (let o = gap.offset; o < gap.offset + gap.count && left > 0; o += size) {
      const count = Math.min(size, gap.offset + gap.count - o, left);
      plan.push({ offset: o, count });
      left -= count;
    }
  }
  return plan;
}

/** The merged ranges a set of pages covers. */
export function intervalsOf(pages: readonly FetchedPage[]): Interval[] {
  return mergeIntervals(
    pages.map((p) =>
      p.span !== undefined && p.span !== p.records.length
        ? { offset: p.offset, count: p.span, held: p.records.length }
        : { offset: p.offset, count: p.records.length },
    ),
  );
}

/** A held result's records cut back into the runs they came from (`records` is their concatenation). */
export function splitHeld(records: Record<string, unknown>[], held: readonly Interval[]): FetchedPage[] {
  const out: FetchedPage[] = [];
  let at = 0;
  for (const h of held) {
    const n = h.held ?? h.count;
    out.push({ offset: h.offset, records: records.slice(at, at + n), ...(n !== h.count ? { span: h.count } : {}) });
    at += n;
  }
  if (at !== records.length) {
    throw new ReportsError(
      'inconsistent',
      `The held result has ${records.length} records but its page map accounts for ${at}; run the report again.`,
    );
  }
  return out;
}
