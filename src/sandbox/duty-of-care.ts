/**
 * Bookings made to hold every duty-of-care case at one place (Singapore, SIN) near the data's
 * "now", so travellers_at has something to tell apart: travellers who arrived before the week
 * and leave during it, arrive during it, arrive and leave within it, pass through on a
 * connection, stay beyond it, have no departure booked, have a gap in their itinerary, or whose
 * departure is not confirmed. Days are counted from the data's today (0), local times at the
 * airport of departure.
 *
 * A second set (MORE_DUTY_OF_CARE_SCENARIOS, its own stream again, so the first set's bookings
 * stay as they were) holds what a real agency's data holds: a trip split over two bookings, a
 * booking whose details the service refuses (no rights) or no longer finds, a traveller known
 * only by a hotel stay, a flight with no arrival time, two travellers with their own contacts.
 *
 * Appended after every generated booking and log, with their own seeded stream: the generated
 * agency (and every count other reports give for it) stays as it was, apart from these
 * bookings' own segments in the segment reports.
 */
import { DAY_MS, localDay, localMinutes, MINUTE_MS } from './days.js';
import {
  type Account,
  type AirSegment,
  type Booking,
  type Dataset,
  emptyBookingLists,
  type HotelSegment,
  type Segment,
  type Traveller,
} from './model.js';
import { Rng } from './random.js';
import { airport, CARRIERS, distanceKm, EQUIPMENT_LONG, EQUIPMENT_SHORT, HOTEL_CHAINS } from './reference.js';

/** One flight of a scenario: carrier, number, route, local departure (day from today, HH:MM), duration. */
type Leg = readonly [
  carrier: string,
  flight: string,
  from: string,
  to: string,
  day: number,
  time: string,
  hours: number,
];

interface Scenario {
  /** What the booking is for (kept in its tracking code's comment below, and in tests' names). */
  case: string;
  account: string;
  passengers: number;
  outbound: readonly Leg[];
  inbound?: readonly Leg[];
  /** Segment status per flight number, where not HK. */
  status?: Record<string, string>;
  /** The same travellers as the scenario with this `case` (a trip split over bookings). */
  travellersOf?: string;
  /** BookingDetails refuses the booking (no rights) or no longer finds it (Booking.details). */
  details?: 'refused' | 'gone';
  /** A hotel stay in the place's city: check-in day from today, nights. */
  hotel?: readonly [day: number, nights: number];
  /** Flight numbers whose arrival time the booking does not hold. */
  noArrivalTime?: readonly string[];
}

/** The place the scenarios are about. */
export const DUTY_OF_CARE_PLACE = 'SIN';

export const DUTY_OF_CARE_SCENARIOS: readonly Scenario[] = [
  {
    case: 'arrived before the week, leaves during it (London)',
    account: 'ACME',
    passengers: 1,
    outbound: [['BA', '011', 'LHR', 'SIN', -4, '21:15', 13.5]],
    inbound: [['BA', '012', 'SIN', 'LHR', 2, '23:05', 14.25]],
  },
  {
    case: 'arrived before the week, leaves during it (Sydney, two travellers)',
    account: 'STARK',
    passengers: 2,
    outbound: [['QF', '001', 'SYD', 'SIN', -9, '15:30', 8.25]],
    inbound: [['QF', '002', 'SIN', 'SYD', 1, '20:20', 7.75]],
  },
  {
    case: 'arrived before the week, leaves during it for another city (New York via Hong Kong)',
    account: 'HOOLI',
    passengers: 1,
    outbound: [
      ['SQ', '025', 'JFK', 'SIN', -3, '10:40', 18.75],
      ['CX', '714', 'SIN', 'HKG', 4, '10:20', 3.75],
    ],
    inbound: [['CX', '840', 'HKG', 'JFK', 6, '17:05', 16]],
  },
  {
    case: 'arrives during the week and stays beyond it (Dubai)',
    account: 'GLOBEX',
    passengers: 1,
    outbound: [['EK', '354', 'DXB', 'SIN', 3, '03:10', 7.5]],
    inbound: [['EK', '355', 'SIN', 'DXB', 12, '01:25', 7.5]],
  },
  {
    case: 'arrives and leaves during the week (Bangkok)',
    account: 'INITECH',
    passengers: 1,
    outbound: [['TG', '403', 'BKK', 'SIN', 1, '09:00', 2.5]],
    inbound: [['TG', '404', 'SIN', 'BKK', 3, '18:00', 2.5]],
  },
  {
    case: 'passes through on a connection (London to Sydney)',
    account: 'UMBRELLA',
    passengers: 1,
    outbound: [
      ['SQ', '317', 'LHR', 'SIN', 1, '11:35', 13],
      ['SQ', '221', 'SIN', 'SYD', 2, '11:15', 7.5],
    ],
    inbound: [
      ['SQ', '222', 'SYD', 'SIN', 20, '08:00', 8],
      ['SQ', '318', 'SIN', 'LHR', 20, '17:45', 13.75],
    ],
  },
  {
    case: 'arrived before the week and stays beyond it (Hong Kong)',
    account: 'WAYNE',
    passengers: 1,
    outbound: [['CX', '715', 'HKG', 'SIN', -5, '09:05', 4]],
    inbound: [['CX', '716', 'SIN', 'HKG', 15, '14:30', 4]],
  },
  {
    case: 'arrives, no departure booked (Frankfurt, one way)',
    account: 'CYBERDYNE',
    passengers: 1,
    outbound: [['LH', '778', 'FRA', 'SIN', 0, '21:50', 12.25]],
  },
  {
    case: 'arrived before the week, next flight leaves from Kuala Lumpur (itinerary gap)',
    account: 'TYRELL',
    passengers: 1,
    outbound: [['NH', '801', 'NRT', 'SIN', -2, '11:00', 7.25]],
    inbound: [['MH', '088', 'KUL', 'NRT', 3, '23:30', 6.75]],
  },
  {
    case: 'arrived before the week, departure not confirmed (Kuala Lumpur)',
    account: 'MASSIVE',
    passengers: 1,
    outbound: [['MH', '603', 'KUL', 'SIN', -4, '07:30', 1]],
    inbound: [['MH', '604', 'SIN', 'KUL', 3, '19:00', 1]],
    status: { '604': 'UN' },
  },
];

/** Cases of a real agency's data, appended after the first set with a stream of their own. */
export const MORE_DUTY_OF_CARE_SCENARIOS: readonly Scenario[] = [
  {
    case: 'split trip, outbound booking: arrived before the week, with a hotel (Paris)',
    account: 'ACME',
    passengers: 1,
    outbound: [['AF', '256', 'CDG', 'SIN', -3, '11:20', 12.75]],
    hotel: [-2, 6],
  },
  {
    case: 'split trip, return booking: leaves during the week (Paris)',
    account: 'ACME',
    passengers: 1,
    outbound: [['AF', '257', 'SIN', 'CDG', 4, '23:25', 13.5]],
    travellersOf: 'split trip, outbound booking: arrived before the week, with a hotel (Paris)',
  },
  {
    case: 'details refused (no rights): two travellers arrive and leave during the week (Mumbai)',
    account: 'GLOBEX',
    passengers: 2,
    outbound: [['SQ', '423', 'BOM', 'SIN', 2, '00:10', 5.5]],
    inbound: [['SQ', '424', 'SIN', 'BOM', 5, '13:00', 5.5]],
    details: 'refused',
  },
  {
    case: 'details gone: arrived before the week, stays beyond it (Seoul)',
    account: 'INITECH',
    passengers: 1,
    outbound: [['KE', '643', 'ICN', 'SIN', -6, '15:10', 6.5]],
    inbound: [['KE', '644', 'SIN', 'ICN', 9, '22:40', 6.25]],
    details: 'gone',
  },
  {
    case: 'split trip over a gone booking: arrived before the week (Delhi), leaves during it',
    account: 'HOOLI',
    passengers: 1,
    outbound: [['AI', '382', 'DEL', 'SIN', -7, '23:00', 5.75]],
    details: 'gone',
  },
  {
    case: 'split trip over a gone booking: the return (Delhi)',
    account: 'HOOLI',
    passengers: 1,
    outbound: [['AI', '383', 'SIN', 'DEL', 3, '19:15', 5.75]],
    travellersOf: 'split trip over a gone booking: arrived before the week (Delhi), leaves during it',
  },
  {
    case: 'hotel only: no flight booked, checked in before the week, checks out during it',
    account: 'UMBRELLA',
    passengers: 1,
    outbound: [],
    hotel: [-1, 4],
  },
  {
    case: 'arrives during the week, the arrival time not held (Melbourne)',
    account: 'CYBERDYNE',
    passengers: 1,
    outbound: [['QF', '035', 'MEL', 'SIN', 2, '09:40', 8]],
    inbound: [['QF', '036', 'SIN', 'MEL', 10, '12:30', 7.5]],
    noArrivalTime: ['035'],
  },
];

const LOCATOR_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * Appends the scenario bookings to a generated dataset (their segments into its flat lists,
 * which the caller sorts again). Nothing generated before is changed.
 */
export function appendDutyOfCareBookings(ds: Dataset): Booking[] {
  const first = appendScenarios(ds, DUTY_OF_CARE_SCENARIOS, Rng.derive(ds.seed, 'duty-of-care'));
  return [...first, ...appendScenarios(ds, MORE_DUTY_OF_CARE_SCENARIOS, Rng.derive(ds.seed, 'duty-of-care-2'))];
}

function appendScenarios(ds: Dataset, scenarios: readonly Scenario[], rng: Rng): Booking[] {
  const locators = new Set(ds.bookings.map((b) => b.recordLocator));
  let serviceRef = Math.max(0, ...ds.bookings.map((b) => b.serviceRef));
  const routes = new Map(ds.airSegments.map((s) => [`${s.carrier.code}${s.flightNbr}`, `${s.from.code}-${s.to.code}`]));
  const added: Booking[] = [];
  const byCase = new Map<string, Booking>();
  for (const scenario of scenarios) {
    const account = ds.accounts.find((a) => a.code === scenario.account)!;
    const pcc = ds.pccs.find((p) => p.companyCode === account.companyCode)!;
    const consultant = ds.consultants.find((c) => c.pcc === pcc.code)!;
    // Made three weeks before the first flight (or check-in), at ten in the morning at the office.
    const firstDay = ds.today + (scenario.outbound[0]?.[4] ?? scenario.hotel?.[0] ?? 0);
    const createdMs = (firstDay - 21) * DAY_MS + (10 * 60 - pcc.offset) * MINUTE_MS;
    let locator = rng.chars(LOCATOR_CHARS, 6);
    while (locators.has(locator)) locator = rng.chars(LOCATOR_CHARS, 6);
    locators.add(locator);
    serviceRef += rng.int(1, 3);
    const same = scenario.travellersOf === undefined ? undefined : byCase.get(scenario.travellersOf);
    const b: Booking = {
      index: ds.bookings.length,
      serviceRef,
      recordLocator: locator,
      createdMs,
      createdDay: localDay(createdMs, pcc.offset),
      company: ds.companies.find((c) => c.code === account.companyCode)!,
      pcc,
      account,
      consultant,
      lastActionConsultant: consultant,
      passengers: same ? [...same.passengers] : pickTravellers(rng, ds.travellers, account, scenario.passengers),
      ...emptyBookingLists(),
      cancelled: false,
      destination: airport(DUTY_OF_CARE_PLACE),
      travelDay: null,
      endDay: null,
      trackingCode: `TRK${rng.digits(7)}`,
      ...(scenario.details ? { details: scenario.details } : {}),
    };
    for (const leg of scenario.outbound) b.air.push(airSegment(ds, b, leg, true, routes, scenario));
    for (const leg of scenario.inbound ?? []) b.air.push(airSegment(ds, b, leg, false, routes, scenario));
    if (scenario.hotel) b.hotels.push(hotelSegment(ds, b, scenario.hotel, rng));
    finish(b, rng);
    ds.bookings.push(b);
    ds.airSegments.push(...b.air);
    ds.hotelSegments.push(...b.hotels);
    added.push(b);
    byCase.set(scenario.case, b);
  }
  return added;
}

function pickTravellers(rng: Rng, all: readonly Traveller[], account: Account, n: number): Traveller[] {
  return rng.sample(
    all.filter((t) => t.account === account.code),
    n,
  );
}

function airSegment(
  ds: Dataset,
  b: Booking,
  leg: Leg,
  outbound: boolean,
  routes: Map<string, string>,
  scenario: Scenario,
): AirSegment {
  const [code, wanted, fromCode, toCode, day, time, hours] = leg;
  const flightNbr = freeFlightNumber(routes, code, wanted, `${fromCode}-${toCode}`);
  const from = airport(fromCode);
  const to = airport(toCode);
  const carrier = CARRIERS.find((c) => c.code === code)!;
  const [hh, mm] = time.split(':').map(Number);
  const depUtc = (ds.today + day) * DAY_MS + (hh * 60 + mm - from.offset) * MINUTE_MS;
  const durationMin = Math.round(hours * 60);
  const arrUtc = depUtc + durationMin * MINUTE_MS;
  const km = distanceKm(from, to);
  return {
    kind: 'air',
    booking: b,
    nbr: 0,
    airNbr: 0,
    status: scenario.status?.[wanted] ?? 'HK',
    carrier,
    operatingCarrier: carrier,
    flightNbr,
    from,
    to,
    depDay: localDay(depUtc, from.offset),
    depMin: localMinutes(depUtc, from.offset),
    arrDay: localDay(arrUtc, to.offset),
    arrMin: localMinutes(arrUtc, to.offset),
    depUtc,
    arrUtc,
    durationMin,
    bookingCode: 'Y',
    cabin: 'Economy',
    equipment: km > 3500 ? EQUIPMENT_LONG[0] : EQUIPMENT_SHORT[0],
    km,
    connection: false,
    outbound,
    seats: [],
    ...(scenario.noArrivalTime?.includes(wanted) ? { arrivalTimeUnknown: true } : {}),
  };
}

/** A confirmed hotel stay in the place's city, at a property the generated agency already uses there. */
function hotelSegment(ds: Dataset, b: Booking, [day, nights]: readonly [number, number], rng: Rng): HotelSegment {
  const known = ds.hotelSegments.find((h) => h.property.city.cityCode === DUTY_OF_CARE_PLACE)?.property;
  const city = airport(DUTY_OF_CARE_PLACE);
  const chain = HOTEL_CHAINS[0];
  const property = known ?? {
    chain,
    number: '000001',
    name: `${chain.brands[0]} ${city.cityName}`,
    address: `1 Orchard Road, ${city.cityName}`,
    phone: '+65 6000 0000',
    city,
  };
  const arrDay = ds.today + day;
  return {
    kind: 'hotel',
    booking: b,
    nbr: 0,
    hotelNbr: 0,
    status: 'HK',
    property,
    arrDay,
    depDay: arrDay + nights,
    nights,
    passive: false,
    cancelled: false,
    gds: true,
    rate: 240,
    currency: 'SGD',
    rooms: 1,
    confirmation: `${property.chain.code}${rng.digits(8)}`,
    createdMs: b.createdMs,
    commissionable: true,
    commission: '10%',
    roomCode: 'A1K',
    multiLevelRateCode: 'COR',
  };
}

/** The wanted flight number, or the next one up that flies no other route: a flight number is one route. */
function freeFlightNumber(routes: Map<string, string>, carrier: string, wanted: string, route: string): string {
  let n = Number(wanted);
  let nbr = wanted;
  while ((routes.get(carrier + nbr) ?? route) !== route) {
    n += 1000;
    nbr = String(n).padStart(3, '0');
  }
  routes.set(carrier + nbr, route);
  return nbr;
}

/** Numbering, connections, trip days and vendor locators, as the generator finishes a booking. */
function finish(b: Booking, rng: Rng): void {
  b.air.sort((x, y) => x.depUtc - y.depUtc);
  b.air.forEach((s, i) => {
    s.airNbr = i + 1;
    const next = b.air[i + 1];
    s.connection =
      !!next && next.outbound === s.outbound && next.from.code === s.to.code && next.depUtc - s.arrUtc < DAY_MS;
  });
  b.hotels.forEach((h, i) => {
    h.hotelNbr = i + 1;
  });
  // Flights by departure instant, a hotel at its check-in day's noon (UTC): itinerary order.
  const at = (s: Segment) => (s.kind === 'air' ? s.depUtc : s.kind === 'hotel' ? s.arrDay * DAY_MS + DAY_MS / 2 : 0);
  b.segments = [...b.air, ...b.hotels].sort((x, y) => at(x) - at(y));
  b.segments.forEach((s, i) => {
    s.nbr = i + 1;
  });
  b.travelDay = Math.min(...b.air.map((s) => s.depDay), ...b.hotels.map((h) => h.arrDay));
  b.endDay = Math.max(...b.air.map((s) => s.arrDay), ...b.hotels.map((h) => h.depDay));
  const lead = b.passengers[0];
  b.customFields = lead ? [{ id: 1, name: 'CostCentre', value: lead.costCentre }] : [];
  b.vendorLocators = [...new Set(b.air.map((s) => s.carrier.code))].map((carrier) => ({
    carrier,
    locator: rng.chars(LOCATOR_CHARS, 6),
  }));
}
