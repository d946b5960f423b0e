import { describe, expect, it } from 'vitest';
import { checkStem, dayStamp, fileNameCandidate } from '../../src/export/name.js';
import { XLSX_MAX_CELL_CHARS, xlsxValue } from '../../src/export/xlsx-file.js';
import { thrown } from '../helpers/thrown.js';

describe('xlsxValue: the cell a record value becomes', () => {
  it('dates keep the wall-clock time the record states, in its own offset', () => {
    expect(xlsxValue('DepartureDateTime', '2016-04-04T09:55:34.000-05:00')).toEqual(
      new Date(Date.UTC(2016, 3, 4, 9, 55, 34)),
    );
    expect(xlsxValue('FlightDate', '2026-01-16')).toEqual(new Date(Date.UTC(2026, 0, 16)));
  });

  it('numbers and numeric text are numbers, except in identifier fields', () => {
    expect(xlsxValue('FOPFare', 397.04)).toBe(397.04);
    expect(xlsxValue('FOPFare', '397.04')).toBe(397.04);
    expect(xlsxValue('TravAgntID', '1004')).toBe('1004');
    expect(xlsxValue('AirlineCode', '086')).toBe('086');
    expect(xlsxValue('IsVip', true)).toBe(true);
    expect(xlsxValue('Account', '')).toBeNull();
    expect(xlsxValue('Account', null)).toBeNull();
  });

  it('text loses characters XML cannot carry, and is cut at the cell limit with a marker', () => {
    expect(xlsxValue('Remark', 'a\u0000b\u0007c\td\ne')).toBe('abc\td\ne');
    const long = xlsxValue('Remark', 'x'.repeat(40_000)) as string;
    expect(long).toHaveLength(XLSX_MAX_CELL_CHARS);
    expect(long.endsWith('…[cut: 40,000 characters in all]')).toBe(true);
    expect(xlsxValue('CustomFields', [{ FieldName: 'A' }])).toBe('[{"FieldName":"A"}]');
  });
});

describe('export file names', () => {
  it('are the stem and the day in the configured zone, then -2, -3', () => {
    const now = new Date('2026-11-23T23:30:00Z');
    expect(dayStamp(now, 'UTC')).toBe('2026-11-23');
    expect(dayStamp(now, 'Asia/Singapore')).toBe('2026-11-24');
    expect(fileNameCandidate('hotel_segments', '2026-11-23', 'csv', 1)).toBe('hotel_segments-2026-11-23.csv');
    expect(fileNameCandidate('hotel_segments', '2026-11-23', 'csv', 3)).toBe('hotel_segments-2026-11-23-3.csv');
  });

  it('refuse stems that could leave the folder or hide', () => {
    expect(checkStem('Coupons (Q4) für Finanz', 'name')).toBe('Coupons (Q4) für Finanz');
    for (const bad of [
      '..',
      '../x',
      'a/b',
      'a\\b',
      '.env',
      ' x',
      'x ',
      'a\u0085b',
      'a\u2028b',
      'a:b',
      '',
      'x'.repeat(81),
    ])
      expect(thrown(() => checkStem(bad, 'name')).message).toMatch(/^name: /);
  });
});
