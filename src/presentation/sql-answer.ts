/**
 * A sql_query answer as the client receives it (docs/sql.md): the rows within the same
 * budgets as query_report's (cells cut with their length, whole rows within the structured
 * budget, the text within TEXT_CHAR_LIMIT), every table read with whether its result is
 * complete, and a resource_link to every row when not all fit.
 */
import type { CallToolResult } from '@modelcontextprotocol/server';
import { incompleteLine } from '../results/coverage.js';
import { capStrings, fitValue } from '../results/cut.js';
import { truncate } from '../results/values.js';
import { fitRows, STRUCTURED_ROWS_CHAR_LIMIT } from './row-budget.js';
import type { SqlResult } from './shapes.js';
import { fit, makeTable, n } from './text-fit.js';

/** Longest cell shown in structuredContent; the resource pages hold them whole. */
export const SQL_CELL_CHARS = 2_000;
/** The ceiling of structuredContent serialised (docs/architecture.md, "Bounded output"). */
const STRUCTURED_CHAR_LIMIT = 100_000;
/** Tables listed in one answer (a statement naming more is rare; notes still cover every incomplete one). */
const MAX_TABLES_LISTED = 100;

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
function fitSqlRows(
  rows: readonly Record<string, unknown>[],
  limitChars = STRUCTURED_ROWS_CHAR_LIMIT,
): {
  rows: Record<string, unknown>[];
  leftOut: number;
} {
  // One row is always kept (paging must move on): its cells are cut further until it fits.
  const size = (r: Record<string, unknown>) => JSON.stringify(r).length;
  return fitRows(
    rows.map((r) => {
      const capped = capStrings(r, SQL_CELL_CHARS);
      // Cut again from the row as it came, so each marker tells the value's real length.
      return size(capped) <= limitChars - 2 ? capped : fitValue(r, limitChars - 2, size);
    }),
    limitChars,
  );
}

/** Room left for rows once the rest of structuredContent is written, within its 100,000 characters. */
function rowsRoom(rest: object): number {
  return Math.min(STRUCTURED_ROWS_CHAR_LIMIT, STRUCTURED_CHAR_LIMIT - JSON.stringify(rest).length - 100);
}

/** The answer's tables, notes and rows as structuredContent holds them: one computation for
 *  deciding whether the rows need a resource and for presenting them. */
function laidOut(answer: Omit<SqlAnswer, 'resourceUri'>) {
  const tables = answer.tables.slice(0, MAX_TABLES_LISTED);
  // What is missing first: the text shows the first ten notes.
  const notes = [...tables.filter((t) => !t.complete).map(tableIncompleteLine), ...answer.notes];
  const fitted = fitSqlRows(answer.rows, rowsRoom({ columns: answer.columns, tables, notes }));
  return { tables, notes, fitted };
}

/** Whether every returned row fits in the answer (else they are held and linked as a resource). */
export function allRowsFit(answer: Omit<SqlAnswer, 'resourceUri'>): boolean {
  return laidOut(answer).fitted.leftOut === 0;
}

export function presentSql(answer: SqlAnswer): CallToolResult {
  const { tables, notes, fitted } = laidOut(answer);
  const structured: SqlResult = {
    columns: answer.columns,
    rows: fitted.rows,
    rowCount: answer.rowCount,
    truncated: fitted.rows.length < answer.rowCount,
    tables: tables.map(({ table, resultId, report, complete }) => ({ table, resultId, report, complete })),
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

/** "pnr_segments_1: INCOMPLETE: this covers 500 of 1,200 records ...": for every incomplete result read. */
function tableIncompleteLine(t: TableRead): string {
  const line = incompleteLine({
    id: t.resultId,
    report: t.report,
    complete: t.complete,
    totalRecords: t.totalRecords,
    fetched: t.fetchedRecords,
  });
  return `${t.table} (${t.report}, ${t.resultId}): ${line} The answer covers only what it holds.`;
}

function renderSql(answer: SqlAnswer, structuredRows: number, notes: string[]): string {
  const { columns, rows, rowCount } = answer;
  const head = [`sql_query: ${n(rowCount)} row${rowCount === 1 ? '' : 's'}.`];
  head.push(
    answer.tables.length
      ? `Tables read: ${truncate(
          answer.tables
            .map((t) => `${t.table} (${t.report}, ${t.resultId}, ${t.complete ? 'complete' : 'INCOMPLETE'})`)
            .join('; '),
          6_000,
        )}.`
      : 'Tables read: none of your held results.',
  );
  for (const note of notes.slice(0, 10)) head.push(`Note: ${truncate(note, 400)}`);
  const table = makeTable(columns, rows, 40);
  if (rows.length) head.push(`Rows (columns: ${table.names}):`);
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
