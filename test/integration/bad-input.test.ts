/**
 * Invalid arguments are refused before anything is sent upstream, as isError results whose
 * text names the parameter, the value received and what is expected; upstream failures are
 * isError results too, never crashes, and never carry the API key.
 */

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FaultKind } from '../../src/sandbox/service.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllRecords } from '../helpers/resources.js';

const PINNED = 'TRV2';
const DAY_MS = 86_400_000;
const ymd = (offset = 0) =>
  new Date((Math.floor(Date.now() / DAY_MS) + offset) * DAY_MS).toISOString().slice(0, 10).replace(/-/g, '');
const NOTHING_SENT = 'Nothing was sent to the service; correct the argument and call again.';
const SCHEMA = (tool: string) => `Input validation error: Invalid arguments for tool ${tool}: `;
const AIR_ACCEPTED =
  'DateStart, DateEnd, DateSearchType, OwningCompanyCode, UserName, maxRecords, fields, rowLimit, fresh';

/** Every text a result of this file returned, checked for the API key at the end. */
const texts: string[] = [];

async function refused(s: InProcess, tool: string, args: Record<string, unknown>): Promise<string> {
  const before = s.rt.sandbox!.requests.length;
  const result: CallToolResult = await s.call(tool, args);
  const text = textOf(result);
  texts.push(text, JSON.stringify(result));
  expect(result.isError, text).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  expect(s.rt.sandbox!.requests.length, `${tool} sent a request for ${JSON.stringify(args)}`).toBe(before);
  return text;
}

let s: InProcess;
beforeAll(async () => {
  s = await startInProcess({ env: { REPORTS_OWNING_COMPANY_CODES: PINNED } });
});
afterAll(async () => {
  await s?.close();
});

describe('invalid arguments: exact messages, nothing sent', () => {
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    [
      'DateStart that is not a real date',
      'air_segments_by_date',
      { DateStart: '2026-02-30', DateEnd: '20260305' },
      `Invalid argument for air_segments_by_date: DateStart: '2026-02-30' is not a real date; use YYYYMMDD, YYYY-MM-DD or today-N. ${NOTHING_SENT}`,
    ],
    [
      'DateEnd before DateStart',
      'air_segments_by_date',
      { DateStart: '20261110', DateEnd: '20261101' },
      `Invalid argument for air_segments_by_date: DateEnd: '20261101' is before DateStart '20261110'; DateEnd must be on or after DateStart. ${NOTHING_SENT}`,
    ],
    [
      'an unknown parameter',
      'air_segments_by_date',
      { DateStart: '20261101', DateEnd: '20261110', Foo: 1 },
      `${SCHEMA('air_segments_by_date')}unknown parameter 'Foo'; accepted: ${AIR_ACCEPTED}`,
    ],
    [
      'a parameter in the wrong case',
      'air_segments_by_date',
      { DateStart: '20261101', DateEnd: '20261110', datesearchtype: 'T' },
      `${SCHEMA('air_segments_by_date')}unknown parameter 'datesearchtype' (did you mean DateSearchType?); accepted: ${AIR_ACCEPTED}`,
    ],
    [
      'a number for a date',
      'air_segments_by_date',
      { DateStart: 20261101, DateEnd: '20261110' },
      `${SCHEMA('air_segments_by_date')}DateStart: 20261101 (number) is not a date; use YYYYMMDD, YYYY-MM-DD, today, yesterday, tomorrow or today±N`,
    ],
    [
      'a string for a boolean',
      'partner_forwarding_logs',
      { IsSuccess: 'false' },
      `${SCHEMA('partner_forwarding_logs')}IsSuccess: 'false' is not a boolean; use true or false`,
    ],
    [
      'a fraction for an integer',
      'booking_details',
      { ServiceRef: 1.5 },
      `${SCHEMA('booking_details')}ServiceRef: 1.5 (number) is not an integer; use a whole number, unquoted`,
    ],
    [
      'a date in no accepted form',
      'air_segments_by_date',
      { DateStart: 'soon', DateEnd: '20261110' },
      `${SCHEMA('air_segments_by_date')}DateStart: 'soon' is not a date; use YYYYMMDD, YYYY-MM-DD, today, yesterday, tomorrow or today±N`,
    ],
    [
      'a DateSearchType letter other than T or C',
      'air_segments_by_date',
      { DateStart: '20261101', DateEnd: '20261110', DateSearchType: 'X' },
      `${SCHEMA('air_segments_by_date')}DateSearchType: 'X' is not allowed; use one of: 'T', 'C'`,
    ],
    [
      'DateTracker missing',
      'ticket_coupons_by_status_code',
      { DateStart: '20261101', DateEnd: '20261110', CouponCodeGroup: 'OPEN' },
      `${SCHEMA('ticket_coupons_by_status_code')}DateTracker: missing; required, use one of: 'I', 'T', 'E'`,
    ],
    [
      'a company code outside the pinned scope',
      'air_segments_by_date',
      { DateStart: '20261101', DateEnd: '20261110', OwningCompanyCode: 'GLB1' },
      `Invalid argument for air_segments_by_date: OwningCompanyCode: 'GLB1' is outside the configured company scope; allowed: ${PINNED} (omit OwningCompanyCode for all of them). ${NOTHING_SENT}`,
    ],
    [
      'maxRecords 0',
      'air_segments_by_date',
      { DateStart: '20261101', DateEnd: '20261110', maxRecords: 0 },
      `${SCHEMA('air_segments_by_date')}maxRecords: 0 (number) is not a whole number from 1 to 10000000; e.g. 1000`,
    ],
    [
      'rowLimit below 0',
      'air_segments_by_date',
      { DateStart: '20261101', DateEnd: '20261110', rowLimit: -1 },
      `${SCHEMA('air_segments_by_date')}rowLimit: -1 (number) is not a whole number from 0 to 100000; e.g. 50`,
    ],
    [
      'a LoadOptions section that does not exist',
      'booking_details',
      { LoadOptions: 'Passengers,Everything' },
      `Invalid argument for booking_details: LoadOptions: 'Everything' is not a known item; use any of: Passengers, Itinerary, DiEntries, Phones, Notepads, VendorRemarks, Tickets, Versions, VendorLocators, CustomFields, Emails, AccountValue, EventDetails, EmailTrails, All. ${NOTHING_SENT}`,
    ],
    [
      'paging parameters in the free-form object',
      'find_bookings',
      { parameters: { Offset: 5 } },
      `Invalid argument for find_bookings: parameters.Offset: 5 (number) is not allowed: the server controls paging, format, debugging and order itself; use maxRecords to fetch fewer records and query_report orderBy to sort. ${NOTHING_SENT}`,
    ],
    [
      'a free-form company code outside the pinned scope',
      'tickets_issued_by_number',
      { parameters: { OwningCompanyCode: 'GLB1' } },
      `Invalid argument for tickets_issued_by_number: OwningCompanyCode: 'GLB1' is outside the configured company scope; allowed: ${PINNED} (omit OwningCompanyCode for all of them). ${NOTHING_SENT}`,
    ],
  ];

  test.each(cases)('%s', async (_what, tool, args, expected) => {
    expect(await refused(s, tool, args)).toBe(expected);
  });

  test('a relative range that ends before it starts shows both resolved dates', async () => {
    expect(await refused(s, 'air_segments_by_date', { DateStart: 'today-3', DateEnd: 'today-5' })).toBe(
      `Invalid argument for air_segments_by_date: DateEnd: 'today-5' (${ymd(-5)}) is before DateStart 'today-3' (${ymd(-3)}); ` +
        `DateEnd must be on or after DateStart. ${NOTHING_SENT}`,
    );
  });

  test('the pinned code itself is a real company of the sandbox', () => {
    expect(s.rt.sandbox!.dataset.companies.map((c) => c.code)).toContain(PINNED);
  });
});

describe('query_report and continue_report refuse what they cannot answer', () => {
  let resultId: string;
  let fields: string[];

  beforeAll(async () => {
    const result = await s.call('air_segments_by_date', { DateStart: '20261110', DateEnd: '20261112' });
    expect(result.isError, textOf(result)).toBeFalsy();
    resultId = (result.structuredContent as { resultId: string }).resultId;
    const records = await readAllRecords(s.client, `reports://results/${resultId}`);
    expect(records.length).toBeGreaterThan(0);
    fields = Object.keys(records[0]);
  });

  test('query_report with an unknown field lists the fields that exist', async () => {
    expect(await refused(s, 'query_report', { resultId, where: [{ field: 'Acount', op: 'eq', value: 'ACME' }] })).toBe(
      `Invalid argument for query_report: where[0].field: 'Acount' is not a field of this result. Did you mean 'Account'? ` +
        `Fields (dot paths reach nested objects and list items): ${fields.join(', ')}. ${NOTHING_SENT}`,
    );
  });

  test('query_report names a limit or offset out of range once, with what to send', async () => {
    expect(await refused(s, 'query_report', { resultId, limit: 5000 })).toBe(
      `${SCHEMA('query_report')}limit: 5000 (number) is not a whole number from 1 to 1000, the most rows or groups ` +
        'one answer holds; page on with offset (nextOffset)',
    );
    expect(await refused(s, 'query_report', { resultId, offset: -1 })).toBe(
      `${SCHEMA('query_report')}offset: -1 (number) is not a whole number of at least 0; pass nextOffset to page`,
    );
  });

  test('query_report and continue_report with an unknown resultId', async () => {
    const unknown =
      "No result 'r_doesNotExist' is held: it is not a resultId this server issued, or it was issued before the " +
      'server restarted. Run the report again for a new resultId.';
    expect(await refused(s, 'query_report', { resultId: 'r_doesNotExist' })).toBe(
      `query_report failed (not_found): ${unknown}`,
    );
    expect(await refused(s, 'continue_report', { resultId: 'r_doesNotExist' })).toBe(
      `continue_report failed (not_found): ${unknown}`,
    );
  });
});

describe('upstream failures are isError results naming the cause', () => {
  let fault: FaultKind | undefined;
  let f: InProcess;
  beforeAll(async () => {
    f = await startInProcess({ sandbox: { faultPlan: () => fault } });
  });
  afterAll(async () => {
    await f?.close();
  });

  async function failing(kind: FaultKind): Promise<string> {
    fault = kind;
    f.rt.sandbox!.resetStats();
    const result = await f.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261110' });
    const text = textOf(result);
    texts.push(text, JSON.stringify(result));
    expect(result.isError, text).toBe(true);
    expect(f.rt.sandbox!.requests.length).toBeGreaterThan(0);
    expect(f.rt.sandbox!.requests.every((r) => r.fault === kind)).toBe(true);
    return text;
  }

  test('HTTP 500 on every request', async () => {
    expect(await failing('500')).toBe(
      'air_segments_by_date failed (server): /AirSegmentsByDate answered HTTP 500. The service failed; this is not caused by the request. ' +
        'The service said: "InternalServerError: An unexpected error occurred while running the report"',
    );
  });

  test('HTTP 401: the text points at REPORTS_API_USERNAME and REPORTS_API_KEY', async () => {
    const text = await failing('401');
    expect(text).toBe(
      'air_segments_by_date failed (auth): The service refused the credentials for /AirSegmentsByDate (HTTP 401). ' +
        "Check REPORTS_API_USERNAME and REPORTS_API_KEY. The local clock agrees with the service's (within 1 s), so the clock is not the cause. " +
        'The service said: "Unauthorized: Authentication failed"',
    );
  });

  test('a truncated JSON body', async () => {
    expect(await failing('truncated')).toMatch(
      /^air_segments_by_date failed \(malformed_response\): \/AirSegmentsByDate answered HTTP 200 with application\/json; charset=utf-8 that is not valid JSON; first 200 characters: '\{"ResponseMetadata"/,
    );
  });

  test('the server keeps serving once the faults stop', async () => {
    fault = undefined;
    const result = await f.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261110' });
    expect(result.isError, textOf(result)).toBeFalsy();
  });
});

test('the API key never appears in any result of this file', () => {
  const key = s.rt.sandbox!.key;
  expect(key.length).toBeGreaterThan(8);
  expect(texts.length).toBeGreaterThan(40);
  for (const text of texts) expect(text).not.toContain(key);
});
