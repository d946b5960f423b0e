/**
 * Bookings that hold what the generated agency lacks for reading numbers as a travel
 * professional does (docs/travel-meaning.md): car rentals at a monthly rate and at a rate
 * whose period the service does not state, and a flight whose status code is outside the
 * GDS codes the server knows. Near the data's today, in the previous month, so that last
 * month's reports meet them.
 *
 * Appended after every generated booking and log, with their own seeded stream, like the
 * duty-of-care bookings: the generated agency stays as it was.
 */
import { DAY_MS, localDay, localMinutes, MINUTE_MS } from './days.js';
import { type Booking, type CarSegment, type Dataset, emptyBookingLists } from './model.js';
import { Rng } from './random.js';
import { airport, CAR_VENDORS, CARRIERS, EQUIPMENT_SHORT } from './reference.js';

const LOCATOR_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A rental of these cases: rate type, days from the data's today, length in days, rate, currency. */
interface RentalCase {
  case: string;
  rateType: CarSegment['rateType'];
  pickDay: number;
  days: number;
  rate: number;
  currency: string;
  airport: string;
}

export const MEANING_RENTALS: readonly RentalCase[] = [
  {
    case: 'a month at a monthly rate',
    rateType: 'M',
    pickDay: -44,
    days: 31,
    rate: 1450,
    currency: 'EUR',
    airport: 'CDG',
  },
  {
    case: 'a rate whose period is not stated',
    rateType: '',
    pickDay: -40,
    days: 4,
    rate: 89,
    currency: 'USD',
    airport: 'JFK',
  },
];

/** The status code no GDS list the server knows holds: counted as `other`, and named. */
export const UNKNOWN_STATUS = 'ZQ';

export function appendMeaningCases(ds: Dataset): Booking[] {
  const rng = Rng.derive(ds.seed, 'meaning-cases');
  const locators = new Set(ds.bookings.map((b) => b.recordLocator));
  let serviceRef = Math.max(0, ...ds.bookings.map((b) => b.serviceRef));
  const account = ds.accounts[0];
  const pcc = ds.pccs.find((p) => p.companyCode === account.companyCode)!;
  const consultant = ds.consultants.find((c) => c.pcc === pcc.code)!;
  const added: Booking[] = [];
  const booking = (firstDay: number): Booking => {
    let locator = rng.chars(LOCATOR_CHARS, 6);
    while (locators.has(locator)) locator = rng.chars(LOCATOR_CHARS, 6);
    locators.add(locator);
    serviceRef += rng.int(1, 3);
    const createdMs = (ds.today + firstDay - 14) * DAY_MS + (10 * 60 - pcc.offset) * MINUTE_MS;
    const traveller = rng.pick(ds.travellers.filter((t) => t.account === account.code));
    const b: Booking = {
      index: ds.bookings.length + added.length,
      serviceRef,
      recordLocator: locator,
      createdMs,
      createdDay: localDay(createdMs, pcc.offset),
      company: ds.companies.find((c) => c.code === account.companyCode)!,
      pcc,
      account,
      consultant,
      lastActionConsultant: consultant,
      passengers: [traveller],
      ...emptyBookingLists(),
      cancelled: false,
      destination: null,
      travelDay: ds.today + firstDay,
      endDay: ds.today + firstDay,
      trackingCode: `TRK${rng.digits(7)}`,
    };
    added.push(b);
    return b;
  };
  for (const c of MEANING_RENTALS) {
    const b = booking(c.pickDay);
    const where = airport(c.airport);
    b.cars.push({
      kind: 'car',
      booking: b,
      nbr: 1,
      carNbr: 1,
      status: 'HK',
      vendor: CAR_VENDORS[0],
      airport: where,
      pickDay: ds.today + c.pickDay,
      pickMin: 10 * 60,
      dropDay: ds.today + c.pickDay + c.days,
      dropMin: 10 * 60,
      passive: false,
      carType: 'CDMR',
      rateType: c.rateType,
      rateCode: 'CORP',
      rateAmount: c.rate,
      currency: c.currency,
      confirmation: `${CAR_VENDORS[0].code[0]}${rng.digits(9)}`,
      yieldNbr: rng.digits(6),
    });
    b.endDay = ds.today + c.pickDay + c.days;
    b.segments = [...b.cars];
  }
  // One flight whose status code is unknown: London to Paris, 42 days before today.
  const b = booking(-42);
  const from = airport('LHR');
  const to = airport('CDG');
  const depUtc = (ds.today - 42) * DAY_MS + (9 * 60 - from.offset) * MINUTE_MS;
  const arrUtc = depUtc + 80 * MINUTE_MS;
  const carrier = CARRIERS.find((c) => c.code === 'BA')!;
  b.air.push({
    kind: 'air',
    booking: b,
    nbr: 1,
    airNbr: 1,
    status: UNKNOWN_STATUS,
    carrier,
    operatingCarrier: carrier,
    flightNbr: '9304',
    from,
    to,
    depDay: localDay(depUtc, from.offset),
    depMin: localMinutes(depUtc, from.offset),
    arrDay: localDay(arrUtc, to.offset),
    arrMin: localMinutes(arrUtc, to.offset),
    depUtc,
    arrUtc,
    durationMin: 80,
    bookingCode: 'Y',
    cabin: 'Economy',
    equipment: EQUIPMENT_SHORT[0],
    km: 344,
    connection: false,
    outbound: true,
    seats: [],
  });
  b.segments = [...b.air];
  for (const x of added) {
    ds.bookings.push(x);
    ds.airSegments.push(...x.air);
    ds.carSegments.push(...x.cars);
  }
  return added;
}
