/**
 * The reference table `airports` of every caller's SQL (docs/sql.md, "Reference table"):
 * airport, city, country, time zone and name of each IATA airport, to join a flight's
 * airport to a hotel's city (`airports.city = hotel.CityCode`) or read an airport's zone.
 * From two maintained open data sets taken as dependencies, loaded in the SQL worker on the
 * first statement that names the table: `airport-data-js` (CC BY 4.0: the airports with
 * their IANA time zones and names) and `iata-city-codes` (MIT: the IATA city code each
 * airport serves, NYC for JFK, LGA and EWR).
 */
export type AirportRow = [airport: string, city: string | null, country: string, timeZone: string, name: string];

export const AIRPORTS_TABLE = 'airports';
export const AIRPORTS_COLUMNS = ['airport', 'city', 'country', 'time_zone', 'name'] as const;

let rows: Promise<AirportRow[]> | undefined;

/** Every IATA airport, once per worker. */
export function airportRows(): Promise<AirportRow[]> {
  rows ??= (async () => {
    const [data, codes] = await Promise.all([import('airport-data-js'), import('iata-city-codes')]);
    // Both are CommonJS where the worker is bundled: their exports may come as the default.
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
  })();
  return rows;
}

/** Whether a statement names the table (so it is built only for those that read it). */
export function namesAirports(sql: string): boolean {
  return /\bairports\b/i.test(sql);
}
