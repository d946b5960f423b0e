import { describe, expect, it } from 'vitest';
import { inputSchema } from '../../src/catalog/schema.js';
import { findTransaction } from '../../src/catalog/transactions.js';

const DATE_HINT = 'use YYYYMMDD, YYYY-MM-DD, today, yesterday, tomorrow or today±N';

/** The messages, formatted as the MCP SDK (v2) shows them (`${path}: ${message}`). */
function issues(tool: string, args: unknown): string[] {
  const result = inputSchema(findTransaction(tool)!).safeParse(args);
  expect(result.success).toBe(false);
  return result.error!.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
}

function accepts(tool: string, args: unknown) {
  const result = inputSchema(findTransaction(tool)!).safeParse(args);
  expect(result.error?.issues ?? []).toEqual([]);
  return result.data;
}

describe('input schema messages name the parameter, the value and what is expected', () => {
  it('dates', () => {
    expect(issues('car_segments_by_date', { DateStart: 5, DateEnd: 'next week' })).toEqual([
      `DateStart: 5 (number) is not a date; ${DATE_HINT}`,
      `DateEnd: 'next week' is not a date; ${DATE_HINT}`,
    ]);
  });

  it('missing required parameters', () => {
    expect(issues('car_segments_by_date', { DateStart: 'today' })).toEqual([
      `DateEnd: missing; required, ${DATE_HINT}`,
    ]);
    expect(issues('ticket_coupons_by_status_code', { DateStart: 'today', DateEnd: 'today', DateTracker: 'I' })).toEqual(
      ["CouponCodeGroup: missing; required, use text: Coupon status, e.g. OPEN, USED or 'ALL OPEN'"],
    );
    expect(
      issues('ticket_coupons_by_status_code', { DateStart: 'today', DateEnd: 'today', CouponCodeGroup: 'OPEN' }),
    ).toEqual(["DateTracker: missing; required, use one of: 'I', 'T', 'E'"]);
  });

  it('lists, integers, booleans, enums, strings', () => {
    expect(issues('hotel_segments', { Account: 5, IsPassive: 1, DateSearchType: 'X', CityCode: 7 })).toEqual([
      'Account: 5 (number) is not a list; use a comma-separated string or an array of strings',
      'CityCode: 7 (number) is not a string; use text: 3-letter city code',
      "DateSearchType: 'X' is not allowed; use one of: 'A', 'C', 'S'",
      "IsPassive: 1 (number) is not allowed; use one of: '0', '1'",
    ]);
    expect(issues('hotel_segments', { Account: ['A1', 3] })).toEqual([
      'Account: ["A1",3] (array) is not a list; use a comma-separated string or an array of strings',
    ]);
    expect(issues('booking_details', { ServiceRef: '123' })).toEqual([
      "ServiceRef: '123' is not an integer; use a whole number, unquoted",
    ]);
    expect(issues('booking_details', { ServiceRef: 1.5 })).toEqual([
      'ServiceRef: 1.5 (number) is not an integer; use a whole number, unquoted',
    ]);
    expect(issues('partner_forwarding_logs', { IsSuccess: 'false' })).toEqual([
      "IsSuccess: 'false' is not a boolean; use true or false",
    ]);
    expect(issues('booking_details', { LoadOptions: null })).toEqual([
      `LoadOptions: null is not a list; use a comma-separated string or an array of: Passengers, Itinerary, DiEntries, Phones, Notepads, VendorRemarks, Tickets, Versions, VendorLocators, CustomFields, Emails, AccountValue, EventDetails, EmailTrails, All`,
    ]);
  });

  it('controls', () => {
    expect(issues('qlog_forward', { maxRecords: 0, rowLimit: 100001, fields: 'Account' })).toEqual([
      'maxRecords: 0 (number) is not a whole number from 1 to 10000000; e.g. 1000',
      "fields: 'Account' is not a list of field names; use an array of strings",
      'rowLimit: 100001 (number) is not a whole number from 0 to 100000; e.g. 50',
    ]);
    expect(issues('qlog_forward', { maxRecords: 2.5, fields: ['Account', 1] })).toEqual([
      'maxRecords: 2.5 (number) is not a whole number from 1 to 10000000; e.g. 1000',
      'fields.1: 1 (number) is not a list of field names; use an array of strings',
    ]);
  });

  it('free-form parameters', () => {
    expect(issues('find_bookings', { parameters: { RecordLocator: null } })).toEqual([
      'parameters.RecordLocator: null is not a parameter value; use a string, number or boolean',
    ]);
    expect(issues('find_bookings', { parameters: 'RecordLocator=ABC' })).toEqual([
      `parameters: 'RecordLocator=ABC' is not an object; use {"Name": value}`,
    ]);
  });

  it('unknown keys: names them, suggests the spelling, lists the accepted parameters', () => {
    expect(issues('air_segments_by_date', { dateStart: 'today', DateStart: 'today', DateEnd: 'today' })).toEqual([
      "unknown parameter 'dateStart' (did you mean DateStart?); accepted: DateStart, DateEnd, DateSearchType, OwningCompanyCode, UserName, maxRecords, fields, rowLimit, fresh",
    ]);
    expect(issues('app_users_activity', { UserName: 'a@b.c', Offset: '0' })).toEqual([
      "unknown parameters 'UserName' (did you mean Username?), 'Offset'; accepted: Username, DateStart, DateEnd, ExcludeFrequentNonReportActivities, ExcludeEmailSubscriptions, User, maxRecords, fields, rowLimit, fresh",
    ]);
    expect(issues('qlog_forward', { OwningCompanyCode: 'X' })[0]).toMatch(
      /^unknown parameter 'OwningCompanyCode'; accepted: CompanyID/,
    );
  });

  it('accepts good input, lists as a comma string or an array', () => {
    expect(
      accepts('hotel_segments', {
        DateStart: '2026-03-01',
        DateEnd: 'today+7',
        Account: ['A1', 'B2'],
        OwningAgencyLocationID: 'P1,P2',
        IsPassive: '0',
        DateSearchType: 'A',
        OwningCompanyCode: 'ACME',
        UserName: 'agent@example.com',
        maxRecords: 1000,
        fields: ['RecordLocator'],
        rowLimit: 0,
      }),
    ).toMatchObject({ Account: ['A1', 'B2'], OwningAgencyLocationID: 'P1,P2' });
    accepts('car_segments_by_date', { DateStart: 'Yesterday', DateEnd: 'today - 3' });
    accepts('find_bookings', { parameters: { RecordLocator: 'ABC123', Count: 3, Exact: true } });
    accepts('booking_details', {});
  });
});
