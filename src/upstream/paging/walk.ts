/**
 * What one fetch call has gathered so far, shared by whichever strategy walks the pages: the
 * accepted pages, the notes, the pages that failed, the record budget left. Every page a
 * strategy keeps passes through accept(), the one place per-page checks and work belong.
 */
import { quote, ReportsError } from '../../errors.js';
import type { WireBody } from '../body-decode.js';
import type { PageAnswer, PageSource } from '../client.js';
import { DAY_LENGTH, MAX_RECORD_DEPTH, MIDNIGHT_UTC } from '../service-date.js';
import { type FetchedPage, type Interval, recordsIn } from './intervals.js';
import { RecordPass } from './record-pass.js';
import { SeenRecords } from './seen-records.js';
import type { FetchRequest } from './types.js';
import { RESERVE_MAX } from './value-counts.js';

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
  /**
   * Where the service's records ran out: the end of the first page that came back short or
   * empty although the total promised more. Windows beyond it are not requested (a lying
   * TotalRecords of 1e9 would otherwise plan thousands of empty pages).
   */
  endSeen: number | undefined;
  /** Identity (hash of the record as sent) of every record accepted -> offset of its page;
   *  made for the first page's records. */
  private seen: SeenRecords | undefined;
  /** Pages that carried records of other pages, and how many. */
  private readonly repeats: Array<{ offset: number; of: number; count: number }> = [];
  /** Pages that came back shorter than promised. */
  private readonly shortPages: Array<{ interval: Interval; got: number; total: number | null }> = [];
  /** The one walk of every accepted record: depth bound, identity, dates, heap bytes and,
   *  when asked, every top-level value counted for the summary. */
  readonly pass: RecordPass;
  /** Windows not requested because the records had run out before them. */
  private skipped = { pages: 0, records: 0 };
  /** Whether a field held as days was written back as instants (writeBackInstants). */
  daysWrittenBack = false;
  /** The identities of every record accepted, added modulo 2^52: the same for the same records
   *  whatever order their pages came in (FetchOutcome.identities). */
  identities = 0;
  /** With FetchRequest.copy: each page's body's number in the copy (or undefined), by offset,
   *  until the page is accepted. */
  private readonly wires = new Map<number, number | undefined>();

  constructor(
    private readonly client: PageSource,
    readonly req: FetchRequest,
    private readonly deadline: number,
    readonly signal: AbortSignal,
  ) {
    this.budget = req.maxRecords;
    this.pass = new RecordPass(req.countValues === true, req.countValues === true && req.heldDays === true);
  }

  /** How many requests the client sends at once (its process-wide limit). */
  get concurrency(): number {
    return Math.max(1, this.client.limiter.limit);
  }

  /** One request for `interval` (without Offset/Limit for a transaction without paging);
   *  `wanted` and `bodyRead` as PageRequest's. */
  async get(interval: Interval, wanted?: () => boolean, bodyRead?: () => void): Promise<PageAnswer> {
    const { req } = this;
    const { copy } = req;
    const page = await this.client.getPage({
      path: req.path,
      query: req.query,
      envelope: req.envelope,
      // Limit is the page size on every page, the last included: a service may compute its
      // windows from Limit. Records past what this call needs are dropped in accept().
      ...(req.paged !== false ? { offset: interval.offset, limit: req.pageSize } : {}),
      signal: this.signal,
      deadline: this.deadline,
      budgetMs: req.budgetMs,
      ...(copy ? { keepWire: (wire: WireBody) => copy.body(wire) } : {}),
      ...(wanted ? { wanted } : {}),
      ...(bodyRead ? { bodyRead } : {}),
    });
    this.requests += page.attempts;
    if (copy) this.wires.set(interval.offset, page.wire);
    return page;
  }

  /**
   * Keeps the records answered for `interval`: extras beyond its count are dropped and, when
   * the page should have been full (`expectFull`), a short one is noted as missing records.
   */
  accept(
    interval: Interval,
    records: Record<string, unknown>[],
    total: number | null,
    expectFull: boolean,
    responseRecords: number | null = null,
  ): void {
    const limit = this.req.paged === false ? interval.count : Math.max(this.req.pageSize, interval.count);
    let kept = records;
    if (records.length > limit) {
      kept = records.slice(0, interval.count);
      this.noteInconsistent(
        `The page at Offset ${interval.offset} returned ${records.length} records for Limit ${limit}; ` +
          `the extra ${records.length - limit} were dropped to avoid duplicates.`,
      );
    } else if (records.length > interval.count) {
      // Past the cap, or already held (continue_report): asked for only because Limit is constant.
      kept = records.slice(0, interval.count);
    } else if (expectFull && records.length < interval.count) {
      this.inconsistent = true;
      this.shortPages.push({ interval, got: records.length, total });
      // An empty page means the records ran out: windows after it are not requested. (A short
      // one may be a service capping its page size: later windows may still hold records.)
      if (records.length === 0 && (this.endSeen === undefined || interval.offset < this.endSeen))
        this.endSeen = interval.offset;
    }
    if (total !== null && interval.offset + kept.length > total) {
      this.noteInconsistent(
        `The page at Offset ${interval.offset} carries ${kept.length} records, past the TotalRecords of ` +
          `${total}: the counts do not add up.`,
      );
    }
    if (responseRecords !== null && responseRecords !== records.length) {
      this.noteInconsistent(
        `The page at Offset ${interval.offset} says ResponseRecords ${responseRecords} but carries ${records.length} records.`,
      );
    }
    this.checkIdentity(interval.offset, kept, total === null ? kept.length : Math.min(total, this.req.maxRecords));
    const { pass } = this;
    const counted = pass.counting ? { nested: pass.values.pageHasNested } : undefined;
    const held = this.req.onPage ? this.req.onPage(interval.offset, kept, counted) : kept;
    if (this.req.copy) {
      this.req.copy.accept(interval.offset, this.wires.get(interval.offset));
      this.wires.delete(interval.offset);
    }
    // Records replaced or dropped (masked, out of the pinned scope) are not the ones counted.
    if (held !== kept && pass.counting) pass.values.uncountPage();
    // A page that keeps fewer records (out of the pinned scope) still covers its positions.
    this.pages.push({
      offset: interval.offset,
      records: held,
      ...(held.length !== kept.length ? { span: kept.length } : {}),
    });
    this.fetched += kept.length;
    this.req.onProgress?.(this.fetched, Math.max(this.progressTotal, this.fetched));
  }

  /** A window not requested: the service's records ended before it (see endSeen). */
  skip(interval: Interval): void {
    this.skipped.pages++;
    this.skipped.records += interval.count;
  }

  /**
   * Records identical to a record of ANOTHER page (in every field, as sent) mean the service
   * answered overlapping or repeated windows: the result cannot be complete. Identical records
   * within one page are the service's own and are kept as they are.
   */
  private checkIdentity(offset: number, records: Record<string, unknown>[], expected: number): void {
    let repeated = 0;
    let of: number | undefined;
    this.pass.beginPage(records.length, expected);
    // Sized for the records the fetch expects (within RESERVE_MAX: not all may come): a table
    // that doubles its way up to 20,000 records puts every fingerprint again six times.
    const seen = (this.seen ??= new SeenRecords(Math.max(Math.min(expected, RESERVE_MAX), records.length)));
    const { prepare } = this.req;
    for (let i = 0; i < records.length; i++) {
      const r = records[i];
      prepare?.(r);
      // The record's one walk (depth, dates, memory) also gives its identity as sent.
      const id = this.pass.record(r);
      this.identities = (this.identities + (id % IDENTITY_MODULUS)) % IDENTITY_MODULUS;
      if (this.pass.leftDays.length) this.writeBackInstants(records, i);
      const where = seen.getOrSet(id, offset);
      // Set at once: a later record of this page identical to this one finds its own offset.
      if (where !== undefined && where !== offset) {
        repeated++;
        of ??= where;
      }
    }
    if (repeated > 0) {
      this.inconsistent = true;
      this.repeats.push({ offset, of: of!, count: repeated });
    }
  }

  /**
   * A field the walk held as days met a value of another kind (RecordPass.leftDays) in the
   * record at `walked` of `page`: every record walked before it, in the pages kept so far and
   * on this page, holds the field's instants again, as results/day-dates.ts leaves a field
   * that is not all days. Each day becomes one shared string.
   */
  private writeBackInstants(page: Record<string, unknown>[], walked: number): void {
    const fields = this.pass.leftDays.splice(0);
    const instants = new Map<string, string>();
    const writeBack = (r: Record<string, unknown>) => {
      for (const f of fields) {
        const v = r[f];
        if (typeof v !== 'string' || v.length !== DAY_LENGTH) continue;
        let instant = instants.get(v);
        if (instant === undefined) instants.set(v, (instant = v + MIDNIGHT_UTC));
        r[f] = instant;
      }
    };
    for (const p of this.pages) for (const r of p.records) writeBack(r);
    for (let i = 0; i < walked; i++) writeBack(page[i]);
    this.daysWrittenBack = true;
  }

  /** One note each for repeated pages and for short or empty pages, however many there were. */
  evidenceNotes(total: number | null): string[] {
    const notes: string[] = [];
    const { undecoded, firstUndecoded, tooDeep } = this.pass;
    if (undecoded) {
      notes.push(
        `${plural(undecoded, 'date value')} could not be decoded (e.g. ${quote(firstUndecoded ?? '', 60)}) and ` +
          `${undecoded === 1 ? 'is' : 'are'} kept as the service sent ${undecoded === 1 ? 'it' : 'them'}.`,
      );
    }
    if (tooDeep) {
      notes.push(
        `${plural(tooDeep, 'value')} nested deeper than ${MAX_RECORD_DEPTH} levels ` +
          `${tooDeep === 1 ? 'is' : 'are'} kept as ${tooDeep === 1 ? 'its' : 'their'} JSON text.`,
      );
    }
    if (this.repeats.length) {
      const n = this.repeats.reduce((s, r) => s + r.count, 0);
      const first = [...this.repeats].sort((a, b) => a.offset - b.offset)[0];
      notes.push(
        `${n} records in ${plural(this.repeats.length, 'page')} repeat records of other pages ` +
          `(the page at Offset ${first.offset} repeats records of the page at Offset ${first.of}): the service answered ` +
          'overlapping pages, so counts over this result may include records twice; run the report again.',
      );
    }
    // The first few short pages each say which records are missing; the rest are counted.
    const short = [...this.shortPages].sort((x, y) => x.interval.offset - y.interval.offset);
    for (const { interval, got, total: promised } of short.slice(0, SHORT_PAGES_NAMED)) {
      const last = interval.offset + interval.count - 1;
      notes.push(
        got === 0
          ? `The page at Offset ${interval.offset} came back empty although ${promisedBy(promised)}; ` +
              `records ${interval.offset}-${last} are missing.`
          : `The page at Offset ${interval.offset} returned ${got} records where ${interval.count} were promised; ` +
              `records ${interval.offset + got}-${last} are missing.`,
      );
    }
    const rest = short.slice(SHORT_PAGES_NAMED);
    if (rest.length) {
      const missing = rest.reduce((n, p) => n + p.interval.count - p.got, 0);
      notes.push(
        `${plural(rest.length, 'more page')} (from Offset ${rest[0].interval.offset}) came back short or empty: ` +
          `${missing.toLocaleString('en-US')} more promised records are missing.`,
      );
    }
    if (this.skipped.pages) {
      notes.push(
        `${plural(this.skipped.pages, 'further page')} (${this.skipped.records.toLocaleString('en-US')} records) were not requested: ` +
          `the page at Offset ${this.endSeen} came back empty, so the service has fewer records than its ` +
          `TotalRecords (${total?.toLocaleString('en-US')}) says; run the report again or narrow the filters.`,
      );
    }
    return notes;
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
      const records = recordsIn(intervals);
      const first = Math.min(...intervals.map((i) => i.offset));
      const pages = `${intervals.length} page${intervals.length > 1 ? 's' : ''}`;
      return (
        `${records} records in ${pages} (from Offset ${first}) were not ` +
        `fetched: ${message.replace(/\.$/, '')}. continue_report fetches them.`
      );
    });
  }
}

/** Identities (a record's 53-bit hash as sent) add up modulo this: each sum is under 2^53, exact. */
const IDENTITY_MODULUS = 2 ** 52;

/** Short pages named one by one in the notes; beyond them they are counted in one note. */
const SHORT_PAGES_NAMED = 3;

/** What promised a page's records: the TotalRecords it came with, counted as every count is. */
function promisedBy(total: number | null): string {
  return total === null ? 'the pages before it promised more' : `TotalRecords is ${total.toLocaleString('en-US')}`;
}

function plural(n: number, noun: string): string {
  return `${n.toLocaleString('en-US')} ${noun}${n === 1 ? '' : 's'}`;
}
