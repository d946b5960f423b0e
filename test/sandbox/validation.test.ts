import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { call, query } from './helpers.js';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ size: 200 });
});
afterAll(async () => {
  await sb.close();
});

const NOV = { DateStart: '20261101', DateEnd: '20261130' };

/** [path, params, ErrorCode, Message]. */
const CASES: Array<[string, Record<string, string>, string, string]> = [
  ['/CarSegmentsByDate', { DateEnd: '20261130' }, 'MissingParameter', 'DateStart is required'],
  ['/CarSegmentsByDate', { DateStart: '20261101' }, 'MissingParameter', 'DateEnd is required'],
  ['/AirSegmentsByDate', { DateStart: '20261101' }, 'MissingParameter', 'DateEnd is required'],
  ['/AirSegmentsByDate/user', {}, 'MissingParameter', 'DateStart is required'],
  ['/TicketCouponsByStatusCode', { ...NOV, DateTracker: 'I' }, 'MissingParameter', 'CouponCodeGroup is required'],
  ['/TicketCouponsByStatusCode', { ...NOV, CouponCodeGroup: 'OPEN' }, 'MissingParameter', 'DateTracker is required'],
  ['/CarSegmentCountsPerAccountByVendor/user', NOV, 'MissingParameter', 'VendorCode is required'],
  [
    '/CarSegmentCountsPerAccountByVendor/user',
    { DateEnd: '20261130', VendorCode: 'ZE' },
    'MissingParameter',
    'DateStart is required',
  ],
  ['/PNRSegments', {}, 'MissingParameter', 'RecordLocator is required'],
  ['/PNRSegments', { RecordLocator: '   ' }, 'MissingParameter', 'RecordLocator is required'],
  [
    '/AirSegmentsByDate',
    { DateStart: '2026-11-01', DateEnd: '20261130' },
    'InvalidDate',
    "DateStart must be a date in the form YYYYMMDD, got '2026-11-01'",
  ],
  [
    '/HotelSegments',
    { DateStart: '202611', DateEnd: '20261130' },
    'InvalidDate',
    "DateStart must be a date in the form YYYYMMDD, got '202611'",
  ],
  [
    '/CarSegmentsByDate',
    { DateStart: '20260230', DateEnd: '20260301' },
    'InvalidDate',
    "DateStart is not a valid calendar date: '20260230'",
  ],
  [
    '/PassengerArrivals',
    { ArrivalDateStart: '20261301' },
    'InvalidDate',
    "ArrivalDateStart is not a valid calendar date: '20261301'",
  ],
  [
    '/AirSegmentsByDate',
    { DateStart: '20261130', DateEnd: '20261101' },
    'InvalidDateRange',
    'DateEnd 20261101 is before DateStart 20261130',
  ],
  [
    '/CheckFailedSubmissions',
    { LogDateStart: '20261130', LogDateEnd: '20261101' },
    'InvalidDateRange',
    'LogDateEnd 20261101 is before LogDateStart 20261130',
  ],
  [
    '/AirSegmentsByDate',
    { ...NOV, DateSearchType: 'X' },
    'InvalidParameter',
    "DateSearchType must be one of T, C, got 'X'",
  ],
  [
    '/CarSegmentsByDate',
    { ...NOV, DateSearchType: 'A' },
    'InvalidParameter',
    "DateSearchType must be one of T, C, got 'A'",
  ],
  ['/HotelSegments', { DateSearchType: 'T' }, 'InvalidParameter', "DateSearchType must be one of A, C, S, got 'T'"],
  [
    '/TicketCouponsByStatusCode',
    { ...NOV, CouponCodeGroup: 'OPEN', DateTracker: 'X' },
    'InvalidParameter',
    "DateTracker must be one of I, T, E, got 'X'",
  ],
  [
    '/TicketCouponsByStatusCode',
    { ...NOV, CouponCodeGroup: 'FLOWN', DateTracker: 'T' },
    'InvalidParameter',
    "CouponCodeGroup must be one of ALL, ALL OPEN, OPEN, USED, EXCH, CVID, MFRD, got 'FLOWN'",
  ],
  [
    '/TicketCouponsIssued',
    { FlightCouponStatus: 'Z' },
    'InvalidParameter',
    "FlightCouponStatus must be one of OPEN, USED, EXCH, CVID, MFRD, got 'Z'",
  ],
  ['/HotelSegments', { Limit: 'abc' }, 'InvalidParameter', "Limit must be a positive integer, got 'abc'"],
  ['/HotelSegments', { Limit: '0' }, 'InvalidParameter', "Limit must be a positive integer, got '0'"],
  ['/HotelSegments', { Offset: '-5' }, 'InvalidParameter', "Offset must be a non-negative integer, got '-5'"],
  ['/HotelSegments', { Offset: '1.5' }, 'InvalidParameter', "Offset must be a non-negative integer, got '1.5'"],
  ['/HotelSegments', { IsPassive: 'yes' }, 'InvalidParameter', "IsPassive must be 0 or 1, got 'yes'"],
  [
    '/PartnerForwardingLogs',
    { IsSuccess: 'maybe' },
    'InvalidParameter',
    "IsSuccess must be true or false, got 'maybe'",
  ],
  ['/BookingDetails', { ServiceRef: 'abc' }, 'InvalidParameter', "ServiceRef must be an integer, got 'abc'"],
  [
    '/BookingDetails',
    { LoadOptions: 'Passengers,Everything' },
    'InvalidParameter',
    'LoadOptions must be one of Passengers, Itinerary',
  ],
  [
    '/DistributorBookingsByAirlineClass',
    { ItineraryFormatting: '7' },
    'InvalidParameter',
    "ItineraryFormatting must be one of 0, 1, 2, got '7'",
  ],
];

describe('sandbox parameter validation', () => {
  it.each(CASES)('%s %j -> %s', async (path, params, code, message) => {
    const res = await call(sb, `${path}${query(params)}`);
    expect(res.status).toBe(200);
    const env = res.json();
    expect(env.ResponseMetadata.Success).toBe(false);
    expect(env.ResponseReport).toBeUndefined();
    expect(env.ResponseError!.ErrorCode).toBe(code);
    expect(env.ResponseError!.Message.startsWith(message)).toBe(true);
    expect(env.ResponseError!.StatusCode).toBe('400');
    expect(env.ResponseError!.VerboseMessage.length).toBeGreaterThan(10);
  });

  it('report() throws the same errors', () => {
    expect(() => sb.report('CarSegmentsByDate', { DateStart: '20261101' })).toThrow('DateEnd is required');
    expect(() => sb.report('NoSuchTransaction', {})).toThrow(/Unknown transaction/);
  });

  it('ignores unknown parameters, and names are case-as-written', async () => {
    const ok = await call(sb, `/AirSegmentsByDate${query({ ...NOV, Colour: 'blue', utm_source: 'x' })}`);
    expect(ok.json().ResponseMetadata.Success).toBe(true);
    const lower = await call(sb, `/AirSegmentsByDate${query({ datestart: '20261101', DateEnd: '20261130' })}`);
    expect(lower.json().ResponseError?.Message).toBe('DateStart is required');
  });

  it('accepts lower-case enum letters and list spacing', async () => {
    const env = (await call(sb, `/AirSegmentsByDate${query({ ...NOV, DateSearchType: 't' })}`)).json();
    expect(env.ResponseMetadata.Success).toBe(true);
    const hotels = (await call(sb, `/HotelSegments${query({ Account: ' ACME , GLOBEX ' })}`)).json();
    expect(hotels.ResponseMetadata.Success).toBe(true);
  });
});
