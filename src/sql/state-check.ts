/**
 * What a statement over segments counts (docs/travel-meaning.md, "Segment states"): a table of
 * segments holds cancelled, waitlisted and requested ones beside the confirmed, and a
 * statement that neither reads SegmentState nor the status code counts them all as travel.
 * SQL answers it as written; its answer says, for each such table it reads, how many of the
 * table's segments are not confirmed and how to count travel.
 */
import { findTransaction } from '../catalog/transactions.js';
import { notConfirmedOf, stateCounts } from '../results/derived.js';
import { tableName } from './flatten.js';
import { plainSql, sqlWords } from './statement-text.js';

export interface SegmentTable {
  report: string;
  /** The result's table (`air_segments_by_date_1`). */
  table: string;
  records: () => Promise<readonly Record<string, unknown>[]>;
}

export async function stateNotes(sql: string, read: readonly SegmentTable[]): Promise<string[]> {
  const words = sqlWords(plainSql(sql));
  if (words.has('segmentstate')) return [];
  const notes: string[] = [];
  for (const t of read) {
    for (const segments of findTransaction(t.report)?.answer.meaning?.segments ?? []) {
      // The result's own table holds the segments, or a child table holds a list of them.
      const name = tableName(t.table, segments.list ?? '');
      if (!words.has(name.toLowerCase())) continue;
      // Read by code (SegmentStatus = 'HK', GROUP BY StatusCode): the statement picks states itself.
      const own = [segments.status, segments.cancelledFlag].filter((f) => f !== undefined);
      if (own.some((f) => words.has(f.toLowerCase()))) continue;
      const counts = stateCounts(await t.records(), { segments: [segments] });
      const notConfirmed = counts && notConfirmedOf(counts);
      if (!notConfirmed) continue;
      notes.push(
        `${name} holds ${notConfirmed}. The statement does not read SegmentState, so its counts and rows ` +
          "include the segments not confirmed: for travel, add WHERE SegmentState = 'confirmed'.",
      );
    }
  }
  return notes;
}
