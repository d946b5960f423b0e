import type { TransactionDef } from '../catalog/types.js';
import type { StoredResult } from '../results/store.js';
import { coversAll, intervalsOf, mergeIntervals, splitHeld } from '../upstream/paging/intervals.js';
import { type FetchRequest, fetchReport } from '../upstream/paging.js';
import type { Runtime } from './runtime.js';

export interface RunOptions {
  maxRecords: number;
  signal?: AbortSignal;
  onProgress?: (fetched: number, total: number) => void;
}

/** Fetches a report (all pages, within cap and budget) and holds it under a new resultId. */
export async function runReport(
  rt: Runtime,
  def: TransactionDef,
  query: Record<string, string>,
  opts: RunOptions,
): Promise<StoredResult> {
  const outcome = await fetchFor(rt, def, query, opts);
  const records = outcome.pages.flatMap((p) => p.records).map(rt.redact);
  return rt.results.put({
    report: def.tool,
    source: rt.source,
    // The echo too: PaxSurname and the like carry traveller names.
    query: rt.redact(query),
    sentQuery: query,
    totalRecords: outcome.totalRecords,
    complete: outcome.complete,
    notes: outcome.notes,
    records,
    held: intervalsOf(outcome.pages),
  });
}

/**
 * Fetches only what an incomplete result is missing (the gaps between held intervals, up to
 * the cap) and updates the same resultId. Records stay in upstream order.
 */
export async function continueReport(
  rt: Runtime,
  def: TransactionDef,
  stored: StoredResult,
  opts: RunOptions,
): Promise<StoredResult> {
  // Complete, or every record held and incomplete only because the data changed while it was
  // read: nothing is missing to fetch (its notes say to run the report again).
  if (stored.complete || (stored.totalRecords !== null && coversAll(stored.held, stored.totalRecords))) return stored;
  const outcome = await fetchFor(rt, def, stored.sentQuery, opts, {
    intervals: stored.held,
    totalRecords: stored.totalRecords,
  });
  const heldPages = splitHeld(stored.records, stored.held);
  const newPages = outcome.pages.map((p) => ({ offset: p.offset, records: p.records.map(rt.redact) }));
  const pages = [...heldPages, ...newPages].sort((a, b) => a.offset - b.offset);
  const held = mergeIntervals(intervalsOf(pages));
  const total = outcome.totalRecords;
  const complete = outcome.complete && total !== null && coversAll(held, total);
  return rt.results.update(stored.id, {
    records: pages.flatMap((p) => p.records),
    held,
    totalRecords: total,
    complete,
    notes: outcome.notes,
  });
}

function fetchFor(
  rt: Runtime,
  def: TransactionDef,
  query: Record<string, string>,
  opts: RunOptions,
  held?: FetchRequest['held'],
) {
  return fetchReport(rt.upstream, {
    path: def.path,
    query,
    envelope: def.envelope,
    paged: def.marks.paging,
    pageSize: rt.config.pageSize,
    maxRecords: opts.maxRecords,
    budgetMs: rt.config.callBudgetMs,
    signal: opts.signal,
    onProgress: opts.onProgress,
    held,
  });
}
