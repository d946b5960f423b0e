/** How records become rows of a table and its child tables (docs/sql.md, Tables). */
import { describe, expect, it } from 'vitest';
import { type FlatRow, flattenRecord, quoteIdent, tableName } from '../../src/sql/flatten.js';

const plain = (rows: FlatRow[]) =>
  rows.map((r) => ({
    tablePath: r.tablePath,
    row: r.row,
    parent: r.parent,
    cells: Object.fromEntries(r.paths.map((p, i) => [p, r.cells[i]])),
  }));

describe('flattenRecord', () => {
  it('joins nested fields by path, lists of objects into child rows, booleans 0/1, plain lists as JSON', () => {
    const counters = new Map<string, number>();
    const out: FlatRow[] = [];
    flattenRecord(
      {
        Summary: { RecordLocator: 'ABC123', Ticketed: true },
        Segments: {
          AirSegments: [
            { Carrier: 'BA', Seats: [{ Seat: '1A' }] },
            { Carrier: 'LH', Seats: [] },
          ],
        },
        Remarks: ['one', 'two'],
        Empty: [],
        Fare: 12.5,
        Gone: null,
      },
      counters,
      out,
    );
    flattenRecord(
      { Summary: { RecordLocator: 'XYZ999' }, Segments: { AirSegments: [{ Carrier: 'AF' }] } },
      counters,
      out,
    );
    expect(plain(out)).toEqual([
      {
        tablePath: '',
        row: 1,
        parent: undefined,
        cells: {
          'Summary.RecordLocator': 'ABC123',
          'Summary.Ticketed': 1,
          Remarks: '["one","two"]',
          Fare: 12.5,
          Gone: null,
        },
      },
      { tablePath: 'Segments.AirSegments', row: 1, parent: 1, cells: { Carrier: 'BA' } },
      { tablePath: 'Segments.AirSegments.Seats', row: 1, parent: 1, cells: { Seat: '1A' } },
      { tablePath: 'Segments.AirSegments', row: 2, parent: 1, cells: { Carrier: 'LH' } },
      { tablePath: '', row: 2, parent: undefined, cells: { 'Summary.RecordLocator': 'XYZ999' } },
      { tablePath: 'Segments.AirSegments', row: 3, parent: 2, cells: { Carrier: 'AF' } },
    ]);
  });

  it('names child tables <table>__<path joined with _> and quotes any identifier', () => {
    expect(tableName('pnr_segments_3', '')).toBe('pnr_segments_3');
    expect(tableName('pnr_segments_3', 'Segments.AirSegments')).toBe('pnr_segments_3__Segments_AirSegments');
    expect(quoteIdent('a"b')).toBe('"a""b"');
  });
});
