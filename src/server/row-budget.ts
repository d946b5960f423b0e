/**
 * structuredContent reaches the model too in some clients, so its rows get a budget like the
 * text's: whole rows only, as many as fit in STRUCTURED_ROWS_CHAR_LIMIT characters of JSON,
 * with an honest count of what was left out (the resource holds them all).
 */
export const STRUCTURED_ROWS_CHAR_LIMIT = 60_000;

export function fitRows<T>(rows: readonly T[], limitChars = STRUCTURED_ROWS_CHAR_LIMIT): { rows: T[]; leftOut: number } {
  const kept: T[] = [];
  let used = 2; // the brackets
  for (const row of rows) {
    const size = JSON.stringify(row).length + 1;
    if (used + size > limitChars) break;
    kept.push(row);
    used += size;
  }
  return { rows: kept, leftOut: rows.length - kept.length };
}

export function leftOutNote(leftOut: number, kept: number, where: string): string {
  return `structuredContent.rows holds the first ${kept} of the ${kept + leftOut} rows ${where} (${leftOut} left out to keep it under ${STRUCTURED_ROWS_CHAR_LIMIT.toLocaleString('en-US')} characters); read the resource or pass fields for narrower rows.`;
}
