/**
 * travellers_at's arguments (README, "Duty of care"): the place, the window and the look-back,
 * checked and resolved before anything is sent. The window's dates take the report tools'
 * forms and resolve in REPORTS_TIMEZONE (resolve.ts); the place becomes the
 * PassengerLocationsByRouting parameters that name it, To* for arrivals and From* for departures.
 */
import { z } from 'zod';
import { invalidInput } from '../errors.js';
import { errorFor } from './controls.js';
import { DATE_EXPRESSION, DATE_FORMS_LONG } from './params.js';
import { type DateContext, resolveDate } from './resolve.js';

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

const PLACE_FORMS = "an airport code (SIN), 'city:' and a city code (city:LON), or a country code (SG or country:SG)";
const placeError = errorFor('place', 'is not a place', `use ${PLACE_FORMS}`);
const dateError = (name: string) => errorFor(name, 'is not a date', `use ${DATE_FORMS_LONG}`);
const lookbackError = errorFor(
  'lookbackDays',
  `is not a whole number from 0 to ${MAX_LOOKBACK_DAYS}`,
  `e.g. ${DEFAULT_LOOKBACK_DAYS}`,
);

export const travellersAtShape = {
  place: z
    .string({ error: placeError })
    .describe('Airport code (SIN), city:CODE (city:LON) or country code (SG); as passenger_locations_by_routing'),
  from: z
    .string({ error: dateError('from') })
    .refine((v) => DATE_EXPRESSION.test(v), { error: dateError('from') })
    .describe('First day of the window (YYYYMMDD or today±N)'),
  to: z
    .string({ error: dateError('to') })
    .refine((v) => DATE_EXPRESSION.test(v), { error: dateError('to') })
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

export interface TravellersAtArgs {
  place: string;
  from: string;
  to: string;
  lookbackDays?: number;
}

export interface TravellersAtInput {
  place: Place;
  /** The window's first and last days, YYYYMMDD. */
  from: string;
  to: string;
  lookbackDays: number;
  /** passenger_locations_by_routing arguments: arrivals to the place from the look-back to the
   *  window's end, and departures from it during the window and the look-ahead. */
  arrivals: Record<string, string>;
  departures: Record<string, string>;
}

/** Checks what the schema cannot (real dates, order, window length, the place's form); builds the routing queries. */
export function resolveTravellersAt(args: TravellersAtArgs, ctx: DateContext): TravellersAtInput {
  const place = parsePlace(args.place);
  const from = resolveDate(args.from, ctx, 'from');
  const to = resolveDate(args.to, ctx, 'to');
  if (to < from) {
    throw invalidInput(
      'to',
      args.to,
      `${to === args.to ? '' : `(${to}) `}is before from (${from}); to must be on or after from`,
    );
  }
  const days = dayNumber(to) - dayNumber(from);
  if (days > MAX_WINDOW_DAYS) {
    throw invalidInput(
      'to',
      args.to,
      `is ${days} days after from (${from}); the window is at most ${MAX_WINDOW_DAYS} days: ` +
        'ask about one month at a time',
    );
  }
  const lookbackDays = args.lookbackDays ?? DEFAULT_LOOKBACK_DAYS;
  return {
    place,
    from,
    to,
    lookbackDays,
    arrivals: { [`To${place.kind}Code`]: place.code, DateStart: shiftDays(from, -lookbackDays), DateEnd: to },
    departures: { [`From${place.kind}Code`]: place.code, DateStart: from, DateEnd: shiftDays(to, LOOKAHEAD_DAYS) },
  };
}

/** 'SIN' -> airport, 'city:LON' -> city, 'SG' or 'country:SG' -> country; codes upper-cased. */
export function parsePlace(raw: string): Place {
  const text = raw.trim();
  const m = /^(?:(airport|city|country)\s*:\s*)?([A-Za-z]{2,3})$/i.exec(text);
  const prefix = m?.[1]?.toLowerCase();
  const code = m?.[2]?.toUpperCase();
  if (!m || !code) throw invalidInput('place', raw, `is not a place; use ${PLACE_FORMS}`);
  const kind: PlaceKind =
    prefix === 'city' ? 'City' : prefix === 'country' || (!prefix && code.length === 2) ? 'Country' : 'Airport';
  const length = kind === 'Country' ? 2 : 3;
  if (code.length !== length) {
    throw invalidInput(
      'place',
      raw,
      `is not a place: ${kind.toLowerCase()} codes have ${length} letters; use ${PLACE_FORMS}`,
    );
  }
  return { kind, code };
}

function dayNumber(ymd: string): number {
  return Date.UTC(Number(ymd.slice(0, 4)), Number(ymd.slice(4, 6)) - 1, Number(ymd.slice(6, 8))) / 86_400_000;
}

/** YYYYMMDD moved by `days`. */
export function shiftDays(ymd: string, days: number): string {
  return new Date((dayNumber(ymd) + days) * 86_400_000).toISOString().slice(0, 10).replaceAll('-', '');
}
