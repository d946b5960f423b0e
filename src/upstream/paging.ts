import { setMaxListeners } from 'node:events';
import type { EnvelopeKind } from '../catalog/types.js';
import { cancelledError, ReportsError } from '../errors.js';
import type { UpstreamClient } from './client.js';
import { decodeDatesInPlace } from './service-date.js';

/** A run of records held or fetched: records [offset, offset + count). */
export interface Interval {
  offset: number;
  count: number;
}

export interface FetchedPage {
  offset: number;
  records: Record<string, unknown>[];
}

export interface FetchRequest {
  path: string;
  query: Record<string, string>;
  envelope: EnvelopeKind;
  /** False for transactions without paging (not marked P): one request, no Offset/Limit,
   *  the answer is the whole result. Default true. */
  paged?: boolean;
  pageSize: number;
  /** Most records this call fetches. */
  maxRecords: number;
  budgetMs: number;
  signal?: AbortSignal;
  /** For continue_report: what is already held, and the total it was held against. */
  held?: { intervals: Interval[]; totalRecords: number | null };
  onProgress?: (fetched: number, total: number) => void;
}

export interface FetchOutcome {
  /** Pages fetched by this call, in offset order, dates decoded. */
  pages: FetchedPage[];
  totalRecords: number | null;
  /** True only when, with what was held before, every record of totalRecords is held and
   *  nothing was inconsistent. */
  complete: boolean;
  notes: string[];
  /** Requests made, retries included (for figures). */
  requests: number;
}

/**
 * Walks Offset/Limit pages: the first missing page first (it reveals TotalRecords), then
 * every other missing range concurrently through the client's process-wide limiter. Each
 * record index is requested at most once; the call stops at maxRecords and at the deadline;
 * a short or empty page, a changing TotalRecords or a failed page make the outcome
 * incomplete with a note saying why, never a loop or a silent gap.
 */
export async function fetchReport(client: UpstreamClient, req: FetchRequest): Promise<FetchOutcome> {
  const deadline = Date.now() + req.budgetMs;
  // One call-wide signal linked to the caller's: every queued page listens to it, so it may
  // have many listeners (Node warns past 10); the caller's own signal gets just one.
  const call = new AbortController();
  setMaxListeners(0, call.signal);
  const onAbort = () => call.abort(req.signal?.reason);
  if (req.signal?.aborted) throw cancelledError(req.signal);
  req.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await walk(client, req, deadline, call.signal);
  } finally {
    req.signal?.removeEventListener('abort', onAbort);
  }
}

async function walk(
  client: UpstreamClient,
  req: FetchRequest,
  deadline: number,
  signal: AbortSignal,
): Promise<FetchOutcome> {
  const held = mergeIntervals(req.held?.intervals ?? []);
  const notes: string[] = [];
  const pages: FetchedPage[] = [];
  const failures: Array<{ interval: Interval; error: ReportsError }> = [];
  let requests = 0;
  let fetched = 0;
  let budget = req.maxRecords;
  let inconsistent = false;
  let progressTotal = 0;

  const paged = req.paged !== false;
  const get = async (interval: Interval) => {
    const page = await client.getPage({
      path: req.path,
      query: req.query,
      envelope: req.envelope,
      ...(paged ? { offset: interval.offset, limit: interval.count } : {}),
      signal,
      deadline,
      budgetMs: req.budgetMs,
    });
    requests += page.attempts;
    return page;
  };

  const accept = (
    interval: Interval,
    records: Record<string, unknown>[],
    total: number | null,
    expectFull: boolean,
  ) => {
    let kept = records;
    if (records.length > interval.count) {
      kept = records.slice(0, interval.count);
      inconsistent = true;
      notes.push(
        `The page at Offset ${interval.offset} returned ${records.length} records for Limit ${interval.count}; the extra ${records.length - interval.count} were dropped to avoid duplicates.`,
      );
    } else if (expectFull && records.length < interval.count) {
      inconsistent = true;
      notes.push(
        records.length === 0
          ? `The page at Offset ${interval.offset} came back empty although TotalRecords is ${total}; records ${interval.offset}-${interval.offset + interval.count - 1} are missing.`
          : `The page at Offset ${interval.offset} returned ${records.length} records where ${interval.count} were promised; records ${interval.offset + records.length}-${interval.offset + interval.count - 1} are missing.`,
      );
    }
    pages.push({ offset: interval.offset, records: kept.map((r) => decodeDatesInPlace(r)) });
    fetched += kept.length;
    req.onProgress?.(fetched, Math.max(progressTotal, fetched));
  };

  // 1. The first missing page reveals TotalRecords (for continue_report: the current one).
  const firstOffset = firstGapStart(held);
  const first: Interval = {
    offset: firstOffset,
    count: Math.min(req.pageSize, budget, firstGapLength(held, req.held?.totalRecords ?? null)),
  };
  const page0 = await get(first);
  let total = page0.totalRecords;
  // A transaction without paging answers everything at once; so does a service that ignores
  // Limit (no paging metadata, more records than asked). The answer is then the whole result
  // from record 0: requesting further windows would only return the same records again.
  const whole = !paged || (total === null && page0.records.length > first.count);
  if (whole) total = page0.records.length;
  if (req.held?.totalRecords != null && total !== null && total !== req.held.totalRecords) {
    inconsistent = true;
    notes.push(
      `TotalRecords changed from ${req.held.totalRecords} (when the result was first fetched) to ${total}: the data changed in between; run the report again for a consistent snapshot.`,
    );
  }
  progressTotal = total === null ? first.count : Math.min(total - coveredCount(held, total), budget);
  if (whole) {
    // Everything missing is in this answer already: take it, within the cap.
    for (const gap of gaps(held, total!)) {
      const count = Math.min(gap.count, budget);
      if (count <= 0) break;
      budget -= count;
      accept({ offset: gap.offset, count }, page0.records.slice(gap.offset, gap.offset + count), total, false);
    }
  } else {
    budget -= first.count;
    accept(first, page0.records, total, total !== null && first.offset + first.count <= total);
  }

  if (whole) {
    // Nothing more to request.
  } else if (total === null) {
    // No paging metadata: walk sequentially until a short page, within the cap and budget.
    let last = { count: page0.records.length, limit: first.count };
    let offset = first.offset + last.count;
    let previousFirst = firstKey(page0.records);
    while (last.count === last.limit && budget > 0) {
      const interval = { offset, count: Math.min(req.pageSize, budget) };
      budget -= interval.count;
      try {
        const page = await get(interval);
        // A service that ignores Offset answers the same page again: stop rather than
        // collect copies.
        const key = firstKey(page.records);
        if (key !== undefined && key === previousFirst) {
          inconsistent = true;
          notes.push(
            `The page at Offset ${interval.offset} repeated the previous page's records: the service seems to ignore Offset, so only the first ${fetched} records were kept.`,
          );
          break;
        }
        previousFirst = key;
        accept(interval, page.records, null, false);
        last = { count: page.records.length, limit: interval.count };
        offset += last.count;
      } catch (err) {
        if (isCancel(err)) throw err;
        failures.push({ interval, error: err as ReportsError });
        break;
      }
    }
    if (last.count < last.limit && failures.length === 0) total = firstOffset + fetched;
    else if (failures.length === 0 && !inconsistent)
      notes.push(
        `The service sent no TotalRecords; ${fetched} records were fetched, the cap of ${req.maxRecords} was reached and more may exist.`,
      );
  } else {
    // 2. Every other missing range, concurrently, up to the cap.
    // The whole window page 0 asked for counts as covered: a short page 0 was noted as missing
    // (not requested again), a long one's extra records were dropped (the next page starts at
    // its Limit, not after the extras).
    const covered = mergeIntervals([...held, first]);
    const plan: Interval[] = [];
    for (const gap of gaps(covered, total)) {
      for (let o = gap.offset; o < gap.offset + gap.count && budget > 0; o += req.pageSize) {
        const count = Math.min(req.pageSize, gap.offset + gap.count - o, budget);
        plan.push({ offset: o, count });
        budget -= count;
      }
    }
    await Promise.all(
      plan.map(async (interval) => {
        try {
          const page = await get(interval);
          if (page.totalRecords !== null && page.totalRecords !== total && !inconsistent) {
            inconsistent = true;
            notes.push(
              `TotalRecords changed from ${total} to ${page.totalRecords} between pages: the data changed while it was read, so records may be missing or repeated; run the report again.`,
            );
          }
          accept(interval, page.records, total, true);
        } catch (err) {
          if (isCancel(err)) throw err;
          failures.push({ interval, error: err as ReportsError });
        }
      }),
    );
  }
  if (signal.aborted) throw cancelledError(signal);

  pages.sort((a, b) => a.offset - b.offset);
  notes.push(...describeFailures(failures, req.budgetMs));
  const nowHeld = mergeIntervals([...held, ...pages.map((p) => ({ offset: p.offset, count: p.records.length }))]);
  const missing = total === null ? null : total - coveredCount(nowHeld, total);
  if (missing !== null && missing > 0 && failures.length === 0 && !inconsistent) {
    notes.push(
      `Fetched ${coveredCount(nowHeld, total!)} of ${total} records: the cap of ${req.maxRecords} records per call (maxRecords / REPORTS_MAX_RECORDS) was reached. continue_report fetches the remaining ${missing}; or narrow the filters.`,
    );
  }
  return {
    pages,
    totalRecords: total,
    complete: total !== null && missing === 0 && failures.length === 0 && !inconsistent,
    notes,
    requests,
  };
}

function firstKey(records: readonly Record<string, unknown>[]): string | undefined {
  return records.length ? JSON.stringify(records[0]) : undefined;
}

function isCancel(err: unknown): boolean {
  return err instanceof ReportsError && err.kind === 'cancelled';
}

function describeFailures(failures: Array<{ interval: Interval; error: ReportsError }>, budgetMs: number): string[] {
  if (!failures.length) return [];
  const byMessage = new Map<string, Interval[]>();
  for (const f of failures) {
    const key = f.error.message.includes('REPORTS_CALL_BUDGET_MS')
      ? `The time budget of ${budgetMs} ms (REPORTS_CALL_BUDGET_MS) ran out`
      : f.error.message;
    byMessage.set(key, [...(byMessage.get(key) ?? []), f.interval]);
  }
  const lines = [...byMessage].map(([message, intervals]) => {
    const records = intervals.reduce((n, i) => n + i.count, 0);
    const first = Math.min(...intervals.map((i) => i.offset));
    return `${records} records in ${intervals.length} page${intervals.length > 1 ? 's' : ''} (from Offset ${first}) were not fetched: ${message.replace(/\.$/, '')}. continue_report fetches them.`;
  });
  return lines;
}

/** Sorted, non-overlapping, adjacent runs joined. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.count > 0).sort((a, b) => a.offset - b.offset);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.offset <= last.offset + last.count) {
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

function firstGapStart(held: readonly Interval[]): number {
  return held.length && held[0].offset === 0 ? held[0].offset + held[0].count : 0;
}

/** Length of the first gap, so the first request never re-reads a held record. */
function firstGapLength(held: readonly Interval[], total: number | null): number {
  const start = firstGapStart(held);
  const next = held.find((h) => h.offset > start);
  if (next) return next.offset - start;
  return total !== null && total > start ? total - start : Infinity;
}

function coveredCount(held: readonly Interval[], total: number): number {
  return held.reduce((n, h) => n + Math.max(0, Math.min(h.offset + h.count, total) - Math.min(h.offset, total)), 0);
}
