import { describe, expect, it } from 'vitest';
import { type ResolveContext, resolveDate, resolveInput } from '../../src/catalog/resolve.js';
import { findTransaction } from '../../src/catalog/transactions.js';
import { thrown } from '../helpers/thrown.js';

const def = (tool: string) => findTransaction(tool)!;

/** 05:00 UTC on 1 March 2026: 18:00 on 1 March in Auckland, 21:00 on 28 February in Los Angeles. */
const NOW = new Date('2026-03-01T05:00:00Z');
const UTC: ResolveContext = { timeZone: 'UTC', now: NOW };

describe('resolveDate', () => {
  it('resolves today in the configured zone', () => {
    expect(resolveDate('today', { timeZone: 'Pacific/Auckland', now: NOW })).toBe('20260301');
    expect(resolveDate('today', { timeZone: 'America/Los_Angeles', now: NOW })).toBe('20260228');
    expect(resolveDate('yesterday', { timeZone: 'Pacific/Auckland', now: NOW })).toBe('20260228');
    expect(resolveDate('tomorrow', { timeZone: 'America/Los_Angeles', now: NOW })).toBe('20260301');
  });

  it('counts today±N across month, leap-day and year boundaries', () => {
    expect(resolveDate('today-1', { timeZone: 'America/Los_Angeles', now: NOW })).toBe('20260227');
    expect(resolveDate('today-1', { timeZone: 'UTC', now: new Date('2024-03-01T12:00:00Z') })).toBe('20240229');
    // 05:00 UTC on 1 January 2026 is still 31 December in Los Angeles.
    expect(resolveDate('today-1', { timeZone: 'Europe/London', now: new Date('2026-01-01T05:00:00Z') })).toBe(
      '20251231',
    );
    expect(resolveDate('today-1', { timeZone: 'America/Los_Angeles', now: new Date('2026-01-01T05:00:00Z') })).toBe(
      '20251230',
    );
    expect(resolveDate('today+1', { timeZone: 'UTC', now: new Date('2025-12-31T12:00:00Z') })).toBe('20260101');
    expect(resolveDate('today-365', UTC)).toBe('20250301');
    expect(resolveDate(' TODAY - 7 ', UTC)).toBe('20260222');
    expect(resolveDate('today+0', UTC)).toBe('20260301');
  });

  it('normalises YYYY-MM-DD and checks real calendar dates', () => {
    expect(resolveDate('2026-03-05', UTC)).toBe('20260305');
    expect(resolveDate('20240229', UTC)).toBe('20240229');
    expect(thrown(() => resolveDate('2026-02-30', UTC, 'DateStart')).message).toBe(
      "DateStart: '2026-02-30' is not a real date; use YYYYMMDD, YYYY-MM-DD or today-N",
    );
    expect(thrown(() => resolveDate('20250229', UTC, 'DateEnd')).message).toBe(
      "DateEnd: '20250229' is not a real date; use YYYYMMDD, YYYY-MM-DD or today-N",
    );
    expect(thrown(() => resolveDate('20261301', UTC)).details.param).toBe('date');
    expect(thrown(() => resolveDate('yesterday-2', UTC, 'DateStart')).message).toBe(
      "DateStart: 'yesterday-2' is not a date; use YYYYMMDD, YYYY-MM-DD, today, yesterday, tomorrow or today±N",
    );
  });

  it('reports an unknown time zone as configuration', () => {
    const err = thrown(() => resolveDate('today', { timeZone: 'Mars/Olympus', now: NOW }));
    expect(err.kind).toBe('configuration');
    expect(err.message).toContain('REPORTS_TIMEZONE');
  });
});

describe('resolveInput', () => {
  it('resolves dates into the query, in catalog order, scope last', () => {
    const { query } = resolveInput(
      def('car_segments_by_date'),
      { UserName: 'a@b.c', DateEnd: 'today', DateSearchType: 'C', DateStart: '2026-02-01', SegmentType: 'CAR' },
      { timeZone: 'America/Los_Angeles', now: NOW },
    );
    expect(query).toEqual({
      SegmentType: 'CAR',
      DateStart: '20260201',
      DateEnd: '20260228',
      DateSearchType: 'C',
      UserName: 'a@b.c',
    });
    expect(Object.keys(query)).toEqual(['SegmentType', 'DateStart', 'DateEnd', 'DateSearchType', 'UserName']);
  });

  it('refuses a date that is not real, naming the parameter', () => {
    const err = thrown(() =>
      resolveInput(def('car_segments_by_date'), { DateStart: '2026-02-30', DateEnd: 'today' }, UTC),
    );
    expect(err.kind).toBe('invalid_input');
    expect(err.details.param).toBe('DateStart');
    expect(err.message).toBe("DateStart: '2026-02-30' is not a real date; use YYYYMMDD, YYYY-MM-DD or today-N");
  });

  it('refuses an end before its start, naming both', () => {
    expect(
      thrown(() => resolveInput(def('car_segments_by_date'), { DateStart: '20260310', DateEnd: '2026-03-01' }, UTC))
        .message,
    ).toBe("DateEnd: '2026-03-01' (20260301) is before DateStart '20260310'; DateEnd must be on or after DateStart");
    const err = thrown(() =>
      resolveInput(def('ticket_coupons_issued'), { IssueDateStart: 'today', IssueDateEnd: 'today-3' }, UTC),
    );
    expect(err.details.param).toBe('IssueDateEnd');
    expect(err.message).toBe(
      "IssueDateEnd: 'today-3' (20260226) is before IssueDateStart 'today' (20260301); IssueDateEnd must be on or after IssueDateStart",
    );
    for (const [tool, prefix] of [
      ['check_failed_submissions', 'LogDate'],
      ['passenger_arrivals', 'ArrivalDate'],
      ['problematic_segments', 'DepartureDate'],
      ['bookings_with_active_segments', 'TravelDate'],
    ] as const) {
      const args = { [`${prefix}Start`]: '20260102', [`${prefix}End`]: '20260101' };
      expect(thrown(() => resolveInput(def(tool), args, UTC)).details.param).toBe(`${prefix}End`);
    }
    // The same day, or only one end given, is fine.
    expect(
      resolveInput(def('car_segments_by_date'), { DateStart: 'today', DateEnd: '20260301' }, UTC).query,
    ).toMatchObject({
      DateStart: '20260301',
      DateEnd: '20260301',
    });
    expect(resolveInput(def('problematic_segments'), { DepartureDateEnd: 'today-400' }, UTC).query).toEqual({
      DepartureDateEnd: '20250125',
    });
  });

  it('refuses a missing required parameter even without zod', () => {
    expect(thrown(() => resolveInput(def('car_segments_by_date'), { DateStart: 'today' }, UTC)).message).toBe(
      'DateEnd: missing; required, use YYYYMMDD, YYYY-MM-DD, today, yesterday, tomorrow or today±N',
    );
    expect(thrown(() => resolveInput(def('pnr_segments'), { RecordLocator: '  ' }, UTC)).details.param).toBe(
      'RecordLocator',
    );
  });

  it('joins lists, trimming and dropping empty items, and checks a fixed vocabulary', () => {
    expect(
      resolveInput(
        def('hotel_segments'),
        {
          Account: ' A1, ,B2 ',
          OwningAgencyLocationID: ['P1', 'P2,P3 '],
          CustomField: '',
          OwningAgencyCountryCode: [],
        },
        UTC,
      ).query,
    ).toEqual({ Account: 'A1,B2', OwningAgencyLocationID: 'P1,P2,P3' });
    expect(resolveInput(def('booking_details'), { LoadOptions: ['passengers', 'Itinerary,ALL'] }, UTC).query).toEqual({
      LoadOptions: 'Passengers,Itinerary,All',
    });
    expect(thrown(() => resolveInput(def('booking_details'), { LoadOptions: 'Passengers,Seats' }, UTC)).message).toBe(
      "LoadOptions: 'Seats' is not a known item; use any of: Passengers, Itinerary, DiEntries, Phones, Notepads, VendorRemarks, Tickets, Versions, VendorLocators, CustomFields, Emails, AccountValue, EventDetails, EmailTrails, All",
    );
  });

  it('sends booleans as true/false, integers as decimals, enums and strings as written', () => {
    const { query } = resolveInput(
      def('distributor_bookings_by_airline_class'),
      { DistributorID: 42, IncludeItinerary: false, ItineraryFormatting: '1', PlatingCarrier: ' BA ' },
      UTC,
    );
    expect(query).toEqual({
      DistributorID: '42',
      PlatingCarrier: 'BA',
      IncludeItinerary: 'false',
      ItineraryFormatting: '1',
    });
    expect(resolveInput(def('partner_forwarding_logs'), { IsSuccess: true }, UTC).query).toEqual({ IsSuccess: 'true' });
    expect(thrown(() => resolveInput(def('hotel_segments'), { IsGDS: 1 }, UTC)).message).toBe(
      "IsGDS: 1 (number) is not allowed; use one of: '0', '1'",
    );
  });

  it('sends the pinned company codes by default and refuses codes outside them', () => {
    const pinned: ResolveContext = { ...UTC, pinnedCompanyCodes: ['ACME', 'GLOBEX'] };
    const args = { DateStart: 'today', DateEnd: 'today' };
    expect(resolveInput(def('car_segments_by_date'), args, pinned).query.OwningCompanyCode).toBe('ACME,GLOBEX');
    expect(resolveInput(def('booking_details'), { RecordLocator: 'ABC123' }, pinned).query).toEqual({
      RecordLocator: 'ABC123',
      OwningCompanyCode: 'ACME,GLOBEX',
    });
    expect(
      resolveInput(def('car_segments_by_date'), { ...args, OwningCompanyCode: ['acme'] }, pinned).query
        .OwningCompanyCode,
    ).toBe('ACME');
    const err = thrown(() =>
      resolveInput(def('car_segments_by_date'), { ...args, OwningCompanyCode: 'ACME,INITECH,UMBRELLA' }, pinned),
    );
    expect(err.kind).toBe('invalid_input');
    expect(err.details.param).toBe('OwningCompanyCode');
    expect(err.message).toBe(
      "OwningCompanyCode: 'INITECH', 'UMBRELLA' are outside the configured company scope; allowed: ACME, GLOBEX (omit OwningCompanyCode for all of them)",
    );
    // A transaction without the parameter gets nothing added.
    expect(resolveInput(def('qlog_forward'), {}, pinned).query).toEqual({});
    // Without a pin, codes pass as given.
    expect(
      resolveInput(def('car_segments_by_date'), { ...args, OwningCompanyCode: 'X' }, UTC).query.OwningCompanyCode,
    ).toBe('X');
    // A free-form OwningCompanyCode cannot widen the pinned scope.
    expect(
      thrown(() => resolveInput(def('find_bookings'), { parameters: { OwningCompanyCode: 'INITECH' } }, pinned))
        .message,
    ).toMatch(/^OwningCompanyCode: 'INITECH' is outside the configured company scope/);
    // Free-form dates are checked like named ones.
    expect(
      thrown(() => resolveInput(def('find_bookings'), { parameters: { PNRCreationDate: '20269999' } }, UTC)).message,
    ).toBe("parameters.PNRCreationDate: '20269999' is not a real date; use YYYYMMDD, YYYY-MM-DD or today-N");
    // ...and is sent by default on the free-form tools as on the others.
    expect(resolveInput(def('find_bookings'), {}, pinned).query).toEqual({ OwningCompanyCode: 'ACME,GLOBEX' });
    expect(resolveInput(def('find_bookings'), { parameters: { RecordLocator: 'ABC123' } }, pinned).query).toEqual({
      RecordLocator: 'ABC123',
      OwningCompanyCode: 'ACME,GLOBEX',
    });
    expect(resolveInput(def('find_bookings'), { parameters: { OwningCompanyCode: 'acme' } }, pinned).query).toEqual({
      OwningCompanyCode: 'ACME',
    });
  });

  it('uses the default UserName where the transaction takes one, Username included', () => {
    const ctx: ResolveContext = { ...UTC, defaultUserName: 'me@agency.example' };
    expect(resolveInput(def('problematic_segments'), {}, ctx).query).toEqual({ UserName: 'me@agency.example' });
    expect(resolveInput(def('problematic_segments'), { UserName: 'other@agency.example' }, ctx).query).toEqual({
      UserName: 'other@agency.example',
    });
    expect(resolveInput(def('app_users_activity'), { DateStart: 'today' }, ctx).query).toEqual({
      Username: 'me@agency.example',
      DateStart: '20260301',
    });
    expect(resolveInput(def('hotel_segment_counts_per_location'), {}, ctx).query).toEqual({
      UserName: 'me@agency.example',
    });
    expect(resolveInput(def('booking_details'), {}, ctx).query).toEqual({ UserName: 'me@agency.example' });
    expect(resolveInput(def('qlog_forward'), {}, ctx).query).toEqual({});
    expect(resolveInput(def('find_bookings'), {}, ctx).query).toEqual({});
  });

  it('passes free-form parameters through, refusing the ones the server owns', () => {
    const { query } = resolveInput(
      def('find_bookings'),
      { parameters: { RecordLocator: 'ABC123', Count: 3, Exact: true, CreationDate: 'today-1', Ref: '20260101' } },
      UTC,
    );
    expect(query).toEqual({
      RecordLocator: 'ABC123',
      Count: '3',
      Exact: 'true',
      CreationDate: '20260228',
      Ref: '20260101',
    });
    expect(thrown(() => resolveInput(def('find_bookings'), { parameters: { Offset: 100 } }, UTC)).message).toBe(
      'parameters.Offset: 100 (number) is not allowed: the server controls paging, format, debugging and order itself; use maxRecords to fetch fewer records and query_report orderBy to sort',
    );
    for (const key of ['limit', 'TotalRecords', 'format', 'callback']) {
      expect(
        thrown(() => resolveInput(def('tickets_issued_by_number'), { parameters: { [key]: 'x' } }, UTC)).details.param,
      ).toBe(`parameters.${key}`);
    }
    expect(
      thrown(() => resolveInput(def('find_bookings'), { parameters: { 'Record-Locator': 'A' } }, UTC)).message,
    ).toBe(
      "parameters.Record-Locator: 'Record-Locator' is not a parameter name; use up to 64 letters and digits, as the service spells it",
    );
    // Value types are the zod schema's: its message, and the parameter as its path.
    const nan = thrown(() => resolveInput(def('find_bookings'), { parameters: { Count: Number.NaN } }, UTC));
    expect(nan.message).toBe(
      'parameters.Count: NaN (number) is not a parameter value; use a string, number or boolean',
    );
    expect(nan.details.param).toBe('parameters.Count');
  });

  it('returns the controls and refuses keys the tool does not take', () => {
    expect(
      resolveInput(
        def('qlog_forward'),
        { maxRecords: 10, fields: ['RecordLocator', ' LogDate ', 'RecordLocator'], rowLimit: 5, fresh: true },
        UTC,
      ),
    ).toEqual({
      query: {},
      controls: { maxRecords: 10, fields: ['RecordLocator', 'LogDate'], rowLimit: 5, fresh: true },
    });
    expect(resolveInput(def('qlog_forward'), { fresh: false }, UTC).controls).toEqual({});
    expect(resolveInput(def('qlog_forward'), {}, UTC).controls).toEqual({});
    const err = thrown(() => resolveInput(def('qlog_forward'), { Limit: '10' }, UTC));
    expect(err.message).toBe(
      "unknown parameter 'Limit'; accepted: CompanyID, QueueEntryID, LogDateStart, LogDateEnd, maxRecords, fields, rowLimit, fresh",
    );
    expect(thrown(() => resolveInput(def('qlog_forward'), { rowLimit: 100_001 }, UTC)).details.param).toBe('rowLimit');
  });
});
