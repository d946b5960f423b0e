/**
 * Strategy "one answer": a transaction without paging, or a service that ignores Limit, sends
 * the whole result at once from record 0. Requesting further windows would only return the
 * same records again, so everything missing is taken from that one answer, within the cap.
 */
import { gaps, type Interval } from './intervals.js';
import type { PageWalk } from './walk.js';

export function takeOneAnswer(
  walk: PageWalk,
  held: readonly Interval[],
  records: Record<string, unknown>[],
  total: number,
): number {
  for (const gap of gaps(held, total)) {
    const count = Math.min(gap.count, walk.budget);
    if (count <= 0) break;
    walk.budget -= count;
    walk.accept({ offset: gap.offset, count }, records.slice(gap.offset, gap.offset + count), total, false);
  }
  return total;
}
