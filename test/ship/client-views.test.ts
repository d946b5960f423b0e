/**
 * What each kind of client shows the model (README, "What a report tool returns"): at default
 * settings a report tool's structuredContent serialises to at most 32,000 characters and its
 * text to at most 16,000. Swept over all 22 report tools against the sandbox with broad
 * queries (wide date windows, the fullest booking), printing the largest of each.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSACTIONS } from '../../src/catalog/transactions.js';
import type { Dataset } from '../../src/sandbox/service.js';
import { outputChecks } from '../helpers/checked-client.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';

const STRUCTURED_LIMIT = 32_000;
const TEXT_LIMIT = 16_000;
const DAY_MS = 86_400_000;

let s: InProcess;
let ds: Dataset;
beforeAll(async () => {
  // Default settings; only the data is anchored on today, so relative windows find records.
  s = await startInProcess({ sandbox: { dataNow: new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS) } });
  ds = s.rt.sandbox!.dataset;
});
afterAll(async () => s?.close());

/** The booking with the most segments, tickets and notes: the largest single-booking answer. */
function fullestBooking() {
  const weight = (b: Dataset['bookings'][number]) => b.air.length + b.hotels.length + b.tickets.length;
  return [...ds.bookings].sort((a, b) => weight(b) - weight(a))[0];
}

/** Broad arguments per tool: the widest windows and the biggest selections the tool takes. */
function broadArgs(): Record<string, Record<string, unknown>> {
  const booking = fullestBooking();
  const company = ds.companies[0];
  const year = { DateStart: 'today-365', DateEnd: 'today+365' };
  return {
    booking_details: { RecordLocator: booking.recordLocator },
    find_bookings: { parameters: { DateStart: 'today-365', DateEnd: 'today' } },
    car_segments_by_date: { ...year, DateSearchType: 'T' },
    air_segments_by_date: { ...year, DateSearchType: 'T' },
    pnr_segments: { RecordLocator: booking.recordLocator },
    ticket_coupons_by_status_code: { ...year, CouponCodeGroup: 'USED', DateTracker: 'T' },
    tickets_issued_by_number: {
      parameters: {
        TicketNumber: ds.tickets
          .slice(0, 60)
          .map((t) => t.number)
          .join(','),
      },
    },
    check_failed_submissions: { LogDateStart: 'today-365', LogDateEnd: 'today' },
    qlog_forward: { CompanyID: company.id, LogDateStart: 'today-365', LogDateEnd: 'today' },
    qc_comments_for_consultant: year,
    distributor_bookings_by_airline_class: {
      DistributorID: company.id,
      IssueDateStart: 'today-365',
      IssueDateEnd: 'today',
      IncludeItinerary: true,
    },
    hotel_segments: { ...year, DateSearchType: 'A', WithNotepad: '1' },
    passenger_arrivals: { ArrivalDateStart: 'today-365', ArrivalDateEnd: 'today+365' },
    partner_forwarding_logs: { LogDateStart: 'today-365', LogDateEnd: 'today' },
    passenger_locations_by_routing: { ...year, ToRegionCode: 'EUR' },
    problematic_segments: { DepartureDateStart: 'today-365', DepartureDateEnd: 'today+365' },
    bookings_with_active_segments: { TravelDateStart: 'today', TravelDateEnd: 'today+365' },
    passenger_air_segments_with_max_traveller_flag: {
      Account: ds.accounts.map((a) => a.code),
      DepartureDateStart: 'today-365',
      DepartureDateEnd: 'today+365',
    },
    ticket_coupons_issued: { IssueDateStart: 'today-365', IssueDateEnd: 'today' },
    app_users_activity: { DateStart: 'today-365', DateEnd: 'today' },
    hotel_segment_counts_per_location: year,
    car_segment_counts_per_account_by_vendor: { ...year, VendorCode: ds.carSegments[0].vendor.code },
  };
}

interface Measured {
  tool: string;
  structured: number;
  text: number;
  fetched: number;
}
const measured: Measured[] = [];

describe('client views at default settings, all 22 report tools', () => {
  it('has broad arguments for every report tool in the catalog', () => {
    expect(Object.keys(broadArgs()).sort()).toEqual(TRANSACTIONS.map((t) => t.tool).sort());
  });

  it.each(TRANSACTIONS.map((t) => t.tool))(
    '%s: structuredContent <= 32,000 and text <= 16,000 characters',
    async (tool) => {
      const result = (await s.call(tool, broadArgs()[tool])) as CallToolResult;
      expect(result.isError, textOf(result)).toBeFalsy();
      const sc = result.structuredContent as { fetchedRecords: number; rows: unknown[] };
      expect(sc.fetchedRecords, tool).toBeGreaterThan(0);
      const m = {
        tool,
        structured: JSON.stringify(sc).length,
        text: textOf(result).length,
        fetched: sc.fetchedRecords,
      };
      measured.push(m);
      expect(m.structured, tool).toBeLessThanOrEqual(STRUCTURED_LIMIT);
      expect(m.text, tool).toBeLessThanOrEqual(TEXT_LIMIT);
    },
  );

  it('prints the largest of each; every result passed the Ajv 2020-12 output check', () => {
    expect(measured).toHaveLength(22);
    const largest = (key: 'structured' | 'text') => measured.reduce((a, b) => (b[key] > a[key] ? b : a));
    const sc = largest('structured');
    const text = largest('text');
    process.stderr.write(
      `client views: largest structuredContent ${sc.structured} characters (${sc.tool}, ${sc.fetched} records); ` +
        `largest text ${text.text} characters (${text.tool}, ${text.fetched} records)\n`,
    );
    for (const m of measured) expect(outputChecks.get(m.tool), m.tool).toBeGreaterThanOrEqual(1);
  });
});
