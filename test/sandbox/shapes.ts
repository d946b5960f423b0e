/**
 * The record shapes the service documents (field names and types of each record type) and
 * one request per transaction path that answers them, transcribed from the published
 * interface independently of the sandbox's code. test/sandbox/shapes.test.ts checks the
 * sandbox's answers against them; test/structure/transaction-tables.test.ts checks that
 * every catalog transaction has a case here.
 */
// s string, i integer, n number, b boolean, d datetime, a list, o object
export type T = 's' | 'i' | 'n' | 'b' | 'd' | 'a' | 'o';
export interface Shape {
  fields: Record<string, T>;
  optional?: string[];
}

function strings(names: string, overrides: Record<string, T> = {}): Record<string, T> {
  const out: Record<string, T> = {};
  for (const n of names.split(/[\s,]+/).filter(Boolean)) out[n] = 's';
  return { ...out, ...overrides };
}

export const SHAPES: Record<string, Shape> = {
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
export const CASES: Array<[string, 'collection' | 'item', string | null, Record<string, string>]> = [
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
