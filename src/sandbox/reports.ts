/**
 * The service's public transactions (docs/upstream.md): their paths, verbs, marks, envelope
 * kind, parameters, and how each derives its records from the one dataset.
 *
 * Choices where the spec is silent (also listed in the sandbox's report to the lead):
 * - FindBookings (params not shown): RecordLocator, PassengerLastName (prefix, any passenger),
 *   Account (list), DateStart/DateEnd (PNR creation date, YYYYMMDD), plus OwningCompanyCode and
 *   UserName; answers BookingDetail scalars plus Passengers.
 * - FindBookings and TicketsIssuedByNumber are not marked P: they ignore Offset/Limit and
 *   answer every matching record (HasPaging false, no PagingMetadata).
 * - TicketsIssuedByNumber (params not shown): TicketNumber (comma list), DateStart/DateEnd
 *   (issue date), Account, plus company scope; one record per ticket (see records.ts).
 * - Date ranges are inclusive and compare calendar dates as written in the record (a PNR
 *   creation time in the owning PCC's offset, a flight's local departure date).
 * - UserName/Username must name a known application user (dataset.appUsers); the request is
 *   then limited to that user's owning companies. An unknown one is an 'InvalidUserName' error.
 * - BookingDetails without LoadOptions returns the scalars plus Passengers and Itinerary.
 * - Cancelled hotel segments appear in HotelSegments only with DateSearchType S and
 *   IncludeCancelled=1; HotelSegmentCountsPerLocation counts exactly the default
 *   HotelSegments result (arrival dates, no cancelled) for the same dates and user.
 * - "Active" (BookingsWithActiveSegments, NoActiveSegments): status HK/KK/TK/GK/RR and not yet
 *   ended (relative to the data's anchor, dataNow).
 * - QcCommentsForConsultant: DateByComments=true makes DateStart/DateEnd and the order apply
 *   to the comment date; otherwise they apply to the PNR creation date.
 * - DistributorID filters on the owning company's numeric id; IncludeItinerary=true adds an
 *   ItineraryFormatted member formatted per ItineraryFormatting.
 * - FlightCouponStatus accepts the one-letter codes O, U, E, V, R or the statuses OPEN, USED,
 *   EXCH, CVID, MFRD. CouponCodeGroup accepts ALL, ALL OPEN (= OPEN), or any of those statuses
 *   (comma list). Coupon statuses: USED flown, OPEN not yet flown (or unflown past: credit),
 *   EXCH exchanged for a reissue, CVID voided, MFRD refunded.
 * - TicketCouponsByStatusCode: one record per coupon; ShowMatchingCouponsOnly=false adds the
 *   other coupons of each matching ticket; PaxSurname is exact unless IncludePartialMatches
 *   (prefix); ExcludedPlatingCarrier takes numeric (618) or two-letter (SQ) codes; RN is the
 *   1-based row number in the whole result. Repeat, CacheGuid, RequestConsultantID, FormatStyle
 *   are accepted and ignored.
 * - CarSegmentsByDate SegmentType matches CarSegmentType (Active or Passive). PNRSegments
 *   SegmentType is a list of Air, Car, Hotel, Passive (also AIR, CAR, HTL, PAS); lists not asked
 *   for are answered empty. PassiveSegmentType filters PassiveSegments by type (MIS, TUR, TRN, INS).
 * - QLogForward CompanyID is the owning company's numeric id; QueueEntryID matches the queue
 *   entry the forward came from (dataset.qlogForwards[].queueEntryId, not a record field).
 * - PassengerLocationsByRouting: one record per (not cancelled) air segment; From* match the
 *   board point, To* the off point; region codes EUR, AME, MEA, ASP; subregions WEU, NEU, SEU,
 *   NAM, SAM, MDE, SAF, SAS, SEA, NEA, ANZ.
 * - PassengerAirSegmentsWithMaxTravellerFlag: one record per passenger per (not cancelled) air
 *   segment; TravellerCount counts the account's passengers on that flight that day.
 */
import {
  bookingDetail,
  bookingScalars,
  DEFAULT_LOAD_OPTIONS,
  type JsonRecord,
  LOAD_OPTIONS,
  passengersList,
  pnrSegmentsReport,
} from './booking-detail.js';
import {
  ACTIVE_STATUSES,
  type AirSegment,
  type AppUser,
  type Booking,
  type Coupon,
  type Dataset,
  type HotelSegment,
  PROBLEM_STATUS_SET,
  type Segment,
  type Traveller,
} from './data.js';
import { localDay } from './days.js';
import {
  airSegmentByDate,
  appUserActivity,
  bookingByAirlineWithClass,
  bookingWithActiveSegments,
  carSegmentRecord,
  checkFailedSubmission,
  hotelSegmentRecord,
  partnerForwardingLog,
  passengerAirSegment,
  passengerArrival,
  passengerLocationRouting,
  problematicSegment,
  qcComment,
  qlogForwardItem,
  segmentDay,
  ticketCouponIssued,
  ticketCouponStatusRecord,
  ticketIssued,
} from './records.js';
import { type ParamDefs, type ParsedParams, parseParams, SandboxError } from './validate.js';

export interface ReportContext {
  ds: Dataset;
  p: ParsedParams;
  /** Owning companies in scope (OwningCompanyCode and the user's rights), or null for all. */
  companies: ReadonlySet<string> | null;
  user: AppUser | null;
}

export interface ReportDef<Row = unknown> {
  transaction: string;
  /** Paths, first the canonical one. */
  paths: readonly string[];
  verbs: 'GET' | 'ALL';
  /** Marked A: the Accept header must ask for application/json when JSON is answered. */
  accept: boolean;
  /** Takes OwningCompanyCode. */
  company: boolean;
  /** Marked P: Offset/Limit paging. Unmarked transactions answer every record at once. */
  paging: boolean;
  /** Other names the transaction goes by (report() lookups). */
  aliases?: readonly string[];
  /** The parameter naming an application user, if any. */
  userParam?: 'UserName' | 'Username';
  envelope: 'item' | 'collection';
  params: ParamDefs;
  ranges: ReadonlyArray<readonly [string, string]>;
  select(ctx: ReportContext): Row[];
  /** `index`: the row's 0-based position in the whole result. */
  render(row: Row, ctx: ReportContext, index: number): JsonRecord;
}

function def<Row>(d: ReportDef<Row>): ReportDef<unknown> {
  return d as unknown as ReportDef<unknown>;
}

// ------------------------------------------------------------------ helpers

const s = (p: ParsedParams, name: string): string | undefined => p[name] as string | undefined;
const l = (p: ParsedParams, name: string): string[] | undefined => p[name] as string[] | undefined;
const d = (p: ParsedParams, name: string): number | undefined => p[name] as number | undefined;
const b = (p: ParsedParams, name: string): boolean | undefined => p[name] as boolean | undefined;

function within(day: number, from: number | undefined, to: number | undefined): boolean {
  return (from === undefined || day >= from) && (to === undefined || day <= to);
}

function inList(list: string[] | undefined, value: string): boolean {
  if (!list) return true;
  const v = value.toUpperCase();
  return list.some((x) => x.toUpperCase() === v);
}

function eqi(a: string | undefined, value: string): boolean {
  return a === undefined || a.toUpperCase() === value.toUpperCase();
}

function scoped(ctx: ReportContext, bk: Booking): boolean {
  return ctx.companies === null || ctx.companies.has(bk.company.code);
}

const DATE = { kind: 'date', hint: 'YYYYMMDD' } as const;
const LIST = { kind: 'list' } as const;
const STR = { kind: 'string' } as const;
const BOOL = { kind: 'bool' } as const;
const FLAG = { kind: 'flag', hint: '0 or 1' } as const;
const INT = { kind: 'int' } as const;

/** Derived lists that several requests reuse, computed once per dataset. */
interface Derived {
  problematic: Segment[];
  flightCounts: Map<string, number>;
  arrivals: Array<{ b: Booking; pax: Traveller; arrDay: number; daysAway: number | null }>;
  active: Array<{ b: Booking; travelDay: number }>;
}
const derivedCache = new WeakMap<Dataset, Derived>();

function isActive(ds: Dataset, seg: Segment): boolean {
  if (!ACTIVE_STATUSES.has(seg.status)) return false;
  switch (seg.kind) {
    case 'air':
      return seg.arrUtc >= ds.nowMs;
    case 'car':
      return seg.dropDay >= ds.today;
    case 'hotel':
      return seg.depDay >= ds.today;
    case 'passive':
      return seg.endDay >= ds.today;
  }
}

function flightKey(seg: AirSegment): string {
  return `${seg.booking.account.code}|${seg.carrier.code}${seg.flightNbr}|${seg.depDay}`;
}

function derived(ds: Dataset): Derived {
  let out = derivedCache.get(ds);
  if (out) return out;
  const problematic: Segment[] = [...ds.airSegments, ...ds.carSegments, ...ds.hotelSegments].filter((x) =>
    PROBLEM_STATUS_SET.has(x.status),
  );
  problematic.sort(
    (x, y) => segmentDay(x) - segmentDay(y) || x.booking.serviceRef - y.booking.serviceRef || x.nbr - y.nbr,
  );
  const flightCounts = new Map<string, number>();
  for (const seg of ds.airSegments) {
    if (seg.status === 'HX') continue;
    const k = flightKey(seg);
    flightCounts.set(k, (flightCounts.get(k) ?? 0) + seg.booking.passengers.length);
  }
  const arrivals: Derived['arrivals'] = [];
  const active: Derived['active'] = [];
  for (const bk of ds.bookings) {
    if (bk.air.length > 0 && !bk.cancelled) {
      const out = bk.air.filter((x) => x.outbound);
      const last = out[out.length - 1];
      const back = bk.air.find((x) => !x.outbound);
      for (const pax of bk.passengers) {
        arrivals.push({ b: bk, pax, arrDay: last.arrDay, daysAway: back ? back.depDay - last.arrDay : null });
      }
    }
    const act = bk.segments.filter((x) => isActive(ds, x));
    if (act.length > 0) active.push({ b: bk, travelDay: Math.min(...act.map(segmentDay)) });
  }
  arrivals.sort((x, y) => x.arrDay - y.arrDay || x.b.serviceRef - y.b.serviceRef);
  active.sort((x, y) => x.travelDay - y.travelDay || x.b.serviceRef - y.b.serviceRef);
  out = { problematic, flightCounts, arrivals, active };
  derivedCache.set(ds, out);
  return out;
}

/** The default HotelSegments selection, shared with HotelSegmentCountsPerLocation. */
function hotelRows(ctx: ReportContext): HotelSegment[] {
  const { ds, p } = ctx;
  const type = s(p, 'DateSearchType') ?? 'A';
  const from = d(p, 'DateStart');
  const to = d(p, 'DateEnd');
  const includeCancelled = type === 'S' && b(p, 'IncludeCancelled') === true;
  const isGds = b(p, 'IsGDS');
  const isPassive = b(p, 'IsPassive');
  return ds.hotelSegments.filter((h) => {
    const bk = h.booking;
    if (!scoped(ctx, bk)) return false;
    if (h.cancelled && !includeCancelled) return false;
    if (from !== undefined || to !== undefined) {
      let day: number | null;
      if (type === 'A') day = h.arrDay;
      else if (type === 'C') day = bk.createdDay;
      else day = h.createdMs === null ? null : localDay(h.createdMs, bk.pcc.offset);
      if (day === null || !within(day, from, to)) return false;
    }
    return (
      inList(l(p, 'Account'), bk.account.code) &&
      inList(l(p, 'CityCode'), h.property.city.cityCode) &&
      inList(l(p, 'OwningAgencyLocationID'), bk.pcc.code) &&
      inList(l(p, 'OwningAgencyCountryCode'), bk.pcc.countryCode) &&
      (isGds === undefined || h.gds === isGds) &&
      (isPassive === undefined || h.passive === isPassive)
    );
  });
}

const COUPON_STATUSES = ['OPEN', 'USED', 'EXCH', 'CVID', 'MFRD'] as const;

// ------------------------------------------------------------------ the 22 transactions

export const REPORTS: ReadonlyArray<ReportDef<unknown>> = [
  def<Booking>({
    transaction: 'BookingDetails',
    paths: ['/BookingDetails'],
    verbs: 'GET',
    accept: true,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'collection',
    params: {
      ServiceRef: INT,
      LoadOptions: { kind: 'enumList', values: LOAD_OPTIONS, hint: `any of ${LOAD_OPTIONS.join(', ')}` },
      RecordLocator: STR,
      PNRCreationDate: DATE,
      RequestConsultantID: STR,
      VendorLocators: LIST,
    },
    ranges: [],
    select: (ctx) => {
      const { p } = ctx;
      const ref = d(p, 'ServiceRef');
      const created = d(p, 'PNRCreationDate');
      const vls = l(p, 'VendorLocators')?.map((x) => x.toUpperCase());
      const found = ctx.ds.bookings.filter(
        (bk) =>
          bk.details !== 'gone' &&
          scoped(ctx, bk) &&
          (ref === undefined || bk.serviceRef === ref) &&
          eqi(s(p, 'RecordLocator'), bk.recordLocator) &&
          (created === undefined || bk.createdDay === created) &&
          (!vls || bk.vendorLocators.some((v) => vls.includes(v.locator))),
      );
      // A booking this user has no rights to: asked for by name, refused; in a search, left out.
      const refused = found.find((bk) => bk.details === 'refused');
      if (refused && (ref !== undefined || s(p, 'RecordLocator') !== undefined)) {
        throw new SandboxError(
          'AccessDenied',
          `No rights to booking ${refused.recordLocator}`,
          `BookingDetails: the user ${ctx.user?.email ?? 'of this API key'} may not read booking ` +
            `${refused.recordLocator} (restricted by its owning agency)`,
          '403',
        );
      }
      return found.filter((bk) => bk.details !== 'refused');
    },
    render: (bk, ctx) => bookingDetail(ctx.ds, bk, l(ctx.p, 'LoadOptions') ?? DEFAULT_LOAD_OPTIONS),
  }),

  def<Booking>({
    transaction: 'FindBookings',
    paths: ['/FindBookings'],
    verbs: 'GET',
    accept: false,
    company: true,
    paging: false,
    userParam: 'UserName',
    envelope: 'collection',
    params: { RecordLocator: STR, PassengerLastName: STR, Account: LIST, DateStart: DATE, DateEnd: DATE },
    ranges: [['DateStart', 'DateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      const last = s(p, 'PassengerLastName')?.toUpperCase();
      return ctx.ds.bookings.filter(
        (bk) =>
          scoped(ctx, bk) &&
          eqi(s(p, 'RecordLocator'), bk.recordLocator) &&
          (last === undefined || bk.passengers.some((x) => x.lastName.startsWith(last))) &&
          inList(l(p, 'Account'), bk.account.code) &&
          within(bk.createdDay, d(p, 'DateStart'), d(p, 'DateEnd')),
      );
    },
    render: (bk) => ({ ...bookingScalars(bk), Passengers: passengersList(bk) }),
  }),

  def({
    transaction: 'CarSegmentsByDate',
    paths: ['/CarSegmentsByDate'],
    verbs: 'GET',
    accept: true,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'item',
    params: {
      SegmentType: STR,
      DateStart: { ...DATE, required: true },
      DateEnd: { ...DATE, required: true },
      DateSearchType: { kind: 'enum', values: ['T', 'C'], hint: 'T segment start dates, C booking creation dates' },
    },
    ranges: [['DateStart', 'DateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      const byCreation = s(p, 'DateSearchType') === 'C';
      const from = d(p, 'DateStart');
      const to = d(p, 'DateEnd');
      const type = s(p, 'SegmentType');
      return ctx.ds.carSegments.filter(
        (c) =>
          scoped(ctx, c.booking) &&
          within(byCreation ? c.booking.createdDay : c.pickDay, from, to) &&
          eqi(type, c.passive ? 'Passive' : 'Active'),
      );
    },
    render: (c) => carSegmentRecord(c),
  }),

  def<AirSegment>({
    transaction: 'AirSegmentsByDate',
    paths: ['/AirSegmentsByDate', '/AirSegmentsByDate/user'],
    verbs: 'GET',
    accept: true,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'item',
    params: {
      DateStart: { ...DATE, required: true },
      DateEnd: { ...DATE, required: true },
      DateSearchType: { kind: 'enum', values: ['T', 'C'], hint: 'T segment start dates, C booking creation dates' },
    },
    ranges: [['DateStart', 'DateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      const byCreation = s(p, 'DateSearchType') === 'C';
      const from = d(p, 'DateStart');
      const to = d(p, 'DateEnd');
      return ctx.ds.airSegments.filter(
        (a) => scoped(ctx, a.booking) && within(byCreation ? a.booking.createdDay : a.depDay, from, to),
      );
    },
    render: (a) => airSegmentByDate(a),
  }),

  def<Booking>({
    transaction: 'PNRSegments',
    paths: ['/PNRSegments'],
    verbs: 'GET',
    accept: true,
    company: false,
    paging: true,
    envelope: 'collection',
    params: {
      RecordLocator: { kind: 'string', required: true, hint: 'the six-character booking reference' },
      PNRCreationDate: DATE,
      SegmentType: {
        kind: 'enumList',
        values: ['Air', 'Car', 'Hotel', 'Passive'],
        aliases: {
          AIR: 'Air',
          CAR: 'Car',
          HTL: 'Hotel',
          HHL: 'Hotel',
          HOTEL: 'Hotel',
          PAS: 'Passive',
          PASSIVE: 'Passive',
        },
      },
      PassiveSegmentType: LIST,
    },
    ranges: [],
    select: (ctx) => {
      const { p } = ctx;
      const created = d(p, 'PNRCreationDate');
      const rl = s(p, 'RecordLocator')!;
      return ctx.ds.bookings.filter(
        (bk) => eqi(rl, bk.recordLocator) && (created === undefined || bk.createdDay === created),
      );
    },
    render: (bk, ctx) => {
      const types = l(ctx.p, 'SegmentType');
      const passive = l(ctx.p, 'PassiveSegmentType');
      return pnrSegmentsReport(
        bk,
        types
          ? new Set(types.map((t) => ({ Air: 'air', Car: 'car', Hotel: 'hotel', Passive: 'passive' })[t] ?? t))
          : null,
        passive ? new Set(passive.map((x) => x.toUpperCase())) : null,
      );
    },
  }),

  def<Coupon>({
    transaction: 'TicketCouponsByStatusCode',
    paths: ['/TicketCouponsByStatusCode'],
    verbs: 'GET',
    accept: true,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'collection',
    params: {
      DateStart: { ...DATE, required: true },
      DateEnd: { ...DATE, required: true },
      CouponCodeGroup: {
        kind: 'enumList',
        required: true,
        values: ['ALL', 'ALL OPEN', ...COUPON_STATUSES],
        aliases: { ALLOPEN: 'ALL OPEN', ALL_OPEN: 'ALL OPEN' },
        hint: 'ALL, ALL OPEN or a coupon status',
      },
      DateTracker: {
        kind: 'enum',
        required: true,
        values: ['I', 'T', 'E'],
        hint: 'I issue date, T travel date, E expiry date',
      },
      TravAgntID: INT,
      Account: LIST,
      OwningAgencyLocationID: LIST,
      Repeat: STR,
      NoActiveSegments: BOOL,
      IncludePartialMatches: BOOL,
      ShowMatchingCouponsOnly: BOOL,
      PaxSurname: STR,
      CarrierCode: LIST,
      ExcludedPlatingCarrier: LIST,
      OwningConsultantID: LIST,
      CacheGuid: STR,
      TravellerGUID: STR,
      RequestConsultantID: STR,
      TravellerReference: INT,
      CRM: STR,
    },
    ranges: [['DateStart', 'DateEnd']],
    select: (ctx) => {
      const { ds, p } = ctx;
      const groups = l(p, 'CouponCodeGroup')!;
      const statuses = new Set<string>(
        groups.flatMap((g) => (g === 'ALL' ? [...COUPON_STATUSES] : g === 'ALL OPEN' ? ['OPEN'] : [g])),
      );
      const tracker = s(p, 'DateTracker')!;
      const from = d(p, 'DateStart');
      const to = d(p, 'DateEnd');
      const agent = d(p, 'TravAgntID');
      const surname = s(p, 'PaxSurname')?.toUpperCase();
      const partial = b(p, 'IncludePartialMatches') === true;
      const excluded = l(p, 'ExcludedPlatingCarrier')?.map((x) => x.toUpperCase());
      const guid = s(p, 'TravellerGUID')?.toLowerCase();
      const ref = d(p, 'TravellerReference');
      const crm = s(p, 'CRM')?.toUpperCase();
      const noActive = b(p, 'NoActiveSegments') === true;
      const matchingOnly = b(p, 'ShowMatchingCouponsOnly') !== false;
      const out: Coupon[] = [];
      for (const t of ds.tickets) {
        const bk = t.booking;
        const pax = t.passenger;
        if (!scoped(ctx, bk)) continue;
        if (!inList(l(p, 'Account'), bk.account.code) || !inList(l(p, 'OwningAgencyLocationID'), bk.pcc.code)) continue;
        if (agent !== undefined && t.agent.id !== String(agent)) continue;
        if (!inList(l(p, 'OwningConsultantID'), bk.consultant.id)) continue;
        if (surname !== undefined && !(partial ? pax.lastName.startsWith(surname) : pax.lastName === surname)) continue;
        if (excluded && (excluded.includes(t.plating.numeric) || excluded.includes(t.plating.code))) continue;
        if (guid !== undefined && pax.guid.toLowerCase() !== guid) continue;
        if (
          (ref !== undefined || crm !== undefined) &&
          !pax.crm.some((c) => (ref === undefined || c.reference === ref) && (crm === undefined || c.crm === crm))
        )
          continue;
        if (tracker === 'I' && !within(t.issueDay, from, to)) continue;
        if (tracker === 'E' && !within(t.issueDay + 365, from, to)) continue;
        const matches = t.coupons.filter(
          (c) =>
            statuses.has(c.status) &&
            inList(l(p, 'CarrierCode'), c.segment.carrier.code) &&
            (tracker !== 'T' || within(c.segment.depDay, from, to)) &&
            (!noActive || !isActive(ds, c.segment)),
        );
        if (matches.length === 0) continue;
        for (const c of matchingOnly ? matches : t.coupons) out.push(c);
      }
      return out;
    },
    render: (c, _ctx, i) => ticketCouponStatusRecord(c, i + 1),
  }),

  def({
    transaction: 'TicketsIssuedByNumber',
    paths: ['/TicketsIssuedByNumber'],
    aliases: ['GetTicketsIssuedByNumber'],
    verbs: 'GET',
    accept: false,
    company: true,
    paging: false,
    userParam: 'UserName',
    envelope: 'collection',
    params: { TicketNumber: LIST, DateStart: DATE, DateEnd: DATE, Account: LIST },
    ranges: [['DateStart', 'DateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      const numbers = l(p, 'TicketNumber')?.map((n) => n.replace(/[\s-]/g, ''));
      return ctx.ds.tickets.filter(
        (t) =>
          scoped(ctx, t.booking) &&
          (!numbers || numbers.includes(t.number)) &&
          inList(l(p, 'Account'), t.booking.account.code) &&
          within(t.issueDay, d(p, 'DateStart'), d(p, 'DateEnd')),
      );
    },
    render: (t) => ticketIssued(t),
  }),

  def({
    transaction: 'CheckFailedSubmissions',
    paths: ['/CheckFailedSubmissions'],
    verbs: 'ALL',
    accept: false,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'collection',
    params: { LogDateStart: DATE, LogDateEnd: DATE, OwningAgencyLocationID: LIST },
    ranges: [['LogDateStart', 'LogDateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      return ctx.ds.failedSubmissions.filter(
        (f) =>
          scoped(ctx, f.booking) &&
          inList(l(p, 'OwningAgencyLocationID'), f.booking.pcc.code) &&
          within(localDay(f.logMs, f.booking.pcc.offset), d(p, 'LogDateStart'), d(p, 'LogDateEnd')),
      );
    },
    render: (f) => checkFailedSubmission(f),
  }),

  def({
    transaction: 'QLogForward',
    paths: ['/QLogForward'],
    verbs: 'ALL',
    accept: false,
    company: false,
    paging: true,
    envelope: 'item',
    params: { CompanyID: INT, QueueEntryID: INT, LogDateStart: DATE, LogDateEnd: DATE },
    ranges: [['LogDateStart', 'LogDateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      const company = d(p, 'CompanyID');
      const entry = d(p, 'QueueEntryID');
      return ctx.ds.qlogForwards.filter(
        (q) =>
          (company === undefined || q.booking.company.id === company) &&
          (entry === undefined || q.queueEntryId === entry) &&
          within(localDay(q.logMs, q.booking.pcc.offset), d(p, 'LogDateStart'), d(p, 'LogDateEnd')),
      );
    },
    render: (q) => qlogForwardItem(q),
  }),

  def({
    transaction: 'QcCommentsForConsultant',
    paths: ['/QcCommentsForConsultant'],
    verbs: 'GET',
    accept: false,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'collection',
    params: {
      Consultant: STR,
      AgentInitials: STR,
      DateStart: DATE,
      DateEnd: DATE,
      OwningAgencyLocationID: LIST,
      Team: STR,
      DateByComments: BOOL,
      GroupByAgentInitials: BOOL,
    },
    ranges: [['DateStart', 'DateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      const byComment = b(p, 'DateByComments') === true;
      const rows = ctx.ds.qcComments.filter(
        (q) =>
          scoped(ctx, q.booking) &&
          eqi(s(p, 'Consultant'), q.consultant.name) &&
          eqi(s(p, 'AgentInitials'), q.consultant.initials) &&
          eqi(s(p, 'Team'), q.consultant.team) &&
          inList(l(p, 'OwningAgencyLocationID'), q.booking.pcc.code) &&
          within(
            byComment ? localDay(q.commentMs, q.booking.pcc.offset) : q.booking.createdDay,
            d(p, 'DateStart'),
            d(p, 'DateEnd'),
          ),
      );
      if (!byComment)
        rows.sort((x, y) => x.booking.createdMs - y.booking.createdMs || x.commentMs - y.commentMs || x.id - y.id);
      if (b(p, 'GroupByAgentInitials') === true) {
        rows.sort((x, y) =>
          x.consultant.initials < y.consultant.initials ? -1 : x.consultant.initials > y.consultant.initials ? 1 : 0,
        );
      }
      return rows;
    },
    render: (q) => qcComment(q),
  }),

  def<Booking>({
    transaction: 'DistributorBookingsByAirlineClass',
    paths: ['/DistributorBookingsByAirlineClass'],
    verbs: 'GET',
    accept: false,
    company: false,
    paging: true,
    envelope: 'item',
    params: {
      DistributorID: INT,
      IssueDateStart: DATE,
      IssueDateEnd: DATE,
      PlatingCarrier: STR,
      BookingClassName: STR,
      BoardPointCountryCode: STR,
      IncludeItinerary: BOOL,
      ItineraryFormatting: {
        kind: 'enum',
        values: ['0', '1', '2'],
        aliases: { None: '0', Html: '1', Charting: '2' },
        hint: '0 None, 1 Html, 2 Charting',
      },
    },
    ranges: [['IssueDateStart', 'IssueDateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      const distributor = d(p, 'DistributorID');
      const from = d(p, 'IssueDateStart');
      const to = d(p, 'IssueDateEnd');
      const plating = s(p, 'PlatingCarrier');
      return ctx.ds.bookings.filter(
        (bk) =>
          bk.air.length > 0 &&
          (distributor === undefined || bk.company.id === distributor) &&
          (from === undefined && to === undefined ? true : bk.tickets.some((t) => within(t.issueDay, from, to))) &&
          (plating === undefined || bk.tickets.some((t) => eqi(plating, t.plating.code))) &&
          (s(p, 'BookingClassName') === undefined || bk.air.some((a) => eqi(s(p, 'BookingClassName'), a.cabin))) &&
          eqi(s(p, 'BoardPointCountryCode'), bk.air[0].from.countryCode),
      );
    },
    render: (bk, ctx) =>
      bookingByAirlineWithClass(
        bk,
        b(ctx.p, 'IncludeItinerary') === true,
        Number(s(ctx.p, 'ItineraryFormatting') ?? '0'),
      ),
  }),

  def<HotelSegment>({
    transaction: 'HotelSegments',
    paths: ['/HotelSegments'],
    verbs: 'GET',
    accept: false,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'item',
    params: {
      DateStart: DATE,
      DateEnd: DATE,
      Account: LIST,
      CityCode: LIST,
      WithNotepad: FLAG,
      OwningAgencyLocationID: LIST,
      OwningAgencyCountryCode: LIST,
      DateSearchType: {
        kind: 'enum',
        values: ['A', 'C', 'S'],
        hint: 'A arrival dates, C booking creation dates, S segment creation dates',
      },
      IncludeCancelled: FLAG,
      IsGDS: FLAG,
      IsPassive: FLAG,
      CustomField: LIST,
    },
    ranges: [['DateStart', 'DateEnd']],
    select: hotelRows,
    render: (h, ctx) => hotelSegmentRecord(h, b(ctx.p, 'WithNotepad') === true, l(ctx.p, 'CustomField') ?? null),
  }),

  def({
    transaction: 'PassengerArrivals',
    paths: ['/PassengerArrivals'],
    verbs: 'GET',
    accept: false,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'item',
    params: { Account: LIST, ArrivalDateStart: DATE, ArrivalDateEnd: DATE },
    ranges: [['ArrivalDateStart', 'ArrivalDateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      return derived(ctx.ds).arrivals.filter(
        (a) =>
          scoped(ctx, a.b) &&
          inList(l(p, 'Account'), a.b.account.code) &&
          within(a.arrDay, d(p, 'ArrivalDateStart'), d(p, 'ArrivalDateEnd')),
      );
    },
    render: (a) => passengerArrival(a.b, a.pax, a.arrDay, a.daysAway),
  }),

  def({
    transaction: 'PartnerForwardingLogs',
    paths: ['/PartnerForwardingLogs'],
    verbs: 'ALL',
    accept: false,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'collection',
    params: { LogDateStart: DATE, LogDateEnd: DATE, RecordLocator: STR, IsSuccess: BOOL, OwningAgencyLocationID: LIST },
    ranges: [['LogDateStart', 'LogDateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      const ok = b(p, 'IsSuccess');
      return ctx.ds.partnerLogs.filter(
        (x) =>
          scoped(ctx, x.booking) &&
          eqi(s(p, 'RecordLocator'), x.booking.recordLocator) &&
          (ok === undefined || x.success === ok) &&
          inList(l(p, 'OwningAgencyLocationID'), x.booking.pcc.code) &&
          within(localDay(x.logMs, x.booking.pcc.offset), d(p, 'LogDateStart'), d(p, 'LogDateEnd')),
      );
    },
    render: (x) => partnerForwardingLog(x),
  }),

  def<AirSegment>({
    transaction: 'PassengerLocationsByRouting',
    paths: ['/PassengerLocationsByRouting'],
    verbs: 'GET',
    accept: false,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'collection',
    params: {
      Account: LIST,
      DateStart: DATE,
      DateEnd: DATE,
      FromAirportCode: LIST,
      FromCityCode: LIST,
      FromCountryCode: LIST,
      FromSubregionCode: LIST,
      FromRegionCode: LIST,
      ToAirportCode: LIST,
      ToCityCode: LIST,
      ToCountryCode: LIST,
      ToSubregionCode: LIST,
      ToRegionCode: LIST,
      OwningConsultantID: LIST,
      CustomField: LIST,
      RequestConsultantID: STR,
    },
    ranges: [['DateStart', 'DateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      return ctx.ds.airSegments.filter(
        (a) =>
          a.status !== 'HX' &&
          scoped(ctx, a.booking) &&
          inList(l(p, 'Account'), a.booking.account.code) &&
          inList(l(p, 'OwningConsultantID'), a.booking.consultant.id) &&
          within(a.depDay, d(p, 'DateStart'), d(p, 'DateEnd')) &&
          inList(l(p, 'FromAirportCode'), a.from.code) &&
          inList(l(p, 'FromCityCode'), a.from.cityCode) &&
          inList(l(p, 'FromCountryCode'), a.from.countryCode) &&
          inList(l(p, 'FromSubregionCode'), a.from.subregion) &&
          inList(l(p, 'FromRegionCode'), a.from.region) &&
          inList(l(p, 'ToAirportCode'), a.to.code) &&
          inList(l(p, 'ToCityCode'), a.to.cityCode) &&
          inList(l(p, 'ToCountryCode'), a.to.countryCode) &&
          inList(l(p, 'ToSubregionCode'), a.to.subregion) &&
          inList(l(p, 'ToRegionCode'), a.to.region),
      );
    },
    render: (a, ctx) => passengerLocationRouting(a, l(ctx.p, 'CustomField') ?? null),
  }),

  def<Segment>({
    transaction: 'ProblematicSegments',
    paths: ['/ProblematicSegments'],
    verbs: 'GET',
    accept: false,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'collection',
    params: { DepartureDateStart: DATE, DepartureDateEnd: DATE, OwningAgencyLocationID: LIST },
    ranges: [['DepartureDateStart', 'DepartureDateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      return derived(ctx.ds).problematic.filter(
        (x) =>
          scoped(ctx, x.booking) &&
          inList(l(p, 'OwningAgencyLocationID'), x.booking.pcc.code) &&
          within(segmentDay(x), d(p, 'DepartureDateStart'), d(p, 'DepartureDateEnd')),
      );
    },
    render: (x) => problematicSegment(x),
  }),

  def({
    transaction: 'BookingsWithActiveSegments',
    paths: ['/BookingsWithActiveSegments'],
    verbs: 'ALL',
    accept: false,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'item',
    params: { TravelDateStart: DATE, TravelDateEnd: DATE, AllFutureDate: BOOL, Account: LIST },
    ranges: [['TravelDateStart', 'TravelDateEnd']],
    select: (ctx) => {
      const { p, ds } = ctx;
      const future = b(p, 'AllFutureDate') === true;
      return derived(ds).active.filter(
        (x) =>
          scoped(ctx, x.b) &&
          inList(l(p, 'Account'), x.b.account.code) &&
          within(x.travelDay, d(p, 'TravelDateStart'), d(p, 'TravelDateEnd')) &&
          (!future || x.travelDay >= ds.today),
      );
    },
    render: (x) => bookingWithActiveSegments(x.b, x.travelDay),
  }),

  def<{ seg: AirSegment; pax: Traveller; count: number }>({
    transaction: 'PassengerAirSegmentsWithMaxTravellerFlag',
    paths: ['/PassengerAirSegmentsWithMaxTravellerFlag'],
    verbs: 'GET',
    accept: false,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'collection',
    params: { Account: LIST, DepartureDateStart: DATE, DepartureDateEnd: DATE, MaxTravellerIsExceededFlag: FLAG },
    ranges: [['DepartureDateStart', 'DepartureDateEnd']],
    select: (ctx) => {
      const { p, ds } = ctx;
      const counts = derived(ds).flightCounts;
      const exceededOnly = b(p, 'MaxTravellerIsExceededFlag') === true;
      const out: Array<{ seg: AirSegment; pax: Traveller; count: number }> = [];
      for (const seg of ds.airSegments) {
        if (seg.status === 'HX') continue;
        const bk = seg.booking;
        if (!scoped(ctx, bk) || !inList(l(p, 'Account'), bk.account.code)) continue;
        if (!within(seg.depDay, d(p, 'DepartureDateStart'), d(p, 'DepartureDateEnd'))) continue;
        const count = counts.get(flightKey(seg)) ?? bk.passengers.length;
        if (exceededOnly && count <= bk.account.maxTravellers) continue;
        for (const pax of bk.passengers) out.push({ seg, pax, count });
      }
      return out;
    },
    render: (x) => passengerAirSegment(x.seg, x.pax, x.count),
  }),

  def<Coupon>({
    transaction: 'TicketCouponsIssued',
    paths: ['/TicketCouponsIssued'],
    verbs: 'GET',
    accept: false,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'item',
    params: {
      Account: LIST,
      OwningAgencyLocationID: LIST,
      IssueDateStart: DATE,
      IssueDateEnd: DATE,
      TravelAgentID: LIST,
      FlightCouponStatus: {
        kind: 'enum',
        values: COUPON_STATUSES,
        aliases: { O: 'OPEN', U: 'USED', E: 'EXCH', V: 'CVID', R: 'MFRD' },
        hint: 'one-letter code O, U, E, V or R',
      },
      FormatStyle: STR,
    },
    ranges: [['IssueDateStart', 'IssueDateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      const status = s(p, 'FlightCouponStatus');
      return ctx.ds.coupons.filter((c) => {
        const t = c.ticket;
        const bk = t.booking;
        return (
          scoped(ctx, bk) &&
          inList(l(p, 'Account'), bk.account.code) &&
          inList(l(p, 'OwningAgencyLocationID'), bk.pcc.code) &&
          inList(l(p, 'TravelAgentID'), t.agent.id) &&
          (status === undefined || c.status === status) &&
          within(t.issueDay, d(p, 'IssueDateStart'), d(p, 'IssueDateEnd'))
        );
      });
    },
    render: (c) => ticketCouponIssued(c),
  }),

  def({
    transaction: 'AppUsersActivity',
    paths: ['/AppUsersActivity'],
    verbs: 'GET',
    accept: false,
    company: false,
    paging: true,
    userParam: 'Username',
    envelope: 'collection',
    params: {
      DateStart: DATE,
      DateEnd: DATE,
      ExcludeFrequentNonReportActivities: BOOL,
      ExcludeEmailSubscriptions: BOOL,
      User: STR,
    },
    ranges: [['DateStart', 'DateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      const noFrequent = b(p, 'ExcludeFrequentNonReportActivities') === true;
      const noEmail = b(p, 'ExcludeEmailSubscriptions') === true;
      return ctx.ds.activities.filter(
        (a) =>
          (ctx.companies === null || a.user.companyCodes.some((c) => ctx.companies!.has(c))) &&
          eqi(s(p, 'User'), a.user.email) &&
          !(noFrequent && a.frequentNonReport) &&
          !(noEmail && a.emailSubscription) &&
          within(localDay(a.ms, 0), d(p, 'DateStart'), d(p, 'DateEnd')),
      );
    },
    render: (a) => appUserActivity(a),
  }),

  def<{ vendor: string; chain: string; segments: number; nights: number }>({
    transaction: 'HotelSegmentCountsPerLocation',
    paths: ['/HotelSegmentCountsPerLocation'],
    verbs: 'GET',
    accept: false,
    company: false,
    paging: true,
    userParam: 'UserName',
    envelope: 'collection',
    params: { DateStart: DATE, DateEnd: DATE },
    ranges: [['DateStart', 'DateEnd']],
    select: (ctx) => {
      const groups = new Map<string, { vendor: string; chain: string; segments: number; nights: number }>();
      for (const h of hotelRows(ctx)) {
        const c = h.property.chain;
        const g = groups.get(c.code) ?? { vendor: c.code, chain: c.name, segments: 0, nights: 0 };
        g.segments += 1;
        g.nights += h.nights;
        groups.set(c.code, g);
      }
      return [...groups.values()].sort((x, y) => y.segments - x.segments || (x.vendor < y.vendor ? -1 : 1));
    },
    render: (g) => ({ ChainName: g.chain, VendorCode: g.vendor, TotalSegments: g.segments, TotalNights: g.nights }),
  }),

  def<{ account: string; segments: number }>({
    transaction: 'CarSegmentCountsPerAccountByVendor',
    paths: ['/CarSegmentCountsPerAccountByVendor/user'],
    verbs: 'GET',
    accept: false,
    company: true,
    paging: true,
    userParam: 'UserName',
    envelope: 'item',
    params: {
      DateStart: { ...DATE, required: true },
      DateEnd: { ...DATE, required: true },
      VendorCode: { kind: 'list', required: true, hint: 'two-letter car vendor code, e.g. ZE' },
    },
    ranges: [['DateStart', 'DateEnd']],
    select: (ctx) => {
      const { p } = ctx;
      const counts = new Map<string, number>();
      for (const c of ctx.ds.carSegments) {
        if (!scoped(ctx, c.booking) || !inList(l(p, 'VendorCode'), c.vendor.code)) continue;
        if (!within(c.pickDay, d(p, 'DateStart'), d(p, 'DateEnd'))) continue;
        counts.set(c.booking.account.code, (counts.get(c.booking.account.code) ?? 0) + 1);
      }
      return [...counts.entries()]
        .map(([account, segments]) => ({ account, segments }))
        .sort((x, y) => y.segments - x.segments || (x.account < y.account ? -1 : 1));
    },
    render: (g) => ({ Account: g.account, TotalSegments: g.segments }),
  }),
];

const BY_PATH = new Map<string, ReportDef<unknown>>();
const BY_NAME = new Map<string, ReportDef<unknown>>();
for (const r of REPORTS) {
  for (const p of r.paths) BY_PATH.set(p.toLowerCase(), r);
  BY_NAME.set(r.transaction.toLowerCase(), r);
  for (const a of r.aliases ?? []) BY_NAME.set(a.toLowerCase(), r);
}

/** The transaction at a path (without format suffix), case-insensitive, or undefined. */
export function reportAtPath(path: string): ReportDef<unknown> | undefined {
  return BY_PATH.get(path.toLowerCase());
}

/** A transaction by name ('AirSegmentsByDate') or path ('/AirSegmentsByDate/user'). */
export function reportByName(name: string): ReportDef<unknown> | undefined {
  return BY_NAME.get(name.toLowerCase()) ?? BY_PATH.get(name.toLowerCase()) ?? BY_PATH.get(`/${name.toLowerCase()}`);
}

/** All parameter definitions of a transaction, scope parameters included. */
export function allParams(r: ReportDef<unknown>): ParamDefs {
  return {
    ...r.params,
    ...(r.company ? { OwningCompanyCode: LIST } : {}),
    ...(r.userParam ? { [r.userParam]: STR } : {}),
  };
}

/** Validates the parameters and resolves the caller's scope. Throws SandboxError. */
export function prepare(r: ReportDef<unknown>, ds: Dataset, raw: Readonly<Record<string, string>>): ReportContext {
  const p = parseParams(r.transaction, allParams(r), r.ranges, raw);
  let companies: Set<string> | null = null;
  let user: AppUser | null = null;
  if (r.userParam) {
    const name = p[r.userParam] as string | undefined;
    if (name !== undefined) {
      user = ds.appUsers.find((u) => u.email.toLowerCase() === name.toLowerCase()) ?? null;
      if (!user) {
        throw new SandboxError(
          'InvalidUserName',
          `${r.userParam} '${name}' is not a user of this service`,
          `${r.transaction}: ${r.userParam} must be the e-mail address of an application user of the calling company`,
        );
      }
      companies = new Set(user.companyCodes);
    }
  }
  const codes = r.company ? (p.OwningCompanyCode as string[] | undefined) : undefined;
  if (codes) {
    const asked = new Set(codes.map((c) => c.toUpperCase()));
    companies = companies === null ? asked : new Set([...companies].filter((c) => asked.has(c)));
  }
  return { ds, p, companies, user };
}
