/**
 * What a statement over a hotel result's nights counts (docs/travel-meaning.md, "Nights in the
 * period"). A result fetched for a window of arrival dates holds the stays arriving in it, not
 * those already in-house when it opens: a statement naming NightsInWindow is answered with
 * what it leaves out, the fetch and the expression that count every night in the window. A
 * total of NbrNights over such a result counts every night of each stay, those after the
 * window included: the answer says so, and that the window's nights are NightsInWindow.
 */
import { findTransaction } from '../catalog/transactions.js';
import { allNightsNoteOf, inHouseNoteOf } from '../results/nights-window.js';
import { aggregates, plainSql, sqlWords } from './statement-text.js';

export function nightsNotes(
  sql: string,
  read: readonly { report: string; query: Readonly<Record<string, string>> }[],
): string[] {
  const text = plainSql(sql);
  const window = sqlWords(text).has('nightsinwindow');
  const totalled = aggregates(text, ['sum', 'total', 'avg']).some(([, argument]) => {
    const words = sqlWords(argument);
    return read.some(({ report }) => {
      const nights = findTransaction(report)?.answer.meaning?.nightsInWindow?.nights;
      return nights !== undefined && words.has(nights.toLowerCase());
    });
  });
  if (!window && !totalled) return [];
  const notes = new Set<string>();
  for (const { report, query } of read) {
    const def = findTransaction(report);
    const all = totalled && !window ? allNightsNoteOf(def, query) : undefined;
    if (all) notes.add(all);
    const inHouse = window ? inHouseNoteOf(def, query) : undefined;
    if (inHouse) notes.add(inHouse);
  }
  return [...notes];
}
