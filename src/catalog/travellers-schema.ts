/**
 * travellers_at's input schema (README, "Duty of care"): what tools/list publishes and the SDK
 * checks. Kept apart from resolving (travellers-input.ts), which loads with the first call:
 * start-up reads only this.
 */
import { z } from 'zod';
import { errorFor } from './controls.js';
import { DATE_EXPRESSION, DATE_FORMS_LONG } from './params.js';

export const DEFAULT_LOOKBACK_DAYS = 30;
export const MAX_LOOKBACK_DAYS = 90;
/** Longest window: a duty-of-care question is about days or weeks, and each day adds bookings to read. */
export const MAX_WINDOW_DAYS = 31;
/** Departures are looked for up to this many days after the window, to tell "in place" from "no departure". */
export const LOOKAHEAD_DAYS = 30;

export type PlaceKind = 'Airport' | 'City' | 'Country';

export interface Place {
  kind: PlaceKind;
  code: string;
}

export const PLACE_FORMS =
  "an airport code (SIN), 'city:' and a city code (city:LON), or a country code (SG or country:SG)";
const placeError = errorFor('is not a place', `use ${PLACE_FORMS}`);
const dateError = errorFor('is not a date', `use ${DATE_FORMS_LONG}`);
const lookbackError = errorFor(`is not a whole number from 0 to ${MAX_LOOKBACK_DAYS}`, `e.g. ${DEFAULT_LOOKBACK_DAYS}`);

export const travellersAtShape = {
  place: z
    .string({ error: placeError })
    .describe('Airport code (SIN), city:CODE (city:LON) or country code (SG); as passenger_locations_by_routing'),
  from: z
    .string({ error: dateError })
    .refine((v) => DATE_EXPRESSION.test(v), { error: dateError })
    .describe('First day of the window (YYYYMMDD or today±N)'),
  to: z
    .string({ error: dateError })
    .refine((v) => DATE_EXPRESSION.test(v), { error: dateError })
    .describe(`Last day of the window, at most ${MAX_WINDOW_DAYS} days after from`),
  lookbackDays: z
    .number({ error: lookbackError })
    .refine((v) => Number.isSafeInteger(v) && v >= 0 && v <= MAX_LOOKBACK_DAYS, { error: lookbackError })
    .optional()
    .meta({
      description: `Days before from searched for arrivals (default ${DEFAULT_LOOKBACK_DAYS})`,
      type: 'integer',
      // The published bound is the enforced one (CONTRACT section 4).
      minimum: 0,
      maximum: MAX_LOOKBACK_DAYS,
    }),
};
