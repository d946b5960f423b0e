import type { WireBody } from '../body-decode.js';
import type { EnvelopeKind } from '../envelope.js';
import type { FetchedPage, Interval } from './intervals.js';
import type { ValueCounts } from './value-counts.js';

/** A page's top-level values as counted in FetchOutcome.values (FetchRequest.countValues). */
export interface CountedPage {
  /** Whether a record of it holds a list or an object at its top level: not counted there. */
  nested: boolean;
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
  /** Count every top-level scalar value of the records walked (FetchOutcome.values), for a
   *  summary made from the counts instead of from the records. */
  countValues?: boolean;
  /** With countValues: hold a top-level field's dates as days (`2026-11-09`) as they are
   *  walked, while every value of the field is a date sent as midnight with no offset
   *  (paging/record-pass.ts); FetchOutcome.dayFields names those fields, whose days the
   *  caller then does not write itself (results/day-dates.ts). */
  heldDays?: boolean;
  /** Adds the server's derived fields to a record as sent (dates not yet decoded), before its
   *  one walk, so that every answer counts, holds and shows them like the service's fields
   *  (docs/architecture.md, "Derived fields"). */
  prepare?: (record: Record<string, unknown>) => void;
  /** Called with each accepted page (dates decoded) as it arrives, while other pages are
   *  still in flight; returns the records to keep for it (e.g. masked), so per-record work
   *  is done before the last page rather than after it. `counted` when countValues: the
   *  page's values are in the counts, unless other records are returned for it. */
  onPage?: (offset: number, records: Record<string, unknown>[], counted?: CountedPage) => Record<string, unknown>[];
  /** Where the pages are copied as the service sent them, to fetch them again from. */
  copy?: WireCopy;
}

/** A copy of a fetch's pages as the service sent them (results/disk/page-copy.ts). */
export interface WireCopy {
  /** Copies one body as sent (its bytes are reused once this returns); answers its number. */
  body(wire: WireBody): number;
  /** The page accepted at `offset` came in the body numbered `body`; undefined when its body
   *  was not copied (not compressed, or something in it was redacted). */
  accept(offset: number, body: number | undefined): void;
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
  /** Heap bytes the accepted records hold as walked (record-memory.ts), repeated short
   *  strings shared among them: the results budget's measure of them, unless a page's
   *  records were replaced afterwards (onPage returning other records). */
  heldBytes: number;
  /** The accepted records' identities as sent, added up (PageWalk.identities): which records
   *  they are, in any order. */
  identities: number;
  /** With countValues: every top-level value of the pages kept as walked, counted. */
  values?: ValueCounts;
  /** With heldDays: the top-level fields whose every value walked is held as a day. */
  dayFields?: string[];
  /** With heldDays: a field held as days met another value, and the records walked before
   *  hold its instants again; a page onPage read before then was read with days. */
  daysWrittenBack?: boolean;
  /** The walked records' top-level keys in the order first seen, when none holds a list or
   *  object at its top level: every field path of those records (results/paths.ts). */
  flatKeys?: string[];
}
