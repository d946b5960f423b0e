/**
 * export_report (README.md, "Exporting a result"): every held record matching `where` (read as
 * query_report reads it), in the columns asked for, written as CSV or XLSX into the export
 * folder under a name from the report (or the caller's name) and the day.
 */
import { findTransaction } from '../catalog/transactions.js';
import type { RecordMeaning } from '../catalog/types.js';
import { invalidInput, quote } from '../errors.js';
import { meaningNotes, notesRestOn } from '../results/derived.js';
import { compilePath } from '../results/paths.js';
import { fieldResolver, matchRecords, rowsOf } from '../results/query.js';
import type { WhereClause } from '../results/query-schema.js';
import type { StoredResult } from '../results/store.js';
import { writeCsv } from './csv-file.js';
import { checkStem, dayStamp, fileNameCandidate } from './name.js';
import { placeFile } from './place.js';
import { exportTable } from './table.js';
import { writeXlsx, XLSX_MAX_ROWS } from './xlsx-file.js';

export type ExportFormat = 'csv' | 'xlsx';

export interface ExportRequest {
  format: ExportFormat;
  where?: WhereClause[];
  fields?: string[];
  /** A list field: one row per item, as query_report's unnest. */
  unnest?: string;
  /** File name stem instead of the report's name. */
  name?: string;
}

export interface ExportSettings {
  folder: string;
  now: Date;
  timeZone: string;
}

export interface ExportOutcome {
  path: string;
  fileName: string;
  format: ExportFormat;
  rows: number;
  columns: string[];
  bytes: number;
  /** What the file's numbers mean, over the records written (see fileMeaning). */
  meaning: string[];
}

export async function exportResult(
  stored: StoredResult,
  req: ExportRequest,
  settings: ExportSettings,
): Promise<ExportOutcome> {
  // Every input is checked before anything touches the disk.
  const stem = checkStem(req.name ?? stored.report, req.name === undefined ? 'report' : 'name');
  const { rows, unnest } = rowsOf(stored.records, req.unnest, stored.report);
  const matched = matchRecords(rows, req.where);
  if (!matched.length) throw nothingToExport(rows, req);
  const table = exportTable(rows, req.fields);
  if (req.format === 'xlsx' && matched.length + 1 > XLSX_MAX_ROWS)
    throw invalidInput(
      'format',
      'xlsx',
      `cannot hold ${matched.length.toLocaleString('en-US')} rows (an XLSX sheet holds ` +
        `${(XLSX_MAX_ROWS - 1).toLocaleString('en-US')}); use format 'csv' or narrow it with where`,
    );
  const day = dayStamp(settings.now, settings.timeZone);
  const placed = await placeFile(
    settings.folder,
    (n) => fileNameCandidate(stem, day, req.format, n),
    (tmp) => (req.format === 'csv' ? writeCsv(tmp, table, matched) : writeXlsx(tmp, table, matched, stored.report)),
  );
  return {
    ...placed,
    format: req.format,
    rows: matched.length,
    columns: table.columns,
    meaning: fileMeaning(stored.report, unnest, matched, table.columns),
  };
}

/**
 * The report's meaning notes (results/derived.ts) counted over the rows written, as the
 * report's answer says them over all it fetched: a spreadsheet shows RateAmount beside
 * EstimatedCost and cancelled rows beside confirmed ones, and its reader sums a column. Rows
 * unnested from a list are that list's items: what the meaning says of those items (their
 * states, their rates) is said of the rows. When the columns leave out one the notes rest on, a
 * note says which.
 */
function fileMeaning(
  report: string,
  unnest: string | undefined,
  written: readonly Record<string, unknown>[],
  columns: readonly string[],
): string[] {
  const declared = findTransaction(report)?.answer.meaning;
  const meaning = unnest === undefined ? declared : itemsMeaning(declared, unnest);
  if (!meaning) return [];
  const notes = meaningNotes(meaning, written, 'file').map((note) => `In the file: ${note}`);
  const missing = notesRestOn(meaning).filter((c) => !columns.includes(c));
  if (notes.length && missing.length) {
    const them = missing.length > 1 ? 'them' : 'it';
    notes.push(
      `The file has no ${missing.join(' or ')} column, which these notes rest on: export again with ${them} in fields.`,
    );
  }
  return notes;
}

/** The meaning of the items of the list at `list`, each a row of its own: its segments and
 *  costs as a flat report's. What is said of whole records (a ticket's amounts, travel flags,
 *  the service's totals) is not said of an item. */
function itemsMeaning(meaning: RecordMeaning | undefined, list: string): RecordMeaning | undefined {
  const segments = meaning?.segments?.filter((s) => s.list === list).map(({ list: _list, ...s }) => s) ?? [];
  const costs = meaning?.costs?.filter((c) => c.list === list).map(({ list: _list, ...c }) => c) ?? [];
  if (!segments.length && !costs.length) return undefined;
  return { ...(segments.length ? { segments } : {}), ...(costs.length ? { costs } : {}) };
}

/** Most distinct values of a field listed when a filter on it matched nothing. */
const FEW_VALUES = 20;

/**
 * No file for no rows: the refusal names the filter that matched nothing on its own (a typo
 * in a value, usually) and, when the field has few values, the values it does have.
 */
function nothingToExport(rows: readonly Record<string, unknown>[], req: ExportRequest) {
  if (!rows.length) {
    return invalidInput(
      req.unnest ? 'unnest' : 'resultId',
      req.unnest ?? 'this result',
      'holds no records, so there is nothing to export: no file was written',
    );
  }
  const where = req.where ?? [];
  const field = fieldResolver(rows);
  const alone = where.findIndex((w) => matchRecords(rows, [w]).length === 0);
  const i = alone >= 0 ? alone : where.length - 1;
  const w = where[i];
  const get = compilePath(field(w.field, `where[${i}].field`));
  const values = new Set<string>();
  for (const r of rows) {
    const v = get(r);
    for (const x of Array.isArray(v) ? v : [v]) if (x !== undefined && x !== null && x !== '') values.add(String(x));
    if (values.size > FEW_VALUES) break;
  }
  const known =
    values.size && values.size <= FEW_VALUES
      ? ` ${w.field} holds: ${[...values]
          .sort()
          .map((v) => quote(v, 40))
          .join(', ')}.`
      : '';
  return invalidInput(
    `where[${i}]`,
    `${w.field} ${w.op} ${JSON.stringify(w.value)}`,
    `${alone >= 0 ? 'matches' : 'together with the other filters matches'} none of the ${rows.length.toLocaleString('en-US')} ` +
      `records, so no file was written.${known}`,
  );
}
