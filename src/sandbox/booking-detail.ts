/**
 * Booking-shaped records: BookingDetail (BookingDetails, FindBookings), PnrSegmentsReport
 * (PNRSegments) and ItinerarySegment (also used by PassengerLocationsByRouting). Lists that
 * no filter reads (phones, notepads, versions, e-mail trails...) are derived here on demand
 * from a per-booking seed, so they are stable but cost nothing until asked for.
 */
import { MIN_VALUE_DATE } from '../upstream/service-date.js';
import type { AirSegment, Booking, Dataset, Segment, Ticket, Traveller } from './data.js';
import { gdsDay, HOUR_MS, hhmm, isoDay, localMinutes, MINUTE_MS, serviceDay, serviceInstant } from './days.js';
import { Rng } from './random.js';

export type JsonRecord = Record<string, unknown>;

export const LOAD_OPTIONS = [
  'Passengers',
  'Itinerary',
  'DiEntries',
  'Phones',
  'Notepads',
  'VendorRemarks',
  'Tickets',
  'Versions',
  'VendorLocators',
  'CustomFields',
  'Emails',
  'AccountValue',
  'EventDetails',
  'EmailTrails',
  'All',
] as const;

/** Lists returned when LoadOptions is absent (the spec is silent; chosen as the useful core). */
export const DEFAULT_LOAD_OPTIONS: readonly string[] = ['Passengers', 'Itinerary'];

export function passengerName(t: Traveller): string {
  return `${t.lastName}/${t.firstName} ${t.title}`;
}

export function amount(n: number): string {
  return n.toFixed(2);
}

/** The ticket currently valid for a passenger (not exchanged away, not void), if any. */
export function currentTicket(b: Booking, pax: Traveller): Ticket | undefined {
  let found: Ticket | undefined;
  for (const t of b.tickets) if (t.passenger === pax && t.status !== 'EXCHANGED' && t.status !== 'VOID') found = t;
  return found;
}

export function vendorLocatorOf(b: Booking, carrier: string): string | undefined {
  return b.vendorLocators.find((v) => v.carrier === carrier)?.locator;
}

export function creationDate(b: Booking): string {
  return serviceInstant(b.createdMs, b.pcc.offset);
}

export function carbonKg(b: Booking): number {
  const factor: Record<string, number> = { Economy: 0.115, 'Premium Economy': 0.18, Business: 0.33, First: 0.46 };
  return Math.round(b.air.reduce((s, a) => s + a.km * (factor[a.cabin] ?? 0.12), 0) * b.passengers.length);
}

export function itinerarySegment(s: Segment): JsonRecord {
  const b = s.booking;
  const base: JsonRecord = {};
  switch (s.kind) {
    case 'air': {
      const pax = b.passengers[0];
      const ticket = pax ? currentTicket(b, pax) : undefined;
      Object.assign(base, {
        SegmentType: 'AIR',
        SegmentNbr: s.nbr,
        BoardPoint: s.from.code,
        OffPoint: s.to.code,
        OperatorCode: s.carrier.code,
        OperatorService: s.flightNbr,
        SegmentStatus: s.status,
        DepartureTimeFormatted: hhmm(s.depMin),
        ...(s.arrivalTimeUnknown ? {} : { ArrivalTimeFormatted: hhmm(s.arrMin) }),
        ...(s.arrDay !== s.depDay
          ? { ChangeOfDayFormatted: `${s.arrDay > s.depDay ? '+' : ''}${s.arrDay - s.depDay}` }
          : {}),
        ServiceCode: s.bookingCode,
        StartDate: isoDay(s.depDay),
        EndDate: isoDay(s.arrDay),
        ...(ticket ? { TicketNumber: ticket.number } : {}),
        ...(vendorLocatorOf(b, s.carrier.code) ? { VendorLocators: vendorLocatorOf(b, s.carrier.code) } : {}),
        EquipmentCode: s.equipment[0],
        Equipment: s.equipment[1],
      });
      break;
    }
    case 'car':
      Object.assign(base, {
        SegmentType: 'CAR',
        SegmentNbr: s.nbr,
        BoardPoint: s.airport.code,
        OffPoint: s.airport.code,
        OperatorCode: s.vendor.code,
        OperatorService: s.carType,
        SegmentStatus: s.status,
        DepartureTimeFormatted: hhmm(s.pickMin),
        ArrivalTimeFormatted: hhmm(s.dropMin),
        ServiceCode: s.rateCode,
        StartDate: isoDay(s.pickDay),
        EndDate: isoDay(s.dropDay),
        VendorLocators: s.confirmation,
      });
      break;
    case 'hotel':
      Object.assign(base, {
        SegmentType: 'HTL',
        SegmentNbr: s.nbr,
        BoardPoint: s.property.city.cityCode,
        OffPoint: s.property.city.cityCode,
        OperatorCode: s.property.chain.code,
        OperatorService: s.property.name,
        SegmentStatus: s.status,
        ServiceCode: s.roomCode,
        StartDate: isoDay(s.arrDay),
        EndDate: isoDay(s.depDay),
        VendorLocators: s.confirmation,
      });
      break;
    case 'passive':
      Object.assign(base, {
        SegmentType: s.type,
        SegmentNbr: s.nbr,
        BoardPoint: s.cityCode,
        OffPoint: s.cityCode,
        OperatorCode: s.vendor,
        OperatorService: s.text,
        SegmentStatus: s.status,
        StartDate: isoDay(s.startDay),
        EndDate: isoDay(s.endDay),
        ...(s.confirmation ? { VendorLocators: s.confirmation } : {}),
      });
      break;
  }
  return base;
}

/** GDS-style itinerary text, one line per segment. */
export function itineraryFormatted(b: Booking): string {
  const n = b.passengers.length;
  return b.segments
    .map((s) => {
      const nbr = String(s.nbr).padStart(2, ' ');
      switch (s.kind) {
        case 'air': {
          const cod = s.arrDay !== s.depDay ? `+${s.arrDay - s.depDay}` : '';
          const arrives = s.arrivalTimeUnknown ? '' : hhmm(s.arrMin).replace(':', '');
          return (
            `${nbr} ${s.carrier.code} ${s.flightNbr.padStart(4, ' ')} ${s.bookingCode} ${gdsDay(s.depDay)} ` +
            `${s.from.code}${s.to.code} ${s.status}${n} ${hhmm(s.depMin).replace(':', '')} ${arrives}${cod}`
          );
        }
        case 'car':
          return `${nbr} CAR ${s.vendor.code} ${gdsDay(s.pickDay)}-${gdsDay(s.dropDay)} ${s.airport.code} ${s.status}1 ${s.carType}`;
        case 'hotel':
          return (
            `${nbr} HTL ${s.property.chain.code} ${gdsDay(s.arrDay)}-${gdsDay(s.depDay)} ` +
            `${s.property.city.cityCode} ${s.status}${s.rooms} ${s.property.name.toUpperCase()}`
          );
        case 'passive':
          return `${nbr} ${s.type} ${s.vendor} ${gdsDay(s.startDay)} ${s.cityCode} ${s.status}${n} ${s.text}`;
      }
    })
    .join('\n');
}

export function passengersList(b: Booking): JsonRecord[] {
  return b.passengers.map((p, i) => ({
    Id: p.id,
    FirstName: `${p.firstName} ${p.title}`,
    LastName: p.lastName,
    FrequentFlyers: p.frequentFlyers.map((f) => ({
      Vendor: f.vendor,
      Number: f.number,
      FullNumber: `${f.vendor}${f.number}`,
    })),
    SequenceNbr: i + 1,
    LastNameElement: i + 1,
    IsVip: p.isVip,
    TravellerGUID: p.guid,
    CRMItems: p.crm.map((c) => ({ CRM: c.crm, TravellerReference: String(c.reference) })),
  }));
}

/** The scalar members of a BookingDetail, in spec order. */
export function bookingScalars(b: Booking): JsonRecord {
  const lead = b.passengers[0];
  return {
    ServiceRef: b.serviceRef,
    RecordLocator: b.recordLocator,
    PNRCreationDate: isoDay(b.createdDay),
    CreationDate: creationDate(b),
    PNRTicketed: b.tickets.length > 0 ? 'Y' : 'N',
    Account: b.account.code,
    OwningConsultantID: b.consultant.id,
    OwningConsultant: b.consultant.name,
    CrsDescription: b.pcc.crs,
    LastActionConsultantID: b.lastActionConsultant.id,
    LastActionAgencyLocationID: b.lastActionConsultant.pcc,
    OwningAgencyLocationID: b.pcc.code,
    CreatingAgencyIata: b.pcc.iata,
    ...(lead ? { CTCE: lead.email, CTCM: lead.mobile } : {}),
    CarbonTonnage: Math.round(carbonKg(b)) / 1000,
    OwningCompanyCode: b.company.code,
    ItineraryFormatted: itineraryFormatted(b),
  };
}

/**
 * One BookingDetail. `options` are LoadOptions names ('All' for everything, which also adds
 * the lists that have no LoadOptions name: ServiceWarnings, AirlineTicketingDues,
 * CarbonEmissions).
 */
export function bookingDetail(ds: Dataset, b: Booking, options: readonly string[]): JsonRecord {
  const all = options.includes('All');
  const want = (name: string): boolean => all || options.includes(name);
  const rng = Rng.derive(ds.seed, 'detail', b.serviceRef);
  const out = bookingScalars(b);
  const created = b.createdMs;
  const off = b.pcc.offset;
  const stamp = (ms: number): string => serviceInstant(Math.min(ms, ds.nowMs), off);

  if (want('Passengers')) out.Passengers = passengersList(b);
  if (want('Phones')) {
    out.Phones = [
      {
        PhoneType: 'A',
        City: b.pcc.airport.cityCode,
        Number: `${b.pcc.airport.cityCode} AGENCY ${b.pcc.iata.slice(0, 4)}`,
        SequenceNbr: 1,
      },
      ...b.passengers.map((p, i) => ({
        PhoneType: i % 2 ? 'B' : 'M',
        City: b.pcc.airport.cityCode,
        Number: i % 2 ? p.businessPhone : p.mobile,
        SequenceNbr: i + 2,
      })),
    ];
  }
  if (want('Notepads')) {
    const notes = [
      'TRAVELLER PREFERS AISLE SEAT',
      'POLICY EXCEPTION APPROVED BY MANAGER',
      'CALLED TRAVELLER TO CONFIRM DATES',
      'HOTEL RATE CHECKED AGAINST BAR',
      'VISA REQUIREMENTS ADVISED',
    ];
    out.Notepads = rng.sample(notes, rng.int(0, 3)).map((Remark, i) => {
      const ms = created + rng.int(1, 600) * MINUTE_MS;
      return {
        Remark,
        CreatedDate: stamp(ms),
        CreatedTime: hhmm(localMinutes(ms, off)),
        Qualifier: rng.pick(['NP', 'H', 'C']),
        SequenceNbr: i + 1,
      };
    });
  }
  if (want('VendorRemarks')) {
    out.VendorRemarks = b.air.slice(0, rng.int(0, 2)).map((s, i) => {
      const ms = created + rng.int(10, 900) * MINUTE_MS;
      return {
        VendorRemarkID: 4_000_000 + b.index * 4 + i,
        TravelOrderIdentifier: s.nbr,
        RmkNum: i + 1,
        DateStamp: stamp(ms),
        TimeStamp: hhmm(localMinutes(ms, off)),
        RemarkType: 'V',
        VendorType: 'A',
        Vendor: s.carrier.code,
        Remark: rng.pick([
          'PLS ADV TKT NBR BY 72 HRS BFR DEP',
          'SSR DOCS RECEIVED THANK YOU',
          'SCHEDULE CHANGE ACCEPTED',
          'PLEASE ADD CONTACT SSR CTCE',
        ]),
      };
    });
  }
  if (want('DiEntries')) {
    out.DiEntries = b.customFields.map((f, i) => ({
      SequenceNbr: i + 1,
      Keyword: 'DI',
      Remark: `FT-${f.name.toUpperCase()}/${f.value}`,
    }));
  }
  if (want('Tickets')) {
    out.Tickets = b.tickets.map((t) => ({
      SegmentNbr: t.elementNbr,
      TicketNumber: t.number,
      TicketType: 'ETKT',
      TicketDetailsAvailable: t.status !== 'VOID',
    }));
  }
  if (want('Versions')) {
    const versions: JsonRecord[] = [];
    const events = [
      'Create',
      ...(b.tickets.length ? ['Ticket'] : []),
      ...(rng.chance(0.4) ? ['Modify'] : []),
      ...(b.cancelled ? ['Cancel'] : []),
    ];
    let ms = created;
    events.forEach((EventType, i) => {
      if (i > 0) ms += rng.int(10, 2 * 24 * 60) * MINUTE_MS;
      const done = i === events.length - 1;
      versions.push({
        ServiceRef: b.serviceRef,
        DataBaseTimeStamp: stamp(ms),
        EventType,
        PnrTicketed: EventType === 'Create' ? 'N' : b.tickets.length ? 'Y' : 'N',
        LastActionAgentId: done ? b.lastActionConsultant.id : b.consultant.id,
        AirSegs: b.air.length,
        AirPSegs: 0,
        HtlSegs: b.hotels.filter((h) => !h.passive).length,
        HtlPSegs: b.hotels.filter((h) => h.passive).length,
        CarSegs: b.cars.filter((c) => !c.passive).length,
        CarPSegs: b.cars.filter((c) => c.passive).length,
        TrnPSegs: b.passives.filter((p) => p.type === 'TRN').length,
        OwningAgencyLocationID: b.pcc.code,
      });
    });
    out.Versions = versions;
  }
  if (want('VendorLocators')) {
    out.VendorLocators = b.air.map((s) => ({
      AirSegmentNbr: s.nbr,
      CarrierCode: s.carrier.code,
      VendorLocator: vendorLocatorOf(b, s.carrier.code) ?? '',
    }));
  }
  if (want('CustomFields')) {
    out.CustomFields = b.customFields.map((f, i) => ({
      PNRPropertiesCustomFieldID: String(b.serviceRef * 10 + i),
      RecordLocator: b.recordLocator,
      PNRCreationDate: serviceDay(b.createdDay),
      FieldName: f.name,
      FieldValue: f.value,
      CustomFieldID: f.id,
      CreationDateTime: creationDate(b),
      ElementNumber: i + 1,
      GDS: b.pcc.gds,
    }));
  }
  if (want('Emails')) {
    out.Emails = b.passengers.map((p, i) => ({ SequenceNbr: i + 1, EmailType: 'T', Email: p.email }));
  }
  if (want('AccountValue')) {
    out.AccountLocations = [
      {
        PrimaryAccountLocation: b.account.code,
        SecondaryAccountLocation: b.pcc.code,
        Valid: true,
        ExactMatch: true,
        GDS: b.pcc.gds,
      },
    ];
  }
  if (want('EventDetails')) {
    const changed = b.air.filter((s) => s.status === 'TK' || s.status === 'HX');
    out.EventDetails = changed.map((s, i) => ({
      ItineraryEventTypeDetailID: b.serviceRef * 10 + i,
      ServiceRef: b.serviceRef,
      EventTypeDetail: 'SegmentStatusChange',
      OldData: `${s.carrier.code}${s.flightNbr} ${s.from.code}${s.to.code} HK`,
      NewData: `${s.carrier.code}${s.flightNbr} ${s.from.code}${s.to.code} ${s.status}`,
      DateTimeStamp: stamp(created + (i + 1) * 6 * HOUR_MS),
      EventTypeDetailID: s.status === 'HX' ? 3 : 2,
    }));
  }
  if (want('EmailTrails')) {
    out.EmailTrails = b.passengers.slice(0, 1).map((p) => ({
      RecipientEmail: p.email,
      DeliveryDetails: 'Delivered',
      MailSentDateTime: stamp(created + 5 * MINUTE_MS),
      RecipientLastActivityEvent: rng.pick(['open', 'click', 'delivered']),
      EmailId: 9_000_000 + b.index,
      UserId: Number(b.consultant.id),
      SentResponseMessage: '250 2.0.0 OK',
      SentResponseErrorCode: 0,
      DeliveredBookingID: b.serviceRef,
    }));
  }
  if (all) {
    const warnings: JsonRecord[] = [];
    if (b.air.some((s) => s.status === 'UN' || s.status === 'UC' || s.status === 'HL')) {
      const s = b.air.find((x) => x.status === 'UN' || x.status === 'UC' || x.status === 'HL')!;
      const cleared = rng.chance(0.5);
      warnings.push({
        Message: `Segment ${s.nbr} is ${s.status}: action required`,
        Vendor: s.carrier.code,
        WarningDateTime: stamp(created + HOUR_MS),
        OriginalRemark: `${s.carrier.code}${s.flightNbr} ${s.status}${b.passengers.length}`,
        ClearedDateTime: cleared ? stamp(created + 5 * HOUR_MS) : MIN_VALUE_DATE,
        ...(cleared ? { ClearedByConsultantID: b.consultant.id } : {}),
        PropertiesList: [
          { Name: 'SegmentNbr', Value: String(s.nbr) },
          { Name: 'Status', Value: s.status },
        ],
      });
    }
    out.ServiceWarnings = warnings;
    out.AirlineTicketingDues =
      b.air.length > 0 && b.tickets.length === 0 && !b.cancelled
        ? [
            {
              Airline: b.air[0].carrier.code,
              DueDate: serviceDay(Math.min(b.createdDay + 3, b.air[0].depDay)),
              DueTime: '23:59',
            },
          ]
        : [];
    out.CarbonEmissions =
      b.air.length > 0
        ? [
            {
              Value: carbonKg(b),
              Unit: { Id: 1, Symbol: 'kg', Name: 'Kilogram' },
              Provider: {
                Id: 7,
                Name: 'EcoCalc',
                Description: 'Per-segment CO2 estimate by distance and cabin',
                LogoPath: '/img/providers/ecocalc.png',
              },
              CalculationDateTime: creationDate(b),
              CalculationDetails: { Id: 3, Name: 'DEFRA 2025 radiative forcing' },
            },
          ]
        : [];
  }
  if (want('Itinerary')) out.Itinerary = b.segments.map(itinerarySegment);
  return out;
}

function journeyTime(s: AirSegment): string {
  return `${String(Math.floor(s.durationMin / 60)).padStart(2, '0')}:${String(s.durationMin % 60).padStart(2, '0')}`;
}

/** One PnrSegmentsReport element. `kinds`: which segment lists to fill; `passiveTypes`: filter. */
export function pnrSegmentsReport(
  b: Booking,
  kinds: ReadonlySet<string> | null,
  passiveTypes: ReadonlySet<string> | null,
): JsonRecord {
  const has = (k: string): boolean => kinds === null || kinds.has(k);
  const carriers = [...new Set(b.air.map((s) => s.carrier.code))];
  return {
    Summary: {
      RecordLocator: b.recordLocator,
      AirlineReferences: carriers.map((c) => ({ Vendor: c, VendorLocator: vendorLocatorOf(b, c) ?? '' })),
      Tickets: b.tickets.map((t) => ({
        TktNumber: t.number,
        Passenger: { LastName: t.passenger.lastName, FirstName: `${t.passenger.firstName} ${t.passenger.title}` },
        Coupons: t.coupons.map((c) => ({
          CouponSequenceNbr: String(c.seq),
          CouponBoardPoint: c.segment.from.code,
          CouponOffPoint: c.segment.to.code,
          Carrier: c.segment.carrier.code,
          FlightNbr: c.segment.flightNbr,
          FlightDate: isoDay(c.segment.depDay),
          FlightTime: hhmm(c.segment.depMin),
        })),
      })),
    },
    Segments: {
      AirSegments: has('air')
        ? b.air.map((s) => ({
            AirSegmentNbr: s.nbr,
            SegmentStatus: s.status,
            DepartureDate: isoDay(s.depDay),
            DepartureTime: hhmm(s.depMin),
            CarrierCode: s.carrier.code,
            BoardPoint: s.from.code,
            OffPoint: s.to.code,
            FlightNbr: s.flightNbr,
            BookingCode: s.bookingCode,
            ArrivalTime: s.arrivalTimeUnknown ? '' : hhmm(s.arrMin),
            ChangeOfDay: String(s.arrDay - s.depDay),
            ConnectionIndicator: s.connection ? 'X' : 'O',
            OperatingCarrierCode: s.operatingCarrier.code,
            OperatingCarrierName: s.operatingCarrier.name,
            JourneyTime: journeyTime(s),
            NbrSeats: b.passengers.length,
            SeatingData: s.seats.map((seat) => ({ SeatLocation: seat, SeatStatusCode: 'KK' })),
          }))
        : [],
      CarSegments: has('car')
        ? b.cars.map((s) => ({
            CarSegmentNbr: s.nbr,
            SegmentStatus: s.status,
            PickUpDate: isoDay(s.pickDay),
            PickUpTime: hhmm(s.pickMin),
            AirportCode: s.airport.code,
            CarLocationCategory: 'T',
            DropOffDate: isoDay(s.dropDay),
            DropOffTime: hhmm(s.dropMin),
            ConfirmationNbr: s.confirmation,
            CarVendorCode: s.vendor.code,
            CarRateType: s.rateType,
            CarRateCode: s.rateCode,
            CarType: s.carType,
            CarYieldManagementNbr: s.yieldNbr,
            RateAmount: amount(s.rateAmount),
            RateGuaranteeIndicator: 'G',
            MilesKilometerIndicator: s.airport.countryCode === 'US' || s.airport.countryCode === 'GB' ? 'M' : 'K',
            DistanceAllowance: 'UNL',
            DistanceRateAmount: '0.00',
            CurrencyCode: s.currency,
            NbrOfCars: 1,
          }))
        : [],
      HotelSegments: has('hotel')
        ? b.hotels.map((s) => ({
            HotelSegmentNbr: String(s.nbr),
            StatusCode: s.status,
            ArrivalDate: isoDay(s.arrDay),
            DepartureDate: isoDay(s.depDay),
            PropertyName: s.property.name,
            ConfirmationNbr: s.confirmation,
            Currency: s.currency,
            Rate: amount(s.rate),
            RoomBookingCode: s.roomCode,
            NbrNights: s.nights,
            MultiLevelRateCode: s.multiLevelRateCode,
            NbrRooms: s.rooms,
            BookedInName: b.passengers[0] ? passengerName(b.passengers[0]) : '',
            ...(s.notepad ? { ServiceInformation: s.notepad } : {}),
            PropertyCityCode: s.property.city.cityCode,
            SegmentStatus: s.passive ? 'Passive' : s.cancelled ? 'Cancelled' : 'Active',
            HotelVendorCode: s.property.chain.code,
          }))
        : [],
      PassiveSegments: has('passive')
        ? b.passives
            .filter((s) => passiveTypes === null || passiveTypes.has(s.type))
            .map((s) => ({
              SegmentStatus: s.status,
              StartDate: isoDay(s.startDay),
              DepartureDate: isoDay(s.endDay),
              NbrNights: String(Math.max(0, s.endDay - s.startDay)),
              VendorCode: s.vendor,
              CityCode: s.cityCode,
              SegmentType: s.type,
              Text: s.text,
              Passenger: b.passengers[0] ? passengerName(b.passengers[0]) : '',
              ...(s.confirmation ? { ConfirmationNumber: s.confirmation } : {}),
              ...(s.rateQuoted ? { RateQuoted: s.rateQuoted } : {}),
              ServiceInformation: `${s.type} ${s.text}`,
            }))
        : [],
    },
  };
}
