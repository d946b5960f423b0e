/**
 * The places of airports as the shipped server carries them (src/results/place-rows.ts): the
 * rows read from `iata-city-codes` at build time, written as text and read back, are the
 * package's places, every airport it knows; and loadPlaces answers from them as the package
 * would (results/places.ts).
 */
import * as cityCodes from 'iata-city-codes';
import { describe, expect, it } from 'vitest';
import { parsePlaceRows, placeRowsFromPackage, placeRowsText } from '../../src/results/place-rows.js';
import { loadPlaces } from '../../src/results/places.js';

describe('the places of airports as text', () => {
  it('reads back every airport the package knows, with its city, country and name', async () => {
    const rows = await placeRowsFromPackage();
    const text = placeRowsText(rows);
    expect(parsePlaceRows(text)).toEqual(rows);
    const byCode = new Map(rows.map((r) => [r[0], r]));
    expect(byCode.get('JFK')).toEqual(['JFK', 'NYC', 'New York', 'US', 'John F. Kennedy International Airport']);
    expect(byCode.get('LHR')?.slice(0, 4)).toEqual(['LHR', 'LON', 'London', 'GB']);
    // Every airport of a multi-airport city is there, under that city.
    const multi = cityCodes.getAllMultiAirportCities();
    expect(multi.length).toBeGreaterThan(250);
    for (const city of multi)
      for (const a of city.airports)
        expect(byCode.get(a.iata)?.slice(0, 4)).toEqual([a.iata, city.code, city.name, city.countryCode]);
    // And only airports: a code the package does not know has no row.
    expect(cityCodes.getCityForAirport('QQQ')).toBeNull();
    expect(byCode.has('QQQ')).toBe(false);
    expect(rows.length).toBeGreaterThan(9_000);
    expect(Buffer.byteLength(text)).toBeLessThan(420_000);
  });

  it("gives loadPlaces the package's answer for an airport, in either case, and none for anything else", async () => {
    const places = await loadPlaces();
    for (const code of ['JFK', 'jfk', 'NRT', 'SYD', 'CDG']) {
      const city = cityCodes.getCityForAirport(code.toUpperCase());
      expect(city).not.toBeNull();
      expect(places.airport(code)).toEqual({
        city: city?.code,
        cityName: city?.name,
        country: city?.countryCode,
        airportName: city?.airports.find((a) => a.iata === code.toUpperCase())?.name,
      });
    }
    expect(places.airport('NYC')).toBeUndefined();
    for (const other of ['QQQ', 'JF', 'JFKX', '', 42, null, undefined]) expect(places.airport(other)).toBeUndefined();
  });
});
