/**
 * The airports reference table as the shipped worker carries it (src/sql/airports-table.ts):
 * the rows read from the two packages at build time, written as text and read back, are the
 * rows the packages give, every one of them; the text is what scripts/bundle-server.ts puts in
 * the worker, a tenth or so of the packages' source.
 */
import { describe, expect, it } from 'vitest';
import { airportRowsFromPackages, airportRowsText, parseAirportRows } from '../../src/sql/airports-table.js';

describe('the airports table as text', () => {
  it('reads back every row the packages give, an airport without a city code as null', async () => {
    const rows = await airportRowsFromPackages();
    const text = airportRowsText(rows);
    expect(parseAirportRows(text)).toEqual(rows);
    // What the table is for: New York's airports under NYC, and one of each field's kind.
    const byCode = new Map(rows.map((r) => [r[0], r]));
    expect(byCode.get('JFK')).toEqual([
      'JFK',
      'NYC',
      'US',
      'America/New_York',
      'John F. Kennedy International Airport',
    ]);
    expect(rows.length).toBeGreaterThan(9_000);
    expect(rows.some((r) => r[1] === null)).toBe(true);
    expect(Buffer.byteLength(text)).toBeLessThan(600_000);
  });

  it('refuses a field it could not read back, and reads nothing from an empty text', () => {
    expect(() => airportRowsText([['XXX', null, 'GB', 'Europe/London', 'Tab\tField Airport']])).toThrow(
      /airport field "Tab\\tField Airport" holds a tab or a line break/,
    );
    expect(parseAirportRows('')).toEqual([]);
    expect(
      parseAirportRows(airportRowsText([['LHR', 'LON', 'GB', 'Europe/London', 'London Heathrow Airport']])),
    ).toEqual([['LHR', 'LON', 'GB', 'Europe/London', 'London Heathrow Airport']]);
  });
});
