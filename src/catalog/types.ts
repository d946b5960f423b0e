/**
 * The shape of one catalog entry. The catalog (src/catalog/transactions.ts) is the single
 * declarative table of the report transactions: tool registration, the README's tool table
 * and the tests all iterate it (docs/architecture.md).
 */

import type { EnvelopeKind } from '../upstream/envelope.js';

/** How the server validates, resolves and serialises one upstream parameter. */
export type ParamKind =
  | 'date' // YYYYMMDD upstream; accepts YYYYMMDD, YYYY-MM-DD, today, yesterday, tomorrow, today±N
  | 'list' // comma-joined upstream; accepts a comma string or an array of strings
  | 'string'
  | 'integer'
  | 'boolean' // sent as true/false
  | 'enum'; // one of `values`, sent as written ("0"/"1" flags are enums too)

export interface ParamSpec {
  kind: ParamKind;
  /** Model-facing text: what it filters and the expected form, short. */
  description: string;
  required: boolean;
  /** For kind 'enum': the allowed values, as sent upstream. */
  values?: readonly string[];
  /** For kind 'list' with a fixed vocabulary (LoadOptions): the allowed items. */
  items?: readonly string[];
}

export interface TransactionDef {
  /** MCP tool name, snake_case: part of the public interface, never renamed. */
  tool: string;
  /** The upstream transaction name, e.g. `CarSegmentsByDate`. */
  transaction: string;
  /** Human title for the tool. */
  title: string;
  /** What the report is for, when to use it rather than a neighbour, which parameters matter. */
  description: string;
  /** Path appended to the base URL, e.g. `/CarSegmentsByDate`. */
  path: string;
  /** 'GET' only, or 'ALL' for the "(all verbs)" transactions (GET and POST). */
  verbs: 'GET' | 'ALL';
  /** The service's marks (docs/upstream.md, "Requests"): A (Accept header required), C (company scope), P (paging). */
  marks: { accept: boolean; company: boolean; paging: boolean };
  envelope: EnvelopeKind;
  /** The record type name the service publishes, e.g. `CarSegmentRecord`. */
  record: string;
  /** Upstream parameters (names case-as-written), excluding the company-scope and paging ones
   *  that the marks add. */
  params: Record<string, ParamSpec>;
  /** True where the spec does not show the parameters (FindBookings, TicketsIssuedByNumber):
   *  the tool then also accepts a documented free-form `parameters` object. */
  freeForm?: boolean;
  /** A list parameter whose values the service takes one at a time (RecordLocator): several are
   *  fetched one request each, concurrently, and held as one result (server/many-call.ts). */
  many?: string;
  /** Which date the window (its ...Start/...End parameters) filters on: said in every answer. */
  dates?: DateBasis;
  /** What the report is for, as its answers show it (docs/architecture.md, "Answers"). */
  answer: AnswerDef;
}

/**
 * The date a report's window filters on, in words ("booking creation date"): one, or one per
 * value of the parameter that picks it (DateSearchType, DateTracker, DateByComments), the
 * value sent when it is absent first.
 */
export type DateBasis = { by: string } | { param: string; by: Readonly<Record<string, string>> };

/** A query_report follow-up, as the "Next:" line of a report's text proposes it. */
export interface FollowUp {
  /** What it answers, in a consultant's words ("nights and rates per account"). */
  say: string;
  where?: readonly { field: string; op: 'eq' | 'ne' | 'in' | 'exists'; value?: string | boolean | readonly string[] }[];
  groupBy?: readonly string[];
  aggregates?: readonly { fn: 'count' | 'sum' | 'countDistinct'; field?: string }[];
  unnest?: string;
}

/**
 * How a report's answers lead with its point: the columns that answer what the report is for,
 * the summary fields that come first, the money it holds and the follow-ups worth proposing.
 * Identifier fields (ServiceRef, ...Id, ...Nbr) always come last in the summary.
 */
export interface AnswerDef {
  /** The records, plural, for headlines: "Hotel stays", "Failed submissions". */
  subject: string;
  /** Default columns of rows and text, in order (those a result lacks are skipped). */
  columns: readonly string[];
  /** Summary fields shown first, in order. */
  lead?: readonly string[];
  /**
   * Money fields of the record type, each with the field(s) that may hold its currency (the
   * first present wins: spellings differ between versions); an empty list when the record
   * states no currency for it. Paths reach into lists (`Segments.HotelSegments.Rate`).
   */
  amounts?: Readonly<Record<string, readonly string[]>>;
  /** Lists of a record shown under its row in the text, one line per item. */
  nested?: readonly string[];
  /** Follow-ups proposed after the rows (none: no "Next:" line but the generic one). */
  next?: readonly FollowUp[];
  /** A lookup of one thing by these parameters: finding nothing is said in words. */
  lookup?: { noun: string; params: readonly string[] };
  /** What the record's fields mean, for the derived fields (results/derived.ts). */
  meaning?: RecordMeaning;
}

/**
 * What a record's fields mean for travel (docs/travel-meaning.md): the server derives fields
 * from it that every answer shows. `list` is the path of a list whose items are meant (e.g.
 * `Segments.AirSegments`); without it, the record itself.
 */
export interface RecordMeaning {
  /** Segments and the field holding their GDS status code: each gets `SegmentState`. */
  segments?: readonly { list?: string; status: string; cancelledFlag?: string }[];
  /** Airport code fields: each gets `BoardCity`, `OffCity`, `BoardCountry`, `OffCountry`. */
  airports?: readonly { list?: string; board: string; off: string }[];
  /** Stays and rentals priced by a rate: each gets `EstimatedCost`, its currency and basis. */
  costs?: readonly CostMeaning[];
  /** Amounts repeated on every coupon that belong to the ticket: totalled once per ticket. */
  ticketGrain?: { ticket: string; amounts: readonly string[] };
  /** Counts that are the booking's (its air segments), repeated on each of its segments: the
   *  summary does not sum them, and query_report sums them once per `booking`. */
  bookingCounts?: { booking: string; counts: readonly string[] };
  /** Texts naming several travellers (`DOE/JANE MS, DOE/JOHN MR`): the summary and
   *  countDistinct count the travellers named, not the distinct texts. */
  travellerLists?: readonly string[];
  /** Booleans saying a booking holds air, hotel or car segments: it gets `Travelling` (a
   *  booking of passive lines only, a retention line, is not travel). */
  travelFlags?: readonly string[];
  /** Hotel stays fetched for a window of these parameters get `NightsInWindow`, when the
   *  window selects them by arrival date: `byArrival.param` not sent, or sent as its value. */
  nightsInWindow?: {
    start: string;
    end: string;
    arrival: string;
    departure: string;
    /** The stay's own count of nights, every one of them (a total of it is not the window's). */
    nights: string;
    byArrival: { param: string; value: string };
  };
  /** Counts the service totals itself (TotalNights per chain): what it does not say they count,
   *  and the report whose records count it as meant. Said in every answer's notes. */
  serviceTotals?: { fields: readonly string[]; unsaid: string; instead: string };
  /** Fields that live inside free text, worth grouping on (results/text-fields.ts, by name):
   *  a forwarding log's `Partner`, an app activity's `ReportName`. */
  textFields?: readonly string[];
}

export interface CostMeaning {
  list?: string;
  kind: 'hotel' | 'car';
  rate: string;
  currency: string;
  status: string;
  /** A boolean field that says the segment is cancelled (hotel IsCancelled). */
  cancelledFlag?: string;
  /** Hotel: nights and rooms. */
  nights?: string;
  rooms?: string;
  /** Car: pick-up and drop-off, and the fields that may state the rate's period. */
  start?: string;
  end?: string;
  period?: readonly string[];
}
