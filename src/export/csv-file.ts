/**
 * An export as CSV: RFC 4180 (the same quoting as the result resources), UTF-8 with a byte
 * order mark so spreadsheet programs read accents right, CRLF line ends.
 *
 * Each line is encoded into one reused buffer, written with the synchronous call when it is
 * full (256 KB into the file system's cache), and the event loop is given a turn after each
 * write. No text lives longer than its line: through a write stream, 64 KB chunks of text
 * waited for the thread pool while records were read, outlived the young generation's
 * collections and were copied into the old one, and each collection cost more the more records
 * the server held (a million records' export took 1.9 s of its 5.8 s in the collector). A
 * stream's write also paid the thread pool's hand-over, once per chunk.
 */

import { closeSync, openSync, writeSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { cellText, csvLine } from '../results/csv.js';
import { toNumber } from '../results/values.js';
import type { ExportTable } from './table.js';

const BUFFER_BYTES = 256 * 1024;
/** The longest line written through the buffer; a longer one is written on its own. */
const LONGEST_BUFFERED = BUFFER_BYTES / 4;

export async function writeCsv(path: string, table: ExportTable, records: readonly Record<string, unknown>[]) {
  // 'wx': the temporary name is fresh; never write through something already there.
  const fd = openSync(path, 'wx', 0o666);
  try {
    const out = new LineBuffer(fd);
    out.put(`\uFEFF${csvLine(table.columns)}\r\n`);
    for (const r of records) {
      if (out.put(`${csvLine(table.valuesOf(r), csvCell)}\r\n`)) await nextTurn();
    }
    out.flush();
  } finally {
    closeSync(fd);
  }
}

/** Lines encoded into one reused buffer, written to `fd` when it is full. */
class LineBuffer {
  private readonly buffer = Buffer.allocUnsafe(BUFFER_BYTES);
  private used = 0;

  constructor(private readonly fd: number) {}

  /** Adds a line; true when what the buffer held was written to the file first. */
  put(line: string): boolean {
    if (line.length > LONGEST_BUFFERED) {
      this.flush();
      writeAll(this.fd, Buffer.from(line, 'utf8'));
      return true;
    }
    // A UTF-16 unit takes at most 3 bytes of UTF-8: the line always fits what is left.
    const full = this.used + line.length * 3 > BUFFER_BYTES;
    if (full) this.flush();
    this.used += this.buffer.write(line, this.used, 'utf8');
    return full;
  }

  flush(): void {
    writeAll(this.fd, this.buffer.subarray(0, this.used));
    this.used = 0;
  }
}

function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
}

/**
 * Text that a spreadsheet program would run as a formula (=, +, -, @, or a leading tab or
 * CR) gets a leading apostrophe: service text is data, and a file sent on must not compute
 * (CSV injection). Numbers such as -12.50 stay as they are.
 */
export function csvCell(value: unknown): string {
  const text = cellText(value);
  if (FORMULA_START.test(text) && toNumber(text) === undefined) return `'${text}`;
  return text;
}

/** A module constant, as results/csv.ts's: a literal here made an object for every cell. */
const FORMULA_START = /^[=+\-@\t\r]/;
