/**
 * The notes of a travellers_at answer: what it found, which service calls it made and whether
 * each was complete, and the rules it applied (README, "Duty of care").
 */
import { LOOKAHEAD_DAYS, type Place } from '../catalog/travellers-input.js';
import { CONNECTION_HOURS } from '../results/stays.js';
import type { FetchedRecords } from './run-report.js';
import type { BookingsRead } from './travellers-bookings.js';

export const RULES_NOTE =
  'Rules: in place = arrived before the window and leaves after it; passing through = the onward flight leaves ' +
  `within ${CONNECTION_HOURS} h of the arrival, to somewhere else, in the same booking; a booking that starts at ` +
  `the place counts as based there; arrivals are looked for lookbackDays before the window (someone who arrived ` +
  `earlier and leaves after the look-ahead is not found), departures up to ${LOOKAHEAD_DAYS} days after it. ` +
  'Times are local at the place.';

/** A query as 'Name=value' words, unencoded (so masking finds an e-mail in a UserName). */
export function params(query: Record<string, string>): string {
  return Object.entries(query)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ');
}

export function callNote(what: string, query: Record<string, string>, got: FetchedRecords): string {
  return (
    `Called passenger_locations_by_routing for ${what} (${params(query)}): ${got.records.length} records, ` +
    `${got.complete ? 'complete' : 'INCOMPLETE'}.`
  );
}

export function bookingsNote(asked: number, read: BookingsRead): string {
  const parts = [`Called booking_details (Passengers, Itinerary) for ${asked} bookings: ${read.found.size} read`];
  if (read.missing.length) {
    parts.push(
      `${read.missing.length} not found (gone since, or outside what this user may see: ` +
        `${read.missing.slice(0, 5).join(', ')}${read.missing.length > 5 ? ', ...' : ''}); ` +
        'their travellers are missing',
    );
  }
  if (read.failed.length) {
    const first = read.failed[0];
    parts.push(
      `${read.failed.length} FAILED (e.g. ${first.locator}: ${first.why.replace(/\.$/, '')}); their travellers are ` +
        'missing: call travellers_at again',
    );
  }
  if (read.incomplete) parts.push(`${read.incomplete} incomplete`);
  const whole = !read.failed.length && !read.missing.length && !read.incomplete;
  return `${parts.join('; ')}; ${whole ? 'complete' : 'INCOMPLETE'}.`;
}

/** A fetch's note says continue_report completes it; for this answer, what does instead. */
export function notContinued(note: string): string {
  return note.replace(
    /continue_report fetches (them|the remaining [\d,]+)/,
    'travellers_at answers are not continued by continue_report: narrow the window or the place',
  );
}

export function placeName(place: Place): string {
  return place.kind === 'Airport' ? place.code : `${place.kind.toLowerCase()} ${place.code}`;
}
