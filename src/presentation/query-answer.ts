/**
 * A query_report answer as the client receives it: the rows or groups of one page within the
 * structured budget (those beyond it are paged, not dropped: nextOffset points at them) and
 * the text rendered from the same page.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { dateBasisWords } from '../catalog/date-basis.js';
import { findTransaction } from '../catalog/transactions.js';
import { coverageOf, incompleteLine } from '../results/coverage.js';
import { inHouseNoteOf, WINDOW_FIELDS, wholeStayFields, wholeStayNoteOf } from '../results/nights-window.js';
import { runQuery } from '../results/query.js';
import type { QueryArgs } from '../results/query-schema.js';
import type { StoredResult } from '../results/store.js';
import { renderQuery } from './query-text.js';
import { resultUri } from './result-uri.js';
import { fitRows, leftOutNote } from './row-budget.js';
import type { QueryResult } from './shapes.js';

export function presentQuery(stored: StoredResult, query: QueryArgs, extraNotes: string[] = []): CallToolResult {
  const output = runQuery(stored.records, query, { report: stored.report });
  const incomplete = incompleteLine(coverageOf(stored));
  const notes: string[] = [...(incomplete ? [incomplete] : []), ...extraNotes, ...(output.notes ?? [])];
  const { money } = output;
  delete output.notes;
  delete output.money;
  if (output.rows) {
    const { rows, leftOut } = fitRows(output.rows);
    if (leftOut > 0) {
      notes.push(leftOutNote(leftOut, rows.length, 'asked for', 'rows'));
      output.rows = rows;
      output.nextOffset = output.offset + rows.length;
    }
  }
  if (output.groups) {
    const { rows: groups, leftOut } = fitRows(output.groups);
    if (leftOut > 0) {
      notes.push(leftOutNote(leftOut, groups.length, 'asked for', 'groups'));
      output.groups = groups;
      output.nextOffset = output.offset + groups.length;
    }
  }
  // Which date the held result's window filtered on, as its report answer said (last: the
  // notes about this answer's own rows come first).
  const def = findTransaction(stored.report);
  const basis = def ? dateBasisWords(def, stored.query) : undefined;
  if (basis) notes.push(basis);
  // A sum or filter of NightsInWindow or their cost: which stays' nights it leaves out
  // (results/nights-window.ts).
  const inHouse = WINDOW_FIELDS.some((f) => readsField(query, f)) && inHouseNoteOf(def, stored.query);
  if (inHouse) notes.push(inHouse);
  // A total of every night of the stays (NbrNights, EstimatedCost) over a window of arrivals.
  const totalled = wholeStayFields(def).filter((f) =>
    (query.aggregates ?? []).some((a) => a.field === f && (a.fn === 'sum' || a.fn === 'avg')),
  );
  const wholeStay = !inHouse && wholeStayNoteOf(def, stored.query, totalled);
  if (wholeStay) notes.push(wholeStay);
  const text = renderQuery(output, {
    resultId: stored.id,
    report: stored.report,
    heldRecords: stored.records.length,
    args: query,
    resourceUri: resultUri(stored.id),
    notes,
    money,
  });
  const structured: QueryResult = {
    resultId: stored.id,
    complete: stored.complete,
    ...(query.unnest ? { unnest: query.unnest } : {}),
    ...output,
    ...(notes.length ? { notes } : {}),
  };
  return { structuredContent: structured, content: [{ type: 'text', text }] };
}

/** Whether the query filters, groups, totals or orders by `field`. */
function readsField(query: QueryArgs, field: string): boolean {
  return (
    (query.where ?? []).some((w) => w.field === field) ||
    (query.groupBy ?? []).includes(field) ||
    (query.aggregates ?? []).some((a) => a.field === field) ||
    (query.orderBy ?? []).some((o) => o.field === field || o.field.endsWith(`_${field}`))
  );
}
