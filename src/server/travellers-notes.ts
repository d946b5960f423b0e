/**
 * The notes of a travellers_at answer: what it found, which service calls it made and whether
 * each was complete, and the rules it applied (README, "Duty of care").
 */
import { LOOKAHEAD_DAYS, type Place } from '../catalog/travellers-input.js';
import { CONNECTION_HOURS } from '../results/stays.js';
import type { BookingTrip } from '../results/traveller-bookings.js';
import type { FetchedRecords } from './run-report.js';
import { type BookingsRead, LOAD_OPTIONS } from './travellers-bookings.js';

type Rec = Record<string, unknown>;

/** The rules, each note short enough for any renderer to show whole. */
export const RULES_NOTES = [
  "Rules: one traveller's bookings are one trip (the same TravellerGUID, or the same name where a booking holds " +
    'none), so out on one booking and back on another is one stay; in place = arrived before the window and leaves ' +
    `after it; passing through = the onward flight leaves within ${CONNECTION_HOURS} h of the arrival, to somewhere ` +
    'else; a trip that starts at the place counts as based there. Times are local at the place.',
  "Rules: a booking whose details cannot be read is read from its routing record's own itinerary; a flight with no " +
    'time is placed by its date; a confirmed hotel stay at the place is presence, beside the flights or alone (by ' +
    `its days). Arrivals and hotel check-ins are looked for lookbackDays before the window, departures up to ` +
    `${LOOKAHEAD_DAYS} days after it: someone who arrived earlier and leaves later is not found.`,
];

/** Whose contact each is. */
export const CONTACT_NOTE =
  "Contacts: TravellerPhone and TravellerEmail are the traveller's own, where the booking holds one per passenger; " +
  'BookingPhone and BookingEmail are the contact held at booking level (of the booking ContactRecordLocator names): the ' +
  "booking's, which may be another traveller's or an arranger's, not necessarily this traveller's.";

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

/** `hotels`: how many of the bookings asked for are known by a hotel stay alone (no routing names them). */
export function bookingsNote(asked: number, read: BookingsRead, trips: readonly BookingTrip[], hotels: number): string {
  const which = hotels ? ` (${hotels} of them known by a hotel stay alone)` : '';
  const parts = [
    `Called booking_details (${LOAD_OPTIONS.replaceAll(',', ', ')}) for ${asked} bookings${which}: ` +
      `${read.found.size} read`,
  ];
  if (read.missing.length) {
    parts.push(`${read.missing.length} not found (gone since, or outside what this user may see)`);
  }
  if (read.failed.length) {
    const first = read.failed[0];
    parts.push(
      `${read.failed.length} refused or failed (e.g. ${first.locator}: ${cut(first.why.replace(/\.$/, ''), 160)})`,
    );
  }
  if (read.incomplete) parts.push(`${read.incomplete} incomplete`);
  const routingOnly = trips.filter((t) => t.basis === 'routing').map((t) => t.locator);
  if (routingOnly.length) {
    parts.push(
      `${routingOnly.length} rest on routing data alone (the routing record's own itinerary and names; no ` +
        `TravellerGUID, no traveller's own contact): ${listed(routingOnly)}`,
    );
  }
  return `${parts.join('; ')}; ${read.incomplete ? 'INCOMPLETE' : 'complete'}.`;
}

/** How many travellers each rule found: trips joined over bookings, hotel evidence, hotel-only travellers. */
export function findingsNote(records: readonly Rec[], trips: readonly BookingTrip[]): string[] {
  const joined = records.filter((r) => String(r.RecordLocator ?? '').includes(','));
  const withHotel = records.filter((r) => String(r.Basis ?? '').includes('+ hotel'));
  const hotelOnly = records.filter((r) => r.Basis === 'hotel');
  const routing = new Set(trips.filter((t) => t.basis === 'routing').map((t) => t.locator));
  const fromRouting = records.filter((r) =>
    String(r.RecordLocator ?? '')
      .split(', ')
      .some((l) => routing.has(l)),
  );
  const own = records.filter((r) => r.TravellerPhone || r.TravellerEmail);
  const parts = [
    `${joined.length} stays join more than one booking${joined.length ? ` (${listed(joined.map(who))})` : ''}`,
    `${withHotel.length} rest on flights and a hotel stay`,
    `${hotelOnly.length} on a hotel stay alone${hotelOnly.length ? ` (${listed(hotelOnly.map(who))})` : ''}`,
    `${fromRouting.length} on a booking read from routing data alone`,
    `${own.length} of ${records.length} show the traveller's own contact`,
  ];
  return [`Found: ${parts.join('; ')}.`];
}

/** 'GZSU4N, BGGHKR (THOMAS/GRACE MRS)': locators first, so a name's given names never run on into them. */
function who(r: Rec): string {
  return `${String(r.RecordLocator ?? '')} (${String(r.Traveller ?? '')})`;
}

/** At most 12 items, then how many more: a note stays short whatever the data. */
function listed(items: readonly string[]): string {
  const shown = items.slice(0, 12).join('; ');
  return items.length > 12 ? `${shown}; and ${items.length - 12} more` : shown;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function hotelsNote(query: Record<string, string>, got: FetchedRecords, atPlace: number, how: string): string {
  return (
    `Called hotel_segments for hotel stays (${params(query)}): ${got.records.length} records, ` +
    `${got.complete ? 'complete' : 'INCOMPLETE'}; ${atPlace} confirmed stays at the place touch the window. ` +
    `Hotels searched in ${how}.`
  );
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
