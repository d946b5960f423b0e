/**
 * travellers_at's reading of bookings and hotel stays (src/results/traveller-bookings.ts,
 * traveller-hotels.ts, travellers.ts) on records the sandbox does not hold: contacts that are
 * not one per passenger, two people of one name, a name spelled with and without its title,
 * legs of two bookings interleaved, flights without times at a connection, hotel stays that do
 * not count.
 */
import { describe, expect, it } from 'vitest';
import { type Leg, staysAt } from '../../src/results/stays.js';
import { type BookingTrip, bookingTrip, passengersOf } from '../../src/results/traveller-bookings.js';
import { hotelStaysAt, undatedHotels } from '../../src/results/traveller-hotels.js';
import { nameKey, travellerRecords, travellersOf } from '../../src/results/travellers.js';

const WEEK = { start: '2026-11-15T00:00', end: '2026-11-22T00:00' };
const SIN = new Set(['SIN']);

function trip(locator: string, passengers: BookingTrip['passengers'], legs: Leg[] = []): BookingTrip {
  return {
    locator,
    account: 'ACME',
    basis: 'details',
    passengers,
    legs,
    undated: 0,
    untimed: 0,
    bookingPhone: null,
    bookingEmail: null,
  };
}

function leg(booking: string, nbr: number, from: string, to: string, departure: string, arrival: string): Leg {
  return { booking, segmentNbr: nbr, flight: `SQ${nbr}${booking.length}`, from, to, departure, arrival, status: 'HK' };
}

describe('passengersOf: whose contact', () => {
  const two = [
    { LastName: 'HALL', FirstName: 'WEI DR', SequenceNbr: 1, TravellerGUID: 'g1' },
    { LastName: 'NG', FirstName: 'GRACE MRS', SequenceNbr: 2, TravellerGUID: 'g2' },
  ];
  it('one e-mail and one phone per passenger (the agency phone aside): each their own, in order', () => {
    const got = passengersOf({
      Passengers: [two[1], two[0]],
      Emails: [
        { SequenceNbr: 2, Email: 'grace@x.example' },
        { SequenceNbr: 1, Email: 'wei@x.example' },
      ],
      Phones: [
        { PhoneType: 'A', Number: 'SIN AGENCY', SequenceNbr: 1 },
        { PhoneType: 'M', Number: '+6511', SequenceNbr: 2 },
        { PhoneType: 'B', Number: '+6522', SequenceNbr: 3 },
      ],
    });
    expect(got).toEqual([
      { name: 'HALL/WEI DR', guid: 'g1', phone: '+6511', email: 'wei@x.example' },
      { name: 'NG/GRACE MRS', guid: 'g2', phone: '+6522', email: 'grace@x.example' },
    ]);
  });

  it('fewer e-mails or phones than passengers: none is taken as anyone their own', () => {
    const got = passengersOf({ Passengers: two, Emails: [{ SequenceNbr: 1, Email: 'wei@x.example' }], Phones: [] });
    expect(got.map((p) => [p.email, p.phone])).toEqual([
      [undefined, undefined],
      [undefined, undefined],
    ]);
  });

  it("a booking read from its routing record: names from PassengerInfo, the contact the booking's only", () => {
    const t = bookingTrip({
      recordLocator: 'ABC123',
      routing: {
        RecordLocator: 'ABC123',
        Account: 'ACME',
        PhoneNbr: '+6599',
        EmailAddress: 'lead@x.example',
        PassengerInfo: [{ LastName: 'HALL', FirstName: 'WEI DR' }],
        Itinerary: [],
      },
    });
    expect(t).toMatchObject({
      basis: 'routing',
      passengers: [{ name: 'HALL/WEI DR' }],
      bookingPhone: '+6599',
      bookingEmail: 'lead@x.example',
    });
  });
});

describe('travellersOf: one traveller, one trip', () => {
  it('a name is compared without its title or extra spaces', () => {
    expect(nameKey('hall / wei  dr')).toBe('HALL/WEI');
    expect(nameKey('HALL/WEI')).toBe('HALL/WEI');
  });

  it('the same GUID joins; two GUIDs of one name stay apart, and a GUID-less one of that name stays alone', () => {
    const travellers = travellersOf(
      [
        trip('A1', [{ name: 'SMITH/JOHN MR', guid: 'g1' }]),
        trip('A2', [{ name: 'SMITH/JOHN', guid: 'g1' }]),
        trip('B1', [{ name: 'SMITH/JOHN MR', guid: 'g2' }]),
        trip('C1', [{ name: 'SMITH/JOHN MR' }]),
      ],
      [],
    );
    expect(travellers.map((t) => t.bookings.map((b) => b.trip.locator))).toEqual([['A1', 'A2'], ['B1'], ['C1']]);
  });

  it('a GUID-less passenger joins the one traveller of that name', () => {
    const travellers = travellersOf(
      [trip('A1', [{ name: 'NG/GRACE MRS', guid: 'g9' }]), trip('R1', [{ name: 'NG/GRACE' }])],
      [],
    );
    expect(travellers.map((t) => t.bookings.map((b) => b.trip.locator))).toEqual([['A1', 'R1']]);
  });

  it('out on one booking and back on another, read in departure order, is one stay naming both', () => {
    const out = trip(
      'OUT111',
      [{ name: 'NG/GRACE', guid: 'g' }],
      [leg('OUT111', 1, 'LHR', 'SIN', '2026-11-10T10:00', '2026-11-11T06:00')],
    );
    const back = trip(
      'BACK22',
      [{ name: 'NG/GRACE', guid: 'g' }],
      [leg('BACK22', 1, 'SIN', 'LHR', '2026-11-18T23:00', '2026-11-19T06:00')],
    );
    // Given in the other order: the bookings' legs are merged by departure.
    const records = travellerRecords(travellersOf([back, out], []), SIN, WEEK);
    expect(records.map((r) => [r.Status, r.From, r.To, r.RecordLocator])).toEqual([
      ['leaving', '2026-11-11T06:00', '2026-11-18T23:00', 'OUT111, BACK22'],
    ]);
  });
});

describe('flights without a time of day', () => {
  it('a connection is one only when it is one whatever the time; otherwise the traveller is in place', () => {
    const via = (out: string) =>
      staysAt(
        [
          {
            segmentNbr: 1,
            flight: 'BA1',
            from: 'LHR',
            to: 'SIN',
            departure: '2026-11-16T00:00',
            arrival: '2026-11-16',
            status: 'HK',
          },
          {
            segmentNbr: 2,
            flight: 'BA2',
            from: 'SIN',
            to: 'SYD',
            departure: out,
            arrival: '2026-11-17T06:00',
            status: 'HK',
          },
        ],
        SIN,
        WEEK,
      )[0];
    expect(via('2026-11-16T11:00')).toMatchObject({ status: 'passing through', from: '2026-11-16' });
    expect(via('2026-11-16T11:00').reason).toMatch(/leaves at most 11 h after BA1 arrives.*no arrival time held/);
    expect(via('2026-11-16T13:00')).toMatchObject({ status: 'arriving and leaving', from: '2026-11-16' });
  });

  it("an arrival on the window's first day without a time is arriving, not in place", () => {
    const [stay] = staysAt(
      [
        {
          segmentNbr: 1,
          flight: 'EK1',
          from: 'DXB',
          to: 'SIN',
          departure: '2026-11-14T22:00',
          arrival: '2026-11-15',
          status: 'HK',
        },
      ],
      SIN,
      WEEK,
    );
    expect(stay.from).toBe('2026-11-15');
    expect(stay.status).toBe('undecided');
    // With a flight out after the window it is arriving.
    const [decided] = staysAt(
      [
        {
          segmentNbr: 1,
          flight: 'EK1',
          from: 'DXB',
          to: 'SIN',
          departure: '2026-11-14T22:00',
          arrival: '2026-11-15',
          status: 'HK',
        },
        {
          segmentNbr: 2,
          flight: 'EK2',
          from: 'SIN',
          to: 'DXB',
          departure: '2026-11-25T01:00',
          arrival: '2026-11-25T05:00',
          status: 'HK',
        },
      ],
      SIN,
      WEEK,
    );
    expect(decided.status).toBe('arriving');
  });
});

describe('hotelStaysAt', () => {
  const base = {
    RecordLocator: 'H1',
    HotelSegmentNbr: '1',
    Account: 'ACME',
    Passenger: 'NG/GRACE MRS',
    PropertyName: 'Hotel',
    CityCode: 'SIN',
    CountryCode: 'SG',
    StatusCode: 'HK',
    ArrivalDate: '2026-11-14',
    DepartureDate: '2026-11-16',
    IsCancelled: false,
  };
  it('keeps confirmed stays at the place that touch the window, once each', () => {
    const records = [
      base,
      base,
      { ...base, RecordLocator: 'H2', IsCancelled: true },
      { ...base, RecordLocator: 'H3', StatusCode: 'HX' },
      { ...base, RecordLocator: 'H4', DepartureDate: '2026-11-14' },
      { ...base, RecordLocator: 'H5', ArrivalDate: '2026-11-22', DepartureDate: '2026-11-24' },
      { ...base, RecordLocator: 'H6', CityCode: 'KUL', CountryCode: 'MY' },
      { ...base, RecordLocator: 'H7', ArrivalDate: '2026-11-21', DepartureDate: '2026-11-23' },
    ];
    expect(hotelStaysAt(records, { cities: SIN }, WEEK).map((h) => h.locator)).toEqual(['H1', 'H7']);
    expect(hotelStaysAt(records, { country: 'MY' }, WEEK).map((h) => h.locator)).toEqual(['H6']);
  });

  it('counts stays at the place whose days cannot be read (they may be someone there), not those elsewhere', () => {
    const records = [
      base,
      { ...base, RecordLocator: 'U1', ArrivalDate: null },
      { ...base, RecordLocator: 'U2', DepartureDate: '/Date(garbled)/' },
      { ...base, RecordLocator: 'U3', ArrivalDate: null, CityCode: 'KUL', CountryCode: 'MY' },
      { ...base, RecordLocator: 'U4', ArrivalDate: null, IsCancelled: true },
    ];
    expect(undatedHotels(records, { cities: SIN })).toBe(2);
    expect(undatedHotels(records, { country: 'MY' })).toBe(1);
  });

  it('a hotel no flight explains is a stay by its days, resting on the hotel', () => {
    const [h] = hotelStaysAt([base], { cities: SIN }, WEEK);
    const records = travellerRecords(travellersOf([], [h]), SIN, WEEK);
    expect(records.map((r) => [r.Traveller, r.Status, r.From, r.To, r.Basis, r.RecordLocator])).toEqual([
      ['NG/GRACE MRS', 'leaving', '2026-11-14', '2026-11-16', 'hotel', 'H1'],
    ]);
  });
});
