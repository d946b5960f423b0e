/**
 * Strategy "sequential without totals": the service sent no TotalRecords, so pages are asked
 * for one after another until a short page, the cap or a failure. Returns the total when a
 * short page revealed it, else null.
 */
import type { Interval } from './intervals.js';
import type { PageWalk } from './walk.js';

export async function walkSequentially(
  walk: PageWalk,
  first: Interval,
  firstRecords: readonly Record<string, unknown>[],
): Promise<number | null> {
  let last = { count: firstRecords.length, limit: first.count };
  let offset = first.offset + last.count;
  let previousFirst = firstKey(firstRecords);
  while (last.count === last.limit && walk.budget > 0) {
    const interval = { offset, count: Math.min(walk.req.pageSize, walk.budget) };
    walk.budget -= interval.count;
    try {
      const page = await walk.get(interval);
      // A service that ignores Offset answers the same page again: stop rather than collect copies.
      const key = firstKey(page.records);
      if (key !== undefined && key === previousFirst) {
        walk.noteInconsistent(
          `The page at Offset ${interval.offset} repeated the previous page's records: ` +
            `the service seems to ignore Offset, so only the first ${walk.fetched} records were kept.`,
        );
        break;
      }
      previousFirst = key;
      walk.accept(interval, page.records, null, false, page.responseRecords);
      last = { count: Math.min(page.records.length, interval.count), limit: interval.count };
      offset += last.count;
    } catch (err) {
      walk.fail(interval, err);
      break;
    }
  }
  if (last.count < last.limit && walk.failures.length === 0) return first.offset + walk.fetched;
  if (walk.failures.length === 0 && !walk.inconsistent)
    walk.notes.push(
      `The service sent no TotalRecords; ${walk.fetched} records were fetched, ` +
        `the cap of ${walk.req.maxRecords} was reached and more may exist.`,
    );
  return null;
}

function firstKey(records: readonly Record<string, unknown>[]): string | undefined {
  return records.length ? JSON.stringify(records[0]) : undefined;
}
