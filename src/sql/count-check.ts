/**
 * What a count over a report's rows means (docs/travel-meaning.md, "A ticket's amounts, once
 * per ticket" and "Travellers, not lists of them"): a booking's count repeated on each of its
 * rows (hotel_segments' TotalAirSegs) summed counts the booking once per row; a text naming a
 * booking's travellers (Passengers, PaxList: `DOE/JANE MS, DOE/JOHN MR`) counted distinct or
 * grouped by is a list, not a traveller. SQL answers such a statement as written; its answer
 * says so, and how to count as meant.
 */
import { findTransaction } from '../catalog/transactions.js';
import { aggregates, columnNames, groupedItems, plainSql, sqlWords } from './statement-text.js';

export function countNotes(sql: string, reports: readonly string[]): string[] {
  const text = plainSql(sql);
  const notes: string[] = [];
  // The words of each GROUP BY item, positions read (GROUP BY 1): once for every list checked.
  let grouped: Array<Set<string>> | undefined;
  for (const report of new Set(reports)) {
    const meaning = findTransaction(report)?.answer.meaning;
    const booking = meaning?.bookingCounts;
    for (const count of booking?.counts ?? []) {
      if (!aggregated(text, ['sum', 'total', 'avg'], columnNames(text, count))) continue;
      notes.push(
        `${count} is the booking's count, repeated on each of its rows: a total over the rows counts a booking once ` +
          `per row; total it over SELECT DISTINCT ${booking?.booking}, ${count}, ... to count each booking once.`,
      );
    }
    for (const list of meaning?.travellerLists ?? []) {
      // By its name or a name the statement gives it (Passengers AS pax), by position in GROUP BY.
      const names = columnNames(text, list);
      const counted = aggregated(text, ['count'], names, true);
      grouped ??= groupedItems(text).map(sqlWords);
      if (!counted && !grouped.some((words) => names.some((n) => words.has(n)))) continue;
      notes.push(
        `${list} names a booking's travellers in one text (DOE/JANE MS, DOE/JOHN MR): ` +
          `${counted ? `COUNT(DISTINCT ${list}) counts distinct lists` : `grouped by ${list}, each group is a list`}, ` +
          `not travellers. query_report counts them a traveller at a time (groupBy ${list}, or countDistinct of it).`,
      );
    }
  }
  return notes;
}

/** Whether `text` takes one of the aggregates `fns` of a column named one of `names`
 *  (columnNames'; only DISTINCT ones when `distinct`). */
function aggregated(text: string, fns: readonly string[], names: readonly string[], distinct = false): boolean {
  return aggregates(text, fns).some(([, argument]) => {
    const words = sqlWords(argument);
    return names.some((n) => words.has(n)) && (!distinct || /^\s*distinct\b/i.test(argument));
  });
}
