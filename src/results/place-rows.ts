/**
 * The place of every airport the `iata-city-codes` package knows (results/places.ts): its
 * IATA city code, the city's name and country, the airport's name. The shipped server carries
 * them as text read from the package when the bundle is built (scripts/bundle-server.ts;
 * results/reference-rows.ts), about 380 KB: bundled whole, the package was a 1.45 MB chunk of
 * source whose import took 145-190 ms of the first report with airports in every process
 * (half of that call). Unbundled (tests, the tsc output), the rows are read from the package.
 */
import { parseRows, rowsText } from './reference-rows.js';

export type PlaceRow = [airport: string, city: string, cityName: string, country: string, airportName: string];

/** The package the rows are read from. */
export const PLACES_PACKAGE = 'iata-city-codes';

/** The rows as text (placeRowsText), defined in the shipped server's bundle. */
declare const __PLACE_ROWS__: string | undefined;

/** Every airport's place, sorted by airport. */
export async function placeRows(): Promise<PlaceRow[]> {
  return typeof __PLACE_ROWS__ === 'string' ? parsePlaceRows(__PLACE_ROWS__) : placeRowsFromPackage();
}

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The rows as the package gives them. It lists no airports, only looks one up, so every
 * three-letter code is looked up (an IATA airport code is three letters; 17,576 lookups, about
 * 55 ms, once per build): an airport's city is the package's city of it, the airport's name
 * that city's entry for it.
 */
export async function placeRowsFromPackage(): Promise<PlaceRow[]> {
  const m = await import('iata-city-codes');
  // CommonJS when required: its exports may come as the default.
  const { getCityForAirport } = ((m as unknown as { default?: typeof m }).default ?? m) as typeof m;
  const rows: PlaceRow[] = [];
  for (const a of LETTERS)
    for (const b of LETTERS)
      for (const c of LETTERS) {
        const code = a + b + c;
        const city = getCityForAirport(code);
        if (!city) continue;
        const airportName = city.airports.find((x) => x.iata === code)?.name ?? '';
        rows.push([code, city.code, city.name, city.countryCode, airportName]);
      }
  return rows;
}

/** The rows as text (results/reference-rows.ts). */
export function placeRowsText(rows: readonly PlaceRow[]): string {
  return rowsText(rows, 'place');
}

/** The rows placeRowsText wrote: every field a text, so each line's fields are its row as they are. */
export function parsePlaceRows(text: string): PlaceRow[] {
  return parseRows(text) as PlaceRow[];
}
