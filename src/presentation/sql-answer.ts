/**
 * A sql_query answer as the client receives it (docs/sql.md): the rows within the same
 * budgets as query_report's (cells cut with their length, whole rows within the structured
 * budget, the text within TEXT_CHAR_LIMIT), every table read with whether its result is
 * complete, and a resource_link to every row when not all fit.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { capStrings } from '../results/cut.js';
import { truncate } from '../results/values.js';
import { fitRows } from './row-budget.js';
import type { SqlResult } from './shapes.js';
import { cell, fit, n, type Table } from './text-fit.js';

/** Longest cell shown in structuredContent; the resource pages hold them whole. */
export const SQL_CELL_CHARS = 2_000;

/** A held result the statement read. */
export interface TableRead {
  table: string;
  resultId: string;
  report: string;
  complete: boolean;
  fetchedRecords: number;
  totalRecords: number | null;
}

export interface SqlAnswer {
  columns: string[];
  /** The rows the engine returned, keyed by `columns`. */
  rows: Record<string, unknown>[];
  rowCount: number;
  tables: TableRead[];
  /** Where every returned row is readable (set when not all fit here). */
  resourceUri?: string;
  notes: string[];
}

/** The rows as structuredContent can hold them; `leftOut` > 0 means a resource is needed. */
export function fitSqlRows(rows: readonly Record<string, unknown>[]): {
  rows: Record<string, unknown>[];
  leftOut: number;
} {
  return fitRows(rows.map((r) => capStrings(r, SQL_CELL_CHARS)));
}

export function presentSql(answer: SqlAnswer): CallToolResult {
  const fitted = fitSqlRows(answer.rows);
  const notes = [...answer.notes];
  for (const t of answer.tables) if (!t.complete) notes.push(incompleteLine(t));
  const structured: SqlResult = {
    columns: answer.columns,
    rows: fitted.rows,
    rowCount: answer.rowCount,
    truncated: fitted.rows.length < answer.rowCount,
    tables: answer.tables.map(({ table, resultId, report, complete }) => ({ table, resultId, report, complete })),
    ...(answer.resourceUri ? { resourceUri: answer.resourceUri } : {}),
    ...(notes.length ? { notes } : {}),
  };
  const content: CallToolResult['content'] = [{ type: 'text', text: renderSql(answer, fitted.rows.length, notes) }];
  if (answer.resourceUri) {
    content.push({
      type: 'resource_link',
      uri: answer.resourceUri,
      name: `sql_query rows ${answer.resourceUri.split('/').pop()}`,
      mimeType: 'application/json',
      description: `All ${answer.rows.length} rows of the statement as JSON pages (append .csv for CSV).`,
    });
  }
  return { structuredContent: structured, content };
}

/** "pnr_segments_1 is incomplete: 500 of 1,200 records; ...": said for every incomplete result read. */
function incompleteLine(t: TableRead): string {
  const of = t.totalRecords === null ? 'an unknown number of' : n(t.totalRecords);
  return (
    `${t.table} (${t.report}, ${t.resultId}) is incomplete: it holds ${n(t.fetchedRecords)} of ${of} records, so ` +
    `the answer covers only those; continue_report {"resultId":"${t.resultId}"} fetches the rest.`
  );
}

function renderSql(answer: SqlAnswer, structuredRows: number, notes: string[]): string {
  const { columns, rows, rowCount } = answer;
  const head = [`sql_query: ${n(rowCount)} row${rowCount === 1 ? '' : 's'}.`];
  head.push(
    answer.tables.length
      ? `Tables read: ${answer.tables
          .map((t) => `${t.table} (${t.report}, ${t.resultId}, ${t.complete ? 'complete' : 'INCOMPLETE'})`)
          .join('; ')}.`
      : 'Tables read: none of your held results.',
  );
  for (const note of notes.slice(0, 10)) head.push(`Note: ${truncate(note, 400)}`);
  if (rows.length) head.push(`Rows (columns: ${columns.map((c) => cell(c, 60)).join(', ')}):`);
  const table: Table = {
    names: columns.join(', '),
    header: columns.length && rows.length ? `| ${columns.map((c) => cell(c, 40)).join(' | ')} |` : null,
    rows,
    line: (r) => `| ${columns.map((c) => cell(r[c], 40)).join(' | ')} |`,
  };
  const tail = (shown: number): string[] => {
    const out: string[] = [];
    if (shown < rowCount) {
      out.push(
        `${n(rowCount - shown)} of the ${n(rowCount)} rows are not in this text` +
          (structuredRows > shown ? ` (structuredContent holds the first ${n(structuredRows)})` : '') +
          '.',
      );
    }
    if (answer.resourceUri) out.push(`All rows as JSON: ${answer.resourceUri} (CSV: ${answer.resourceUri}.csv)`);
    else if (shown < rowCount) out.push('Add a LIMIT, or select fewer columns, to see the rest here.');
    return out;
  };
  return fit(head, table, tail).text;
}
