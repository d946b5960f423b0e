/**
 * Airports and the cities they serve (docs/travel-meaning.md, "Places"). Flights carry
 * airport codes (JFK, LHR, NRT), hotels and the travellers_at place IATA city codes (NYC,
 * LON, TYO): a metropolitan city code groups its airports. The mapping comes from the
 * `iata-city-codes` package (MIT, the worldwide IATA airport list with its 286 multi-airport
 * cities), loaded on first use: about 1.2 MB of data that most calls never need.
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
  loading ??= import('iata-city-codes').then(
    (m) => {
      const known = new Map<string, Place | undefined>();
      return {
        airport(code: unknown): Place | undefined {
          if (typeof code !== 'string' || code.length !== 3) return undefined;
          if (known.has(code)) return known.get(code);
          const upper = code.toUpperCase();
          const city = m.getCityForAirport(upper);
          const airport = city?.airports.find((a) => a.iata === upper);
          const place = city
            ? { city: city.code, cityName: city.name, country: city.countryCode, airportName: airport?.name ?? '' }
            : undefined;
          known.set(code, place);
          return place;
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
