/** What a sql_query call does (registered in sql-tool.ts, loaded with the first call). */
import { cutText, invalidInput } from '../errors.js';
import { resultUri } from '../presentation/result-uri.js';
import { allRowsFit, presentSql, type TableRead } from '../presentation/sql-answer.js';
import type { ResultInfo } from '../results/held-results.js';
import { withoutFloatTail } from '../results/money.js';
import { countNotes } from '../sql/count-check.js';
import { SqlFailure, type TableSource } from '../sql/engine.js';
import { checkMoney } from '../sql/money-check.js';
import { nightsNotes } from '../sql/nights-check.js';
import { placeNotes } from '../sql/place-check.js';
import { stateNotes } from '../sql/state-check.js';
import { checkStartsAsRead, namedTables } from '../sql/statement-text.js';
import { recordsIn } from '../upstream/paging/intervals.js';
import type { Runtime } from './runtime.js';

/** Most rows a statement returns (the rest are counted); all of them are readable as a resource. */
export const SQL_MAX_ROWS = 100_000;
/** Most characters of cells a statement returns, across its rows. */
export const SQL_MAX_CHARS = 64_000_000;
/** Most columns an answer has, and the longest column name shown: with the row budget, they
 *  keep structuredContent under 100,000 characters (docs/sql.md, Safety). */
export const SQL_MAX_COLUMNS = 300;
const SQL_COLUMN_NAME_CHARS = 60;
/** Results whose tables a failed statement's answer lists (most recent first). */
const DESCRIBED_RESULTS = 20;
/** Longest list of tables and columns in a failed statement's answer. */
const TABLES_LIST_CHARS = 6_000;

export async function sqlQuery(rt: Runtime, args: { sql: string }, signal?: AbortSignal) {
  const { sql } = args;
  checkStartsAsRead(sql);
  const held = await rt.results.list();
  // Oldest first: the order in which the caller fetched them.
  const read = namedTables(sql, held).sort((a, b) => a.createdAt - b.createdAt);
  const reports = read.map((r) => r.report);
  // What the statement's numbers mean: refused money, notes on money, places, counts, states and nights.
  const meaningNotes = [
    ...checkMoney(sql, reports),
    ...placeNotes(sql),
    ...countNotes(sql, reports),
    ...(await stateNotes(
      sql,
      read.map((r) => ({ ...source(rt)(r), report: r.report })),
    )),
    ...nightsNotes(sql, read),
  ];
  const engine = await rt.sqlEngine();
  const ids = new Set(held.map((r) => r.id));
  let output: Awaited<ReturnType<typeof engine.query>>;
  try {
    output = await engine.query(
      rt.owner,
      read.map(source(rt)),
      ids,
      sql,
      { maxRows: SQL_MAX_ROWS, maxChars: SQL_MAX_CHARS },
      signal,
    );
  } catch (err) {
    if (!(err instanceof SqlFailure)) throw err;
    if (err.refused) throw invalidInput('sql', sql, err.message);
    // The caller's tables and columns, so the model can correct the statement in one more call.
    // The most recent results only: describing builds their tables, which costs time.
    const described = held.slice(0, DESCRIBED_RESULTS);
    const tables = await engine.describe(rt.owner, described.map(source(rt)), ids);
    const more = held.length - described.length;
    const also = more > 0 ? ` (and ${more} older results: their tables are named in their answers)` : '';
    throw invalidInput('sql', sql, `failed in SQLite: ${cutText(err.message, 500)}. ${tablesLine(tables)}${also}`);
  }
  if (output.columns.length > SQL_MAX_COLUMNS) {
    throw invalidInput(
      'sql',
      sql,
      `returns ${output.columns.length} columns; at most ${SQL_MAX_COLUMNS} can be answered: select fewer`,
    );
  }
  // Names come from the statement or the service's field names: cut so the answer stays bounded.
  const columns = uniqueNames(output.columns.map((c) => cutText(c, SQL_COLUMN_NAME_CHARS)));
  // SQLite adds decimal amounts in binary floating point (308.34000000000003): every number is
  // given as its shortest decimal of 15 significant digits, what a double holds exactly.
  const rows = output.rows.map((values) =>
    Object.fromEntries(
      columns.map((c, i) => [c, typeof values[i] === 'number' ? withoutFloatTail(values[i]) : values[i]]),
    ),
  );
  const tables: TableRead[] = read.map((r) => ({
    table: r.table,
    resultId: r.id,
    report: r.report,
    complete: r.complete,
    fetchedRecords: recordsIn(r.held),
    totalRecords: r.totalRecords,
  }));
  const notes: string[] = [...meaningNotes];
  if (output.truncated)
    notes.push(`The statement produced ${output.rowCount} rows; the first ${rows.length} are held (add a LIMIT).`);
  let resourceUri: string | undefined;
  if (output.truncated || !allRowsFit({ columns, rows, rowCount: output.rowCount, tables, notes })) {
    // Rows that do not fit are held like a report's records, readable as JSON and CSV pages.
    const stored = await rt.results.put({
      report: 'sql_query',
      source: rt.source,
      query: { sql: cutText(sql, 2_000) },
      sentQuery: {},
      totalRecords: output.rowCount,
      complete: !output.truncated && tables.every((t) => t.complete),
      notes: [...notes],
      records: rows,
      held: [{ offset: 0, count: rows.length }],
    });
    resourceUri = resultUri(stored.id);
  }
  return presentSql({ columns, rows, rowCount: output.rowCount, tables, resourceUri, notes });
}

function source(rt: Runtime) {
  return (r: ResultInfo): TableSource => ({
    id: r.id,
    table: r.table,
    updatedAt: r.updatedAt,
    records: async () => (await rt.results.get(r.id)).records,
  });
}

/** `a`, `a_2`, `a_3`...: rows are objects, so a repeated column name (a.Id, b.Id) gets its own key. */
function uniqueNames(names: readonly string[]): string[] {
  const used = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    for (let k = 2; used.has(candidate); k++) candidate = `${name}_${k}`;
    used.add(candidate);
    return candidate;
  });
}

function tablesLine(tables: { table: string; columns: string[] }[]): string {
  if (tables.length === 0)
    return 'You hold no results yet: run a report tool first; its answer names its table (`table`).';
  const list = tables.map((t) => `${t.table} (${t.columns.join(', ')})`).join('; ');
  return `Your tables and their columns: ${cutText(list, TABLES_LIST_CHARS)}.`;
}
