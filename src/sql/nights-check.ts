/**
 * What a statement over NightsInWindow leaves out (docs/travel-meaning.md, "Nights in the
 * period"): a hotel result fetched for a window of arrival dates holds the stays arriving in
 * it, not those already in-house when it opens. The answer says so for each such result the
 * statement reads, with the fetch and the expression that count every night in the window.
 */
import { findTransaction } from '../catalog/transactions.js';
import { inHouseNoteOf } from '../results/nights-window.js';
import { plainSql, sqlWords } from './statement-text.js';

export function nightsNotes(
  sql: string,
  read: readonly { report: string; query: Readonly<Record<string, string>> }[],
): string[] {
  if (!sqlWords(plainSql(sql)).has('nightsinwindow')) return [];
  const notes = new Set<string>();
  for (const { report, query } of read) {
    const note = inHouseNoteOf(findTransaction(report), query);
    if (note) notes.add(note);
  }
  return [...notes];
}
