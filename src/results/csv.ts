/**
 * Records as CSV (RFC 4180): a header of the top-level fields in first-seen order, CRLF line
 * ends, fields quoted when they hold a comma, quote or line break. Nested values as JSON.
 */
export function recordsToCsv(records: readonly Record<string, unknown>[]): string {
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
  const lines = [columns.map(csvField).join(',')];
  for (const r of records) lines.push(columns.map((c) => csvField(cellText(r[c]))).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function csvField(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
