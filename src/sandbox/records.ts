/**
 * Renders dataset entities as the service's records (the layouts it publishes): exact
 * field names in spec order, datetimes as service dates, absent optional members omitted,
 * DateTime.MinValue where a nullable date has no value. Types follow the spec: fields it
 * does not type are strings (so ServiceRef is a string in CarSegmentRecord and an integer in
 * HotelSegment).
 */
import { MIN_VALUE_DATE } from '../upstream/service-date.js';
import {
  amount,
  creationDate,
  currentTicket,
  itineraryFormatted,
  itinerarySegment,
  type JsonRecord,
  passengerName,
} from './booking-detail.js';
import type {
  Activity,
  AirSegment,
  Booking,
  CarSegment,
  Coupon,
  FailedSubmission,
  HotelSegment,
  PartnerLog,
  QcCommentEntry,
  QLogForwardEntry,
  Segment,
  Ticket,
  Traveller,
} from './data.js';
import { DAY_MS, hhmm, isoDay, MINUTE_MS, serviceDay, serviceInstant } from './days.js';

function distinct(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

export function paxList(b: Booking): string {
  return b.passengers.map(passengerName).join(', ');
}

function primaryPax(b: Booking): string {
  return b.passengers[0] ? passengerName(b.passengers[0]) : '';
}

/** Cities the trip visits (not connection points, not the origin). */
export function destinationCities(b: Booking): string[] {
  if (b.air.length > 0) {
    const origin = b.air[0].from.cityCode;
    return distinct(b.air.filter((s) => !s.connection && s.to.cityCode !== origin).map((s) => s.to.cityCode));
  }
  return distinct([...b.hotels.map((h) => h.property.city.cityCode), ...b.cars.map((c) => c.airport.cityCode)]);
}

export function destinationCountries(b: Booking): string[] {
  if (b.air.length > 0) {
    const origin = b.air[0].from.cityCode;
    return distinct(b.air.filter((s) => !s.connection && s.to.cityCode !== origin).map((s) => s.to.countryCode));
  }
  return distinct([...b.hotels.map((h) => h.property.city.countryCode), ...b.cars.map((c) => c.airport.countryCode)]);
}

function connections(b: Booking): string {
  return distinct(b.air.filter((s) => s.connection).map((s) => s.to.code)).join(',');
}

function carrierCodes(b: Booking): string {
  return distinct(b.air.map((s) => s.carrier.code)).join(',');
}

function flightNumbers(b: Booking, sep = ','): string {
  return b.air.map((s) => `${s.carrier.code}${s.flightNbr}`).join(sep);
}

function iataCodes(b: Booking): string {
  return distinct(b.air.flatMap((s) => [s.from.code, s.to.code])).join(',');
}

function routing(b: Booking): string {
  if (b.air.length === 0) return '';
  const points = [b.air[0].from.code];
  for (const s of b.air) {
    if (points[points.length - 1] !== s.from.code) points.push(s.from.code);
    points.push(s.to.code);
  }
  return points.join('-');
}

function ticketNumbers(b: Booking): string[] {
  return b.passengers.map((p) => currentTicket(b, p)?.number).filter((n): n is string => n !== undefined);
}

function vendorLocators(b: Booking): JsonRecord[] {
  return b.vendorLocators.map((v) => ({ CarrierCode: v.carrier, VendorLocator: v.locator }));
}

function customFields(b: Booking, names: readonly string[] | null): JsonRecord[] {
  const wanted =
    names === null
      ? b.customFields
      : b.customFields.filter((f) => names.some((n) => n.toLowerCase() === f.name.toLowerCase()));
  return wanted.map((f) => ({ FieldName: f.name, FieldValue: f.value }));
}

/** Local pick-up/drop-off wall clock at an airport, as a service date carrying its offset. */
function localStamp(day: number, minutes: number, offset: number): string {
  return serviceInstant(day * DAY_MS + (minutes - offset) * MINUTE_MS, offset);
}

function ticketedDate(b: Booking): string {
  return b.tickets.length ? serviceInstant(b.tickets[0].issueMs, b.pcc.offset) : MIN_VALUE_DATE;
}

// ------------------------------------------------------------------ segments

/** How a car rate's text names its period ('' when the rate does not say). */
const RATE_WORDS: Readonly<Record<CarSegment['rateType'], string>> = {
  D: 'DAILY ',
  W: 'WEEKLY ',
  M: 'MONTHLY ',
  '': '',
};

export function carSegmentRecord(s: CarSegment): JsonRecord {
  const b = s.booking;
  return {
    ServiceRef: String(b.serviceRef),
    RecordLocator: b.recordLocator,
    OwningAgencyLocationID: b.pcc.code,
    OwningConsultant: b.consultant.name,
    Account: b.account.code,
    Passengers: paxList(b),
    PickUpDate: localStamp(s.pickDay, s.pickMin, s.airport.offset),
    DropOffDate: localStamp(s.dropDay, s.dropMin, s.airport.offset),
    CarVendorCode: s.vendor.code,
    VendorName: s.vendor.name,
    SegmentStatus: s.status,
    AirportCode: s.airport.code,
    ConfirmationNbr: s.confirmation,
    CurrencyCode: s.currency,
    RateAmount: amount(s.rateAmount),
    NbrOfCars: '1',
    CarType: s.carType,
    ServiceInformation: `${RATE_WORDS[s.rateType]}RATE ${s.currency} ${amount(s.rateAmount)} UNL KM`,
    BRInformation: `BR-${b.account.code}`,
    CarSegmentType: s.passive ? 'Passive' : 'Active',
    CreatingAgencyIata: b.pcc.iata,
    CityCode: s.airport.cityCode,
    Text: `${s.vendor.name.toUpperCase()} ${s.airport.code} ${s.carType}`,
    Vouchers: s.passive ? 'PREPAID VOUCHER' : 'NONE',
    CarRateCode: s.rateCode,
  };
}

export function airSegmentByDate(s: AirSegment): JsonRecord {
  const b = s.booking;
  return {
    ServiceRef: String(b.serviceRef),
    RecordLocator: b.recordLocator,
    PNRCreationDate: creationDate(b),
    OwningAgencyLocationID: b.pcc.code,
    OwningConsultant: b.consultant.name,
    Account: b.account.code,
    Passengers: paxList(b),
    DepartureDate: serviceDay(s.depDay),
    DepartureTime: hhmm(s.depMin),
    ArrivalDate: serviceDay(s.arrDay),
    ArrivalTime: s.arrivalTimeUnknown ? '' : hhmm(s.arrMin),
    CarrierCode: s.carrier.code,
    BoardPoint: s.from.code,
    OffPoint: s.to.code,
    FlightNbr: s.flightNbr,
    BookingCode: s.bookingCode,
    CreatingAgencyIata: b.pcc.iata,
    SegmentStatus: s.status,
  };
}

export function hotelSegmentRecord(
  s: HotelSegment,
  withNotepad: boolean,
  fields: readonly string[] | null,
): JsonRecord {
  const b = s.booking;
  const pax = primaryPax(b);
  return {
    ServiceRef: b.serviceRef,
    PNRCreationDate: creationDate(b),
    HotelSegmentNbr: String(s.nbr),
    RecordLocator: b.recordLocator,
    OwningAgencyLocationID: b.pcc.code,
    Account: b.account.code,
    OwningConsultantID: b.consultant.id,
    OwningConsultant: b.consultant.name,
    StatusCode: s.status,
    SegmentCreationDate: s.createdMs === null ? MIN_VALUE_DATE : serviceInstant(s.createdMs, b.pcc.offset),
    ArrivalDate: serviceDay(s.arrDay),
    DepartureDate: serviceDay(s.depDay),
    NbrNights: s.nights,
    VendorCode: s.property.chain.code,
    PropertyName: s.property.name,
    PropertyPhoneNbr: s.property.phone,
    PropertyNbr: s.property.number,
    PropertyAddress: s.property.address,
    CityCode: s.property.city.cityCode,
    CityName: s.property.city.cityName,
    CountryCode: s.property.city.countryCode,
    CountryName: s.property.city.countryName,
    Passenger: pax,
    ConfirmationNbr: s.confirmation,
    ...(s.rateAccessCode ? { RateAccessCode: s.rateAccessCode } : {}),
    RoomBookingCode: s.roomCode,
    CurrencyCode: s.currency,
    RateAmount: amount(s.rate),
    NbrRooms: s.rooms,
    BookedInName: pax,
    ServiceInformation: `RATE ${s.currency} ${amount(s.rate)} PER NIGHT ${s.multiLevelRateCode}`,
    TotalAirSegs: String(b.air.length),
    CreatingAgencyIata: b.pcc.iata,
    ...(s.commissionable === null ? {} : { IsCommissionable: s.commissionable }),
    ...(s.commission ? { Commission: s.commission } : {}),
    IsPassive: s.passive,
    CustomFields: fields === null ? [] : customFields(b, fields),
    ...(withNotepad && s.notepad ? { HotelNotepad: s.notepad } : {}),
    IsCancelled: s.cancelled,
    ...(s.cancellationRef ? { CancellationReference: s.cancellationRef } : {}),
  };
}

export function segmentDescription(s: Segment): string {
  switch (s.kind) {
    case 'air':
      return `AIR ${s.carrier.code}${s.flightNbr} ${s.bookingCode} ${s.from.code}-${s.to.code} ${isoDay(s.depDay)} ${hhmm(s.depMin)}`;
    case 'car':
      return `CAR ${s.vendor.code} ${s.airport.code} ${isoDay(s.pickDay)}-${isoDay(s.dropDay)} ${s.carType}`;
    case 'hotel':
      return `HTL ${s.property.chain.code} ${s.property.name} ${isoDay(s.arrDay)}-${isoDay(s.depDay)}`;
    case 'passive':
      return `${s.type} ${s.vendor} ${s.cityCode} ${isoDay(s.startDay)} ${s.text}`;
  }
}

export function segmentDay(s: Segment): number {
  switch (s.kind) {
    case 'air':
      return s.depDay;
    case 'car':
      return s.pickDay;
    case 'hotel':
      return s.arrDay;
    case 'passive':
      return s.startDay;
  }
}

export function problematicSegment(s: Segment): JsonRecord {
  const b = s.booking;
  return {
    RecordLocator: b.recordLocator,
    PNRCreationDate: creationDate(b),
    OwningConsultantID: b.consultant.id,
    OwningConsultant: b.consultant.name,
    PrimaryPax: primaryPax(b),
    Account: b.account.code,
    SegmentStatus: s.status,
    Segment: segmentDescription(s),
    OwningAgencyLocationID: b.pcc.code,
    GdsCode: b.pcc.gds,
    DepartureDate: serviceDay(segmentDay(s)),
    ServiceRef: String(b.serviceRef),
  };
}

export function passengerLocationRouting(s: AirSegment, fields: readonly string[] | null): JsonRecord {
  const b = s.booking;
  const lead = b.passengers[0];
  return {
    RecordLocator: b.recordLocator,
    TravelDate: b.travelDay === null ? MIN_VALUE_DATE : serviceDay(b.travelDay),
    DepartureDate: serviceDay(s.depDay),
    BoardPoint: s.from.code,
    OffPoint: s.to.code,
    PnrTicketed: b.tickets.length ? 'Y' : 'N',
    Account: b.account.code,
    Consultant: b.consultant.name,
    PaxList: paxList(b),
    PhoneNbr: lead?.mobile ?? '',
    EmailAddress: lead?.email ?? '',
    DestinationCities: destinationCities(b).join(','),
    Connections: connections(b),
    CarrierCodes: carrierCodes(b),
    ServiceRef: b.serviceRef,
    HotelsNames: distinct(b.hotels.map((h) => h.property.name)).join('; '),
    FlightNumbers: flightNumbers(b),
    OwningAgencyLocationID: b.pcc.code,
    IataCodes: iataCodes(b),
    Itinerary: b.segments.map(itinerarySegment),
    ItineraryFormatted: itineraryFormatted(b),
    CustomFields: fields === null ? [] : customFields(b, fields),
    DepartureDateTime: serviceInstant(s.depUtc, s.from.offset),
    CurrentArrivalDateTime: s.arrivalTimeUnknown ? MIN_VALUE_DATE : serviceInstant(s.arrUtc, s.to.offset),
    SegmentType: 'AIR',
    AirSegmentNbr: String(s.nbr),
    PNRCreationDate: creationDate(b),
    TicketNumbers: ticketNumbers(b),
    VendorLocators: vendorLocators(b),
    PassengerInfo: b.passengers.map((p) => ({
      FirstName: `${p.firstName} ${p.title}`,
      LastName: p.lastName,
      PassengerDataId: p.id,
      Tickets: b.tickets.filter((t) => t.passenger === p).map((t) => ({ Number: t.number, Type: 'ETKT' })),
    })),
    DestinationCountries: destinationCountries(b).join(','),
  };
}

export function passengerAirSegment(s: AirSegment, pax: Traveller, travellerCount: number): JsonRecord {
  const b = s.booking;
  return {
    Passenger: passengerName(pax),
    FlightNbr: `${s.carrier.code}${s.flightNbr}`,
    OperatingCarrierCode: s.operatingCarrier.code,
    DepartureCity: s.from.cityCode,
    DepartureDate: isoDay(s.depDay),
    DepartureTime: hhmm(s.depMin),
    ArrivalCity: s.to.cityCode,
    ArrivalDate: isoDay(s.arrDay),
    ArrivalTime: s.arrivalTimeUnknown ? '' : hhmm(s.arrMin),
    RecordLocator: b.recordLocator,
    PNRTicketed: b.tickets.length ? 'Y' : 'N',
    Account: b.account.code,
    TravellerCount: travellerCount,
    MaxTravellerCount: b.account.maxTravellers,
    MaxTravellerCountExceededFlag: travellerCount > b.account.maxTravellers,
    CostCentre: pax.costCentre,
  };
}

// ------------------------------------------------------------------ bookings

export function passengerArrival(b: Booking, pax: Traveller, arrivalDay: number, daysAway: number | null): JsonRecord {
  return {
    ServiceRef: b.serviceRef,
    RecordLocator: b.recordLocator,
    PNRCreationDate: creationDate(b),
    OwningAgencyLocationID: b.pcc.code,
    OwningConsultant: b.consultant.name,
    OwningConsultantID: b.consultant.id,
    Passenger: passengerName(pax),
    Account: b.account.code,
    TravelDate: serviceDay(b.air[0].depDay),
    ArrivalDate: serviceDay(arrivalDay),
    ...(daysAway === null ? {} : { DaysAway: daysAway }),
    DestinationCountries: destinationCountries(b).join(','),
    MobileList: pax.mobile,
    EmailList: pax.email,
    CabinsNames: distinct(b.air.map((s) => s.cabin)).join(','),
    PNRTicketedDate: ticketedDate(b),
  };
}

export function bookingWithActiveSegments(b: Booking, travelDay: number): JsonRecord {
  const lead = b.passengers[0];
  return {
    ServiceRef: b.serviceRef,
    RecordLocator: b.recordLocator,
    PNRCreationDate: creationDate(b),
    OwningAgencyLocationID: b.pcc.code,
    Account: b.account.code,
    OwningConsultantID: b.consultant.id,
    OwningConsultant: b.consultant.name,
    TravelDate: serviceDay(travelDay),
    Passenger: primaryPax(b),
    PNRTicketed: b.tickets.length ? 'Y' : 'N',
    EmailAddress: lead?.email ?? '',
    PhoneNbr: lead?.mobile ?? '',
    HasAir: b.air.length > 0,
    HasHtl: b.hotels.length > 0,
    HasCar: b.cars.length > 0,
    DestinationCities: destinationCities(b).join(','),
    Connections: connections(b),
    CarrierCodes: carrierCodes(b),
    FlightNumbers: flightNumbers(b),
    IataCodes: iataCodes(b),
    TicketNumbers: ticketNumbers(b),
    VendorLocators: vendorLocators(b),
  };
}

/** ItineraryFormatting: 0 None (plain text), 1 Html, 2 Charting (one compact line). */
function formattedItinerary(b: Booking, formatting: number): string {
  const text = itineraryFormatted(b);
  if (formatting === 1)
    return `<ol>${text
      .split('\n')
      .map((l) => `<li>${l.trim()}</li>`)
      .join('')}</ol>`;
  if (formatting === 2)
    return text
      .split('\n')
      .map((l) => l.trim())
      .join(' | ');
  return text;
}

export function bookingByAirlineWithClass(b: Booking, includeItinerary: boolean, formatting: number): JsonRecord {
  const ticketed = b.tickets.length > 0;
  return {
    ServiceRef: b.serviceRef,
    RecordLocator: b.recordLocator,
    PNRCreationDate: creationDate(b),
    Account: b.account.code,
    OwningConsultant: b.consultant.name,
    TicketedStatusCode: b.cancelled ? 'X' : ticketed ? 'T' : 'N',
    TicketedStatus: b.cancelled ? 'Cancelled' : ticketed ? 'Ticketed' : 'Not ticketed',
    BookingCodesBooked: b.air.map((s) => s.bookingCode).join('/'),
    FlightNumbers: flightNumbers(b, '/'),
    Routing: routing(b),
    TrackingCode: b.trackingCode,
    ...(b.tourCode ? { TktTourCode: b.tourCode } : {}),
    // Not in the spec's record: added only when IncludeItinerary=true asks for it.
    ...(includeItinerary ? { ItineraryFormatted: formattedItinerary(b, formatting) } : {}),
  };
}

// ------------------------------------------------------------------ tickets

function taxFields(t: Ticket): JsonRecord {
  const out: JsonRecord = {};
  t.taxes.slice(0, 5).forEach((tax, i) => {
    out[`Tax${i + 1}Code`] = tax.code;
    out[`Tax${i + 1}Amt`] = amount(tax.amount);
  });
  return out;
}

export function ticketCouponStatusRecord(c: Coupon, rn: number): JsonRecord {
  const t = c.ticket;
  const b = t.booking;
  const s = c.segment;
  return {
    CompanyName: b.account.name,
    TktNumber: t.number,
    RN: String(rn),
    AirTktSegId: String(c.id),
    VndIssueDt: serviceInstant(t.issueMs, b.pcc.offset),
    RecordLocator: b.recordLocator,
    Passenger: passengerName(t.passenger),
    TravAgntID: t.agent.id,
    OwningConsultantID: b.consultant.id,
    FOPFare: amount(t.total),
    BaseFare: amount(t.baseFare),
    FOP: t.fop,
    TotalTax: amount(t.totalTax),
    ...taxFields(t),
    Account: b.account.code,
    ...(t.exchangedFor ? { ExchangedForTicket: t.exchangedFor } : {}),
    CouponSequenceNbr: String(c.seq),
    Carrier: s.carrier.code,
    BoardPoint: s.from.code,
    OffPoint: s.to.code,
    FlightDate: serviceDay(s.depDay),
    FlightServiceClass: s.bookingCode,
    FareBasis: c.fareBasis,
    FlightCouponStatus: c.status,
    DateLastChecked: serviceInstant(c.lastCheckedMs, 0),
    PCC: b.pcc.code,
    AirlineCode: t.plating.numeric,
    OwningCompanyCode: b.company.code,
    CreditCurrency: t.currency,
    CreditValue: c.creditValue,
    FlightServiceClassName: s.cabin,
    FlownKM: c.status === 'USED' ? s.km : 0,
    BAR: c.fareBasis.includes('FLEX') ? 'Y' : 'N',
    PNRCreationDate: creationDate(b),
    ServiceRef: b.serviceRef,
    CustomFields: customFields(b, null),
  };
}

export function ticketCouponIssued(c: Coupon): JsonRecord {
  const t = c.ticket;
  const b = t.booking;
  const s = c.segment;
  return {
    RecordLocator: b.recordLocator,
    PNRCreationDate: creationDate(b),
    TktNumber: t.number,
    Passenger: passengerName(t.passenger),
    VendorIssueDate: serviceInstant(t.issueMs, b.pcc.offset),
    FOP: t.fop,
    FOPCurrency: t.currency,
    FOPFare: amount(t.total),
    CouponSequenceNbr: String(c.seq),
    FlightDate: serviceDay(s.depDay),
    Routing: `${s.from.code}-${s.to.code}`,
    FlightServiceClass: s.bookingCode,
    FareBasis: c.fareBasis,
    Carrier: s.carrier.code,
    IATA: b.pcc.iata,
    Account: b.account.code,
    OwningAgencyLocationID: b.pcc.code,
    FlightCouponStatus: c.status,
    DateLastChecked: serviceInstant(c.lastCheckedMs, 0),
    OwningConsultant: b.consultant.name,
    OwningConsultantID: b.consultant.id,
    TicketingAgent: t.agent.name,
  };
}

/** TicketsIssuedByNumber (fields not in the spec; chosen to match the ticket reports). */
export function ticketIssued(t: Ticket): JsonRecord {
  const b = t.booking;
  return {
    TktNumber: t.number,
    RecordLocator: b.recordLocator,
    PNRCreationDate: creationDate(b),
    Passenger: passengerName(t.passenger),
    VendorIssueDate: serviceInstant(t.issueMs, b.pcc.offset),
    Carrier: t.plating.code,
    AirlineCode: t.plating.numeric,
    TicketStatus: t.status,
    ...(t.exchangedFor ? { ExchangedForTicket: t.exchangedFor } : {}),
    ...(t.exchangeOf ? { OriginalTicket: t.exchangeOf } : {}),
    FOP: t.fop,
    FOPCurrency: t.currency,
    BaseFare: amount(t.baseFare),
    TotalTax: amount(t.totalTax),
    FOPFare: amount(t.total),
    Routing: routing(b),
    FareBasis: t.coupons[0]?.fareBasis ?? '',
    CouponCount: t.coupons.length,
    Account: b.account.code,
    OwningAgencyLocationID: b.pcc.code,
    TicketingAgent: t.agent.name,
    TravAgntID: t.agent.id,
    ServiceRef: b.serviceRef,
  };
}

// ------------------------------------------------------------------ logs

export function checkFailedSubmission(f: FailedSubmission): JsonRecord {
  const b = f.booking;
  return {
    LogCheckId: f.id,
    RecordLocator: b.recordLocator,
    PNRCreationDate: creationDate(b),
    LogMessage: f.message,
    CompanyId: String(b.company.id),
    OwningAgencyLocationID: b.pcc.code,
    OwningConsultant: b.consultant.name,
    RawResponse: f.rawResponse,
    LogDateTime: serviceInstant(f.logMs, b.pcc.offset),
    EventType: f.eventType,
    Account: b.account.code,
    ServiceRef: b.serviceRef,
    TrackedAgentInitials: b.consultant.initials,
  };
}

export function qlogForwardItem(q: QLogForwardEntry): JsonRecord {
  const b = q.booking;
  return {
    ServiceRef: b.serviceRef,
    LogID: q.id,
    MatchedOn: q.matchedOn,
    RecordLocator: b.recordLocator,
    LogDate: serviceInstant(q.logMs, b.pcc.offset),
    Destination: q.destination,
  };
}

export function partnerForwardingLog(l: PartnerLog): JsonRecord {
  const b = l.booking;
  return {
    LogID: l.id,
    RecordLocator: b.recordLocator,
    PNRCreationDate: creationDate(b),
    LogMessage: l.message,
    Success: l.success,
    CompanyId: String(b.company.id),
    OwningAgencyLocationID: b.pcc.code,
    LogDateTime: serviceInstant(l.logMs, b.pcc.offset),
    Account: b.account.code,
    ServiceRef: b.serviceRef,
  };
}

export function qcComment(q: QcCommentEntry): JsonRecord {
  return {
    RecordLocator: q.booking.recordLocator,
    Consultant: q.consultant.name,
    AgentInitials: q.consultant.initials,
    Comment: q.comment,
    CommentDate: serviceInstant(q.commentMs, q.booking.pcc.offset),
  };
}

export function appUserActivity(a: Activity): JsonRecord {
  return {
    User: a.user.email,
    FirstName: a.user.firstName,
    LastName: a.user.lastName,
    ActivityDateTime: serviceInstant(a.ms, 0),
    Activity: a.activity,
    IsDownload: a.isDownload,
    RequestDetails: a.details,
  };
}
