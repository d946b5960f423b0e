/**
 * An export as XLSX with exceljs (streamed, so 50,000 records do not sit in memory twice):
 * one sheet, a bold header row that stays frozen, an auto-filter over the table, and typed
 * cells: numbers as numbers, dates as dates, booleans as booleans, everything else as text.
 */
import { createWriteStream } from 'node:fs';
// Types only here: exceljs takes half a second to load, so it is imported when an XLSX is
// first written, not at every start-up.
import type ExcelJS from 'exceljs';
import { isIdField, isIsoDate, toNumber } from '../results/values.js';
import type { ExportTable } from './table.js';

/** Rows a sheet holds, the header included (the XLSX format's limit). */
export const XLSX_MAX_ROWS = 1_048_576;
/** Characters a cell holds (the XLSX format's limit). */
export const XLSX_MAX_CELL_CHARS = 32_767;

const DATE_STYLE: Partial<ExcelJS.Style> = { numFmt: 'yyyy-mm-dd' };
const DATE_TIME_STYLE: Partial<ExcelJS.Style> = { numFmt: 'yyyy-mm-dd hh:mm:ss' };
const PLAIN_STYLE: Partial<ExcelJS.Style> = {};
// Control characters but tab, line feed and carriage return, and two non-characters: XML
// cannot carry them all (a sheet holding them does not open), and service text is data.
const XML_INVALID = /[^\P{Cc}\t\n\r]|[\ufffe\uffff]/gu;

export async function writeXlsx(
  path: string,
  table: ExportTable,
  records: readonly Record<string, unknown>[],
  sheetName: string,
) {
  const { default: excel } = await import('exceljs');
  const stream = createWriteStream(path, { flags: 'wx' });
  const book = new excel.stream.xlsx.WorkbookWriter({ stream, useStyles: true, useSharedStrings: false });
  const sheet = book.addWorksheet(safeSheetName(sheetName), { views: [{ state: 'frozen', xSplit: 0, ySplit: 1 }] });
  const widths = widthsOf(table, records);
  sheet.columns = table.columns.map((c, i) => ({ header: c, key: c, width: widths[i] }));
  sheet.getRow(1).font = { bold: true };
  sheet.autoFilter = {
    from: { row: 1, column: 1 },
    to: { row: records.length + 1, column: Math.max(1, table.columns.length) },
  };
  sheet.getRow(1).commit();
  for (const r of records) {
    const values = table.valuesOf(r);
    const row = sheet.addRow(values.map((v, i) => xlsxValue(table.columns[i], v)));
    // One shared style object per kind of cell: exceljs recognises a style it has seen by
    // identity, where a fresh object per cell costs a style lookup each (most of the time).
    values.forEach((v, i) => {
      row.getCell(i + 1).style = isIsoDate(v) ? (v.length > 10 ? DATE_TIME_STYLE : DATE_STYLE) : PLAIN_STYLE;
    });
    row.commit();
  }
  sheet.commit();
  await book.commit();
}

/**
 * A record value as a typed cell. Dates become the wall-clock time the record writes (its own
 * UTC offset: a 23:30-05:00 departure is on that day at 23:30), as spreadsheets have no zones.
 * Numeric text is a number, except in identifier fields (TravAgntID '1004' stays a label).
 */
export function xlsxValue(column: string, value: unknown): string | number | boolean | Date | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    if (isIsoDate(value)) return wallClock(value);
    const n = toNumber(value);
    if (n !== undefined && !isIdField(column)) return n;
    return cellString(value);
  }
  return cellString(JSON.stringify(value));
}

/** 2016-04-04T09:55:34.000-05:00 -> a Date whose UTC fields read 2016-04-04 09:55:34.000. */
export function wallClock(iso: string): Date {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3})\d*)?)?)?/.exec(iso)!;
  const [, y, mo, d, h = '0', mi = '0', s = '0', ms = '0'] = m;
  return new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, +ms.padEnd(3, '0')));
}

function cellString(text: string): string {
  const clean = text.replace(XML_INVALID, '');
  if (clean.length <= XLSX_MAX_CELL_CHARS) return clean;
  const marker = `…[cut: ${clean.length.toLocaleString('en-US')} characters in all]`;
  return clean.slice(0, XLSX_MAX_CELL_CHARS - marker.length) + marker;
}

/** Sheet names: at most 31 characters, none of : \ / ? * [ ]. */
function safeSheetName(name: string): string {
  return name.replace(/[:\\/?*[\]]/g, '_').slice(0, 31) || 'records';
}

/** Column widths from the header and the first 200 values, between 8 and 60 characters. */
function widthsOf(table: ExportTable, records: readonly Record<string, unknown>[]): number[] {
  const widths = table.columns.map((c) => c.length);
  for (const r of records.slice(0, 200)) {
    table.valuesOf(r).forEach((v, i) => {
      const text =
        v === null ? '' : isIsoDate(v) ? '2000-01-01 00:00:00' : typeof v === 'string' ? v : JSON.stringify(v);
      widths[i] = Math.max(widths[i], text.length);
    });
  }
  return widths.map((w) => Math.min(60, Math.max(8, w + 2)));
}
