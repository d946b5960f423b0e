/**
 * What one fetch call has gathered so far, shared by whichever strategy walks the pages: the
 * accepted pages, the notes, the pages that failed, the record budget left. Every page a
 * strategy keeps passes through accept(), the one place per-page checks and work belong.
 */
import { ReportsError } from '../../errors.js';
import type { PageAnswer, UpstreamClient } from '../client.js';
import { decodeDatesInPlace } from '../service-date.js';
import type { FetchedPage, Interval } from './intervals.js';
import type { FetchRequest } from './types.js';

export interface PageFailure {
  interval: Interval;
  error: ReportsError;
}

export class PageWalk {
  readonly notes: string[] = [];
  /** Accepted pages, in the order they arrived. */
  readonly pages: FetchedPage[] = [];
  readonly failures: PageFailure[] = [];
  /** Requests made, retries included. */
  requests = 0;
  /** Records accepted. */
  fetched = 0;
  /** Records this call may still request. */
  budget: number;
  /** Set when the service answered something that cannot all be true; the result is then never complete. */
  inconsistent = false;
  /** The total the progress notifications count towards. */
  progressTotal = 0;

  constructor(
    private readonly client: UpstreamClient,
    readonly req: FetchRequest,
    private readonly deadline: number,
    readonly signal: AbortSignal,
  ) {
    this.budget = req.maxRecords;
  }

  /** One request for `interval` (without Offset/Limit for a transaction without paging). */
  async get(interval: Interval): Promise<PageAnswer> {
    const { req } = this;
    const page = await this.client.getPage({
      path: req.path,
      query: req.query,
      envelope: req.envelope,
      ...(req.paged !== false ? { offset: interval.offset, limit: interval.count } : {}),
      signal: this.signal,
      deadline: this.deadline,
      budgetMs: req.budgetMs,
    });
    this.requests += page.attempts;
    return page;
  }

  /**
   * Keeps the records answered for `interval`: extras beyond its count are dropped and, when
   * the page should have been full (`expectFull`), a short one is noted as missing records.
   */
  accept(interval: Interval, records: Record<string, unknown>[], total: number | null, expectFull: boolean): void {
    let kept = records;
    if (records.length > interval.count) {
      kept = records.slice(0, interval.count);
      this.noteInconsistent(
        `The page at Offset ${interval.offset} returned ${records.length} records for Limit ${interval.count}; ` +
          `the extra ${records.length - interval.count} were dropped to avoid duplicates.`,
      );
    } else if (expectFull && records.length < interval.count) {
      const last = interval.offset + interval.count - 1;
      this.noteInconsistent(
        records.length === 0
          ? `The page at Offset ${interval.offset} came back empty although TotalRecords is ${total}; ` +
              `records ${interval.offset}-${last} are missing.`
          : `The page at Offset ${interval.offset} returned ${records.length} records where ${interval.count} were promised; ` +
              `records ${interval.offset + records.length}-${last} are missing.`,
      );
    }
    this.pages.push({ offset: interval.offset, records: kept.map((r) => decodeDatesInPlace(r)) });
    this.fetched += kept.length;
    this.req.onProgress?.(this.fetched, Math.max(this.progressTotal, this.fetched));
  }

  /** A page that could not be fetched: noted for the outcome, unless the call was cancelled (rethrown). */
  fail(interval: Interval, err: unknown): void {
    if (err instanceof ReportsError && err.kind === 'cancelled') throw err;
    this.failures.push({ interval, error: err as ReportsError });
  }

  noteInconsistent(note: string): void {
    this.inconsistent = true;
    this.notes.push(note);
  }

  /** One note per distinct failure, naming the records not fetched and how to get them. */
  failureNotes(): string[] {
    const byMessage = new Map<string, Interval[]>();
    for (const f of this.failures) {
      const key = f.error.message.includes('REPORTS_CALL_BUDGET_MS')
        ? `The time budget of ${this.req.budgetMs} ms (REPORTS_CALL_BUDGET_MS) ran out`
        : f.error.message;
      byMessage.set(key, [...(byMessage.get(key) ?? []), f.interval]);
    }
    return [...byMessage].map(([message, intervals]) => {
      const records = intervals.reduce((n, i) => n + i.count, 0);
      const first = Math.min(...intervals.map((i) => i.offset));
      const pages = `${intervals.length} page${intervals.length > 1 ? 's' : ''}`;
      return `${records} records in ${pages} (from Offset ${first}) were not fetched: ${message.replace(/\.$/, '')}. continue_report fetches them.`;
    });
  }
}
