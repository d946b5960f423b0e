/**
 * The pieces every rendered text is built from: a pipe table formatted lazily, its cells, and
 * fit(), which keeps any text under TEXT_CHAR_LIMIT by cutting whole rows (25,000 tokens at 4
 * characters a token, the ceiling docs/architecture.md gives for one answer).
 */
import { compilePath } from '../results/paths.js';
import { formatNumber, isIsoDate, truncate } from '../results/values.js';

/** Hard ceiling of every rendered text: under 25,000 tokens. */
export const TEXT_CHAR_LIMIT = 100_000;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * A pipe table whose lines are formatted only as they are used (rows may be 100,000). Every
 * line starts with '| ' and ends with ' |': a value from the service, even in the first
 * column, can never begin a line of its own that reads like ours ("Note: ...", "resultId: ...").
 */
export interface Table {
  /** The column names as the text may show them in prose: 'A, B, C', each on one line. */
  names: string;
  header: string | null;
  rows: readonly Record<string, unknown>[];
  line: (row: Record<string, unknown>) => string;
}

/** `width`: the most characters of a cell, one for all columns or one per column. */
export function makeTable(
  columns: string[],
  rows: readonly Record<string, unknown>[],
  width: number | readonly number[],
): Table {
  const getters = columns.map(compilePath);
  const widthOf = (i: number) => (typeof width === 'number' ? width : (width[i] ?? 40));
  const shownNames = columns.map((c, i) => textCell(c, Math.max(40, widthOf(i))));
  return {
    names: shownNames.join(', '),
    header: columns.length && rows.length ? tableLine(shownNames) : null,
    rows: columns.length ? rows : [],
    line: (r) => tableLine(getters.map((g, i) => textCell(g(r), widthOf(i)))),
  };
}

export function tableLine(cells: string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** A value as one table cell: on one line, no '|', cut at `width` with its length. */
export function textCell(value: unknown, width: number): string {
  if (value === undefined || value === null) return '';
  const text = plain(value);
  // Printable ASCII without '|' or a run of spaces is its own cell: one scan, no replaces.
  if (!CELL_WORK.test(text)) return text.length <= width ? text : truncate(text, width);
  return truncate(text.replace(/\s+/g, ' ').replace(/\|/g, '/'), width);
}

/** A character outside printable ASCII, a '|', or two spaces: what textCell has to change. */
const CELL_WORK = /[^\x20-\x7b\x7d\x7e]| {2}/;

/** A value in words: dates shortened, an object as its values, a list as its items. */
function plain(value: unknown, depth = 0): string {
  // Cells show values as the service sent them: 41246 is often an id, not a quantity.
  if (typeof value === 'string') return isIsoDate(value) ? shortDate(value) : value;
  if (value === null || typeof value !== 'object') return value === undefined ? '' : String(value);
  if (depth > 3) return '…';
  if (Array.isArray(value)) {
    // A cell shows a few hundred characters at most: 50 items are more than enough to fill it.
    const objects = value.some((v) => v !== null && typeof v === 'object');
    const shown = value.slice(0, 50).map((v) => plain(v, depth + 1));
    return shown.join(objects ? '; ' : ', ') + (value.length > 50 ? ` … (${value.length} items)` : '');
  }
  return Object.values(value as Record<string, unknown>)
    .filter((v) => v !== null && v !== undefined && v !== '')
    .map((v) => plain(v, depth + 1))
    .join(' ');
}

/** '2026-04-04T09:55:34.000-05:00' -> '2026-04-04T09:55:34-05:00' (display only). */
export function shortDate(iso: string): string {
  return iso.replace(/\.000(?=Z|[+-]|$)/, '');
}

export function n(value: number): string {
  return formatNumber(value);
}

export function num(value: unknown): string {
  return typeof value === 'number' ? formatNumber(value) : String(value);
}

/**
 * head, then the table header and as many rows as fit, then the tail for that many shown
 * rows; never over `limit` characters (TEXT_CHAR_LIMIT unless a smaller view is asked for).
 */
export function fit(
  head: string[],
  table: Table,
  tail: (shownRows: number) => string[],
  limit = TEXT_CHAR_LIMIT,
): { text: string; shown: number } {
  const parts = [...head];
  if (table.header !== null) parts.push(table.header);
  // The longest tail (its numbers only get shorter as fewer rows are left out), plus slack.
  const reserve = tail(0).join('\n').length + 64;
  let used = parts.reduce((n, p) => n + p.length + 1, 0);
  let shown = 0;
  for (const row of table.rows) {
    const line = table.line(row);
    if (used + line.length + 1 + reserve > limit) break;
    parts.push(line);
    used += line.length + 1;
    shown++;
  }
  const text = [...parts, ...tail(shown)].join('\n');
  return { text: text.length <= limit ? text : `${text.slice(0, limit - 1)}…`, shown };
}
