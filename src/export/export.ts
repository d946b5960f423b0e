/**
 * export_report (README.md, "Exporting a result"): every held record matching `where` (read as
 * query_report reads it), in the columns asked for, written as CSV or XLSX into the export
 * folder under a name from the report (or the caller's name) and the day.
 */
import { invalidInput } from '../errors.js';
import { matchRecords } from '../results/query.js';
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
}

export async function exportResult(
  stored: StoredResult,
  req: ExportRequest,
  settings: ExportSettings,
): Promise<ExportOutcome> {
  // Every input is checked before anything touches the disk.
  const stem = checkStem(req.name ?? stored.report, req.name === undefined ? 'report' : 'name');
  const matched = matchRecords(stored.records, req.where);
  const table = exportTable(stored.records, req.fields);
  if (req.format === 'xlsx' && matched.length + 1 > XLSX_MAX_ROWS)
    throw invalidInput(
      'format',
      'xlsx',
      `cannot hold ${matched.length.toLocaleString('en-US')} rows (an XLSX sheet holds ${(XLSX_MAX_ROWS - 1).toLocaleString('en-US')}); use format 'csv' or narrow it with where`,
    );
  const day = dayStamp(settings.now, settings.timeZone);
  const placed = await placeFile(
    settings.folder,
    (n) => fileNameCandidate(stem, day, req.format, n),
    (tmp) => (req.format === 'csv' ? writeCsv(tmp, table, matched) : writeXlsx(tmp, table, matched, stored.report)),
  );
  return { ...placed, format: req.format, rows: matched.length, columns: table.columns };
}
