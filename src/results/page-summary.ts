import type { CountedPage } from '../upstream/paging/types.js';
import type { ValueCounts } from '../upstream/paging/value-counts.js';
import { type SummarizeOptions, type Summary, SummaryBuilder } from './summarize.js';

type Rec = Record<string, unknown>;

interface Waiting {
  records: Rec[];
  counted: CountedPage | undefined;
}

/**
 * A report's summary built page by page as pages arrive (in any order), so none of it is
 * left for after the last page. Pages are added in offset order (an early page waits for
 * the ones before it), so the summary equals summarize() over the records in upstream order.
 * A page whose top-level values the fetch counted (`counted`, see ValueCounts) adds only its
 * lists and objects; finish() then merges the counts in.
 */
export class PageSummary {
  private readonly builder = new SummaryBuilder();
  private readonly waiting = new Map<number, Waiting>();
  /** Offset of the page to add next. */
  private next: number;

  constructor(firstOffset = 0) {
    this.next = firstOffset;
  }

  page(offset: number, records: Rec[], counted?: CountedPage): void {
    if (offset !== this.next) {
      this.waiting.set(offset, { records, counted });
      return;
    }
    this.add(records, counted);
    this.next = offset + records.length;
    for (let w = this.waiting.get(this.next); w !== undefined; w = this.waiting.get(this.next)) {
      this.waiting.delete(this.next);
      this.add(w.records, w.counted);
      this.next += w.records.length;
    }
  }

  private add(records: Rec[], counted: CountedPage | undefined): void {
    if (counted === undefined) this.builder.add(records);
    else if (counted.nested) this.builder.add(records, true);
    else this.builder.addCounted(records.length);
  }

  /**
   * The summary of every page given; `records` are all of them in order (sums per currency).
   * `values`: the fetch's counts, when any page was given as counted.
   */
  finish(records: readonly Rec[], options: SummarizeOptions = {}, values?: ValueCounts): Summary {
    // Pages after a gap (a failed page, a short page) never became "next": add them in order.
    for (const offset of [...this.waiting.keys()].sort((a, b) => a - b)) {
      const w = this.waiting.get(offset)!;
      this.add(w.records, w.counted);
    }
    this.waiting.clear();
    return this.builder.finish(records, options, values);
  }
}
