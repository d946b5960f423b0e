/**
 * The synthetic agency: one deterministic dataset per (seed, size, dataNow). Every report of
 * the sandbox is derived from it (src/sandbox/reports.ts), so reports agree with each other:
 * a ticket's coupons are its booking's air segments in order, hotel counts are counts of
 * hotel segments, and so on. Entities hold references to each other (segment.booking,
 * coupon.ticket...), so the structure is a graph: do not JSON.stringify it whole.
 *
 * Only the core is generated eagerly; bulky booking details that no filter reads (phones,
 * notepads, versions, e-mail trails...) are derived on demand in src/sandbox/booking-detail.ts
 * from a per-booking seed.
 */
import { DAY_MS, HOUR_MS, localDay, localMinutes, MINUTE_MS } from './days.js';
import { appendDutyOfCareBookings } from './duty-of-care.js';
import { generateLogs } from './logs.js';
import { appendMeaningCases } from './meaning-cases.js';
import {
  type Account,
  type AirSegment,
  type AppUser,
  type Booking,
  type Company,
  type Consultant,
  type CouponStatus,
  type Dataset,
  type DatasetOptions,
  DEFAULT_DATA_NOW,
  emptyBookingLists,
  type PassiveSegment,
  type Pcc,
  type Property,
  type Segment,
  type Ticket,
  type Traveller,
} from './model.js';
import { Rng } from './random.js';
import {
  ACCOUNTS,
  AIRPORTS,
  type Airport,
  airport,
  BOOKING_CLASSES,
  CAR_TYPES,
  CAR_VENDORS,
  CARRIERS,
  type Carrier,
  COMPANIES,
  CONSULTANT_TEAMS,
  CURRENCY_BY_COUNTRY,
  CUSTOM_FIELD_NAMES,
  DEPARTMENTS,
  DIAL_CODES,
  distanceKm,
  EQUIPMENT_LONG,
  EQUIPMENT_SHORT,
  FIRST_NAMES_F,
  FIRST_NAMES_M,
  HOTEL_CHAINS,
  LAST_NAMES,
  PCCS,
  STREETS,
  TRIP_REASONS,
  USD_PER_UNIT,
} from './reference.js';

export * from './model.js';
export { DEFAULT_DATA_NOW };

const LOCATOR_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const PROBLEM_STATUSES = ['UN', 'UC', 'HL', 'NO', 'US'];
/** Segment statuses that count as active (confirmed or held). */
export const ACTIVE_STATUSES: ReadonlySet<string> = new Set(['HK', 'KK', 'TK', 'GK', 'RR']);
/** Statuses that ProblematicSegments reports. */
export const PROBLEM_STATUS_SET: ReadonlySet<string> = new Set(PROBLEM_STATUSES);

const CLASS_WEIGHTS = BOOKING_CLASSES.map(([c, cab, w]) => [[c, cab] as const, w] as const);
const CLASS_WEIGHTS_VIP = BOOKING_CLASSES.map(
  ([c, cab, w]) => [[c, cab] as const, cab === 'Business' || cab === 'First' ? w * 4 : w] as const,
);

function titleCase(upper: string): string {
  return upper.charAt(0) + upper.slice(1).toLowerCase();
}

function money(value: number): number {
  return Math.round(value * 100) / 100;
}

function toCurrency(usd: number, currency: string): number {
  return money(usd / (USD_PER_UNIT[currency] ?? 1));
}

interface FlightDef {
  carrier: Carrier;
  operating: Carrier;
  number: string;
  from: Airport;
  to: Airport;
  depMin: number;
  durationMin: number;
  km: number;
  equipment: readonly [string, string];
}

/** One generator run. Kept as a class so the many small steps share state plainly. */
class Generator {
  readonly rng: Rng;
  readonly nowMs: number;
  readonly nowDay: number;
  private readonly flights = new Map<string, FlightDef>();
  private readonly flightCounters = new Map<string, number>();
  private readonly usedFlightNumbers = new Set<string>();
  private readonly properties = new Map<string, Property[]>();
  private readonly locators = new Set<string>();
  private ticketCounter: number;
  private couponCounter = 880_000;
  private readonly recentAir = new Map<string, Booking[]>();
  private readonly nearbyCache = new Map<string, { same: Airport[]; other: Airport[] }>();
  private readonly routeCache = new Map<string, { direct: Carrier[]; connecting: Carrier[] }>();
  private readonly consultantsByPcc = new Map<string, Consultant[]>();

  companies: Company[] = [];
  pccs: Pcc[] = [];
  accounts: Account[] = [];
  consultants: Consultant[] = [];
  travellers: Traveller[] = [];
  appUsers: AppUser[] = [];

  constructor(readonly opts: DatasetOptions) {
    this.rng = Rng.derive(opts.seed, 'dataset');
    this.nowMs = opts.dataNow.getTime();
    this.nowDay = Math.floor(this.nowMs / DAY_MS);
    this.ticketCounter = 2_400_000_000 + this.rng.int(0, 99_999) * 1000;
  }

  run(): Dataset {
    this.buildOrganisation();
    const bookings = this.buildBookings();
    const ds: Dataset = {
      seed: this.opts.seed,
      size: this.opts.size,
      nowMs: this.nowMs,
      today: this.nowDay,
      companies: this.companies,
      pccs: this.pccs,
      accounts: this.accounts,
      consultants: this.consultants,
      travellers: this.travellers,
      appUsers: this.appUsers,
      bookings,
      airSegments: [],
      carSegments: [],
      hotelSegments: [],
      passiveSegments: [],
      tickets: [],
      coupons: [],
      failedSubmissions: [],
      qlogForwards: [],
      partnerLogs: [],
      qcComments: [],
      activities: [],
    };
    for (const b of bookings) {
      for (const s of b.air) ds.airSegments.push(s);
      for (const s of b.cars) ds.carSegments.push(s);
      for (const s of b.hotels) ds.hotelSegments.push(s);
      for (const s of b.passives) ds.passiveSegments.push(s);
      for (const t of b.tickets) ds.tickets.push(t);
    }
    sortFlatLists(ds);
    for (const t of ds.tickets) for (const c of t.coupons) ds.coupons.push(c);
    generateLogs(ds, this.opts.seed);
    // After the logs, and with their own stream: the generated agency stays as it was.
    // The meaning cases first: the duty-of-care bookings stay the last ones (tests find them there).
    appendMeaningCases(ds);
    appendDutyOfCareBookings(ds);
    sortFlatLists(ds);
    return ds;
  }

  // ---------------------------------------------------------------- organisation

  private buildOrganisation(): void {
    const rng = this.rng;
    this.companies = COMPANIES.map((c) => ({ ...c }));
    this.pccs = PCCS.map((p) => {
      const ap = airport(p.airport);
      return {
        code: p.code,
        companyCode: p.companyCode,
        airport: ap,
        countryCode: ap.countryCode,
        offset: ap.offset,
        currency: CURRENCY_BY_COUNTRY[ap.countryCode] ?? 'USD',
        iata: p.iata,
        gds: p.gds,
        crs: p.crs,
      };
    });
    this.accounts = ACCOUNTS.map((a) => ({
      code: a.code,
      name: a.name,
      companyCode: a.companyCode,
      maxTravellers: rng.int(2, 4),
      customFieldNames: ['CostCentre', ...rng.sample(CUSTOM_FIELD_NAMES.slice(1), rng.int(2, 3))],
      costCentres: Array.from({ length: rng.int(3, 6) }, () => `${a.code.slice(0, 3)}-${rng.digits(4)}`),
    }));

    // Consultants: three per PCC, numeric ids, unique initials.
    const usedInitials = new Set<string>();
    let consultantId = 1001;
    for (const pcc of this.pccs) {
      const company = this.companies.find((c) => c.code === pcc.companyCode)!;
      for (let i = 0; i < 3; i++) {
        const female = rng.chance(0.5);
        const first = titleCase(rng.pick(female ? FIRST_NAMES_F : FIRST_NAMES_M));
        const last = titleCase(rng.pick(LAST_NAMES));
        let initials = `${first[0]}${last[0]}`;
        if (usedInitials.has(initials)) initials = `${first[0]}${last[0]}${last[1].toUpperCase()}`;
        while (usedInitials.has(initials)) initials = `${first[0]}${last[0]}${rng.chars('ABCDEFGHKMNPRSTW', 1)}`;
        usedInitials.add(initials);
        this.consultants.push({
          id: String(consultantId),
          firstName: first,
          lastName: last,
          name: `${first} ${last}`,
          initials,
          pcc: pcc.code,
          companyCode: pcc.companyCode,
          team: CONSULTANT_TEAMS[(consultantId + i) % CONSULTANT_TEAMS.length],
          email: `${first.toLowerCase()}.${last.toLowerCase()}@${company.domain}`,
        });
        consultantId += rng.int(1, 7);
      }
    }

    // Travellers: per account, proportional to its weight and the data size.
    const totalWeight = ACCOUNTS.reduce((s, a) => s + a.weight, 0);
    let travellerId = 300_001;
    for (const def of ACCOUNTS) {
      const account = this.accounts.find((a) => a.code === def.code)!;
      const dial = DIAL_CODES[this.companies.find((c) => c.code === def.companyCode)!.countryCode] ?? '44';
      const count = Math.max(8, Math.round((this.opts.size * def.weight) / totalWeight / 7));
      for (let i = 0; i < count; i++) {
        const female = rng.chance(0.5);
        const first = rng.pick(female ? FIRST_NAMES_F : FIRST_NAMES_M);
        const last = rng.pick(LAST_NAMES);
        const isVip = rng.chance(0.08);
        const ffCarriers = rng.sample(
          CARRIERS,
          rng.weighted([
            [0, 3],
            [1, 5],
            [2, 2],
          ] as const),
        );
        this.travellers.push({
          id: travellerId,
          guid: this.guid(),
          title: female ? rng.pick(['MS', 'MRS', 'DR']) : rng.pick(['MR', 'MR', 'MR', 'DR']),
          firstName: first,
          lastName: last,
          account: account.code,
          isVip,
          email:
            `${first.toLowerCase()}.${last.toLowerCase()}${rng.chance(0.3) ? rng.int(2, 99) : ''}` +
            `@${account.code.toLowerCase()}.example`,
          mobile: `+${dial}${rng.digits(dial === '1' ? 10 : 9)}`,
          businessPhone: `+${dial}${rng.digits(dial === '1' ? 10 : 8)}`,
          frequentFlyers: ffCarriers.map((c) => ({ vendor: c.code, number: rng.digits(rng.int(8, 10)) })),
          crm: rng.chance(0.7)
            ? [{ crm: rng.pick(['SALESFORCE', 'DYNAMICS', 'TRAVELPROFILE']), reference: rng.int(100_000, 999_999) }]
            : [],
          costCentre: rng.pick(account.costCentres),
          employeeId: `E${rng.digits(5)}`,
        });
        travellerId += rng.int(1, 4);
      }
    }

    // Application users: a manager and two analysts per company, plus one administrator.
    for (const company of this.companies) {
      for (let i = 0; i < 3; i++) {
        const first = titleCase(rng.pick(i % 2 ? FIRST_NAMES_F : FIRST_NAMES_M));
        const last = titleCase(rng.pick(LAST_NAMES));
        const email = `${first.toLowerCase()}.${last.toLowerCase()}@${company.domain}`;
        if (this.appUsers.some((u) => u.email === email)) continue;
        this.appUsers.push({
          email,
          firstName: first,
          lastName: last,
          companyCodes: [company.code],
          role: i === 0 ? 'manager' : 'analyst',
        });
      }
    }
    this.appUsers.unshift({
      email: `reports.admin@${this.companies[0].domain}`,
      firstName: 'Reports',
      lastName: 'Admin',
      companyCodes: this.companies.map((c) => c.code),
      role: 'admin',
    });
  }

  private consultantsOf(pcc: string): Consultant[] {
    let list = this.consultantsByPcc.get(pcc);
    if (!list) {
      list = this.consultants.filter((c) => c.pcc === pcc);
      this.consultantsByPcc.set(pcc, list);
    }
    return list;
  }

  private guid(): string {
    const h = '0123456789abcdef';
    const r = this.rng;
    return `${r.chars(h, 8)}-${r.chars(h, 4)}-4${r.chars(h, 3)}-${r.chars('89ab', 1)}${r.chars(h, 3)}-${r.chars(h, 12)}`;
  }

  private recordLocator(): string {
    for (;;) {
      const rl = this.rng.chars(LOCATOR_CHARS, 6);
      if (!this.locators.has(rl)) {
        this.locators.add(rl);
        return rl;
      }
    }
  }

  // ---------------------------------------------------------------- bookings

  private buildBookings(): Booking[] {
    const rng = this.rng;
    const accountWeights = ACCOUNTS.map((a) => [a.code, a.weight] as const);
    const accountByCode = new Map(this.accounts.map((a) => [a.code, a]));
    const travellersByAccount = new Map<string, Traveller[]>();
    for (const t of this.travellers) {
      const list = travellersByAccount.get(t.account) ?? [];
      list.push(t);
      travellersByAccount.set(t.account, list);
    }

    // Pass 1: who and when, then sort by creation so ServiceRef grows with time.
    const drafts: Array<{ account: Account; pcc: Pcc; createdMs: number }> = [];
    for (let i = 0; i < this.opts.size; i++) {
      const account = accountByCode.get(rng.weighted(accountWeights))!;
      const pccs = this.pccs.filter((p) => p.companyCode === account.companyCode);
      const pcc = pccs[rng.chance(0.7) ? 0 : rng.int(0, pccs.length - 1)];
      const day = this.nowDay - rng.int(0, 365);
      const minute = rng.int(7 * 60, 20 * 60 - 1);
      let createdMs = day * DAY_MS + minute * MINUTE_MS - pcc.offset * MINUTE_MS + rng.int(0, 59) * 1000;
      while (createdMs > this.nowMs) createdMs -= DAY_MS;
      drafts.push({ account, pcc, createdMs });
    }
    drafts.sort((a, b) => a.createdMs - b.createdMs);

    const bookings: Booking[] = [];
    let serviceRef = 7_100_000 + rng.int(0, 9999);
    drafts.forEach((d, index) => {
      serviceRef += rng.int(1, 3);
      const company = this.companies.find((c) => c.code === d.account.companyCode)!;
      const consultants = this.consultantsOf(d.pcc.code);
      const consultant = rng.pick(consultants);
      const pool = travellersByAccount.get(d.account.code)!;
      const paxCount = Math.min(
        pool.length,
        rng.weighted([
          [1, 80],
          [2, 15],
          [3, 5],
        ] as const),
      );
      const booking: Booking = {
        index,
        serviceRef,
        recordLocator: this.recordLocator(),
        createdMs: d.createdMs,
        createdDay: localDay(d.createdMs, d.pcc.offset),
        company,
        pcc: d.pcc,
        account: d.account,
        consultant,
        lastActionConsultant: rng.chance(0.75) ? consultant : rng.pick(consultants),
        passengers: rng.sample(pool, paxCount),
        ...emptyBookingLists(),
        cancelled: rng.chance(0.04),
        destination: null,
        travelDay: null,
        endDay: null,
        trackingCode: `TRK${rng.digits(7)}`,
        tourCode: rng.chance(0.08) ? `IT${rng.digits(6)}` : undefined,
      };
      this.buildTrip(booking);
      this.finishBooking(booking);
      bookings.push(booking);
    });
    return bookings;
  }

  private leadDays(): number {
    return Math.min(180, Math.floor(-Math.log(1 - this.rng.next()) * 28));
  }

  private buildTrip(b: Booking): void {
    const rng = this.rng;
    const kind = rng.weighted([
      ['air', 72],
      ['hotel', 14],
      ['car', 7],
      ['rail', 4],
      ['misc', 3],
    ] as const);
    const start = b.createdDay + this.leadDays();
    if (kind === 'air') {
      const trip = this.cloneColleagueTrip(b) ?? this.newAirTrip(b, start);
      const dest = trip.dest;
      b.destination = dest;
      const lastOut = b.air.filter((s) => s.outbound).at(-1)!;
      const firstBack = b.air.find((s) => !s.outbound);
      const nights = firstBack ? Math.max(1, firstBack.depDay - lastOut.arrDay) : rng.int(1, 4);
      if (rng.chance(0.6)) this.addHotel(b, dest, lastOut.arrDay, lastOut.arrDay + nights);
      if (rng.chance(0.3)) {
        const dropDay = firstBack ? firstBack.depDay : lastOut.arrDay + nights;
        const dropMin = firstBack ? Math.max(6 * 60, firstBack.depMin - 120) : rng.int(8, 18) * 60;
        this.addCar(b, dest, lastOut.arrDay, Math.min(23 * 60 + 30, lastOut.arrMin + 45), dropDay, dropMin);
      }
      if (rng.chance(0.1))
        this.addPassive(b, 'MIS', (firstBack?.arrDay ?? lastOut.arrDay) + 30, b.pcc.airport.cityCode);
    } else if (kind === 'hotel') {
      const dest = this.nearbyCity(b.pcc.airport);
      b.destination = dest;
      const nights = rng.weighted([
        [1, 5],
        [2, 4],
        [3, 3],
        [4, 2],
        [5, 1],
      ] as const);
      this.addHotel(b, dest, start, start + nights);
      if (rng.chance(0.2)) this.addCar(b, dest, start, rng.int(8, 16) * 60, start + nights, rng.int(8, 18) * 60);
    } else if (kind === 'car') {
      const where = rng.chance(0.6) ? b.pcc.airport : this.nearbyCity(b.pcc.airport);
      b.destination = where;
      this.addCar(b, where, start, rng.int(7, 18) * 60, start + rng.int(1, 5), rng.int(8, 20) * 60);
    } else if (kind === 'rail') {
      this.addPassive(b, 'TRN', start, b.pcc.airport.cityCode);
    } else {
      const dest = this.nearbyCity(b.pcc.airport);
      b.destination = dest;
      this.addPassive(b, rng.chance(0.5) ? 'TUR' : 'INS', start, dest.cityCode);
    }
  }

  /** Another airport: mostly in the same region, sometimes anywhere; never the same city. */
  private nearbyCity(home: Airport): Airport {
    let lists = this.nearbyCache.get(home.cityCode);
    if (!lists) {
      lists = {
        same: AIRPORTS.filter((a) => a.region === home.region && a.cityCode !== home.cityCode),
        other: AIRPORTS.filter((a) => a.cityCode !== home.cityCode),
      };
      this.nearbyCache.set(home.cityCode, lists);
    }
    return this.rng.pick(lists.same.length > 0 && this.rng.chance(0.7) ? lists.same : lists.other);
  }

  /** Any airport in another city. */
  private elsewhere(home: Airport): Airport {
    this.nearbyCity(home); // fills the cache (and draws like the other branch would)
    return this.rng.pick(this.nearbyCache.get(home.cityCode)!.other);
  }

  /** Sometimes a colleague from the same account takes the same flights (MaxTravellerCount cases). */
  private cloneColleagueTrip(b: Booking): { dest: Airport } | null {
    const recent = this.recentAir.get(b.account.code) ?? [];
    if (recent.length === 0 || !this.rng.chance(0.15)) return null;
    const source = this.rng.pick(recent);
    if (source.air.length === 0 || source.air[0].depDay <= b.createdDay || source.cancelled) return null;
    for (const s of source.air) this.pushAir(b, this.flightOf(s), s.depDay, s.outbound, s.bookingCode, s.cabin);
    return { dest: source.destination ?? source.air[0].to };
  }

  private flightOf(s: AirSegment): FlightDef {
    return this.flights.get(`${s.carrier.code}${s.from.code}${s.to.code}`)!;
  }

  private newAirTrip(b: Booking, start: number): { dest: Airport } {
    const rng = this.rng;
    const origin = rng.chance(0.8) ? b.pcc.airport : this.nearbyCity(b.pcc.airport);
    const dest = rng.chance(0.55) ? this.nearbyCity(origin) : this.elsewhere(origin);
    const vip = b.passengers.some((p) => p.isVip);
    const [code, cabin] = rng.weighted(vip ? CLASS_WEIGHTS_VIP : CLASS_WEIGHTS);
    const legs = this.route(origin, dest);
    // The first flight leaves at least two hours after the booking is made.
    const first = this.flight(legs[0][0], legs[0][1], legs[0][2]);
    let day = start;
    while (day * DAY_MS + (first.depMin - first.from.offset) * MINUTE_MS < b.createdMs + 2 * HOUR_MS) day += 1;
    let prevArr = 0;
    for (const [i, [carrier, from, to]] of legs.entries()) {
      const f = this.flight(carrier, from, to);
      const seg =
        i === 0 ? this.pushAir(b, f, day, true, code, cabin) : this.pushAirAfter(b, f, prevArr, true, code, cabin);
      prevArr = seg.arrUtc;
      day = seg.arrDay;
    }
    if (!rng.chance(0.15)) {
      const nights = rng.weighted([
        [1, 4],
        [2, 5],
        [3, 4],
        [4, 3],
        [5, 2],
        [7, 1],
        [10, 1],
      ] as const);
      const back = legs
        .slice()
        .reverse()
        .map(([c, from, to]) => [c, to, from] as const);
      for (const [i, [carrier, from, to]] of back.entries()) {
        const f = this.flight(carrier, from, to);
        const seg =
          i === 0
            ? this.pushAir(b, f, day + nights, false, code, cabin)
            : this.pushAirAfter(b, f, prevArr, false, code, cabin);
        prevArr = seg.arrUtc;
      }
    }
    const recent = this.recentAir.get(b.account.code) ?? [];
    recent.push(b);
    if (recent.length > 6) recent.shift();
    this.recentAir.set(b.account.code, recent);
    return { dest };
  }

  /** One or two legs on one carrier: direct where a carrier has a hub at either end. */
  private route(o: Airport, d: Airport): Array<readonly [Carrier, Airport, Airport]> {
    const rng = this.rng;
    let options = this.routeCache.get(o.code + d.code);
    if (!options) {
      options = {
        direct: CARRIERS.filter((c) => c.hubs.includes(o.code) || c.hubs.includes(d.code)),
        connecting: CARRIERS.filter((c) =>
          c.hubs.some((h) => {
            const hub = airport(h);
            return (
              hub.cityCode !== o.cityCode &&
              hub.cityCode !== d.cityCode &&
              (hub.region === o.region || hub.region === d.region)
            );
          }),
        ),
      };
      this.routeCache.set(o.code + d.code, options);
    }
    const { direct, connecting } = options;
    if (direct.length > 0 && (o.region === d.region || rng.chance(0.75))) {
      return [[rng.pick(direct), o, d]];
    }
    const carrier = connecting.length > 0 ? rng.pick(connecting) : rng.pick(CARRIERS);
    const hubs = carrier.hubs.map(airport).filter((h) => h.cityCode !== o.cityCode && h.cityCode !== d.cityCode);
    if (hubs.length === 0) return [[carrier, o, d]];
    const via = rng.pick(hubs);
    return [
      [carrier, o, via],
      [carrier, via, d],
    ];
  }

  /** The scheduled flight of a carrier between two airports: created on first use, then fixed. */
  private flight(carrier: Carrier, from: Airport, to: Airport): FlightDef {
    const key = `${carrier.code}${from.code}${to.code}`;
    const known = this.flights.get(key);
    if (known) return known;
    const rng = this.rng;
    let number: string;
    const reverse = this.flights.get(`${carrier.code}${to.code}${from.code}`);
    const paired = reverse ? String(Number(reverse.number) + 1) : '';
    if (paired && !this.usedFlightNumbers.has(carrier.code + paired)) {
      number = paired;
    } else {
      const counter = (this.flightCounters.get(carrier.code) ?? rng.int(2, 9) * 10) + rng.int(1, 12) * 2;
      this.flightCounters.set(carrier.code, counter);
      number = String(counter);
    }
    this.usedFlightNumbers.add(carrier.code + number);
    const km = distanceKm(from, to);
    const codeshares = CARRIERS.filter(
      (c) => c !== carrier && (c.hubs.includes(from.code) || c.hubs.includes(to.code)),
    );
    const def: FlightDef = {
      carrier,
      operating: codeshares.length > 0 && rng.chance(0.08) ? rng.pick(codeshares) : carrier,
      number: number.padStart(3, '0'),
      from,
      to,
      depMin: rng.int(6 * 12, 22 * 12) * 5,
      durationMin: Math.round((km / 830) * 12 + 7) * 5,
      km,
      equipment: rng.pick(km > 3500 ? EQUIPMENT_LONG : EQUIPMENT_SHORT),
    };
    this.flights.set(key, def);
    return def;
  }

  private pushAir(
    b: Booking,
    f: FlightDef,
    depDay: number,
    outbound: boolean,
    code: string,
    cabin: string,
  ): AirSegment {
    const depUtc = depDay * DAY_MS + f.depMin * MINUTE_MS - f.from.offset * MINUTE_MS;
    return this.addAirSegment(b, f, depUtc, outbound, code, cabin);
  }

  /** The first departure of the flight at least an hour after the previous arrival. */
  private pushAirAfter(
    b: Booking,
    f: FlightDef,
    prevArrUtc: number,
    outbound: boolean,
    code: string,
    cabin: string,
  ): AirSegment {
    let day = localDay(prevArrUtc, f.from.offset);
    let depUtc = day * DAY_MS + f.depMin * MINUTE_MS - f.from.offset * MINUTE_MS;
    while (depUtc < prevArrUtc + HOUR_MS) {
      day += 1;
      depUtc += DAY_MS;
    }
    return this.addAirSegment(b, f, depUtc, outbound, code, cabin);
  }

  private addAirSegment(
    b: Booking,
    f: FlightDef,
    depUtc: number,
    outbound: boolean,
    code: string,
    cabin: string,
  ): AirSegment {
    const rng = this.rng;
    const arrUtc = depUtc + f.durationMin * MINUTE_MS;
    const status = b.cancelled
      ? 'HX'
      : rng.chance(0.025)
        ? rng.pick(PROBLEM_STATUSES)
        : rng.chance(0.015)
          ? 'TK'
          : 'HK';
    const seg: AirSegment = {
      kind: 'air',
      booking: b,
      nbr: 0,
      airNbr: 0,
      status,
      carrier: f.carrier,
      operatingCarrier: f.operating,
      flightNbr: f.number,
      from: f.from,
      to: f.to,
      depDay: localDay(depUtc, f.from.offset),
      depMin: localMinutes(depUtc, f.from.offset),
      arrDay: localDay(arrUtc, f.to.offset),
      arrMin: localMinutes(arrUtc, f.to.offset),
      depUtc,
      arrUtc,
      durationMin: f.durationMin,
      bookingCode: code,
      cabin,
      equipment: f.equipment,
      km: f.km,
      connection: false,
      outbound,
      seats: rng.chance(0.6)
        ? b.passengers.map(() => `${rng.int(1, 58)}${rng.pick(['A', 'C', 'D', 'F', 'H', 'K'])}`)
        : [],
    };
    b.air.push(seg);
    return seg;
  }

  private addCar(b: Booking, where: Airport, pickDay: number, pickMin: number, dropDay: number, dropMin: number): void {
    const rng = this.rng;
    const passive = rng.chance(0.1);
    const days = Math.max(1, dropDay - pickDay);
    const currency = CURRENCY_BY_COUNTRY[where.countryCode] ?? 'USD';
    const vendor = rng.weighted(CAR_VENDORS.map((v, i) => [v, 10 - i] as const));
    const status = b.cancelled || rng.chance(0.05) ? 'HX' : passive ? 'GK' : rng.chance(0.015) ? 'UC' : 'HK';
    b.cars.push({
      kind: 'car',
      booking: b,
      nbr: 0,
      carNbr: 0,
      status,
      vendor,
      airport: where,
      pickDay,
      pickMin,
      dropDay: Math.max(dropDay, pickDay),
      dropMin,
      passive,
      carType: rng.pick(CAR_TYPES),
      rateType: days >= 5 ? 'W' : 'D',
      rateCode: rng.pick(['CORP', 'RAC', 'BEST', 'GOV', `${b.account.code.slice(0, 3)}01`]),
      rateAmount: toCurrency(rng.int(35, 130) * (days >= 5 ? 5 : 1), currency),
      currency,
      confirmation: `${vendor.code[0]}${rng.digits(9)}COUNT`.slice(0, 12),
      yieldNbr: rng.digits(6),
    });
  }

  private property(city: Airport): Property {
    let list = this.properties.get(city.cityCode);
    if (!list) {
      const rng = this.rng;
      list = [];
      const chains = rng.sample(HOTEL_CHAINS, rng.int(4, 7));
      for (const chain of chains) {
        const brand = rng.pick(chain.brands);
        const suffix = rng.pick(['', ' Airport', ' City Centre', ' Central', ' Downtown', ' Riverside']);
        list.push({
          chain,
          number: rng.digits(5),
          name: `${brand} ${city.cityName}${suffix}`,
          address: `${rng.int(1, 300)} ${rng.pick(STREETS)}, ${city.cityName} ${city.countryCode}`,
          phone: `+${DIAL_CODES[city.countryCode] ?? '1'} ${rng.digits(4)} ${rng.digits(4)}`,
          city,
        });
      }
      this.properties.set(city.cityCode, list);
    }
    return this.rng.pick(list);
  }

  private addHotel(b: Booking, city: Airport, arrDay: number, depDay: number): void {
    const rng = this.rng;
    const property = this.property(city);
    const nights = Math.max(1, depDay - arrDay);
    const currency = CURRENCY_BY_COUNTRY[city.countryCode] ?? 'USD';
    const cancelled = b.cancelled || rng.chance(0.06);
    const passive = !cancelled && rng.chance(0.15);
    const status = cancelled ? 'HX' : passive ? 'GK' : rng.chance(0.015) ? 'UC' : 'HK';
    const commissionable = rng.weighted([
      [true, 7],
      [false, 2],
      [null, 1],
    ] as const);
    const createdMs = rng.chance(0.05) ? null : Math.min(this.nowMs, b.createdMs + rng.int(0, 48 * 60) * MINUTE_MS);
    b.hotels.push({
      kind: 'hotel',
      booking: b,
      nbr: 0,
      hotelNbr: 0,
      status,
      property,
      arrDay,
      depDay: arrDay + nights,
      nights,
      passive,
      cancelled,
      gds: passive ? rng.chance(0.4) : rng.chance(0.93),
      rate: toCurrency(property.chain.tier * rng.int(45, 95), currency),
      currency,
      rooms: rng.chance(0.95) ? 1 : 2,
      confirmation: `${property.chain.code}${rng.digits(8)}`,
      createdMs,
      commissionable,
      commission: commissionable === null ? undefined : commissionable ? rng.pick(['10%', '8%', '5%']) : 'NON',
      rateAccessCode: rng.chance(0.8)
        ? rng.pick(['RAC', 'COR', 'GOV', 'AAA', `${b.account.code.slice(0, 3)}`])
        : undefined,
      roomCode: rng.pick(['A1K', 'A1Q', 'B1K', 'C2D', 'A1D']),
      multiLevelRateCode: rng.pick(['RAC', 'COR', 'NEG', 'ADV']),
      notepad: rng.chance(0.3)
        ? rng.pick([
            'LATE ARRIVAL GUARANTEED',
            'NON SMOKING ROOM REQUESTED',
            'BREAKFAST INCLUDED IN RATE',
            'EARLY CHECK IN REQUESTED',
            'COMPANY RATE APPLIES',
          ])
        : undefined,
      cancellationRef: cancelled ? `CXL${rng.digits(8)}` : undefined,
    });
  }

  private addPassive(b: Booking, type: PassiveSegment['type'], startDay: number, cityCode: string): void {
    const rng = this.rng;
    let vendor = 'ZZ';
    let text = 'RETENTION LINE';
    let endDay = startDay;
    let confirmation: string | undefined;
    let rateQuoted: string | undefined;
    if (type === 'TRN') {
      const [v, t] = rng.pick([
        ['2C', 'EUROSTAR LONDON ST PANCRAS-PARIS NORD'],
        ['DB', 'ICE FRANKFURT HBF-MUENCHEN HBF'],
        ['SN', 'SNCF PARIS GARE DE LYON-LYON PART DIEU'],
        ['2R', 'VIA RAIL TORONTO UNION-MONTREAL CENTRAL'],
      ] as const);
      vendor = v;
      text = t;
      confirmation = rng.chars(LOCATOR_CHARS, 6);
      rateQuoted = `${rng.int(60, 300)}.00`;
    } else if (type === 'TUR') {
      vendor = rng.pick(['VI', 'GY', 'TX']);
      text = rng.pick(['CITY TOUR HALF DAY', 'AIRPORT TRANSFER SEDAN', 'CONFERENCE PACKAGE 3 DAYS']);
      endDay = startDay + rng.int(0, 3);
      confirmation = rng.digits(8);
      rateQuoted = `${rng.int(40, 900)}.00`;
    } else if (type === 'INS') {
      vendor = rng.pick(['AX', 'AL']);
      text = `TRAVEL INSURANCE POLICY ${rng.digits(9)}`;
      endDay = startDay + rng.int(2, 14);
      confirmation = rng.digits(9);
    }
    b.passives.push({
      kind: 'passive',
      booking: b,
      nbr: 0,
      status: b.cancelled ? 'HX' : 'GK',
      type,
      startDay,
      endDay,
      vendor,
      cityCode,
      text,
      confirmation,
      rateQuoted,
    });
  }

  /** Numbering, custom fields, vendor locators, tickets. */
  private finishBooking(b: Booking): void {
    const rng = this.rng;
    const startKey = (s: Segment): number => {
      switch (s.kind) {
        case 'air':
          return s.depUtc;
        case 'car':
          return s.pickDay * DAY_MS + s.pickMin * MINUTE_MS;
        case 'hotel':
          return s.arrDay * DAY_MS + 23 * HOUR_MS;
        case 'passive':
          return s.startDay * DAY_MS + 23 * HOUR_MS + 30 * MINUTE_MS;
      }
    };
    b.air.sort((x, y) => x.depUtc - y.depUtc);
    b.air.forEach((s, i) => {
      s.airNbr = i + 1;
      const next = b.air[i + 1];
      s.connection =
        !!next && next.outbound === s.outbound && next.from.code === s.to.code && next.depUtc - s.arrUtc < DAY_MS;
    });
    b.cars.forEach((s, i) => (s.carNbr = i + 1));
    b.hotels.forEach((s, i) => (s.hotelNbr = i + 1));
    b.segments = [...b.air, ...b.cars, ...b.hotels, ...b.passives].sort((x, y) => startKey(x) - startKey(y));
    b.segments.forEach((s, i) => (s.nbr = i + 1));
    // Segment numbers settle only now; keep each kind's own order consistent with them.
    b.hotels.sort((x, y) => x.nbr - y.nbr).forEach((s, i) => (s.hotelNbr = i + 1));
    b.cars.sort((x, y) => x.nbr - y.nbr).forEach((s, i) => (s.carNbr = i + 1));

    const starts: number[] = [];
    const ends: number[] = [];
    for (const s of b.segments) {
      switch (s.kind) {
        case 'air':
          starts.push(s.depDay);
          ends.push(s.arrDay);
          break;
        case 'car':
          starts.push(s.pickDay);
          ends.push(s.dropDay);
          break;
        case 'hotel':
          starts.push(s.arrDay);
          ends.push(s.depDay);
          break;
        case 'passive':
          starts.push(s.startDay);
          ends.push(s.endDay);
          break;
      }
    }
    b.travelDay = starts.length ? Math.min(...starts) : null;
    b.endDay = ends.length ? Math.max(...ends) : null;

    const lead = b.passengers[0];
    b.customFields = b.account.customFieldNames.map((name) => {
      const id = CUSTOM_FIELD_NAMES.indexOf(name) + 1;
      let value: string;
      switch (name) {
        case 'CostCentre':
          value = lead?.costCentre ?? rng.pick(b.account.costCentres);
          break;
        case 'ProjectCode':
          value = `P${rng.digits(4)}`;
          break;
        case 'EmployeeID':
          value = lead?.employeeId ?? `E${rng.digits(5)}`;
          break;
        case 'Department':
          value = rng.pick(DEPARTMENTS);
          break;
        case 'TripReason':
          value = rng.pick(TRIP_REASONS);
          break;
        default:
          value = `approvals@${b.account.code.toLowerCase()}.example`;
      }
      return { id, name, value };
    });

    const carriers = [...new Set(b.air.map((s) => s.carrier.code))];
    b.vendorLocators = carriers.map((carrier) => ({ carrier, locator: rng.chars(LOCATOR_CHARS, 6) }));

    this.buildTickets(b);
  }

  // ---------------------------------------------------------------- tickets

  private nextTicketNumber(plating: Carrier): string {
    this.ticketCounter += this.rng.int(1, 40);
    return `${plating.numeric}${String(this.ticketCounter).padStart(10, '0')}`;
  }

  private buildTickets(b: Booking): void {
    const rng = this.rng;
    if (b.air.length === 0 || b.cancelled) return;
    const firstDep = b.air[0].depUtc;
    let issueMs = b.createdMs + rng.int(5, 48 * 60) * MINUTE_MS;
    if (issueMs > firstDep - 2 * HOUR_MS) issueMs = b.createdMs + 10 * MINUTE_MS;
    if (issueMs > this.nowMs || issueMs > firstDep || !rng.chance(0.88)) return;
    issueMs = Math.floor(issueMs / 1000) * 1000;

    const plating = b.air[0].carrier;
    const currency = b.pcc.currency;
    const totalKm = b.air.reduce((s, x) => s + x.km, 0);
    const perKm = { Economy: 0.09, 'Premium Economy': 0.16, Business: 0.32, First: 0.5 }[b.air[0].cabin] ?? 0.1;
    const originCountry = b.air[0].from.countryCode;
    const taxCodes = (
      { GB: ['GB', 'UB'], US: ['US', 'XF', 'AY'], SG: ['SG', 'L7', 'OP'], AU: ['AU', 'WY'], IE: ['EI'] } as Record<
        string,
        string[]
      >
    )[originCountry] ?? ['XT'];
    const agent = rng.chance(0.7) ? b.consultant : rng.pick(this.consultantsOf(b.pcc.code));
    const fop = rng.weighted([
      ['CCVI', 4],
      ['CCCA', 3],
      ['CCAX', 3],
      ['INV', 2],
      ['CASH', 1],
    ] as const);
    const fareBasisSuffix = rng.pick(['LOW', 'FLEX', 'SAVER', 'STD', 'RT']);

    b.passengers.forEach((pax, paxIndex) => {
      const baseFare = toCurrency(Math.max(60, totalKm * perKm * (0.8 + rng.next() * 0.5)), currency);
      const taxes = [...taxCodes, ...rng.sample(['YQ', 'YR', 'QX'], rng.int(1, 2))].slice(0, 5).map((code) => ({
        code,
        amount: toCurrency(rng.int(8, 180), currency),
      }));
      const totalTax = money(taxes.reduce((s, t) => s + t.amount, 0));
      const fate = rng.weighted([
        ['ok', 92],
        ['void', 2],
        ['exch', 4],
        ['refund', 2],
      ] as const);
      const ticket = this.makeTicket(
        b,
        pax,
        plating,
        issueMs,
        agent,
        fop,
        currency,
        baseFare,
        taxes,
        totalTax,
        paxIndex,
      );
      const fareBasis = `${b.air[0].bookingCode}${fareBasisSuffix}${originCountry}`;
      const reissueMs = issueMs + rng.int(1, 10) * DAY_MS + rng.int(0, 600) * MINUTE_MS;
      if (fate === 'void') {
        ticket.status = 'VOID';
        this.addCoupons(ticket, fareBasis, () => 'CVID');
      } else if (fate === 'refund' && reissueMs < this.nowMs && reissueMs < firstDep) {
        ticket.status = 'REFUNDED';
        this.addCoupons(ticket, fareBasis, () => 'MFRD');
      } else if (fate === 'exch' && reissueMs < this.nowMs && reissueMs < firstDep) {
        const reissued = this.makeTicket(
          b,
          pax,
          plating,
          reissueMs,
          agent,
          fop,
          currency,
          money(baseFare * 1.1),
          taxes,
          totalTax,
          paxIndex,
        );
        ticket.status = 'EXCHANGED';
        ticket.exchangedFor = reissued.number;
        reissued.exchangeOf = ticket.number;
        this.addCoupons(ticket, fareBasis, () => 'EXCH');
        this.addCoupons(reissued, fareBasis, (s) => this.regularStatus(s));
      } else {
        this.addCoupons(ticket, fareBasis, (s) => this.regularStatus(s));
      }
    });
    b.tickets.sort((x, y) => x.issueMs - y.issueMs || (x.number < y.number ? -1 : 1));
    b.tickets.forEach((t, i) => (t.elementNbr = i + 1));
  }

  private makeTicket(
    b: Booking,
    pax: Traveller,
    plating: Carrier,
    issueMs: number,
    agent: Consultant,
    fop: string,
    currency: string,
    baseFare: number,
    taxes: Ticket['taxes'],
    totalTax: number,
    paxIndex: number,
  ): Ticket {
    const t: Ticket = {
      booking: b,
      number: this.nextTicketNumber(plating),
      passenger: pax,
      plating,
      issueMs,
      issueDay: localDay(issueMs, b.pcc.offset),
      agent,
      fop,
      currency,
      baseFare,
      taxes,
      totalTax,
      total: money(baseFare + totalTax),
      coupons: [],
      status: 'ISSUED',
      elementNbr: paxIndex + 1,
    };
    b.tickets.push(t);
    return t;
  }

  private regularStatus(s: AirSegment): CouponStatus {
    if (s.depUtc >= this.nowMs) return 'OPEN';
    return this.rng.chance(0.04) ? 'OPEN' : 'USED';
  }

  private addCoupons(t: Ticket, fareBasis: string, status: (s: AirSegment) => CouponStatus): void {
    const rng = this.rng;
    const totalKm = t.booking.air.reduce((s, x) => s + x.km, 0) || 1;
    for (const s of t.booking.air) {
      const st = status(s);
      let lastChecked =
        st === 'USED'
          ? Math.min(this.nowMs, s.arrUtc + rng.int(6, 30) * HOUR_MS)
          : this.nowMs - rng.int(1, 72) * HOUR_MS;
      lastChecked = Math.max(lastChecked, t.issueMs);
      this.couponCounter += rng.int(1, 3);
      t.coupons.push({
        id: this.couponCounter,
        ticket: t,
        seq: s.airNbr,
        segment: s,
        status: st,
        lastCheckedMs: Math.floor(lastChecked / MINUTE_MS) * MINUTE_MS,
        fareBasis,
        creditValue: st === 'OPEN' && s.depUtc < this.nowMs ? money((t.baseFare * s.km) / totalKm) : 0,
      });
    }
  }
}

/** The flat lists in the order their reports use (see Dataset); ties by ServiceRef, then segment. */
function sortFlatLists(ds: Dataset): void {
  ds.airSegments.sort(
    (a, b) =>
      a.depDay - b.depDay || a.depMin - b.depMin || a.booking.serviceRef - b.booking.serviceRef || a.nbr - b.nbr,
  );
  ds.carSegments.sort(
    (a, b) =>
      a.pickDay - b.pickDay || a.pickMin - b.pickMin || a.booking.serviceRef - b.booking.serviceRef || a.nbr - b.nbr,
  );
  ds.hotelSegments.sort((a, b) => a.arrDay - b.arrDay || a.booking.serviceRef - b.booking.serviceRef || a.nbr - b.nbr);
  ds.passiveSegments.sort(
    (a, b) => a.startDay - b.startDay || a.booking.serviceRef - b.booking.serviceRef || a.nbr - b.nbr,
  );
  ds.tickets.sort((a, b) => a.issueMs - b.issueMs || (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
}

export function generateDataset(options: DatasetOptions): Dataset {
  return new Generator(options).run();
}

/**
 * The dataset for these options, shared by the sandboxes of one process (most recent two
 * kept): tests and tools that start many sandboxes with the same seed pay for one. Shared
 * means read-only: nothing in the sandbox mutates a dataset after generation.
 */
const shared: Array<{ key: string; ds: Dataset }> = [];
export function sharedDataset(options: DatasetOptions): Dataset {
  const key = `${options.seed}|${options.size}|${options.dataNow.getTime()}`;
  const at = shared.findIndex((e) => e.key === key);
  if (at >= 0) {
    const [hit] = shared.splice(at, 1);
    shared.unshift(hit);
    return hit.ds;
  }
  const ds = generateDataset(options);
  shared.unshift({ key, ds });
  if (shared.length > 2) shared.pop();
  return ds;
}
