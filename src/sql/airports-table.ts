/**
 * The reference table `airports` of every caller's SQL (docs/sql.md, "Reference table"):
 * airport, city, country, time zone and name of each IATA airport, to join a flight's
 * airport to a hotel's city (`airports.city = hotel.CityCode`) or read an airport's zone.
 * From two maintained open data sets taken as dependencies: `airport-data-js` (CC BY 4.0: the
 * airports with their IANA time zones and names) and `iata-city-codes` (MIT: the IATA city code
 * each airport serves, NYC for JFK, LGA and EWR). The shipped server's SQL worker carries the
 * rows read from them at build time (scripts/bundle-server.ts), as text of about 490 KB:
 * bundled whole, the two packages put 6.5 MB of source (every airport's coordinates,
 * elevation, links...) in the worker's script, which the server read and the worker compiled
 * at its every start, the first sql_query's. Unbundled (tests, the tsc output), the worker
 * reads the packages on the first statement that names the table.
 */
import { parseRows, rowsText } from '../results/reference-rows.js';

export type AirportRow = [airport: string, city: string | null, country: string, timeZone: string, name: string];

export const AIRPORTS_TABLE = 'airports';
export const AIRPORTS_COLUMNS = ['airport', 'city', 'country', 'time_zone', 'name'] as const;

/** The rows as text (airportRowsText), defined in the shipped worker's bundle. */
declare const __AIRPORT_ROWS__: string | undefined;

let rows: Promise<AirportRow[]> | undefined;

/** Every IATA airport, once per worker. */
export function airportRows(): Promise<AirportRow[]> {
  rows ??=
    typeof __AIRPORT_ROWS__ === 'string'
      ? Promise.resolve(parseAirportRows(__AIRPORT_ROWS__))
      : airportRowsFromPackages();
  return rows;
}

/** The packages the rows are read from. */
export const AIRPORT_PACKAGES = ['airport-data-js', 'iata-city-codes'] as const;

/** The rows as the two packages give them, sorted by airport. */
export async function airportRowsFromPackages(): Promise<AirportRow[]> {
  const [data, codes] = await Promise.all([import('airport-data-js'), import('iata-city-codes')]);
  // Both are CommonJS: their exports may come as the default.
  const { findAirports } = ((data as unknown as { default?: typeof data }).default ?? data) as typeof data;
  const cities = ((codes as unknown as { default?: typeof codes }).default ?? codes) as typeof codes;
  const all = await findAirports({});
  const seen = new Set<string>();
  const out: AirportRow[] = [];
  for (const a of all) {
    if (a.iata?.length !== 3 || seen.has(a.iata)) continue;
    seen.add(a.iata);
    out.push([a.iata, cities.getCityCodeForAirport(a.iata), a.country_code, a.time, a.airport]);
  }
  return out.sort((x, y) => (x[0] < y[0] ? -1 : 1));
}

/** The rows as text (results/reference-rows.ts), no city as an empty field. */
export function airportRowsText(all: readonly AirportRow[]): string {
  return rowsText(
    all.map((row) => row.map((field) => field ?? '')),
    'airport',
  );
}

/** The rows airportRowsText wrote. */
export function parseAirportRows(text: string): AirportRow[] {
  return parseRows(text).map(([airport, city, country, timeZone, name]) => [
    airport,
    city === '' ? null : city,
    country,
    timeZone,
    name,
  ]);
}

/** Whether a statement names the table (so it is built only for those that read it). */
export function namesAirports(sql: string): boolean {
  return /\bairports\b/i.test(sql);
}
