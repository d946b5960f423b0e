/**
 * An export as CSV: RFC 4180 (the same quoting as the result resources), UTF-8 with a byte
 * order mark so spreadsheet programs read accents right, CRLF line ends. Written in chunks so
 * that 50,000 records never become one huge string.
 */

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { cellText, csvLine } from '../results/csv.js';
import { toNumber } from '../results/values.js';
import type { ExportTable } from './table.js';

const CHUNK_CHARS = 64 * 1024;

export async function writeCsv(path: string, table: ExportTable, records: readonly Record<string, unknown>[]) {
  // 'wx': the temporary name is fresh; never write through something already there.
  const out = createWriteStream(path, { flags: 'wx', encoding: 'utf8' });
  const failed = once(out, 'error').then(([err]) => Promise.reject(err));
  failed.catch(() => {});
  const write = async (text: string) => {
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed]);
  };
  let chunk = `\uFEFF${csvLine(table.columns)}\r\n`;
  for (const r of records) {
    chunk += `${csvLine(table.valuesOf(r).map(csvCell))}\r\n`;
    if (chunk.length >= CHUNK_CHARS) {
      await write(chunk);
      chunk = '';
    }
  }
  await write(chunk);
  out.end();
  await Promise.race([once(out, 'close'), failed]);
}

/**
 * Text that a spreadsheet program would run as a formula (=, +, -, @, or a leading tab or
 * CR) gets a leading apostrophe: service text is data, and a file sent on must not compute
 * (CSV injection). Numbers such as -12.50 stay as they are.
 */
export function csvCell(value: unknown): string {
  const text = cellText(value);
  if (/^[=+\-@\t\r]/.test(text) && toNumber(text) === undefined) return `'${text}`;
  return text;
}
