/**
 * Every transaction answers its documented shape: the envelope kind of spec section 4 and
 * the record fields and types of section 2.5 (transcribed here from the spec, independently
 * of the sandbox's code).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { MIN_VALUE_DATE } from '../../src/upstream/service-date.js';
import { getJson, recordsOf } from './helpers.js';

// s string, i integer, n number, b boolean, d datetime, a list, o object
type T = 's' | 'i' | 'n' | 'b' | 'd' | 'a' | 'o';
interface Shape {
  fields: Record<string, T>;
  optional?: string[];
}

function strings(names: string, overrides: Record<string, T> = {}): Record<string, T> {
  const out: Record<string, T> = {};
  for (const n of names.split(/[\s,]+/).filter(Boolean)) out[n] = 's';
  return { ...out, ...overrides };
}

const SHAPES: Record<string, Shape> = {
  BookingDetail: {
    fields: strings(
      'ServiceRef RecordLocator PNRCreationDate CreationDate PNRTicketed Account OwningConsultantID OwningConsultant CrsDescription ' +
        'LastActionConsultantID LastActionAgencyLocationID OwningAgencyLocationID CreatingAgencyIata CTCE CTCM CarbonTonnage OwningCompanyCode ItineraryFormatted',
      {
        ServiceRef: 'i',
        CreationDate: 'd',
        CarbonTonnage: 'n',
        Passengers: 'a',
        Phones: 'a',
        Notepads: 'a',
        VendorRemarks: 'a',
        DiEntries: 'a',
        Tickets: 'a',
        Versions: 'a',
        VendorLocators: 'a',
        CustomFields: 'a',
        Emails: 'a',
        EventDetails: 'a',
        AccountLocations: 'a',
        EmailTrails: 'a',
        ServiceWarnings: 'a',
        AirlineTicketingDues: 'a',
        CarbonEmissions: 'a',
        Itinerary: 'a',
      },
    ),
  },
  CarSegmentRecord: {
    fields: strings(
      'ServiceRef RecordLocator OwningAgencyLocationID OwningConsultant Account Passengers PickUpDate DropOffDate CarVendorCode VendorName SegmentStatus ' +
        'AirportCode ConfirmationNbr CurrencyCode RateAmount NbrOfCars CarType ServiceInformation BRInformation CarSegmentType CreatingAgencyIata CityCode Text Vouchers CarRateCode',
      { PickUpDate: 'd', DropOffDate: 'd' },
    ),
  },
  AirSegmentByDate: {
    fields: strings(
      'ServiceRef RecordLocator PNRCreationDate OwningAgencyLocationID OwningConsultant Account Passengers DepartureDate DepartureTime ArrivalDate ' +
        'ArrivalTime CarrierCode BoardPoint OffPoint FlightNbr BookingCode CreatingAgencyIata SegmentStatus',
      { PNRCreationDate: 'd', DepartureDate: 'd', ArrivalDate: 'd' },
    ),
  },
  PnrSegmentsReport: { fields: { Summary: 'o', Segments: 'o' } },
  TicketCouponStatusRecord: {
    fields: strings(
      'CompanyName TktNumber RN AirTktSegId VndIssueDt RecordLocator Passenger TravAgntID OwningConsultantID FOPFare BaseFare FOP TotalTax ' +
        'Tax1Code Tax1Amt Tax2Code Tax2Amt Tax3Code Tax3Amt Tax4Code Tax4Amt Tax5Code Tax5Amt Account ExchangedForTicket CouponSequenceNbr Carrier ' +
        'BoardPoint OffPoint FlightDate FlightServiceClass FareBasis FlightCouponStatus DateLastChecked PCC AirlineCode OwningCompanyCode CreditCurrency ' +
        'CreditValue FlightServiceClassName FlownKM BAR PNRCreationDate ServiceRef CustomFields',
      {
        VndIssueDt: 'd',
        FlightDate: 'd',
        DateLastChecked: 'd',
        CreditValue: 'n',
        FlownKM: 'n',
        PNRCreationDate: 'd',
        ServiceRef: 'i',
        CustomFields: 'a',
      },
    ),
    optional: [
      'Tax1Code',
      'Tax1Amt',
      'Tax2Code',
      'Tax2Amt',
      'Tax3Code',
      'Tax3Amt',
      'Tax4Code',
      'Tax4Amt',
      'Tax5Code',
      'Tax5Amt',
      'ExchangedForTicket',
    ],
  },
  CheckFailedSubmission: {
    fields: strings(
      'LogCheckId RecordLocator PNRCreationDate LogMessage CompanyId OwningAgencyLocationID OwningConsultant RawResponse LogDateTime EventType Account ServiceRef TrackedAgentInitials',
      { LogCheckId: 'i', PNRCreationDate: 'd', LogDateTime: 'd', ServiceRef: 'i' },
    ),
  },
  QLogForwardItem: {
    fields: { ServiceRef: 'i', LogID: 'i', MatchedOn: 's', RecordLocator: 's', LogDate: 'd', Destination: 's' },
  },
  QcComment: { fields: { RecordLocator: 's', Consultant: 's', AgentInitials: 's', Comment: 's', CommentDate: 'd' } },
  BookingByAirlineWithClass: {
    fields: strings(
      'ServiceRef RecordLocator PNRCreationDate Account OwningConsultant TicketedStatusCode TicketedStatus BookingCodesBooked FlightNumbers Routing TrackingCode TktTourCode',
      { ServiceRef: 'i', PNRCreationDate: 'd' },
    ),
    optional: ['TktTourCode'],
  },
  HotelSegment: {
    fields: strings(
      'ServiceRef PNRCreationDate HotelSegmentNbr RecordLocator OwningAgencyLocationID Account OwningConsultantID OwningConsultant StatusCode ' +
        'SegmentCreationDate ArrivalDate DepartureDate NbrNights VendorCode PropertyName PropertyPhoneNbr PropertyNbr PropertyAddress CityCode CityName ' +
        'CountryCode CountryName Passenger ConfirmationNbr RateAccessCode RoomBookingCode CurrencyCode RateAmount NbrRooms BookedInName ServiceInformation ' +
        'TotalAirSegs CreatingAgencyIata IsCommissionable Commission IsPassive CustomFields HotelNotepad IsCancelled CancellationReference',
      {
        ServiceRef: 'i',
        PNRCreationDate: 'd',
        SegmentCreationDate: 'd',
        ArrivalDate: 'd',
        DepartureDate: 'd',
        NbrNights: 'i',
        NbrRooms: 'i',
        IsCommissionable: 'b',
        IsPassive: 'b',
        CustomFields: 'a',
        IsCancelled: 'b',
      },
    ),
    optional: ['RateAccessCode', 'IsCommissionable', 'Commission', 'HotelNotepad', 'CancellationReference'],
  },
  PassengerArrival: {
    fields: strings(
      'ServiceRef RecordLocator PNRCreationDate OwningAgencyLocationID OwningConsultant OwningConsultantID Passenger Account TravelDate ArrivalDate ' +
        'DaysAway DestinationCountries MobileList EmailList CabinsNames PNRTicketedDate',
      { ServiceRef: 'i', PNRCreationDate: 'd', TravelDate: 'd', ArrivalDate: 'd', DaysAway: 'i', PNRTicketedDate: 'd' },
    ),
    optional: ['DaysAway'],
  },
  PartnerForwardingLog: {
    fields: strings(
      'LogID RecordLocator PNRCreationDate LogMessage Success CompanyId OwningAgencyLocationID LogDateTime Account ServiceRef',
      {
        LogID: 'i',
        PNRCreationDate: 'd',
        Success: 'b',
        LogDateTime: 'd',
        ServiceRef: 'i',
      },
    ),
  },
  PassengerLocationRouting: {
    fields: strings(
      'RecordLocator TravelDate DepartureDate BoardPoint OffPoint PnrTicketed Account Consultant PaxList PhoneNbr EmailAddress DestinationCities ' +
        'Connections CarrierCodes ServiceRef HotelsNames FlightNumbers OwningAgencyLocationID IataCodes Itinerary ItineraryFormatted CustomFields ' +
        'DepartureDateTime CurrentArrivalDateTime SegmentType AirSegmentNbr PNRCreationDate TicketNumbers VendorLocators PassengerInfo DestinationCountries',
      {
        TravelDate: 'd',
        DepartureDate: 'd',
        ServiceRef: 'i',
        Itinerary: 'a',
        CustomFields: 'a',
        DepartureDateTime: 'd',
        CurrentArrivalDateTime: 'd',
        PNRCreationDate: 'd',
        TicketNumbers: 'a',
        VendorLocators: 'a',
        PassengerInfo: 'a',
      },
    ),
  },
  ProblematicSegment: {
    fields: strings(
      'RecordLocator PNRCreationDate OwningConsultantID OwningConsultant PrimaryPax Account SegmentStatus Segment OwningAgencyLocationID GdsCode DepartureDate ServiceRef',
      { PNRCreationDate: 'd', DepartureDate: 'd' },
    ),
  },
  BookingWithActiveSegments: {
    fields: strings(
      'ServiceRef RecordLocator PNRCreationDate OwningAgencyLocationID Account OwningConsultantID OwningConsultant TravelDate Passenger PNRTicketed ' +
        'EmailAddress PhoneNbr HasAir HasHtl HasCar DestinationCities Connections CarrierCodes FlightNumbers IataCodes TicketNumbers VendorLocators',
      {
        ServiceRef: 'i',
        PNRCreationDate: 'd',
        TravelDate: 'd',
        HasAir: 'b',
        HasHtl: 'b',
        HasCar: 'b',
        TicketNumbers: 'a',
        VendorLocators: 'a',
      },
    ),
  },
  PassengerAirSegmentWithMaxTravellerFlag: {
    fields: strings(
      'Passenger FlightNbr OperatingCarrierCode DepartureCity DepartureDate DepartureTime ArrivalCity ArrivalDate ArrivalTime RecordLocator PNRTicketed ' +
        'Account TravellerCount MaxTravellerCount MaxTravellerCountExceededFlag CostCentre',
      { TravellerCount: 'i', MaxTravellerCount: 'i', MaxTravellerCountExceededFlag: 'b' },
    ),
  },
  TicketCouponIssued: {
    fields: strings(
      'RecordLocator PNRCreationDate TktNumber Passenger VendorIssueDate FOP FOPCurrency FOPFare CouponSequenceNbr FlightDate Routing FlightServiceClass ' +
        'FareBasis Carrier IATA Account OwningAgencyLocationID FlightCouponStatus DateLastChecked OwningConsultant OwningConsultantID TicketingAgent',
      { PNRCreationDate: 'd', VendorIssueDate: 'd', FlightDate: 'd', DateLastChecked: 'd' },
    ),
  },
  AppUserActivity: {
    fields: {
      User: 's',
      FirstName: 's',
      LastName: 's',
      ActivityDateTime: 'd',
      Activity: 's',
      IsDownload: 'b',
      RequestDetails: 's',
    },
  },
  HotelSegmentCountPerVendor: { fields: { ChainName: 's', VendorCode: 's', TotalSegments: 'i', TotalNights: 'i' } },
  CarSegmentCountPerAccount: { fields: { Account: 's', TotalSegments: 'i' } },
};

const YEAR = { DateStart: '20251115', DateEnd: '20270301' };

/** [path, envelope kind, record type or null (unpublished), params]. */
const CASES: Array<[string, 'collection' | 'item', string | null, Record<string, string>]> = [
  ['/BookingDetails', 'collection', 'BookingDetail', { LoadOptions: 'All' }],
  ['/FindBookings', 'collection', null, { Account: 'ACME' }],
  ['/CarSegmentsByDate', 'item', 'CarSegmentRecord', YEAR],
  ['/AirSegmentsByDate', 'item', 'AirSegmentByDate', YEAR],
  ['/AirSegmentsByDate/user', 'item', 'AirSegmentByDate', YEAR],
  ['/PNRSegments', 'collection', 'PnrSegmentsReport', {}], // RecordLocator added below
  [
    '/TicketCouponsByStatusCode',
    'collection',
    'TicketCouponStatusRecord',
    { ...YEAR, CouponCodeGroup: 'ALL', DateTracker: 'I' },
  ],
  ['/TicketsIssuedByNumber', 'collection', null, { DateStart: '20261101', DateEnd: '20261115' }],
  ['/CheckFailedSubmissions', 'collection', 'CheckFailedSubmission', {}],
  ['/QLogForward', 'item', 'QLogForwardItem', {}],
  ['/QcCommentsForConsultant', 'collection', 'QcComment', {}],
  ['/DistributorBookingsByAirlineClass', 'item', 'BookingByAirlineWithClass', {}],
  [
    '/HotelSegments',
    'item',
    'HotelSegment',
    { DateSearchType: 'S', IncludeCancelled: '1', WithNotepad: '1', CustomField: 'CostCentre' },
  ],
  ['/PassengerArrivals', 'item', 'PassengerArrival', {}],
  ['/PartnerForwardingLogs', 'collection', 'PartnerForwardingLog', {}],
  ['/PassengerLocationsByRouting', 'collection', 'PassengerLocationRouting', {}],
  ['/ProblematicSegments', 'collection', 'ProblematicSegment', {}],
  ['/BookingsWithActiveSegments', 'item', 'BookingWithActiveSegments', {}],
  ['/PassengerAirSegmentsWithMaxTravellerFlag', 'collection', 'PassengerAirSegmentWithMaxTravellerFlag', {}],
  ['/TicketCouponsIssued', 'item', 'TicketCouponIssued', {}],
  ['/AppUsersActivity', 'collection', 'AppUserActivity', {}],
  ['/HotelSegmentCountsPerLocation', 'collection', 'HotelSegmentCountPerVendor', {}],
  ['/CarSegmentCountsPerAccountByVendor/user', 'item', 'CarSegmentCountPerAccount', { ...YEAR, VendorCode: 'ZE' }],
];

const SERVICE_DATE = /^\/Date\(-?\d+([+-]\d{4})?\)\/$/;

function checkType(value: unknown, t: T): boolean {
  switch (t) {
    case 's':
      return typeof value === 'string';
    case 'i':
      return Number.isInteger(value);
    case 'n':
      return typeof value === 'number';
    case 'b':
      return typeof value === 'boolean';
    case 'd':
      return typeof value === 'string' && SERVICE_DATE.test(value);
    case 'a':
      return Array.isArray(value);
    case 'o':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
  }
}

function checkRecord(type: string, r: Record<string, unknown>): void {
  const shape = SHAPES[type];
  for (const [name, t] of Object.entries(shape.fields)) {
    if (!(name in r)) {
      if (shape.optional?.includes(name)) continue;
      throw new Error(`${type}: missing ${name} in ${JSON.stringify(r).slice(0, 300)}`);
    }
    if (!checkType(r[name], t)) throw new Error(`${type}.${name}: expected ${t}, got ${JSON.stringify(r[name])}`);
  }
  for (const name of Object.keys(r)) {
    if (!(name in shape.fields)) throw new Error(`${type}: unexpected member ${name}`);
  }
}

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ size: 800 });
});
afterAll(async () => {
  await sb.close();
});

describe('every transaction answers its documented shape', () => {
  it.each(CASES)('%s (%s of %s)', async (path, kind, type, params) => {
    const p: Record<string, string> = { ...params, Limit: '60' };
    if (path === '/PNRSegments') {
      const b = sb.dataset.bookings.find(
        (x) => x.air.length > 0 && x.cars.length > 0 && x.hotels.length > 0 && x.tickets.length > 0,
      )!;
      p.RecordLocator = b.recordLocator;
    }
    const env = await getJson(sb, path, p);
    expect(env.ResponseMetadata.Success).toBe(true);
    expect(env.ResponseError).toBeUndefined();
    expect(env.ResponseMetadata.HasCache).toBe(true);
    const cache = env.ResponseMetadata.CacheMetadata!;
    expect(typeof cache.IsFromCache).toBe('boolean');
    expect(cache.CachedAt).toMatch(SERVICE_DATE);
    expect(cache.CacheExpiresAt).toMatch(SERVICE_DATE);
    if (kind === 'item') {
      expect(Array.isArray(env.ResponseReport)).toBe(false);
      expect(Object.keys(env.ResponseReport!)).toEqual(['Item']);
    } else {
      expect(Array.isArray(env.ResponseReport)).toBe(true);
    }
    const records = recordsOf(env);
    expect(records.length).toBeGreaterThan(0);
    const unpaged = path === '/FindBookings' || path === '/TicketsIssuedByNumber';
    if (unpaged) {
      expect(env.ResponseMetadata.HasPaging).toBe(false);
      expect(env.ResponseMetadata.PagingMetadata).toBeUndefined();
    } else {
      const pm = env.ResponseMetadata.PagingMetadata!;
      expect(env.ResponseMetadata.HasPaging).toBe(true);
      expect(pm.Offset).toBe('0');
      expect(pm.Limit).toBe('60');
      expect(pm.ResponseRecords).toBe(records.length);
      expect(pm.TotalRecords).toBeGreaterThanOrEqual(records.length);
    }
    if (type) for (const r of records) checkRecord(type, r);
  });

  it('fills BookingDetail lists with their documented members', async () => {
    const b = sb.dataset.bookings.find((x) => x.air.length >= 2 && x.tickets.length > 0)!;
    const [detail] = recordsOf(
      await getJson(sb, '/BookingDetails', { RecordLocator: b.recordLocator, LoadOptions: 'All' }),
    );
    const pax = (detail.Passengers as Array<Record<string, unknown>>)[0];
    expect(Object.keys(pax)).toEqual([
      'Id',
      'FirstName',
      'LastName',
      'FrequentFlyers',
      'SequenceNbr',
      'LastNameElement',
      'IsVip',
      'TravellerGUID',
      'CRMItems',
    ]);
    const itinerary = detail.Itinerary as Array<Record<string, unknown>>;
    const allowed = [
      'SegmentType',
      'SegmentNbr',
      'BoardPoint',
      'OffPoint',
      'OperatorCode',
      'OperatorService',
      'SegmentStatus',
      'DepartureTimeFormatted',
      'ArrivalTimeFormatted',
      'ChangeOfDayFormatted',
      'ServiceCode',
      'StartDate',
      'EndDate',
      'TicketNumber',
      'VendorLocators',
      'EquipmentCode',
      'Equipment',
    ];
    expect(itinerary.length).toBe(b.segments.length);
    for (const seg of itinerary) for (const k of Object.keys(seg)) expect(allowed).toContain(k);
    expect(itinerary.filter((s) => s.SegmentType === 'AIR').map((s) => s.BoardPoint)).toEqual(
      b.air.map((a) => a.from.code),
    );
    const tickets = detail.Tickets as Array<Record<string, unknown>>;
    expect(tickets.map((t) => t.TicketNumber)).toEqual(b.tickets.map((t) => t.number));
    expect(Object.keys(tickets[0])).toEqual(['SegmentNbr', 'TicketNumber', 'TicketType', 'TicketDetailsAvailable']);
    const versions = detail.Versions as Array<Record<string, unknown>>;
    expect(versions[0].AirSegs).toBe(b.air.length);
    expect(Object.keys((detail.CustomFields as Array<Record<string, unknown>>)[0])).toEqual([
      'PNRPropertiesCustomFieldID',
      'RecordLocator',
      'PNRCreationDate',
      'FieldName',
      'FieldValue',
      'CustomFieldID',
      'CreationDateTime',
      'ElementNumber',
      'GDS',
    ]);
    // Default LoadOptions: the scalars plus Passengers and Itinerary only.
    const [plain] = recordsOf(await getJson(sb, '/BookingDetails', { RecordLocator: b.recordLocator }));
    expect(Object.keys(plain)).toContain('Passengers');
    expect(Object.keys(plain)).toContain('Itinerary');
    expect(Object.keys(plain)).not.toContain('Versions');
    const [phones] = recordsOf(
      await getJson(sb, '/BookingDetails', { RecordLocator: b.recordLocator, LoadOptions: 'Phones,Emails' }),
    );
    expect(Object.keys(phones).filter((k) => Array.isArray(phones[k]))).toEqual(['Phones', 'Emails']);
  });

  it("answers PNRSegments with the booking's segments and ticket coupons", async () => {
    const b = sb.dataset.bookings.find(
      (x) => x.air.length >= 2 && x.cars.length > 0 && x.hotels.length > 0 && x.tickets.length > 0,
    )!;
    const [rep] = recordsOf(await getJson(sb, '/PNRSegments', { RecordLocator: b.recordLocator }));
    const summary = rep.Summary as Record<string, unknown>;
    const segments = rep.Segments as Record<string, Array<Record<string, unknown>>>;
    expect(summary.RecordLocator).toBe(b.recordLocator);
    expect(Object.keys(segments)).toEqual(['AirSegments', 'CarSegments', 'HotelSegments', 'PassiveSegments']);
    expect(segments.AirSegments.map((s) => s.FlightNbr)).toEqual(b.air.map((a) => a.flightNbr));
    expect(segments.CarSegments).toHaveLength(b.cars.length);
    expect(segments.HotelSegments).toHaveLength(b.hotels.length);
    const tickets = summary.Tickets as Array<{ Coupons: Array<Record<string, string>> }>;
    for (const t of tickets) {
      expect(t.Coupons.map((c) => [c.CouponBoardPoint, c.CouponOffPoint, c.FlightNbr])).toEqual(
        segments.AirSegments.map((s) => [s.BoardPoint, s.OffPoint, s.FlightNbr]),
      );
    }
    const onlyAir = recordsOf(
      await getJson(sb, '/PNRSegments', { RecordLocator: b.recordLocator, SegmentType: 'AIR' }),
    )[0];
    const only = onlyAir.Segments as Record<string, unknown[]>;
    expect(only.AirSegments.length).toBe(b.air.length);
    expect(only.CarSegments).toEqual([]);
    expect(only.HotelSegments).toEqual([]);
  });

  it('writes MinValue where a nullable date has no value', async () => {
    const hotels = sb.report('HotelSegments', {}) as Array<Record<string, unknown>>;
    expect(hotels.some((h) => h.SegmentCreationDate === MIN_VALUE_DATE)).toBe(true);
    const arrivals = sb.report('PassengerArrivals', {}) as Array<Record<string, unknown>>;
    const unticketed = arrivals.filter((a) => a.PNRTicketedDate === MIN_VALUE_DATE);
    expect(unticketed.length).toBeGreaterThan(0);
    for (const a of unticketed) {
      const b = sb.dataset.bookings.find((x) => x.recordLocator === a.RecordLocator)!;
      expect(b.tickets).toHaveLength(0);
    }
  });
});
