/**
 * A held report result as the client receives it, for a report tool and continue_report
 * alike: structuredContent with the exact summary and the first rows, text rendered within
 * the token budget, and a resource_link to all records.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { dateBasisWords } from '../catalog/date-basis.js';
import { findTransaction } from '../catalog/transactions.js';
import { ReportsError } from '../errors.js';
import { collectPaths, compilePath, resolveField } from '../results/paths.js';
import type { StoredResult } from '../results/store.js';
import { summarize } from '../results/summarize.js';
import { leadingSummary } from './columns.js';
import { DEFAULT_VIEW_TEXT_CHARS, defaultViewRowsBudget } from './default-view.js';
import { nextCalls } from './next-steps.js';
import { renderResultParts } from './report-text.js';
import { resultUri } from './result-uri.js';
import { fitRows, leftOutNote, STRUCTURED_ROWS_CHAR_LIMIT } from './row-budget.js';
import type { ReportHead, ReportResult } from './shapes.js';

export interface PresentOptions {
  rowLimit?: number;
  fields?: string[];
  /** Notes of this call on top of the result's own (e.g. a clamped maxRecords). */
  extraNotes?: string[];
  /** Rows the default view (no rowLimit asked) shows, within its size; DEFAULT_ROW_LIMIT unless said. */
  defaultRows?: number;
  /** Every note shown whole in the text (an answer whose notes are its rules and its calls). */
  wholeNotes?: boolean;
}

export function presentReport(stored: StoredResult, opts: PresentOptions = {}): CallToolResult {
  const summary = leadingSummary(stored.summary ?? summarize(stored.records, { report: stored.report }), stored.report);
  // Which date the window filtered on leads the notes (the text writes it under its headline).
  const def = findTransaction(stored.report);
  const basis = def ? dateBasisWords(def, stored.query) : undefined;
  const notes = [...(basis ? [basis] : []), ...stored.notes, ...(opts.extraNotes ?? [])];
  const resourceUri = resultUri(stored.id);
  // The head of structuredContent is also what the text renders.
  const head: ReportHead = {
    report: stored.report,
    source: stored.source,
    query: stored.query,
    totalRecords: stored.totalRecords,
    fetchedRecords: stored.records.length,
    complete: stored.complete,
    notes,
    resultId: stored.id,
    table: stored.table,
    resourceUri,
  };
  const { columns, unknown } = knownColumns(stored.records, opts.fields ?? []);
  for (const message of unknown)
    notes.push(
      `${message} ${columns.length ? 'It is left out of the columns.' : 'The default columns are shown instead.'}`,
    );
  const fields = columns.length ? columns : undefined;
  // No rowLimit asked: the default view, small enough for every client to show whole.
  const compact = opts.rowLimit === undefined;
  const rendered = renderResultParts(
    { ...head, summary, records: stored.records },
    {
      rowLimit: opts.rowLimit ?? opts.defaultRows,
      fields,
      textLimit: compact ? DEFAULT_VIEW_TEXT_CHARS : undefined,
      wholeNotes: opts.wholeNotes,
    },
  );
  // The rows as the text shows them, read like query_report reads them (dot paths fan out
  // through lists), within their own budget.
  // At least the first record: a lookup is never answered with no row (its lists may be long).
  const shown = stored.records
    .slice(0, Math.max(rendered.rowsShown, Math.min(1, opts.rowLimit ?? opts.defaultRows ?? 1)))
    .map((r) => (fields ? project(r, fields) : r));
  const next = nextCalls({ ...head, summary });
  const budget = compact
    ? defaultViewRowsBudget({ ...head, summary, next })
    : { rowsChars: STRUCTURED_ROWS_CHAR_LIMIT, totalChars: STRUCTURED_ROWS_CHAR_LIMIT };
  const { rows, leftOut } = fitRows(shown, budget.rowsChars);
  if (leftOut > 0) notes.push(leftOutNote(leftOut, rows.length, 'shown in the text', 'rows', budget.totalChars));
  const structured: ReportResult = { ...head, summary: summary as unknown as Record<string, unknown>, rows, next };
  return {
    structuredContent: structured,
    content: [
      { type: 'text', text: rendered.text },
      {
        type: 'resource_link',
        uri: resourceUri,
        name: `${stored.report} ${stored.id}`,
        mimeType: 'application/json',
        description: `All ${stored.records.length} fetched records of ${stored.report} as a JSON array (append .csv for CSV).`,
      },
    ],
  };
}

/**
 * continue_report's answer: the updated result, saying so when nothing was fetched
 * (`updated` is the very object held before the call).
 */
export function presentContinued(before: StoredResult, updated: StoredResult, opts: PresentOptions): CallToolResult {
  const nothingFetched = updated === before;
  return presentReport(updated, {
    ...opts,
    extraNotes: [...(opts.extraNotes ?? [])].concat(
      !nothingFetched
        ? []
        : before.complete
          ? ['This result was already complete; nothing was fetched.']
          : [
              'Nothing is missing to fetch: every record was read, but the data changed while it was read (see notes). ' +
                'Run the report again for a consistent result.',
            ],
    ),
  });
}

/**
 * The asked-for columns resolved against the records' fields. An unknown column name must not
 * throw away a finished fetch: it is reported (the message names the field and the fields that
 * exist) and the other columns, or the default ones, are shown.
 */
function knownColumns(
  records: readonly Record<string, unknown>[],
  asked: readonly string[],
): { columns: string[]; unknown: string[] } {
  const known = asked.length && records.length ? collectPaths(records) : [];
  const columns: string[] = [];
  const unknown: string[] = [];
  for (const f of asked) {
    try {
      columns.push(known.length ? resolveField(f, known, 'fields') : f);
    } catch (err) {
      if (!(err instanceof ReportsError)) throw err;
      unknown.push(err.message);
    }
  }
  return { columns, unknown };
}

function project(record: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = compilePath(f)(record);
    if (v !== undefined) out[f] = v;
  }
  return out;
}
