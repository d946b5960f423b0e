import { type SummarizeOptions, type Summary, SummaryBuilder } from './summarize.js';

type Rec = Record<string, unknown>;

/**
 * A report's summary built page by page as pages arrive (in any order), so none of it is
 * left for after the last page. Pages are added in offset order (an early page waits for
 * the ones before it), so the summary equals summarize() over the records in upstream order.
 */
export class PageSummary {
  private readonly builder = new SummaryBuilder();
  private readonly waiting = new Map<number, Rec[]>();
  /** Offset of the page to add next. */
  private next: number;

  constructor(firstOffset = 0) {
    this.next = firstOffset;
  }

  page(offset: number, records: Rec[]): void {
    if (offset !== this.next) {
      this.waiting.set(offset, records);
      return;
    }
    this.builder.add(records);
    this.next = offset + records.length;
    for (let w = this.waiting.get(this.next); w !== undefined; w = this.waiting.get(this.next)) {
      this.waiting.delete(this.next);
      this.builder.add(w);
      this.next += w.length;
    }
  }

  /** The summary of every page given; `records` are all of them in order (sums per currency). */
  finish(records: readonly Rec[], options: SummarizeOptions = {}): Summary {
    // Pages after a gap (a failed page, a short page) never became "next": add them in order.
    for (const offset of [...this.waiting.keys()].sort((a, b) => a - b)) this.builder.add(this.waiting.get(offset)!);
    this.waiting.clear();
    return this.builder.finish(records, options);
  }
}
