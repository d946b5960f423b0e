/**
 * Strategy "concurrent by Offset": TotalRecords is known, so every missing window up to the
 * cap is requested at once; the client's process-wide limiter bounds how many are in flight.
 */
import { gaps, type Interval, mergeIntervals, windows } from './intervals.js';
import type { PageWalk } from './walk.js';

export async function fetchConcurrently(
  walk: PageWalk,
  held: readonly Interval[],
  first: Interval,
  total: number,
): Promise<number> {
  // The whole window the first page asked for counts as covered: a short first page was noted
  // as missing (not requested again), a long one's extra records were dropped (the next page
  // starts at its Limit, not after the extras).
  const plan = windows(gaps(mergeIntervals([...held, first]), total), walk.req.pageSize, walk.budget);
  for (const interval of plan) walk.budget -= interval.count;
  // Workers take windows in offset order, as many at once as the client sends requests, so a
  // window is only requested while the records have not been seen to end before it.
  const queue = [...plan];
  const worker = async () => {
    for (let interval = queue.shift(); interval; interval = queue.shift()) {
      if (walk.endSeen !== undefined && interval.offset >= walk.endSeen) {
        walk.skip(interval);
        continue;
      }
      try {
        const page = await walk.get(interval);
        if (page.totalRecords !== null && page.totalRecords !== total && !walk.inconsistent) {
          walk.noteInconsistent(
            `TotalRecords changed from ${total} to ${page.totalRecords} between pages: the data changed while it was read, ` +
              'so records may be missing or repeated; run the report again.',
          );
        }
        walk.accept(interval, page.records, total, true, page.responseRecords);
      } catch (err) {
        walk.fail(interval, err);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(plan.length, walk.concurrency) }, worker));
  return total;
}
