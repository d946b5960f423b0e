/**
 * What a statement over a hotel result's nights counts (docs/travel-meaning.md, "Nights in the
 * period"). A result fetched for a window of arrival dates holds the stays arriving in it, not
 * those already in-house when it opens: a statement naming NightsInWindow (or
 * EstimatedCostInWindow, the cost of those nights) is answered with what it leaves out, the
 * fetch and the expression that count every night in the window. A total of NbrNights or
 * EstimatedCost over such a result counts every night of each stay, those after the window
 * included: the answer says so, and names the window's own fields.
 */
import { findTransaction } from '../catalog/transactions.js';
import { inHouseNoteOf, WINDOW_FIELDS, wholeStayFields, wholeStayNoteOf } from '../results/nights-window.js';
import { aggregates, plainSql, sqlWords } from './statement-text.js';

export function nightsNotes(
  sql: string,
  read: readonly { report: string; query: Readonly<Record<string, string>> }[],
): string[] {
  const text = plainSql(sql);
  const words = sqlWords(text);
  const window = WINDOW_FIELDS.some((f) => words.has(f.toLowerCase()));
  const totals = window ? [] : aggregates(text, ['sum', 'total', 'avg']).map(([, argument]) => sqlWords(argument));
  const notes = new Set<string>();
  for (const { report, query } of read) {
    const def = findTransaction(report);
    // A total of a stay's every night (NbrNights, EstimatedCost) is not the window's: said only
    // where the statement does not read the window's own fields.
    const note = window
      ? inHouseNoteOf(def, query)
      : wholeStayNoteOf(
          def,
          query,
          wholeStayFields(def).filter((f) => totals.some((t) => t.has(f.toLowerCase()))),
        );
    if (note) notes.add(note);
  }
  return [...notes];
}
