/**
 * travellers_at's arguments (README, "Duty of care"): the place, the window and the look-back,
 * checked and resolved before anything is sent. The window's dates take the report tools'
 * forms and resolve in REPORTS_TIMEZONE (resolve.ts); the place becomes the
 * PassengerLocationsByRouting parameters that name it, To* for arrivals and From* for departures.
 */
import { invalidInput } from '../errors.js';
import { type DateContext, resolveDate } from './resolve.js';
import {
  DEFAULT_LOOKBACK_DAYS,
  LOOKAHEAD_DAYS,
  MAX_LOOKBACK_DAYS,
  MAX_WINDOW_DAYS,
  PLACE_FORMS,
  type Place,
  type PlaceKind,
} from './travellers-schema.js';

export { DEFAULT_LOOKBACK_DAYS, LOOKAHEAD_DAYS, MAX_LOOKBACK_DAYS, MAX_WINDOW_DAYS, type Place, type PlaceKind };

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
