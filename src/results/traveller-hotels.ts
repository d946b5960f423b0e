/**
 * Hotel stays as presence at a place (travellers_at; README, "Duty of care"): HotelSegments
 * records of the place's city (or country) whose stay touches the window, confirmed and not
 * cancelled. A hotel record names one traveller (Passenger) and the days, not the hours: check-in
 * and check-out are days ('YYYY-MM-DD'). Pure: the server fetches, this reads.
 */

import { ACTIVE_STATUSES, type Window } from './stays.js';
import { isoDay, text } from './traveller-bookings.js';

type Rec = Record<string, unknown>;

export interface HotelStay {
  locator: string;
  account: string;
  /** The traveller the record names (Passenger, else BookedInName), SURNAME/GIVEN. */
  traveller: string;
  property: string;
  city: string;
  checkIn: string;
  checkOut: string;
  status: string;
  segmentNbr: string;
}

/** Hotel evidence as the answer lists it beside the flights. */
export interface HotelEvidence {
  Role: 'hotel';
  RecordLocator: string;
  Hotel: string;
  CityCode: string;
  CheckIn: string;
  CheckOut: string;
  SegmentStatus: string;
}

/** The confirmed stays at the place (CityCode in `cities`, or CountryCode `country`) that touch the window. */
export function hotelStaysAt(
  records: readonly Rec[],
  where: { cities?: ReadonlySet<string>; country?: string },
  window: Window,
): HotelStay[] {
  const first = window.start.slice(0, 10);
  const after = window.end.slice(0, 10);
  const out: HotelStay[] = [];
  const seen = new Set<string>();
  for (const r of records) {
    const city = text(r.CityCode).toUpperCase();
    if (!atPlace(r, where) || r.IsCancelled === true) continue;
    const status = text(r.StatusCode).toUpperCase();
    if (!ACTIVE_STATUSES.has(status)) continue;
    const checkIn = isoDay(r.ArrivalDate);
    const checkOut = isoDay(r.DepartureDate);
    // A stay whose days cannot be read cannot be placed in the window; the server counts them.
    if (!checkIn || !checkOut || checkIn >= after || checkOut < first) continue;
    const locator = text(r.RecordLocator).toUpperCase();
    const segmentNbr = text(r.HotelSegmentNbr);
    // Pages that overlap must not make one stay two.
    const key = `${locator}|${segmentNbr}|${checkIn}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      locator,
      account: text(r.Account),
      traveller: text(r.Passenger) || text(r.BookedInName) || '(not named)',
      property: text(r.PropertyName),
      city,
      checkIn,
      checkOut,
      status,
      segmentNbr,
    });
  }
  return out;
}

export function hotelEvidence(h: HotelStay): HotelEvidence {
  return {
    Role: 'hotel',
    RecordLocator: h.locator,
    Hotel: h.property,
    CityCode: h.city,
    CheckIn: h.checkIn,
    CheckOut: h.checkOut,
    SegmentStatus: h.status,
  };
}

/** Hotel records at the place whose days cannot be read (they may be someone there). */
export function undatedHotels(
  records: readonly Rec[],
  where: { cities?: ReadonlySet<string>; country?: string },
): number {
  return records.filter(
    (r) => atPlace(r, where) && r.IsCancelled !== true && (!isoDay(r.ArrivalDate) || !isoDay(r.DepartureDate)),
  ).length;
}

function atPlace(r: Rec, where: { cities?: ReadonlySet<string>; country?: string }): boolean {
  return where.country
    ? text(r.CountryCode).toUpperCase() === where.country
    : !!where.cities?.has(text(r.CityCode).toUpperCase());
}
