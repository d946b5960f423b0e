/**
 * Fetches a report's records page by page. The first missing page comes first: it reveals
 * TotalRecords (for continue_report: the current one) and so which strategy walks the rest:
 * - one answer (paging/one-answer.ts): no paging, or a service that ignores Limit;
 * - sequential without totals (paging/sequential.ts): no TotalRecords, walk until a short page;
 * - concurrent by Offset (paging/concurrent.ts): every missing window at once.
 * Each record index is requested at most once; the call stops at maxRecords and at the
 * deadline; a short or empty page, a changing TotalRecords or a failed page make the outcome
 * incomplete with a note saying why, never a loop or a silent gap (docs/upstream.md, "Paging").
 */
import { setMaxListeners } from 'node:events';
import { cancelledError } from '../errors.js';
import type { PageSource } from './client.js';
import { fetchConcurrently } from './paging/concurrent.js';
import { coveredCount, firstGapLength, firstGapStart, type Interval, mergeIntervals } from './paging/intervals.js';
import { takeOneAnswer } from './paging/one-answer.js';
import { walkSequentially } from './paging/sequential.js';
import type { FetchOutcome, FetchRequest } from './paging/types.js';
import { PageWalk } from './paging/walk.js';

export type { FetchedPage, Interval } from './paging/intervals.js';
export type { CountedPage, FetchOutcome, FetchRequest } from './paging/types.js';

export async function fetchReport(client: PageSource, req: FetchRequest): Promise<FetchOutcome> {
  const deadline = Date.now() + req.budgetMs;
  // One call-wide signal linked to the caller's: every queued page listens to it, so it may
  // have many listeners (Node warns past 10); the caller's own signal gets just one.
  const call = new AbortController();
  setMaxListeners(0, call.signal);
  const onAbort = () => call.abort(req.signal?.reason);
  if (req.signal?.aborted) throw cancelledError(req.signal);
  req.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const walk = new PageWalk(client, req, deadline, call.signal);
    const total = await walkPages(walk, mergeIntervals(req.held?.intervals ?? []));
    return outcome(walk, total);
  } finally {
    req.signal?.removeEventListener('abort', onAbort);
  }
}

/** The first page, then the strategy it calls for; returns the total as finally known. */
async function walkPages(walk: PageWalk, held: Interval[]): Promise<number | null> {
  const { req } = walk;
  const heldTotal = req.held?.totalRecords ?? null;
  const first: Interval = {
    offset: firstGapStart(held),
    count: Math.min(req.pageSize, walk.budget, firstGapLength(held, heldTotal)),
  };
  const page0 = await walk.get(first);
  const whole = req.paged === false || (page0.totalRecords === null && page0.records.length > first.count);
  const total = whole ? page0.records.length : page0.totalRecords;
  if (heldTotal !== null && total !== null && total !== heldTotal) {
    walk.noteInconsistent(
      `TotalRecords changed from ${heldTotal} (when the result was first fetched) to ${total}: ` +
        'the data changed in between; run the report again for a consistent snapshot.',
    );
  }
  walk.progressTotal = total === null ? first.count : Math.min(total - coveredCount(held, total), walk.budget);
  if (whole) return takeOneAnswer(walk, held, page0.records, page0.records.length);
  if (page0.unusableTotal) walk.noteInconsistent(page0.unusableTotal);
  walk.budget -= first.count;
  const acceptFirst = () =>
    walk.accept(
      first,
      page0.records,
      total,
      total !== null && first.offset + first.count <= total,
      page0.responseRecords,
    );
  if (total === null) {
    acceptFirst();
    return walkSequentially(walk, first, page0.records);
  }
  // A full first page is walked once the windows after it are requested: walking it first held
  // every one of them back by its walk (about 12 ms for 500 records, at any latency). A short
  // or empty one is walked first, as it may say that the records end there (walk.endSeen).
  const full = page0.records.length >= first.count;
  if (!full) acceptFirst();
  return fetchConcurrently(walk, held, first, total, full ? acceptFirst : undefined);
}

/** What the walk gathered, with the notes that say why it is incomplete when it is. */
function outcome(walk: PageWalk, total: number | null): FetchOutcome {
  if (walk.signal.aborted) throw cancelledError(walk.signal);
  const { req, notes, failures } = walk;
  // Every value counted, so the bytes the records hold are all counted too.
  walk.pass.finish();
  const pages = [...walk.pages].sort((a, b) => a.offset - b.offset);
  notes.push(...walk.evidenceNotes(total), ...walk.failureNotes());
  const held = mergeIntervals(req.held?.intervals ?? []);
  const nowHeld = mergeIntervals([...held, ...pages.map((p) => ({ offset: p.offset, count: p.records.length }))]);
  const missing = total === null ? null : total - coveredCount(nowHeld, total);
  if (missing !== null && missing > 0 && failures.length === 0 && !walk.inconsistent) {
    notes.push(
      `Fetched ${coveredCount(nowHeld, total!)} of ${total} records: the cap of ${req.maxRecords} records per call ` +
        `(maxRecords / REPORTS_MAX_RECORDS) was reached. continue_report fetches the remaining ${missing}; or narrow the filters.`,
    );
  }
  return {
    pages,
    totalRecords: total,
    complete: total !== null && missing === 0 && failures.length === 0 && !walk.inconsistent,
    notes,
    requests: walk.requests,
    heldBytes: walk.pass.memory.bytes,
    identities: walk.identities,
    ...(walk.pass.counting ? { values: walk.pass.values } : {}),
    ...(walk.pass.heldDays ? { dayFields: walk.pass.dayFields, daysWrittenBack: walk.daysWrittenBack } : {}),
    ...(walk.pass.nested ? {} : { flatKeys: walk.pass.topKeys }),
  };
}
