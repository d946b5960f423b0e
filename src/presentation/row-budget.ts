/**
 * structuredContent reaches the model too in some clients, so its rows get a budget like the
 * text's: whole rows only, as many as fit in STRUCTURED_ROWS_CHAR_LIMIT characters of JSON
 * (at least one), with an honest count of what was left out (the resource holds them all).
 */
export const STRUCTURED_ROWS_CHAR_LIMIT = 60_000;

export function fitRows<T>(
  rows: readonly T[],
  limitChars = STRUCTURED_ROWS_CHAR_LIMIT,
): { rows: T[]; leftOut: number } {
  const kept: T[] = [];
  let used = 2; // the brackets
  for (const row of rows) {
    const size = JSON.stringify(row).length + 1;
    // At least one row, however large (one record is bounded by the service): paging by
    // nextOffset must always move forward.
    if (used + size > limitChars && kept.length > 0) break;
    kept.push(row);
    used += size;
  }
  return { rows: kept, leftOut: rows.length - kept.length };
}

export function leftOutNote(
  leftOut: number,
  kept: number,
  where: string,
  key: 'rows' | 'groups' = 'rows',
  limitChars = STRUCTURED_ROWS_CHAR_LIMIT,
): string {
  return (
    `structuredContent.${key} holds the first ${kept} of the ${kept + leftOut} ${key} ${where} (${leftOut} ` +
    `left out to keep it under ${limitChars.toLocaleString('en-US')} ` +
    `characters); ${key === 'rows' ? 'read the resource or pass fields for narrower rows' : 'page on with offset'}.`
  );
}
