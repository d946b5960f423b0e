/**
 * The catalog: the service's public report transactions, in the order the service lists them.
 * One table drives tool registration, the README's tool table, manifest.json and the tests
 * (docs/architecture.md, "Three tables of transactions"; docs/adding-a-transaction.md).
 * Paging parameters are not listed (the server pages itself); neither are the company-scope
 * ones of C-marked transactions (acceptedParams() adds them).
 */
import {
  accounts,
  boolean,
  companyScope,
  date,
  dateRange,
  dateSearchTypeTC,
  dateTracker,
  flag01,
  hotelDateSearchType,
  integer,
  itineraryFormatting,
  list,
  loadOptions,
  pccs,
  recordLocator,
  requestConsultantId,
  string,
} from './params.js';
import type { TransactionDef } from './types.js';

/** Marks as the spec's headings write them: A (Accept), C (company scope), P (paging). */
function marks(letters: string): TransactionDef['marks'] {
  return { accept: letters.includes('A'), company: letters.includes('C'), paging: letters.includes('P') };
}

const FREE_FORM_NOTE =
  'The service does not publish its parameters (which it accepts is unknown): pass them in `parameters`';

/** The follow-ups about travel count confirmed segments only (results/derived.ts). */
const CONFIRMED = [{ field: 'SegmentState', op: 'eq', value: 'confirmed' }] as const;

export const TRANSACTIONS: readonly TransactionDef[] = [
  {
    tool: 'booking_details',
    transaction: 'BookingDetails',
    title: 'Booking details',
    description:
      'Bookings (PNR) in full: passengers, itinerary, phones, notepads, remarks, tickets, versions, e-mails. ' +
      'By RecordLocator (one or a list; PNRCreationDate if reused), ServiceRef or VendorLocators; LoadOptions picks lists. ' +
      'For only its segments and coupons use pnr_segments.',
    path: '/BookingDetails',
    verbs: 'GET',
    marks: marks('AP'),
    envelope: 'collection',
    record: 'BookingDetail',
    many: 'RecordLocator',
    answer: {
      subject: 'Booking details',
      columns: ['RecordLocator', 'Account', 'OwningConsultant', 'PNRTicketed', 'CreationDate', 'CrsDescription'],
      lead: ['Account', 'OwningConsultant', 'PNRTicketed', 'CreationDate'],
      // Ticketing deadlines and service warnings first: what a consultant acts on.
      nested: [
        'AirlineTicketingDues',
        'ServiceWarnings',
        'Passengers',
        'Itinerary',
        'Phones',
        'Emails',
        'Tickets',
        'Notepads',
        'VendorRemarks',
        'VendorLocators',
      ],
      next: [
        { say: 'the ticketing deadlines of these bookings', unnest: 'AirlineTicketingDues' },
        { say: 'their segments, per type and status', unnest: 'Itinerary', groupBy: ['SegmentType', 'SegmentStatus'] },
      ],
      lookup: { noun: 'booking', params: ['RecordLocator', 'ServiceRef', 'VendorLocators'] },
    },
    params: {
      ServiceRef: integer('Booking id (ServiceRef)'),
      LoadOptions: loadOptions,
      RecordLocator: list('Locators (PNR), e.g. ABC123, up to 100'),
      PNRCreationDate: date('Booking creation date'),
      RequestConsultantID: requestConsultantId,
      OwningCompanyCode: companyScope.OwningCompanyCode,
      UserName: companyScope.UserName,
      VendorLocators: list('Airline locators'),
    },
  },
  {
    tool: 'find_bookings',
    transaction: 'FindBookings',
    title: 'Find bookings',
    description:
      `Searches bookings. ${FREE_FORM_NOTE}, e.g. {"RecordLocator":"ABC123"}, and check the echoed query. ` +
      'With a known locator prefer booking_details.',
    path: '/FindBookings',
    verbs: 'GET',
    marks: marks(''),
    envelope: 'collection',
    record: 'unpublished',
    answer: {
      subject: 'Bookings found',
      columns: ['RecordLocator', 'Account', 'OwningConsultant', 'PNRTicketed', 'CreationDate'],
      lead: ['Account', 'OwningConsultant'],
      next: [{ say: 'bookings per account', groupBy: ['Account'] }],
    },
    params: {},
    freeForm: true,
  },
  {
    tool: 'car_segments_by_date',
    transaction: 'CarSegmentsByDate',
    title: 'Car segments by date',
    description:
      'Car rentals picked up (DateSearchType T) or booked (C) between DateStart and DateEnd: vendor, dates, rate, ' +
      'status, traveller, account. ' +
      'For counts per account for one vendor use car_segment_counts_per_account_by_vendor.',
    path: '/CarSegmentsByDate',
    verbs: 'GET',
    marks: marks('ACP'),
    envelope: 'item',
    record: 'CarSegmentRecord',
    dates: { param: 'DateSearchType', by: { T: 'pick-up date', C: 'booking creation date' } },
    answer: {
      subject: 'Car rentals',
      columns: [
        'Passengers',
        'Account',
        'VendorName',
        'AirportCode',
        'PickUpDate',
        'DropOffDate',
        'RateAmount',
        'CurrencyCode',
        'SegmentStatus',
        'RecordLocator',
      ],
      lead: [
        'Account',
        'VendorName',
        'SegmentState',
        'EstimatedCost',
        'CostBasis',
        'AirportCode',
        'PickUpDate',
        'RateAmount',
      ],
      amounts: { RateAmount: ['CurrencyCode'], EstimatedCost: ['EstimatedCostCurrency'] },
      meaning: {
        segments: [{ status: 'SegmentStatus' }],
        travellerLists: ['Passengers'],
        costs: [
          {
            kind: 'car',
            rate: 'RateAmount',
            currency: 'CurrencyCode',
            status: 'SegmentStatus',
            start: 'PickUpDate',
            end: 'DropOffDate',
            period: ['ServiceInformation', 'CarRateCode'],
          },
        ],
      },
      next: [
        {
          say: 'confirmed rentals and their estimated cost per vendor',
          where: CONFIRMED,
          groupBy: ['VendorName'],
          aggregates: [{ fn: 'sum', field: 'EstimatedCost' }],
        },
        {
          say: 'confirmed rentals and cost per account',
          where: CONFIRMED,
          groupBy: ['Account'],
          aggregates: [{ fn: 'sum', field: 'EstimatedCost' }],
        },
      ],
    },
    params: {
      SegmentType: string('Segment type'),
      ...dateRange('Date', 'Date', { required: true }),
      DateSearchType: dateSearchTypeTC,
    },
  },
  {
    tool: 'air_segments_by_date',
    transaction: 'AirSegmentsByDate',
    title: 'Air segments by date',
    description:
      'Flight segments departing (DateSearchType T) or booked (C) between DateStart and DateEnd: carrier, flight, ' +
      'route, times, class, status, account. ' +
      'For travellers by origin/destination use passenger_locations_by_routing; for arrivals with contacts, passenger_arrivals.',
    path: '/AirSegmentsByDate',
    verbs: 'GET',
    marks: marks('ACP'),
    envelope: 'item',
    record: 'AirSegmentByDate',
    dates: { param: 'DateSearchType', by: { T: 'departure date', C: 'booking creation date' } },
    answer: {
      subject: 'Flights',
      columns: [
        'Passengers',
        'Account',
        'CarrierCode',
        'FlightNbr',
        'BoardPoint',
        'OffPoint',
        'DepartureDate',
        'DepartureTime',
        'SegmentStatus',
        'RecordLocator',
      ],
      lead: [
        'Account',
        'CarrierCode',
        'SegmentState',
        'BoardPoint',
        'OffPoint',
        'OffCity',
        'DepartureDate',
        'SegmentStatus',
      ],
      meaning: {
        segments: [{ status: 'SegmentStatus' }],
        airports: [{ board: 'BoardPoint', off: 'OffPoint' }],
        travellerLists: ['Passengers'],
      },
      next: [
        { say: 'confirmed flights per carrier', where: CONFIRMED, groupBy: ['CarrierCode'] },
        { say: 'confirmed flights per account', where: CONFIRMED, groupBy: ['Account'] },
        { say: 'confirmed flights per day', where: CONFIRMED, groupBy: ['DepartureDate:day'] },
      ],
    },
    params: {
      ...dateRange('Date', 'Date', { required: true }),
      DateSearchType: dateSearchTypeTC,
    },
  },
  {
    tool: 'pnr_segments',
    transaction: 'PNRSegments',
    title: 'PNR segments',
    description:
      "Bookings' segments (air with seats, car, hotel, passive) with tickets, coupons and airline locators. " +
      'Lighter than booking_details when only the itinerary matters.',
    path: '/PNRSegments',
    verbs: 'GET',
    marks: marks('AP'),
    envelope: 'collection',
    record: 'PnrSegmentsReport',
    many: 'RecordLocator',
    answer: {
      subject: 'PNR segments',
      columns: ['Summary.RecordLocator'],
      nested: [
        'Segments.AirSegments',
        'Segments.HotelSegments',
        'Segments.CarSegments',
        'Segments.PassiveSegments',
        'Summary.Tickets',
        'Summary.AirlineReferences',
      ],
      amounts: {
        'Segments.CarSegments.RateAmount': ['Segments.CarSegments.CurrencyCode'],
        'Segments.CarSegments.DistanceRateAmount': ['Segments.CarSegments.CurrencyCode'],
        'Segments.HotelSegments.Rate': ['Segments.HotelSegments.Currency'],
      },
      lookup: { noun: 'booking', params: ['RecordLocator'] },
      meaning: {
        segments: [
          { list: 'Segments.AirSegments', status: 'SegmentStatus' },
          { list: 'Segments.CarSegments', status: 'SegmentStatus' },
          { list: 'Segments.HotelSegments', status: 'StatusCode' },
          { list: 'Segments.PassiveSegments', status: 'SegmentStatus' },
        ],
        airports: [{ list: 'Segments.AirSegments', board: 'BoardPoint', off: 'OffPoint' }],
        costs: [
          {
            list: 'Segments.HotelSegments',
            kind: 'hotel',
            rate: 'Rate',
            currency: 'Currency',
            status: 'StatusCode',
            nights: 'NbrNights',
            rooms: 'NbrRooms',
          },
          {
            list: 'Segments.CarSegments',
            kind: 'car',
            rate: 'RateAmount',
            currency: 'CurrencyCode',
            status: 'SegmentStatus',
            start: 'PickUpDate',
            end: 'DropOffDate',
            period: ['CarRateType'],
          },
        ],
      },
    },
    params: {
      RecordLocator: list('Locators (PNR), up to 100', { required: true }),
      PNRCreationDate: date('Booking creation date, if the locator was reused'),
      SegmentType: string('Segment type'),
      PassiveSegmentType: string('Passive segment type'),
    },
  },
  {
    tool: 'ticket_coupons_by_status_code',
    transaction: 'TicketCouponsByStatusCode',
    title: 'Ticket coupons by status code',
    description:
      'Ticket coupons in a status (CouponCodeGroup) over issue, travel or expiry dates (DateTracker), with fares, taxes and flights. ' +
      'Use for open or unused tickets, refunds and exchanges; for all tickets issued in a period use ticket_coupons_issued.',
    path: '/TicketCouponsByStatusCode',
    verbs: 'GET',
    marks: marks('ACP'),
    envelope: 'collection',
    record: 'TicketCouponStatusRecord',
    dates: { param: 'DateTracker', by: { I: 'ticket issue date', T: 'coupon travel date', E: 'ticket expiry date' } },
    answer: {
      subject: 'Ticket coupons',
      columns: [
        'Passenger',
        'Account',
        'TktNumber',
        'FlightCouponStatus',
        'Carrier',
        'BoardPoint',
        'OffPoint',
        'FlightDate',
        'CreditValue',
        'CreditCurrency',
        'RecordLocator',
      ],
      lead: ['Account', 'FlightCouponStatus', 'Carrier', 'FlightDate', 'CreditValue', 'CreditCurrency'],
      amounts: {
        CreditValue: ['CreditCurrency'],
        FOPFare: [],
        BaseFare: [],
        TotalTax: [],
        Tax1Amt: [],
        Tax2Amt: [],
        Tax3Amt: [],
        Tax4Amt: [],
        Tax5Amt: [],
      },
      meaning: {
        ticketGrain: {
          ticket: 'TktNumber',
          amounts: ['FOPFare', 'BaseFare', 'TotalTax', 'Tax1Amt', 'Tax2Amt', 'Tax3Amt', 'Tax4Amt', 'Tax5Amt'],
        },
      },
      next: [
        {
          say: 'coupons and credit per account',
          groupBy: ['Account'],
          aggregates: [
            { fn: 'sum', field: 'CreditValue' },
            { fn: 'countDistinct', field: 'TktNumber' },
          ],
        },
      ],
    },
    params: {
      ...dateRange('Date', 'Date', { required: true }),
      CouponCodeGroup: string("Coupon status, e.g. OPEN, USED or 'ALL OPEN'", { required: true }),
      DateTracker: dateTracker,
      TravAgntID: integer('Travel agent id'),
      Account: accounts,
      OwningAgencyLocationID: pccs,
      Repeat: string('Repeat'),
      NoActiveSegments: boolean('Only coupons with no active segments'),
      IncludePartialMatches: boolean('Include partial matches'),
      ShowMatchingCouponsOnly: boolean('Show only matching coupons'),
      PaxSurname: string('Passenger surname'),
      CarrierCode: string('Two-letter carrier code'),
      ExcludedPlatingCarrier: list('3-character plating carriers to exclude'),
      OwningConsultantID: string('Owning consultant id'),
      CacheGuid: string('Cache id'),
      TravellerGUID: string('Traveller GUID'),
      RequestConsultantID: requestConsultantId,
      TravellerReference: integer('Traveller CRM id or reference'),
      CRM: string('CRM name'),
    },
  },
  {
    tool: 'tickets_issued_by_number',
    transaction: 'GetTicketsIssuedByNumber',
    title: 'Tickets issued by number',
    description:
      `Tickets issued, looked up by ticket number. ${FREE_FORM_NOTE}, e.g. {"TicketNumber":"1251234567890"}, and check the echoed query. ` +
      'For tickets over a date range use ticket_coupons_issued.',
    path: '/TicketsIssuedByNumber',
    verbs: 'GET',
    marks: marks(''),
    envelope: 'collection',
    record: 'unpublished',
    answer: {
      subject: 'Tickets',
      columns: [
        'TktNumber',
        'Passenger',
        'Account',
        'VendorIssueDate',
        'TicketStatus',
        'Routing',
        'FOPFare',
        'FOPCurrency',
        'RecordLocator',
      ],
      lead: ['Account', 'TicketStatus', 'Carrier', 'FOPFare'],
      // The service publishes no record for this report; the form of payment's currency is the ticket's.
      amounts: {
        FOPFare: ['FOPCurrency', 'FOPCurrncy'],
        BaseFare: ['FOPCurrency', 'FOPCurrncy'],
        TotalTax: ['FOPCurrency', 'FOPCurrncy'],
      },
      lookup: { noun: 'ticket', params: ['TicketNumber', 'TktNumber'] },
    },
    params: {},
    freeForm: true,
  },
  {
    tool: 'check_failed_submissions',
    transaction: 'CheckFailedSubmissions',
    title: 'Failed submissions',
    description:
      'Bookings whose check submission failed, with log message, raw response and event type, logged between ' +
      'LogDateStart and LogDateEnd. ' +
      'For forwarding to partner systems use partner_forwarding_logs.',
    path: '/CheckFailedSubmissions',
    verbs: 'ALL',
    marks: marks('CP'),
    envelope: 'collection',
    record: 'CheckFailedSubmission',
    dates: { by: 'log date' },
    answer: {
      subject: 'Failed submissions',
      columns: ['RecordLocator', 'LogDateTime', 'LogMessage', 'EventType', 'Account', 'RawResponse'],
      lead: ['EventType', 'Account', 'LogMessage', 'LogDateTime', 'OwningConsultant'],
      next: [
        { say: 'failures per event type and message', groupBy: ['EventType', 'LogMessage'] },
        { say: 'failures per account', groupBy: ['Account'] },
      ],
    },
    params: {
      ...dateRange('LogDate', 'Logged'),
      OwningAgencyLocationID: pccs,
    },
  },
  {
    tool: 'qlog_forward',
    transaction: 'QLogForward',
    title: 'Queue forwarding log',
    description:
      'Queue forwarding log: which bookings were forwarded where and what they matched on, logged between LogDateStart and LogDateEnd.',
    path: '/QLogForward',
    verbs: 'ALL',
    marks: marks('P'),
    envelope: 'item',
    record: 'QLogForwardItem',
    dates: { by: 'log date' },
    answer: {
      subject: 'Queue forwards',
      columns: ['RecordLocator', 'LogDate', 'MatchedOn', 'Destination'],
      lead: ['Destination', 'MatchedOn', 'LogDate'],
      next: [{ say: 'forwards per destination', groupBy: ['Destination'] }],
    },
    params: {
      CompanyID: integer('Company id'),
      QueueEntryID: integer('Queue entry id'),
      ...dateRange('LogDate', 'Logged'),
    },
  },
  {
    tool: 'qc_comments_for_consultant',
    transaction: 'QcCommentsForConsultant',
    title: 'QC comments for consultant',
    description:
      "Quality-control comments on a consultant's bookings between DateStart and DateEnd; filter by Consultant or " +
      'AgentInitials, Team or PCC.',
    path: '/QcCommentsForConsultant',
    verbs: 'GET',
    marks: marks('CP'),
    envelope: 'collection',
    record: 'QcComment',
    dates: { param: 'DateByComments', by: { false: 'booking creation date', true: 'comment date' } },
    answer: {
      subject: 'Quality-control comments',
      columns: ['Consultant', 'RecordLocator', 'CommentDate', 'Comment', 'AgentInitials'],
      lead: ['Consultant', 'AgentInitials', 'CommentDate'],
      next: [{ say: 'comments per consultant', groupBy: ['Consultant'] }],
    },
    params: {
      Consultant: string('Consultant full name'),
      AgentInitials: string('Agent initials'),
      ...dateRange('Date', 'Date'),
      OwningAgencyLocationID: pccs,
      Team: string('Team name'),
      DateByComments: boolean('true: comment dates, not booking creation'),
      GroupByAgentInitials: boolean('Group by agent initials'),
    },
  },
  {
    tool: 'distributor_bookings_by_airline_class',
    transaction: 'DistributorBookingsByAirlineClass',
    title: 'Distributor bookings by airline class',
    description:
      "A distributor's bookings on a plating carrier and booking class, issued between IssueDateStart and " +
      'IssueDateEnd: ticketed status, booking codes, flights, routing, tour code. ' +
      'For airline deal and fare-class tracking.',
    path: '/DistributorBookingsByAirlineClass',
    verbs: 'GET',
    marks: marks('P'),
    envelope: 'item',
    record: 'BookingByAirlineWithClass',
    dates: { by: 'ticket issue date' },
    answer: {
      subject: 'Bookings by airline class',
      columns: [
        'RecordLocator',
        'Account',
        'TicketedStatus',
        'BookingCodesBooked',
        'FlightNumbers',
        'Routing',
        'OwningConsultant',
      ],
      lead: ['Account', 'TicketedStatus', 'BookingCodesBooked', 'Routing'],
      next: [{ say: 'bookings per account and ticketed status', groupBy: ['Account', 'TicketedStatus'] }],
    },
    params: {
      DistributorID: integer('Distributor id'),
      ...dateRange('IssueDate', 'Issued'),
      PlatingCarrier: string('Two-letter plating carrier'),
      BookingClassName: string('Class name, e.g. Business (not J)'),
      BoardPointCountryCode: string('Origin country code'),
      IncludeItinerary: boolean('Include the itinerary'),
      ItineraryFormatting: itineraryFormatting,
    },
  },
  {
    tool: 'hotel_segments',
    transaction: 'HotelSegments',
    title: 'Hotel segments',
    description:
      'Hotel stays, one row per segment: property, city, dates, nights, rate, confirmation, traveller, account; ' +
      'dates by arrival, booking or segment creation (DateSearchType). ' +
      'For totals per hotel chain use hotel_segment_counts_per_location.',
    path: '/HotelSegments',
    verbs: 'GET',
    marks: marks('CP'),
    envelope: 'item',
    record: 'HotelSegment',
    dates: {
      param: 'DateSearchType',
      by: { A: 'arrival date', C: 'booking creation date', S: 'segment creation date' },
    },
    answer: {
      subject: 'Hotel stays',
      columns: [
        'Passenger',
        'Account',
        'PropertyName',
        'CityName',
        'ArrivalDate',
        'NbrNights',
        'RateAmount',
        'CurrencyCode',
        'StatusCode',
        'RecordLocator',
      ],
      lead: [
        'Account',
        'SegmentState',
        'NightsInWindow',
        'NbrNights',
        'EstimatedCostInWindow',
        'EstimatedCost',
        'CostBasis',
        'PropertyName',
        'VendorCode',
        'CityName',
        'ArrivalDate',
        'RateAmount',
        'StatusCode',
      ],
      amounts: {
        RateAmount: ['CurrencyCode'],
        EstimatedCost: ['EstimatedCostCurrency'],
        EstimatedCostInWindow: ['EstimatedCostCurrency'],
      },
      meaning: {
        segments: [{ status: 'StatusCode', cancelledFlag: 'IsCancelled' }],
        costs: [
          {
            kind: 'hotel',
            rate: 'RateAmount',
            currency: 'CurrencyCode',
            status: 'StatusCode',
            cancelledFlag: 'IsCancelled',
            nights: 'NbrNights',
            rooms: 'NbrRooms',
          },
        ],
        nightsInWindow: {
          start: 'DateStart',
          end: 'DateEnd',
          arrival: 'ArrivalDate',
          departure: 'DepartureDate',
          nights: 'NbrNights',
          byArrival: { param: 'DateSearchType', value: 'A' },
        },
        bookingCounts: { booking: 'RecordLocator', counts: ['TotalAirSegs'] },
      },
      next: [
        {
          say: 'confirmed nights in the window and their estimated cost per account',
          where: CONFIRMED,
          groupBy: ['Account'],
          aggregates: [
            { fn: 'sum', field: 'NightsInWindow' },
            { fn: 'sum', field: 'EstimatedCostInWindow' },
          ],
        },
        {
          say: 'confirmed nights in the window per hotel chain',
          where: CONFIRMED,
          groupBy: ['VendorCode'],
          aggregates: [{ fn: 'sum', field: 'NightsInWindow' }],
        },
        {
          say: 'confirmed stays, their nights and estimated cost per account',
          where: CONFIRMED,
          groupBy: ['Account'],
          aggregates: [
            { fn: 'sum', field: 'NbrNights' },
            { fn: 'sum', field: 'EstimatedCost' },
          ],
        },
        {
          say: 'confirmed stays and nights per hotel chain',
          where: CONFIRMED,
          groupBy: ['VendorCode'],
          aggregates: [{ fn: 'sum', field: 'NbrNights' }],
        },
      ],
    },
    params: {
      ...dateRange('Date', 'Date'),
      Account: accounts,
      CityCode: string('3-letter city code'),
      WithNotepad: flag01('1 includes the hotel notepad'),
      OwningAgencyLocationID: pccs,
      OwningAgencyCountryCode: list('Agency country codes'),
      DateSearchType: hotelDateSearchType,
      IncludeCancelled: string('Include cancelled (segment-creation search)'),
      IsGDS: flag01('1 GDS bookings only, 0 non-GDS (e.g. supplier direct)'),
      IsPassive: flag01('1 passive segments only, 0 non-passive only'),
      CustomField: list('Custom fields to include'),
    },
  },
  {
    tool: 'passenger_arrivals',
    transaction: 'PassengerArrivals',
    title: 'Passenger arrivals',
    description:
      'Travellers arriving between ArrivalDateStart and ArrivalDateEnd, with travel date, days away, destination ' +
      'countries, mobiles and e-mails. ' +
      'For contacting travellers on arrival; for flight lists use air_segments_by_date.',
    path: '/PassengerArrivals',
    verbs: 'GET',
    marks: marks('CP'),
    envelope: 'item',
    record: 'PassengerArrival',
    dates: { by: 'arrival date' },
    answer: {
      subject: 'Arrivals',
      columns: [
        'Passenger',
        'Account',
        'ArrivalDate',
        'DestinationCountries',
        'DaysAway',
        'MobileList',
        'EmailList',
        'RecordLocator',
      ],
      lead: ['Account', 'DestinationCountries', 'ArrivalDate', 'DaysAway'],
      next: [
        { say: 'arrivals per destination country', groupBy: ['DestinationCountries'] },
        { say: 'arrivals per day', groupBy: ['ArrivalDate:day'] },
      ],
    },
    params: {
      Account: accounts,
      ...dateRange('ArrivalDate', 'Arrival'),
    },
  },
  {
    tool: 'partner_forwarding_logs',
    transaction: 'PartnerForwardingLogs',
    title: 'Partner forwarding logs',
    description:
      'Bookings forwarded to partner systems, with outcome and message, logged between LogDateStart and LogDateEnd; ' +
      'IsSuccess false lists the failures.',
    path: '/PartnerForwardingLogs',
    verbs: 'ALL',
    marks: marks('CP'),
    envelope: 'collection',
    record: 'PartnerForwardingLog',
    dates: { by: 'log date' },
    answer: {
      subject: 'Partner forwarding logs',
      columns: ['RecordLocator', 'LogDateTime', 'Success', 'LogMessage', 'Account'],
      lead: ['Success', 'Account', 'LogMessage', 'LogDateTime'],
      meaning: { textFields: ['Partner', 'FailureReason'] },
      next: [
        // Not per LogMessage: every message holds its booking's locator (one group per booking).
        {
          say: 'the failed forwards per partner and reason',
          where: [{ field: 'Success', op: 'eq', value: false }],
          groupBy: ['Partner', 'FailureReason'],
        },
      ],
    },
    params: {
      ...dateRange('LogDate', 'Logged'),
      RecordLocator: recordLocator,
      IsSuccess: boolean('Filter on outcome'),
      OwningAgencyLocationID: pccs,
    },
  },
  {
    tool: 'passenger_locations_by_routing',
    transaction: 'PassengerLocationsByRouting',
    title: 'Passenger locations by routing',
    description:
      'Who travels from or to a place (airport, city, country, subregion or region codes) between DateStart and ' +
      'DateEnd, with contacts, itinerary and tickets. ' +
      'Use for duty of care; for plain flight lists use air_segments_by_date.',
    path: '/PassengerLocationsByRouting',
    verbs: 'GET',
    marks: marks('CP'),
    envelope: 'collection',
    record: 'PassengerLocationRouting',
    dates: { by: 'flight departure date' },
    answer: {
      subject: 'Travellers by routing',
      columns: [
        'PaxList',
        'Account',
        'BoardPoint',
        'OffPoint',
        'TravelDate',
        'DepartureDate',
        'DestinationCities',
        'CarrierCodes',
        'PhoneNbr',
        'RecordLocator',
      ],
      lead: ['Account', 'DestinationCities', 'OffPoint', 'BoardPoint', 'TravelDate', 'CarrierCodes'],
      meaning: {
        segments: [{ list: 'Itinerary', status: 'SegmentStatus' }],
        airports: [{ board: 'BoardPoint', off: 'OffPoint' }],
        travellerLists: ['PaxList'],
      },
      next: [
        {
          say: 'travellers per destination city',
          groupBy: ['DestinationCities'],
          aggregates: [{ fn: 'countDistinct', field: 'PaxList' }],
        },
        { say: 'every flight of these bookings, per carrier', unnest: 'Itinerary', groupBy: ['OperatorCode'] },
      ],
    },
    params: {
      Account: accounts,
      ...dateRange('Date', 'Date'),
      FromAirportCode: string('Origin airport code'),
      FromCityCode: string('Origin city code'),
      FromCountryCode: string('Origin country code'),
      FromSubregionCode: string('Origin subregion code'),
      FromRegionCode: string('Origin region code'),
      ToAirportCode: string('Destination airport code'),
      ToCityCode: string('Destination city code'),
      ToCountryCode: string('Destination country code'),
      ToSubregionCode: string('Destination subregion code'),
      ToRegionCode: string('Destination region code'),
      OwningConsultantID: list('Consultant ids'),
      CustomField: list('Custom fields'),
      RequestConsultantID: requestConsultantId,
    },
  },
  {
    tool: 'problematic_segments',
    transaction: 'ProblematicSegments',
    title: 'Problematic segments',
    description:
      'Segments the service flags as problematic (see SegmentStatus), departing between DepartureDateStart and ' +
      'DepartureDateEnd, with booking, consultant and PCC: a worklist of bookings to fix.',
    path: '/ProblematicSegments',
    verbs: 'GET',
    marks: marks('CP'),
    envelope: 'collection',
    record: 'ProblematicSegment',
    dates: { by: 'segment departure date' },
    answer: {
      subject: 'Problem segments',
      columns: [
        'PrimaryPax',
        'Account',
        'SegmentStatus',
        'Segment',
        'DepartureDate',
        'OwningConsultant',
        'RecordLocator',
      ],
      lead: ['SegmentStatus', 'SegmentState', 'Account', 'OwningConsultant', 'DepartureDate'],
      meaning: { segments: [{ status: 'SegmentStatus' }] },
      next: [
        { say: 'problems per status', groupBy: ['SegmentStatus'] },
        { say: 'problems per consultant', groupBy: ['OwningConsultant'] },
      ],
    },
    params: {
      ...dateRange('DepartureDate', 'Departure'),
      OwningAgencyLocationID: pccs,
    },
  },
  {
    tool: 'bookings_with_active_segments',
    transaction: 'BookingsWithActiveSegments',
    title: 'Bookings with active segments',
    description:
      'Bookings with active segments travelling between TravelDateStart and TravelDateEnd (or all future dates), ' +
      'with air/hotel/car flags, contacts, flights and tickets.',
    path: '/BookingsWithActiveSegments',
    verbs: 'ALL',
    marks: marks('CP'),
    envelope: 'item',
    record: 'BookingWithActiveSegments',
    dates: { by: 'travel date' },
    answer: {
      subject: 'Bookings with active segments',
      columns: [
        'Passenger',
        'Account',
        'TravelDate',
        'DestinationCities',
        'HasAir',
        'HasHtl',
        'HasCar',
        'PNRTicketed',
        'RecordLocator',
      ],
      lead: ['Account', 'Travelling', 'DestinationCities', 'TravelDate', 'PNRTicketed'],
      meaning: { travelFlags: ['HasAir', 'HasHtl', 'HasCar'] },
      next: [
        {
          say: 'bookings travelling (air, hotel or car) per account',
          where: [{ field: 'Travelling', op: 'eq', value: true }],
          groupBy: ['Account'],
        },
      ],
    },
    params: {
      ...dateRange('TravelDate', 'Travel'),
      AllFutureDate: boolean('All future dates'),
      Account: accounts,
    },
  },
  {
    tool: 'passenger_air_segments_with_max_traveller_flag',
    transaction: 'PassengerAirSegmentsWithMaxTravellerFlag',
    title: 'Passenger air segments with max traveller flag',
    description:
      "Flights with the count of an account's travellers on board against the allowed maximum (travel policy), " +
      'departing between DepartureDateStart and DepartureDateEnd.',
    path: '/PassengerAirSegmentsWithMaxTravellerFlag',
    verbs: 'GET',
    marks: marks('CP'),
    envelope: 'collection',
    record: 'PassengerAirSegmentWithMaxTravellerFlag',
    dates: { by: 'flight departure date' },
    answer: {
      subject: 'Flights with traveller counts',
      columns: [
        'Passenger',
        'Account',
        'OperatingCarrierCode',
        'FlightNbr',
        'DepartureCity',
        'ArrivalCity',
        'DepartureDate',
        'TravellerCount',
        'MaxTravellerCount',
        'MaxTravellerCountExceededFlag',
        'RecordLocator',
      ],
      lead: ['MaxTravellerCountExceededFlag', 'Account', 'DepartureDate', 'TravellerCount'],
      next: [
        {
          say: 'the flights over the limit',
          where: [{ field: 'MaxTravellerCountExceededFlag', op: 'eq', value: true }],
          groupBy: ['FlightNbr', 'DepartureDate'],
        },
      ],
    },
    params: {
      Account: accounts,
      ...dateRange('DepartureDate', 'Departure'),
      MaxTravellerIsExceededFlag: flag01('1 only flights over the maximum'),
    },
  },
  {
    tool: 'ticket_coupons_issued',
    transaction: 'TicketCouponsIssued',
    title: 'Ticket coupons issued',
    description:
      'Ticket coupons issued between IssueDateStart and IssueDateEnd: ticket, traveller, fare, routing, class, ' +
      'carrier, coupon status, agent. ' +
      'For coupons in a status over travel or expiry dates use ticket_coupons_by_status_code.',
    path: '/TicketCouponsIssued',
    verbs: 'GET',
    marks: marks('CP'),
    envelope: 'item',
    record: 'TicketCouponIssued',
    dates: { by: 'ticket issue date' },
    answer: {
      subject: 'Tickets issued',
      columns: [
        'Passenger',
        'Account',
        'TktNumber',
        'VendorIssueDate',
        'Routing',
        'Carrier',
        'FOPFare',
        'FOPCurrency',
        'FlightCouponStatus',
        'RecordLocator',
      ],
      lead: ['Account', 'Carrier', 'VendorIssueDate', 'FOPFare', 'FlightCouponStatus'],
      amounts: { FOPFare: ['FOPCurrency', 'FOPCurrncy'] },
      meaning: { ticketGrain: { ticket: 'TktNumber', amounts: ['FOPFare'] } },
      next: [
        {
          say: 'tickets and fares per account',
          groupBy: ['Account'],
          aggregates: [
            { fn: 'countDistinct', field: 'TktNumber' },
            { fn: 'sum', field: 'FOPFare' },
          ],
        },
      ],
    },
    params: {
      Account: accounts,
      OwningAgencyLocationID: pccs,
      ...dateRange('IssueDate', 'Issued'),
      TravelAgentID: string('Travel agent id'),
      FlightCouponStatus: string('One-letter coupon status'),
      FormatStyle: string('Format style'),
    },
  },
  {
    tool: 'app_users_activity',
    transaction: 'AppUsersActivity',
    title: 'App users activity',
    description:
      "Reporting application users' activity (reports run, downloads) between DateStart and DateEnd; filter by User. Not about bookings.",
    path: '/AppUsersActivity',
    verbs: 'GET',
    marks: marks('P'),
    envelope: 'collection',
    record: 'AppUserActivity',
    dates: { by: 'activity date' },
    answer: {
      subject: 'User activity',
      columns: ['User', 'FirstName', 'LastName', 'ActivityDateTime', 'Activity', 'IsDownload', 'RequestDetails'],
      lead: ['User', 'Activity', 'ActivityDateTime', 'IsDownload'],
      meaning: { textFields: ['ReportName'] },
      next: [
        {
          say: 'reports run and downloaded, per report',
          where: [{ field: 'Activity', op: 'in', value: ['RunReport', 'DownloadReport'] }],
          groupBy: ['ReportName'],
        },
        { say: 'activity per user', groupBy: ['User', 'Activity'] },
      ],
    },
    params: {
      Username: string('Caller (e-mail), not a filter: see User'),
      ...dateRange('Date', 'Date'),
      ExcludeFrequentNonReportActivities: boolean('Exclude frequent non-report activities'),
      ExcludeEmailSubscriptions: boolean('Exclude e-mail subscriptions'),
      User: string('Only this user (e-mail)'),
    },
  },
  {
    tool: 'hotel_segment_counts_per_location',
    transaction: 'HotelSegmentCountsPerLocation',
    title: 'Hotel segment counts per location',
    description:
      'Hotel segment and night totals per hotel chain and vendor between DateStart and DateEnd, for supplier ' +
      'volume. For individual stays use hotel_segments.',
    path: '/HotelSegmentCountsPerLocation',
    verbs: 'GET',
    marks: marks('P'),
    envelope: 'collection',
    record: 'HotelSegmentCountPerVendor',
    dates: { by: 'arrival date' },
    answer: {
      subject: 'Hotel segments per chain',
      columns: ['ChainName', 'VendorCode', 'TotalSegments', 'TotalNights'],
      lead: ['ChainName', 'TotalSegments', 'TotalNights'],
      meaning: {
        serviceTotals: {
          fields: ['TotalSegments', 'TotalNights'],
          unsaid: 'whether they count stays not confirmed, or nights after DateEnd',
          instead:
            'hotel_segments with the same dates gives each stay its SegmentState and NightsInWindow (the nights ' +
            'that fall between DateStart and DateEnd)',
        },
      },
    },
    params: {
      UserName: companyScope.UserName,
      ...dateRange('Date', 'Date'),
    },
  },
  {
    tool: 'car_segment_counts_per_account_by_vendor',
    transaction: 'CarSegmentCountsPerAccountByVendor',
    title: 'Car segment counts per account by vendor',
    description:
      'Car segment totals per account for one car vendor (VendorCode) between DateStart and DateEnd. For individual ' +
      'rentals use car_segments_by_date.',
    path: '/CarSegmentCountsPerAccountByVendor/user',
    verbs: 'GET',
    marks: marks('CP'),
    envelope: 'item',
    record: 'CarSegmentCountPerAccount',
    dates: { by: 'pick-up date' },
    answer: {
      subject: 'Car segments per account',
      columns: ['Account', 'TotalSegments'],
      lead: ['Account', 'TotalSegments'],
      meaning: {
        serviceTotals: {
          fields: ['TotalSegments'],
          unsaid: 'whether it counts rentals not confirmed',
          instead: 'car_segments_by_date with the same dates gives each rental its SegmentState',
        },
      },
    },
    params: {
      ...dateRange('Date', 'Date', { required: true }),
      VendorCode: string('Car vendor code, e.g. ZE', { required: true }),
    },
  },
];

/** The definition of a tool, or undefined. */
export function findTransaction(tool: string): TransactionDef | undefined {
  return TRANSACTIONS.find((d) => d.tool === tool);
}
