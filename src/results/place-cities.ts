/**
 * Where hotel stays at a place are looked for (travellers_at; README, "Duty of care"). Hotels
 * carry IATA city codes (SIN, LON, NYC), flights airport codes (SIN, LHR, JFK): the airport's
 * city, from the same airport data as the flights' BoardCity and OffCity
 * (docs/travel-meaning.md, "Places").
 */
import type { Place } from '../catalog/travellers-schema.js';
import { loadPlaces } from './places.js';

/** The hotel search for a place: by city codes, or (a country) by the records' CountryCode. */
export interface HotelPlace {
  cities: string[];
  country?: string;
  /** How the cities were chosen, said in the answer's notes. */
  how: string;
}

/**
 * A city: its own code. A country: every hotel record of the window, kept by CountryCode. An
 * airport: the IATA city it serves (LHR: LON), from the airport data of results/places.ts.
 */
export async function hotelPlace(place: Place): Promise<HotelPlace> {
  if (place.kind === 'City') return { cities: [place.code], how: `city ${place.code}` };
  if (place.kind === 'Country') return { cities: [], country: place.code, how: `country ${place.code} (CountryCode)` };
  const known = (await loadPlaces()).airport(place.code.toUpperCase());
  const city = known?.city ?? place.code.toUpperCase();
  return {
    cities: [city],
    how: known
      ? `city ${city}, the IATA city of airport ${place.code}${city === place.code.toUpperCase() ? '' : ` (${known.cityName})`}`
      : `city ${city}, taken as airport ${place.code}'s own code (the airport data does not know it)`,
  };
}
