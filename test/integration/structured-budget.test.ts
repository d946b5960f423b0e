/**
 * structuredContent is bounded like the text: whole rows within STRUCTURED_ROWS_CHAR_LIMIT,
 * with a note saying how many were left out; and a mistyped column name keeps the fetched
 * result (default columns, a note) instead of discarding it.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STRUCTURED_ROWS_CHAR_LIMIT } from '../../src/presentation/row-budget.js';
import { otherNotes } from '../helpers/derived.js';
import { completeResult } from '../helpers/held-result.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllRecords } from '../helpers/resources.js';

type Sc = { resultId: string; notes: string[]; rows: unknown[]; fetchedRecords: number };

describe('structuredContent budget and unknown columns', () => {
  let s: InProcess;
  let big: Sc;
  beforeAll(async () => {
    s = await startInProcess();
    // Whole bookings with every list loaded: kilobytes per record.
    const result = await s.call('booking_details', { LoadOptions: 'All', rowLimit: 100_000 });
    big = result.structuredContent as Sc;
  });
  afterAll(() => s.close());

  it('report rows stop at the budget, whole rows, with a note', () => {
    const json = JSON.stringify(big.rows);
    expect(big.fetchedRecords).toBeGreaterThan(big.rows.length);
    expect(json.length).toBeLessThanOrEqual(STRUCTURED_ROWS_CHAR_LIMIT);
    expect(big.rows.length).toBeGreaterThan(0);
    const note = big.notes.find((n) => n.startsWith('structuredContent.rows holds the first'));
    expect(note).toMatch(
      new RegExp(
        `^structuredContent\\.rows holds the first ${big.rows.length} of the \\d+ rows shown in the text \\(\\d+ left out to keep it under 60,000 characters\\)`,
      ),
    );
  });

  it('query_report rows stop at the budget and nextOffset points at the rest', async () => {
    const q = await s.call('query_report', { resultId: big.resultId, limit: 1000 });
    const sc = q.structuredContent as { rows: unknown[]; offset: number; nextOffset: number; notes: string[] };
    expect(JSON.stringify(sc.rows).length).toBeLessThanOrEqual(STRUCTURED_ROWS_CHAR_LIMIT);
    expect(sc.nextOffset).toBe(sc.rows.length);
    expect(sc.notes[0]).toMatch(/^structuredContent\.rows holds the first \d+ of the \d+ rows asked for/);
    const next = await s.call('query_report', { resultId: big.resultId, limit: 1000, offset: sc.nextOffset });
    const sc2 = next.structuredContent as { rows: Array<{ RecordLocator: string }>; offset: number };
    const all = (await readAllRecords(s.client, `reports://results/${big.resultId}`)) as Array<{
      RecordLocator: string;
    }>;
    expect(sc2.offset).toBe(sc.nextOffset);
    expect(sc2.rows[0].RecordLocator).toBe(all[sc.nextOffset].RecordLocator);
  });

  it('an unknown column keeps the result: default columns and a note naming the field', async () => {
    const before = (await s.rt.results.list()).length;
    const result = await s.call('air_segments_by_date', {
      DateStart: '20261101',
      DateEnd: '20261107',
      fields: ['Acount', 'carriercode'],
    });
    expect(result.isError).toBeFalsy();
    const sc = result.structuredContent as Sc;
    expect((await s.rt.results.list()).length).toBe(before + 1);
    expect(otherNotes(sc.notes)).toEqual([
      "fields: 'Acount' is not a field of this result. Did you mean 'Account'? Fields (dot paths reach nested objects and list items): ServiceRef, RecordLocator, PNRCreationDate, OwningAgencyLocationID, OwningConsultant, Account, Passengers, DepartureDate, DepartureTime, ArrivalDate, ArrivalTime, CarrierCode, BoardPoint, OffPoint, FlightNbr, BookingCode, CreatingAgencyIata, SegmentStatus, SegmentState, BoardCity, OffCity, BoardCountry, OffCountry. It is left out of the columns.",
    ]);
    // The known one, resolved ignoring case, is the column shown.
    expect(Object.keys(sc.rows[0] as object)).toEqual(['CarrierCode']);
    expect(textOf(result)).toContain("fields: 'Acount' is not a field of this result.");
    // Only unknown columns: the default ones are shown, and the note says so.
    const only = (
      await s.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261107', fields: ['Acount'] })
    ).structuredContent as Sc;
    expect(otherNotes(only.notes)[0]).toMatch(/The default columns are shown instead\.$/);
    expect(Object.keys(only.rows[0] as object).length).toBeGreaterThan(8);
  });
});

describe('structured budget edge cases', () => {
  let s: InProcess;
  let id: string;
  beforeAll(async () => {
    s = await startInProcess();
    // One oversized record, then small ones; and 300 groups with long keys.
    const records = [
      { K: 'x'.repeat(70_000), N: 0 },
      ...Array.from({ length: 300 }, (_, i) => ({ K: `${String(i).padStart(3, '0')}${'k'.repeat(400)}`, N: i + 1 })),
    ];
    id = (await s.rt.results.put(completeResult('air_segments_by_date', records))).id;
  });
  afterAll(() => s.close());

  it('a row larger than the budget is still returned alone, so paging moves on', async () => {
    const q = await s.call('query_report', { resultId: id, limit: 5 });
    const sc = q.structuredContent as { rows: Array<{ N: number }>; nextOffset: number };
    expect(sc.rows.map((r) => r.N)).toEqual([0]);
    expect(sc.nextOffset).toBe(1);
    const next = await s.call('query_report', { resultId: id, limit: 5, offset: 1 });
    expect((next.structuredContent as { rows: Array<{ N: number }> }).rows.map((r) => r.N)).toEqual([1, 2, 3, 4, 5]);
  });

  it('groups are held to the same budget and paged by nextOffset', async () => {
    const q = await s.call('query_report', { resultId: id, groupBy: ['K'], orderBy: [{ field: 'K' }], limit: 1000 });
    const sc = q.structuredContent as { groups: Array<{ key: { K: string } }>; nextOffset: number; notes: string[] };
    expect(JSON.stringify(sc.groups).length).toBeLessThanOrEqual(STRUCTURED_ROWS_CHAR_LIMIT);
    expect(sc.groups.length).toBeLessThan(301);
    expect(sc.nextOffset).toBe(sc.groups.length);
    expect(sc.groups[0].key.K.startsWith('000')).toBe(true);
    expect(sc.notes[0]).toMatch(
      new RegExp(`^structuredContent\\.groups holds the first ${sc.groups.length} of the 301 groups asked for`),
    );
  });
});
