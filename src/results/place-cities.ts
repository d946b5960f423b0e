/**
 * Where hotel stays at a place are looked for (travellers_at; README, "Duty of care"). Hotels
 * carry IATA city codes (SIN, LON, NYC), flights airport codes (SIN, LHR, JFK). This is the one
 * place that maps one to the other for travellers_at, so that an airport-to-city table can take
 * its place without touching anything else.
 */
import type { Place } from '../catalog/travellers-schema.js';

/** The hotel search for a place: by city codes, or (a country) by the records' CountryCode. */
export interface HotelPlace {
  cities: string[];
  country?: string;
  /** How the cities were chosen, said in the answer's notes. */
  how: string;
}

/**
 * A city: its own code. A country: every hotel record of the window, kept by CountryCode. An
 * airport: its city code (cityOfAirport).
 */
export function hotelPlace(place: Place): HotelPlace {
  if (place.kind === 'City') return { cities: [place.code], how: `city ${place.code}` };
  if (place.kind === 'Country') return { cities: [], country: place.code, how: `country ${place.code} (CountryCode)` };
  const city = cityOfAirport(place.code);
  return {
    cities: [city],
    how:
      `city ${city}, taken as airport ${place.code}'s city (its own code: right for a city with one airport; ` +
      `for one of several, such as LHR in LON, ask for city:LON)`,
  };
}

/**
 * The IATA city code of an airport. No airport-to-city table is in the project yet: an
 * airport's own code is taken as its city's, which holds for cities with one airport
 * (SIN, HKG, DXB); hotelPlace says so in the answer.
 */
export function cityOfAirport(airport: string): string {
  return airport.toUpperCase();
}
