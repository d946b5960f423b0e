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
}
