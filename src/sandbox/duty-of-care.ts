/**
 * Bookings made to hold every duty-of-care case at one place (Singapore, SIN) near the data's
 * "now", so travellers_at has something to tell apart: travellers who arrived before the week
 * and leave during it, arrive during it, arrive and leave within it, pass through on a
 * connection, stay beyond it, have no departure booked, have a gap in their itinerary, or whose
 * departure is not confirmed. Days are counted from the data's today (0), local times at the
 * airport of departure.
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
  type Traveller,
} from './model.js';
import { Rng } from './random.js';
import { airport, CARRIERS, distanceKm, EQUIPMENT_LONG, EQUIPMENT_SHORT } from './reference.js';

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

const LOCATOR_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/**
 * Appends the scenario bookings to a generated dataset (their segments into its flat lists,
 * which the caller sorts again). Nothing generated before is changed.
 */
export function appendDutyOfCareBookings(ds: Dataset): Booking[] {
  const rng = Rng.derive(ds.seed, 'duty-of-care');
  const locators = new Set(ds.bookings.map((b) => b.recordLocator));
  let serviceRef = Math.max(0, ...ds.bookings.map((b) => b.serviceRef));
  const routes = new Map(ds.airSegments.map((s) => [`${s.carrier.code}${s.flightNbr}`, `${s.from.code}-${s.to.code}`]));
  const added: Booking[] = [];
  for (const scenario of DUTY_OF_CARE_SCENARIOS) {
    const account = ds.accounts.find((a) => a.code === scenario.account)!;
    const pcc = ds.pccs.find((p) => p.companyCode === account.companyCode)!;
    const consultant = ds.consultants.find((c) => c.pcc === pcc.code)!;
    // Made three weeks before the first flight, at ten in the morning at the office.
    const firstDay = ds.today + scenario.outbound[0][4];
    const createdMs = (firstDay - 21) * DAY_MS + (10 * 60 - pcc.offset) * MINUTE_MS;
    let locator = rng.chars(LOCATOR_CHARS, 6);
    while (locators.has(locator)) locator = rng.chars(LOCATOR_CHARS, 6);
    locators.add(locator);
    serviceRef += rng.int(1, 3);
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
      passengers: pickTravellers(rng, ds.travellers, account, scenario.passengers),
      ...emptyBookingLists(),
      cancelled: false,
      destination: airport(DUTY_OF_CARE_PLACE),
      travelDay: null,
      endDay: null,
      trackingCode: `TRK${rng.digits(7)}`,
    };
    for (const leg of scenario.outbound) b.air.push(airSegment(ds, b, leg, true, routes, scenario.status));
    for (const leg of scenario.inbound ?? []) b.air.push(airSegment(ds, b, leg, false, routes, scenario.status));
    finish(b, rng);
    ds.bookings.push(b);
    ds.airSegments.push(...b.air);
    added.push(b);
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
  status?: Record<string, string>,
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
    status: status?.[wanted] ?? 'HK',
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
    s.nbr = i + 1;
    const next = b.air[i + 1];
    s.connection =
      !!next && next.outbound === s.outbound && next.from.code === s.to.code && next.depUtc - s.arrUtc < DAY_MS;
  });
  b.segments = [...b.air];
  b.travelDay = b.air[0].depDay;
  b.endDay = Math.max(...b.air.map((s) => s.arrDay));
  const lead = b.passengers[0];
  b.customFields = lead ? [{ id: 1, name: 'CostCentre', value: lead.costCentre }] : [];
  b.vendorLocators = [...new Set(b.air.map((s) => s.carrier.code))].map((carrier) => ({
    carrier,
    locator: rng.chars(LOCATOR_CHARS, 6),
  }));
}
