/**
 * Airports and the cities they serve (docs/travel-meaning.md, "Places"). Flights carry
 * airport codes (JFK, LHR, NRT), hotels and the travellers_at place IATA city codes (NYC,
 * LON, TYO): a metropolitan city code groups its airports. The mapping comes from the
 * `iata-city-codes` package (MIT, the worldwide IATA airport list with its 286 multi-airport
 * cities): every airport's place (results/place-rows.ts), loaded on first use, as most calls
 * never need them.
 */

export interface Place {
  /** IATA city code: the metropolitan code for a multi-airport city, else the airport's own. */
  city: string;
  cityName: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  airportName: string;
}

export interface Places {
  /** The place of an airport code; undefined for a code the data does not know. */
  airport(code: unknown): Place | undefined;
}

let loading: Promise<Places> | undefined;

export function loadPlaces(): Promise<Places> {
  loading ??= import('./place-rows.js')
    .then((m) => m.placeRows())
    .then(
      (rows) => {
        const byCode = new Map<string, Place>();
        for (const [code, city, cityName, country, airportName] of rows)
          byCode.set(code, { city, cityName, country, airportName });
        return {
          airport(code: unknown): Place | undefined {
            if (typeof code !== 'string' || code.length !== 3) return undefined;
            return byCode.get(code) ?? byCode.get(code.toUpperCase());
          },
        };
      },
      (err: unknown) => {
        // A failed load is tried again at the next call rather than kept.
        loading = undefined;
        throw err;
      },
    );
  return loading;
}
