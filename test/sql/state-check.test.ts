/**
 * Segment states in SQL (src/sql/state-check.ts): a statement over a table of segments that
 * reads neither SegmentState nor the status code is answered with how many of the table's
 * segments are not confirmed; a list of segments is its child table's; names only in
 * comments or strings are not reading them.
 */
import { describe, expect, it } from 'vitest';
import { stateNotes } from '../../src/sql/state-check.js';

const booking = (locator: string, air: string[], hotel: string[]) => ({
  RecordLocator: locator,
  Segments: {
    AirSegments: air.map((SegmentStatus) => ({ SegmentStatus })),
    HotelSegments: hotel.map((StatusCode) => ({ StatusCode })),
  },
});
const bookings = [booking('ABC123', ['HK', 'HX', 'HK'], ['HK']), booking('DEF456', ['HL', 'HK'], ['XX', 'HK'])];
const pnr = [{ report: 'pnr_segments', table: 'pnr_segments_1', records: async () => bookings }];
const advice =
  'The statement does not read SegmentState, so its counts and rows include the segments not confirmed: ' +
  "for travel, add WHERE SegmentState = 'confirmed'.";
const AIR = 'pnr_segments_1__Segments_AirSegments';
const HOTEL = 'pnr_segments_1__Segments_HotelSegments';
const airNote = `${AIR} holds 3 of 5 segments confirmed; 2 not: cancelled 1 (HX 1), waitlisted 1 (HL 1). ${advice}`;
const hotelNote = `${HOTEL} holds 2 of 3 segments confirmed; 1 not: cancelled 1 (XX 1). ${advice}`;

describe('sql state check', () => {
  it.each([
    ['air segments of bookings counted per booking', `SELECT _parent, COUNT(*) FROM ${AIR} GROUP BY 1`, [airNote]],
    [
      'two lists of segments read',
      `SELECT COUNT(*) FROM ${HOTEL} h JOIN ${AIR} a USING (_parent)`,
      [airNote, hotelNote],
    ],
    ['the bookings alone', 'SELECT COUNT(*) FROM pnr_segments_1', []],
    ['SegmentState read', `SELECT COUNT(*) FROM ${AIR} WHERE segmentstate = 'confirmed'`, []],
    ['the codes read', `SELECT COUNT(*) FROM ${AIR} WHERE SegmentStatus = 'HK'`, []],
    ['SegmentState named in a comment only', `SELECT COUNT(*) FROM ${HOTEL} -- SegmentState`, [hotelNote]],
    ['SegmentState named in a string only', `SELECT 'SegmentState', COUNT(*) FROM ${HOTEL}`, [hotelNote]],
  ])('%s', async (_, sql, expected) => {
    expect(await stateNotes(sql, pnr)).toEqual(expected);
  });

  it('says nothing of a table whose segments are all confirmed, and reads no records it need not', async () => {
    let reads = 0;
    const read = [
      {
        report: 'air_segments_by_date',
        table: 'air_segments_by_date_2',
        records: async () => {
          reads++;
          return [{ SegmentStatus: 'HK' }, { SegmentStatus: 'TK' }];
        },
      },
    ];
    expect(await stateNotes('SELECT CarrierCode, COUNT(*) FROM air_segments_by_date_2 GROUP BY 1', read)).toEqual([]);
    expect(reads).toBe(1);
    expect(
      await stateNotes("SELECT COUNT(*) FROM air_segments_by_date_2 WHERE SegmentState = 'confirmed'", read),
    ).toEqual([]);
    expect(reads).toBe(1);
  });

  it('writes every count of a year of segments with its thousands grouped', async () => {
    const year = [
      ...Array.from({ length: 6372 }, () => ({ SegmentStatus: 'HK' })),
      ...Array.from({ length: 1203 }, () => ({ SegmentStatus: 'HX' })),
      ...Array.from({ length: 1001 }, () => ({ SegmentStatus: 'UN' })),
    ];
    const read = [{ report: 'air_segments_by_date', table: 'air_segments_by_date_3', records: async () => year }];
    expect(await stateNotes('SELECT COUNT(*) FROM air_segments_by_date_3', read)).toEqual([
      'air_segments_by_date_3 holds 6,372 of 8,576 segments confirmed; 2,204 not: ' +
        `cancelled 2,204 (HX 1,203, UN 1,001). ${advice}`,
    ]);
  });
});
