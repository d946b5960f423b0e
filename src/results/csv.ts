/**
 * Records as CSV (RFC 4180): a header of the top-level fields in first-seen order, CRLF line
 * ends, fields quoted when they hold a comma, quote or line break. Nested values as JSON.
 */
export function recordsToCsv(
  records: readonly Record<string, unknown>[],
  columns: readonly string[] = topLevelColumns(records),
): string {
  const lines = [csvLine(columns)];
  for (const r of records) lines.push(recordLine(r, columns));
  return `${lines.join('\r\n')}\r\n`;
}

/** One record's line (without its CRLF) over the given columns. */
export function recordLine(record: Record<string, unknown>, columns: readonly string[]): string {
  return csvLine(columns.map((c) => cellText(record[c])));
}

/** The union of the records' top-level fields, in first-seen order. */
export function topLevelColumns(records: readonly Record<string, unknown>[]): string[] {
  const columns: string[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    for (const key in r) {
      if (!seen.has(key)) {
        seen.add(key);
        columns.push(key);
      }
    }
  }
  return columns;
}

/** One CSV line (without its CRLF) of already-textual cells. */
export function csvLine(cells: readonly string[]): string {
  return cells.map(csvField).join(',');
}

export function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A cell's text as a CSV field: quoted, its quotes doubled, when it holds a comma, quote or line break. */
export function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
