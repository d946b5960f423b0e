/**
 * A report answer at default settings (no rowLimit asked) is small enough for every client to
 * show whole. Clients show the model either the text or the JSON of structuredContent, not
 * both, and some warn past about 10,000 tokens: so the text stays within 16,000 characters and
 * structuredContent within 32,000. Asking for rowLimit lifts both to the hard ceilings
 * (TEXT_CHAR_LIMIT, STRUCTURED_ROWS_CHAR_LIMIT for the rows); the resource holds every record.
 */
export const DEFAULT_VIEW_TEXT_CHARS = 16_000;
export const DEFAULT_VIEW_STRUCTURED_CHARS = 32_000;

/** Room kept for the note that says how many rows were left out, added after the rows are fitted. */
const NOTE_ROOM = 600;

/** What the rows may use: the default view's size less everything else in structuredContent. */
export function defaultViewRowsBudget(rest: Record<string, unknown>): { rowsChars: number; totalChars: number } {
  const others = JSON.stringify({ ...rest, rows: [] }).length;
  return { rowsChars: DEFAULT_VIEW_STRUCTURED_CHARS - others - NOTE_ROOM, totalChars: DEFAULT_VIEW_STRUCTURED_CHARS };
}
