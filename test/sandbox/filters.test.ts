/**
 * Filters filter, and reports derived from the one dataset agree with each other.
 * Expected counts are computed here from sb.dataset, independently of the report code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { dayIso, getJson, localDate, recordsOf } from './helpers.js';

type Rec = Record<string, unknown>;
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ size: 1000 });
});
afterAll(async () => {
  await sb.close();
});

const all = (transaction: string, params: Record<string, string>): Rec[] => sb.report(transaction, params) as Rec[];

describe('sandbox filters', () => {
  it('AirSegmentsByDate T keeps departures in the range, C keeps creation dates in the range', async () => {
    const range = { DateStart: '20261101', DateEnd: '20261130' };
    const env = await getJson(sb, '/AirSegmentsByDate', { ...range, DateSearchType: 'T', Limit: '1000' });
    const recs = recordsOf(env);
    const expected = sb.dataset.airSegments.filter(
      (s) => dayIso(s.depDay) >= '2026-11-01' && dayIso(s.depDay) <= '2026-11-30',
    );
    expect(env.ResponseMetadata.PagingMetadata!.TotalRecords).toBe(expected.length);
    expect(recs.length).toBe(expected.length);
    expect(recs.length).toBeGreaterThan(50);
    for (const r of recs) {
      expect(localDate(r.DepartureDate) >= '2026-11-01' && localDate(r.DepartureDate) <= '2026-11-30').toBe(true);
    }
    // Ordered by departure.
    const keys = recs.map((r) => `${localDate(r.DepartureDate)}`);
    expect([...keys].sort()).toEqual(keys);

    const byCreation = all('AirSegmentsByDate', { ...range, DateSearchType: 'C' });
    expect(byCreation.length).toBeGreaterThan(0);
    for (const r of byCreation)
      expect(localDate(r.PNRCreationDate) >= '2026-11-01' && localDate(r.PNRCreationDate) <= '2026-11-30').toBe(true);
    const createdInNov = sb.dataset.airSegments.filter(
      (s) => dayIso(s.booking.createdDay) >= '2026-11-01' && dayIso(s.booking.createdDay) <= '2026-11-30',
    );
    expect(byCreation.length).toBe(createdInNov.length);
  });

  it('CarSegmentsByDate filters pick-up dates and SegmentType', () => {
    const recs = all('CarSegmentsByDate', { DateStart: '20260601', DateEnd: '20260831' });
    expect(recs.length).toBeGreaterThan(10);
    for (const r of recs)
      expect(localDate(r.PickUpDate) >= '2026-06-01' && localDate(r.PickUpDate) <= '2026-08-31').toBe(true);
    const passive = all('CarSegmentsByDate', { DateStart: '20251115', DateEnd: '20270301', SegmentType: 'Passive' });
    expect(passive.length).toBeGreaterThan(0);
    expect(passive.every((r) => r.CarSegmentType === 'Passive')).toBe(true);
  });

  it('Account, OwningAgencyLocationID and OwningCompanyCode filters', () => {
    const acme = all('HotelSegments', { Account: 'ACME' });
    expect(acme.length).toBe(
      sb.dataset.hotelSegments.filter((h) => h.booking.account.code === 'ACME' && !h.cancelled).length,
    );
    expect(acme.every((r) => r.Account === 'ACME')).toBe(true);
    const two = all('HotelSegments', { Account: 'ACME,HOOLI' });
    expect(new Set(two.map((r) => r.Account))).toEqual(new Set(['ACME', 'HOOLI']));

    const pcc = all('PartnerForwardingLogs', { OwningAgencyLocationID: '3GHI' });
    expect(pcc.length).toBeGreaterThan(0);
    expect(pcc.every((r) => r.OwningAgencyLocationID === '3GHI')).toBe(true);

    const trv2Pccs = new Set(sb.dataset.pccs.filter((p) => p.companyCode === 'TRV2').map((p) => p.code));
    const scoped = all('AirSegmentsByDate', { DateStart: '20260101', DateEnd: '20261231', OwningCompanyCode: 'TRV2' });
    expect(scoped.length).toBeGreaterThan(0);
    expect(scoped.every((r) => trv2Pccs.has(String(r.OwningAgencyLocationID)))).toBe(true);
    const none = all('AirSegmentsByDate', { DateStart: '20260101', DateEnd: '20261231', OwningCompanyCode: 'NOPE' });
    expect(none).toEqual([]);
  });

  it('coupon status filters: CouponCodeGroup, DateTracker T, FlightCouponStatus letters', () => {
    const used = all('TicketCouponsByStatusCode', {
      DateStart: '20260101',
      DateEnd: '20260630',
      CouponCodeGroup: 'USED',
      DateTracker: 'T',
    });
    expect(used.length).toBeGreaterThan(10);
    for (const r of used) {
      expect(r.FlightCouponStatus).toBe('USED');
      expect(localDate(r.FlightDate) >= '2026-01-01' && localDate(r.FlightDate) <= '2026-06-30').toBe(true);
    }
    expect(used.map((r) => r.RN)).toEqual(used.map((_, i) => String(i + 1)));

    const open = all('TicketCouponsByStatusCode', {
      DateStart: '20251101',
      DateEnd: '20261115',
      CouponCodeGroup: 'ALL OPEN',
      DateTracker: 'I',
    });
    expect(open.length).toBeGreaterThan(0);
    for (const r of open) {
      expect(r.FlightCouponStatus).toBe('OPEN');
      expect(localDate(r.VndIssueDt) >= '2025-11-01' && localDate(r.VndIssueDt) <= '2026-11-15').toBe(true);
    }
    const allGroups = all('TicketCouponsByStatusCode', {
      DateStart: '20251101',
      DateEnd: '20261115',
      CouponCodeGroup: 'ALL',
      DateTracker: 'I',
    });
    const seen = new Set(allGroups.map((r) => String(r.FlightCouponStatus)));
    for (const st of ['OPEN', 'USED', 'EXCH']) expect(seen).toContain(st);
    for (const st of seen) expect(['OPEN', 'USED', 'EXCH', 'CVID', 'MFRD']).toContain(st);
    expect(allGroups.length).toBe(sb.dataset.coupons.length);

    const issuedOpen = all('TicketCouponsIssued', { FlightCouponStatus: 'O' });
    expect(issuedOpen.length).toBe(sb.dataset.coupons.filter((c) => c.status === 'OPEN').length);
    expect(issuedOpen.every((r) => r.FlightCouponStatus === 'OPEN')).toBe(true);
    expect(
      all('TicketCouponsIssued', { FlightCouponStatus: 'EXCH' }).every((r) => r.FlightCouponStatus === 'EXCH'),
    ).toBe(true);
  });

  it('coupon statuses follow the flight date relative to the data anchor', () => {
    const { coupons, nowMs } = sb.dataset;
    for (const c of coupons) {
      if (c.status === 'USED') expect(c.segment.depUtc).toBeLessThan(nowMs);
      if (c.status === 'MFRD') expect(c.ticket.status).toBe('REFUNDED');
      if (c.status === 'EXCH') expect(c.ticket.exchangedFor).toMatch(/^\d{13}$/);
    }
    expect(coupons.filter((c) => c.segment.depUtc >= nowMs).every((c) => c.status !== 'USED')).toBe(true);
  });

  it('CarrierCode, PaxSurname and TravAgntID narrow TicketCouponsByStatusCode', () => {
    const base = { DateStart: '20251101', DateEnd: '20270301', CouponCodeGroup: 'ALL', DateTracker: 'T' };
    const sq = all('TicketCouponsByStatusCode', { ...base, CarrierCode: 'BA' });
    expect(sq.length).toBeGreaterThan(0);
    expect(sq.every((r) => r.Carrier === 'BA')).toBe(true);
    const surname = sb.dataset.tickets[0].passenger.lastName;
    const bySurname = all('TicketCouponsByStatusCode', { ...base, PaxSurname: surname });
    expect(bySurname.every((r) => String(r.Passenger).startsWith(`${surname}/`))).toBe(true);
    const agent = sb.dataset.tickets[0].agent.id;
    const byAgent = all('TicketCouponsByStatusCode', { ...base, TravAgntID: agent });
    expect(byAgent.length).toBeGreaterThan(0);
    expect(byAgent.every((r) => r.TravAgntID === agent)).toBe(true);
  });

  it('routing filters on PassengerLocationsByRouting', () => {
    const toSg = all('PassengerLocationsByRouting', { ToCountryCode: 'SG' });
    expect(toSg.length).toBeGreaterThan(0);
    expect(toSg.every((r) => r.OffPoint === 'SIN')).toBe(true);
    const fromLon = all('PassengerLocationsByRouting', { FromCityCode: 'LON', ToRegionCode: 'ASP' });
    expect(fromLon.length).toBeGreaterThan(0);
    expect(fromLon.every((r) => r.BoardPoint === 'LHR' || r.BoardPoint === 'LGW')).toBe(true);
    const asia = new Set(sb.dataset.airSegments.filter((s) => s.to.region === 'ASP').map((s) => s.to.code));
    expect(fromLon.every((r) => asia.has(String(r.OffPoint)))).toBe(true);
  });

  it('IsSuccess, IsPassive, WithNotepad, DateSearchType S with IncludeCancelled', () => {
    const failed = all('PartnerForwardingLogs', { IsSuccess: 'false' });
    expect(failed.length).toBe(sb.dataset.partnerLogs.filter((l) => !l.success).length);
    expect(failed.every((r) => r.Success === false && /failed/.test(String(r.LogMessage)))).toBe(true);
    const passive = all('HotelSegments', { IsPassive: '1' });
    expect(passive.length).toBeGreaterThan(0);
    expect(passive.every((r) => r.IsPassive === true && r.StatusCode === 'GK')).toBe(true);
    expect(all('HotelSegments', { IsPassive: '0' }).every((r) => r.IsPassive === false)).toBe(true);
    expect(all('HotelSegments', {}).some((r) => 'HotelNotepad' in r)).toBe(false);
    expect(all('HotelSegments', { WithNotepad: '1' }).some((r) => typeof r.HotelNotepad === 'string')).toBe(true);
    const withCancelled = all('HotelSegments', { DateSearchType: 'S', IncludeCancelled: '1' });
    expect(withCancelled.some((r) => r.IsCancelled === true && typeof r.CancellationReference === 'string')).toBe(true);
    expect(all('HotelSegments', { DateSearchType: 'S' }).some((r) => r.IsCancelled === true)).toBe(false);
  });

  it('MaxTravellerIsExceededFlag keeps only flights over the account maximum, with consistent counts', () => {
    const exceeded = all('PassengerAirSegmentsWithMaxTravellerFlag', { MaxTravellerIsExceededFlag: '1' });
    expect(exceeded.length).toBeGreaterThan(0);
    for (const r of exceeded) {
      expect(r.MaxTravellerCountExceededFlag).toBe(true);
      expect(Number(r.TravellerCount)).toBeGreaterThan(Number(r.MaxTravellerCount));
    }
    // TravellerCount equals the number of that account's rows on the flight that day.
    const everything = all('PassengerAirSegmentsWithMaxTravellerFlag', {});
    const groups = new Map<string, number>();
    for (const r of everything) {
      const k = `${r.Account}|${r.FlightNbr}|${r.DepartureDate}`;
      groups.set(k, (groups.get(k) ?? 0) + 1);
    }
    for (const r of exceeded)
      expect(groups.get(`${r.Account}|${r.FlightNbr}|${r.DepartureDate}`)).toBe(r.TravellerCount);
  });

  it("UserName limits the request to the user's companies; unknown users are refused", async () => {
    const user = sb.dataset.appUsers.find((u) => u.companyCodes.length === 1 && u.companyCodes[0] === 'GLB1')!;
    const recs = all('HotelSegments', { UserName: user.email });
    const pccs = new Set(sb.dataset.pccs.filter((p) => p.companyCode === 'GLB1').map((p) => p.code));
    expect(recs.length).toBeGreaterThan(0);
    expect(recs.every((r) => pccs.has(String(r.OwningAgencyLocationID)))).toBe(true);
    const env = await getJson(sb, '/HotelSegments', { UserName: 'nobody@example.com' });
    expect(env.ResponseMetadata.Success).toBe(false);
    expect(env.ResponseError?.ErrorCode).toBe('InvalidUserName');
    expect(() => sb.report('HotelSegments', { UserName: 'nobody@example.com' })).toThrow(/not a user/);
  });

  it('the remaining filters: logs by date, QLog company, QC consultant, arrivals, active bookings, activity', () => {
    const failed = all('CheckFailedSubmissions', { LogDateStart: '20260301', LogDateEnd: '20260531' });
    expect(failed.length).toBeGreaterThan(0);
    for (const r of failed)
      expect(localDate(r.LogDateTime) >= '2026-03-01' && localDate(r.LogDateTime) <= '2026-05-31').toBe(true);

    const company = sb.dataset.companies[1];
    const qlog = all('QLogForward', { CompanyID: String(company.id) });
    expect(qlog.length).toBe(sb.dataset.qlogForwards.filter((q) => q.booking.company.id === company.id).length);
    const entry = sb.dataset.qlogForwards[3];
    expect(all('QLogForward', { QueueEntryID: String(entry.queueEntryId) }).map((r) => r.LogID)).toEqual([entry.id]);

    const consultant = sb.dataset.qcComments[0].consultant;
    const qc = all('QcCommentsForConsultant', { Consultant: consultant.name });
    expect(qc.length).toBe(sb.dataset.qcComments.filter((q) => q.consultant === consultant).length);
    expect(qc.every((r) => r.AgentInitials === consultant.initials)).toBe(true);

    const arrivals = all('PassengerArrivals', {
      ArrivalDateStart: '20261115',
      ArrivalDateEnd: '20261215',
      Account: 'GLOBEX',
    });
    expect(arrivals.length).toBeGreaterThan(0);
    for (const r of arrivals) {
      expect(r.Account).toBe('GLOBEX');
      expect(localDate(r.ArrivalDate) >= '2026-11-15' && localDate(r.ArrivalDate) <= '2026-12-15').toBe(true);
    }

    const future = all('BookingsWithActiveSegments', { AllFutureDate: 'true' });
    expect(future.length).toBeGreaterThan(0);
    expect(future.every((r) => localDate(r.TravelDate) >= dayIso(sb.dataset.today))).toBe(true);
    const ranged = all('BookingsWithActiveSegments', { TravelDateStart: '20261120', TravelDateEnd: '20261125' });
    expect(
      ranged.every((r) => localDate(r.TravelDate) >= '2026-11-20' && localDate(r.TravelDate) <= '2026-11-25'),
    ).toBe(true);

    const noLogins = all('AppUsersActivity', {
      ExcludeFrequentNonReportActivities: 'true',
      ExcludeEmailSubscriptions: 'true',
    });
    expect(noLogins.length).toBeGreaterThan(0);
    expect(noLogins.some((r) => ['Login', 'ViewDashboard', 'EmailSubscription'].includes(String(r.Activity)))).toBe(
      false,
    );
    const oneUser = sb.dataset.appUsers[2].email;
    expect(all('AppUsersActivity', { User: oneUser }).every((r) => r.User === oneUser)).toBe(true);

    const problems = all('ProblematicSegments', { DepartureDateStart: '20260101', DepartureDateEnd: '20261231' });
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((r) => ['UN', 'UC', 'HL', 'NO', 'US'].includes(String(r.SegmentStatus)))).toBe(true);
  });
});

describe('cross-report consistency', () => {
  it('HotelSegmentCountsPerLocation equals the HotelSegments records for the same dates', () => {
    const ranges: Array<Record<string, string>> = [
      {},
      { DateStart: '20260101', DateEnd: '20260331' },
      { DateStart: '20261101', DateEnd: '20261231' },
    ];
    for (const range of ranges) {
      const hotels = all('HotelSegments', range);
      const counts = all('HotelSegmentCountsPerLocation', range);
      const expected = new Map<string, { segs: number; nights: number }>();
      for (const h of hotels) {
        const g = expected.get(String(h.VendorCode)) ?? { segs: 0, nights: 0 };
        g.segs += 1;
        g.nights += Number(h.NbrNights);
        expected.set(String(h.VendorCode), g);
      }
      expect(counts.length).toBe(expected.size);
      for (const c of counts) {
        expect(c.TotalSegments).toBe(expected.get(String(c.VendorCode))!.segs);
        expect(c.TotalNights).toBe(expected.get(String(c.VendorCode))!.nights);
      }
      expect(counts.reduce((s, c) => s + Number(c.TotalSegments), 0)).toBe(hotels.length);
    }
  });

  it('CarSegmentCountsPerAccountByVendor equals car segments per account', () => {
    const range = { DateStart: '20260101', DateEnd: '20261231' };
    const cars = all('CarSegmentsByDate', range).filter((r) => r.CarVendorCode === 'ZI');
    const counts = all('CarSegmentCountsPerAccountByVendor', { ...range, VendorCode: 'ZI' });
    const expected = new Map<string, number>();
    for (const c of cars) expected.set(String(c.Account), (expected.get(String(c.Account)) ?? 0) + 1);
    expect(Object.fromEntries(counts.map((c) => [c.Account, c.TotalSegments]))).toEqual(Object.fromEntries(expected));
  });

  it("a ticket's coupons are its booking's air segments, in order", () => {
    const coupons = all('TicketCouponsByStatusCode', {
      DateStart: '20251101',
      DateEnd: '20261115',
      CouponCodeGroup: 'ALL',
      DateTracker: 'I',
    });
    const byTicket = new Map<string, Rec[]>();
    for (const c of coupons) byTicket.set(String(c.TktNumber), [...(byTicket.get(String(c.TktNumber)) ?? []), c]);
    let checked = 0;
    for (const [, list] of [...byTicket].slice(0, 60)) {
      const rl = String(list[0].RecordLocator);
      const [pnr] = all('PNRSegments', { RecordLocator: rl });
      const segs = (pnr.Segments as { AirSegments: Rec[] }).AirSegments;
      expect(list.map((c) => [c.CouponSequenceNbr, c.Carrier, c.BoardPoint, c.OffPoint])).toEqual(
        segs.map((s, i) => [String(i + 1), s.CarrierCode, s.BoardPoint, s.OffPoint]),
      );
      expect(list.map((c) => localDate(c.FlightDate))).toEqual(segs.map((s) => s.DepartureDate));
      checked++;
    }
    expect(checked).toBe(60);
  });

  it('BookingDetails, FindBookings and PNRSegments agree on a booking', async () => {
    const b = sb.dataset.bookings.find((x) => x.air.length > 0 && x.tickets.length > 0 && x.passengers.length > 1)!;
    const [detail] = all('BookingDetails', { RecordLocator: b.recordLocator, LoadOptions: 'Tickets,Passengers' });
    const created = dayIso(b.createdDay).replace(/-/g, '');
    const found = all('FindBookings', {
      PassengerLastName: b.passengers[1].lastName.slice(0, 3),
      DateStart: created,
      DateEnd: created,
    });
    expect(
      found.every((r) =>
        (r.Passengers as Rec[]).some((p) => String(p.LastName).startsWith(b.passengers[1].lastName.slice(0, 3))),
      ),
    ).toBe(true);
    expect(found.some((r) => r.RecordLocator === b.recordLocator)).toBe(true);
    expect(detail.ServiceRef).toBe(b.serviceRef);
    expect((detail.Passengers as Rec[]).map((p) => p.LastName)).toEqual(b.passengers.map((p) => p.lastName));
    const issued = all('TicketsIssuedByNumber', { TicketNumber: b.tickets.map((t) => t.number).join(',') });
    expect(issued.map((t) => t.TktNumber).sort()).toEqual(b.tickets.map((t) => t.number).sort());
    expect(issued.every((t) => t.RecordLocator === b.recordLocator)).toBe(true);
    const env = await getJson(sb, '/PNRSegments', { RecordLocator: b.recordLocator.toLowerCase() });
    expect(recordsOf(env)).toHaveLength(1);
  });

  it('the data looks like an agency: real airports incl. Singapore, VIPs, passive and cancelled hotels', () => {
    const ds = sb.dataset;
    expect(
      ds.airSegments.some((s) => s.to.code === 'SIN' && s.to.cityName === 'Singapore' && s.to.countryCode === 'SG'),
    ).toBe(true);
    expect(ds.travellers.some((t) => t.isVip)).toBe(true);
    expect(ds.hotelSegments.some((h) => h.passive)).toBe(true);
    expect(ds.hotelSegments.some((h) => h.cancelled)).toBe(true);
    expect(new Set(ds.carSegments.map((c) => c.vendor.code))).toContain('ZE');
    expect(new Set(ds.companies.map((c) => c.code))).toEqual(new Set(['TRV1', 'TRV2', 'GLB1']));
    // Dates spread around the anchor: a past year and the coming months.
    const days = ds.airSegments.map((s) => s.depDay);
    expect(Math.min(...days)).toBeLessThan(ds.today - 300);
    expect(Math.max(...days)).toBeGreaterThan(ds.today + 30);
    // Record locators and ServiceRefs are unique.
    expect(new Set(ds.bookings.map((b) => b.recordLocator)).size).toBe(ds.bookings.length);
    expect(new Set(ds.bookings.map((b) => b.serviceRef)).size).toBe(ds.bookings.length);
    // A flight number always flies the same route.
    const routes = new Map<string, string>();
    for (const s of ds.airSegments) {
      const k = `${s.carrier.code}${s.flightNbr}`;
      const r = `${s.from.code}-${s.to.code}`;
      expect(routes.get(k) ?? r).toBe(r);
      routes.set(k, r);
    }
  });
});
