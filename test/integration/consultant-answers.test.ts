/**
 * The answers a consultant reads (issue: money per currency, nested records readable, each
 * report's point first, incomplete stays visible, small things), through a real SDK client
 * against the sandbox. Expected figures are computed here from the sandbox's own records
 * (the dataset, or every record read back through the result's resource pages), never from
 * the answer under test.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openCouponsOfTravellersSql } from '../../src/demo/open-coupons-sql.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllRecords, readPage } from '../helpers/resources.js';

type Rec = Record<string, unknown>;
interface Head {
  resultId: string;
  resourceUri: string;
  complete: boolean;
  totalRecords: number | null;
  fetchedRecords: number;
  summary: { fields: Record<string, Record<string, unknown>> };
  rows: Rec[];
}
interface Query {
  resultId: string;
  complete: boolean;
  matched: number;
  groups?: Array<Rec & { key: Rec; count: number }>;
  rows?: Rec[];
  notes?: string[];
}

const cents = (v: unknown) => Math.round(Number(v) * 100);

let s: InProcess;
let exportDir: string;
beforeAll(async () => {
  exportDir = mkdtempSync(join(tmpdir(), 'answers-export-'));
  s = await startInProcess({ env: { REPORTS_EXPORT_DIR: exportDir } });
});
afterAll(async () => {
  await s?.close();
  rmSync(exportDir, { recursive: true, force: true });
});

async function report(tool: string, args: Rec): Promise<{ head: Head; text: string; records: Rec[] }> {
  const r = await s.call(tool, args);
  expect(r.isError, textOf(r)).toBeFalsy();
  const head = r.structuredContent as unknown as Head;
  return { head, text: textOf(r), records: await readAllRecords(s.client, head.resourceUri) };
}

async function query(args: Rec): Promise<{ out: Query; text: string }> {
  const r = await s.call('query_report', args);
  expect(r.isError, textOf(r)).toBeFalsy();
  return { out: r.structuredContent as unknown as Query, text: textOf(r) };
}

/** Sums of `amount` in cents per key of `keyOf`, from the records themselves. */
function centsBy(records: Rec[], keyOf: (r: Rec) => string, amount: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of records) {
    if (r[amount] === undefined || r[amount] === null || r[amount] === '') continue;
    out.set(keyOf(r), (out.get(keyOf(r)) ?? 0) + cents(r[amount]));
  }
  return out;
}

describe('money is never added across currencies', () => {
  /** Open coupons expiring in 2026: credit values in several currencies, within an account too. */
  const OPEN_COUPONS_2026 = { DateStart: '20260101', DateEnd: '20261231', CouponCodeGroup: 'OPEN', DateTracker: 'E' };

  it('query_report sum of CreditValue per Account is given per Account and CreditCurrency, exactly', async () => {
    const { head, records } = await report('ticket_coupons_by_status_code', OPEN_COUPONS_2026);
    const expected = centsBy(records, (r) => `${r.Account}|${r.CreditCurrency}`, 'CreditValue');
    // The data really mixes currencies within an account: a plain sum per Account would be wrong.
    const accounts = new Set([...expected.keys()].map((k) => k.split('|')[0]));
    expect(expected.size).toBeGreaterThan(accounts.size);

    const { out, text } = await query({
      resultId: head.resultId,
      groupBy: ['Account'],
      aggregates: [{ fn: 'sum', field: 'CreditValue' }],
      limit: 1000,
    });
    const got = new Map(out.groups!.map((g) => [`${g.key.Account}|${g.key.CreditCurrency}`, cents(g.sum_CreditValue)]));
    expect(got).toEqual(expected);
    expect(out.notes).toContain(
      'sum_CreditValue is given per CreditCurrency: CreditCurrency joined the group key, since amounts in different ' +
        'currencies are never added or compared.',
    );
    expect(text).toContain('groups by Account, CreditCurrency');
  });

  it('query_report writes money with its currency minor units; an average of money is rounded to them', async () => {
    const { head, records } = await report('ticket_coupons_by_status_code', OPEN_COUPONS_2026);
    const { out, text } = await query({
      resultId: head.resultId,
      groupBy: ['Account'],
      aggregates: [
        { fn: 'sum', field: 'CreditValue' },
        { fn: 'avg', field: 'CreditValue' },
      ],
      limit: 1000,
    });
    // Minor units as Intl knows them (ISO 4217): none for JPY, two for most.
    const digitsOf = (c: string) =>
      new Intl.NumberFormat('en', { style: 'currency', currency: c }).resolvedOptions().maximumFractionDigits as number;
    const write = (v: number, c: string) =>
      v.toLocaleString('en-US', { minimumFractionDigits: digitsOf(c), maximumFractionDigits: digitsOf(c) });
    const lines = text.split('\n');
    let unevenAverages = 0;
    for (const g of out.groups!) {
      const currency = String(g.key.CreditCurrency);
      const values = records
        .filter(
          (r) => r.Account === g.key.Account && r.CreditCurrency === currency && typeof r.CreditValue === 'number',
        )
        .map((r) => cents(r.CreditValue));
      const total = values.reduce((a, b) => a + b, 0);
      const sum = total / 100;
      const unit = 10 ** (2 - digitsOf(currency));
      const avg = (Math.round(total / values.length / unit) * unit) / 100;
      if (total % values.length !== 0) unevenAverages++;
      expect(g.avg_CreditValue, `${g.key.Account} ${currency}`).toBe(avg);
      const row = `| ${g.key.Account} | ${currency} | ${g.count} | ${write(sum, currency)} | ${write(avg, currency)} |`;
      expect(lines, row).toContain(row);
    }
    // The averages are not all whole cents already: the rounding is really exercised.
    expect(unevenAverages).toBeGreaterThan(0);
  });

  it('hotel stays: RateAmount is a rate per night, never summed; EstimatedCost is totalled per currency', async () => {
    const { head, records, text } = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    // The sandbox writes these codes: HK and GK (passive) hold the room, UC and HX do not.
    const codes = new Set(records.map((r) => String(r.StatusCode)));
    expect([...codes].every((c) => ['HK', 'GK', 'UC', 'HX'].includes(c))).toBe(true);
    const confirmed = records.filter((r) => ['HK', 'GK'].includes(String(r.StatusCode)) && r.IsCancelled !== true);
    expect(confirmed.length).toBeLessThan(records.length);
    // The cost of a stay, in cents: rate per night x nights x rooms.
    const costCents = new Map<string, number>();
    for (const r of confirmed) {
      const c = String(r.CurrencyCode);
      // Each stay's cost is exact to its currency's minor units (whole yen for JPY), as Intl knows them.
      const digits = new Intl.NumberFormat('en', { style: 'currency', currency: c }).resolvedOptions()
        .maximumFractionDigits as number;
      const unit = 10 ** (2 - digits);
      const cost = Math.round((Number(r.RateAmount) * 100 * Number(r.NbrNights) * Number(r.NbrRooms)) / unit) * unit;
      costCents.set(c, (costCents.get(c) ?? 0) + cost);
    }
    const rate = head.summary.fields.RateAmount as {
      sum?: number;
      rate?: string;
      sumByCurrency: { field: string; currencies: number; sums: Array<{ currency: string; sum?: number }> };
    };
    expect(rate.sum).toBeUndefined();
    expect(rate.rate).toBe('per night');
    expect(rate.sumByCurrency.sums.every((c) => c.sum === undefined)).toBe(true);
    expect(text).toMatch(
      /^- RateAmount \(a rate per night, not spend\): range per CurrencyCode \(never compared across currencies\): [A-Z]{3} [\d,.]+ to [\d,.]+, /m,
    );
    const cost = head.summary.fields.EstimatedCost as {
      sumByCurrency: {
        field: string;
        currencies: number;
        notConfirmed: number;
        sums: Array<{ currency: string; sum: number; confirmedSum: number }>;
      };
    };
    expect(cost.sumByCurrency.field).toBe('EstimatedCostCurrency');
    expect(cost.sumByCurrency.currencies).toBe(costCents.size);
    expect(cost.sumByCurrency.notConfirmed).toBe(records.length - confirmed.length);
    for (const { currency, sum, confirmedSum } of cost.sumByCurrency.sums) {
      // JPY has no minor unit: its costs are whole yen. A stay not confirmed has no cost, so
      // the sum over every state is the confirmed one.
      expect([cents(sum), cents(confirmedSum)], currency).toEqual([costCents.get(currency), costCents.get(currency)]);
    }
    expect(text).toMatch(
      new RegExp(
        '^- EstimatedCost: confirmed sum per EstimatedCostCurrency, never added across currencies \\(in brackets ' +
          'where it differs: over every state, \\d+ not confirmed\\): [A-Z]{3} [\\d,.]+, [A-Z]{3} [\\d,.]+ ' +
          `and ${costCents.size - 2} more currencies`,
        'm',
      ),
    );
    const unconfirmed = records.filter((r) => !confirmed.includes(r));
    for (const r of unconfirmed) expect([r.EstimatedCost, String(r.CostBasis).slice(0, 6)]).toEqual([null, 'none: ']);
  });

  it("FOPFare of coupons: a ticket's fare is counted once per ticket, with the words that no currency is stated", async () => {
    const { head, records, text } = await report('ticket_coupons_by_status_code', {
      DateStart: '20260101',
      DateEnd: '20261231',
      CouponCodeGroup: 'USED',
      DateTracker: 'T',
    });
    const fareOf = new Map<unknown, number>();
    for (const r of records) if (!fareOf.has(r.TktNumber)) fareOf.set(r.TktNumber, Math.round(Number(r.FOPFare) * 100));
    expect(fareOf.size).toBeLessThan(records.length);
    const fare = head.summary.fields.FOPFare as { sum: number; currencyNote: string };
    expect(cents(fare.sum)).toBe([...fareOf.values()].reduce((a, b) => a + b, 0));
    expect(fare.currencyNote).toBe('currency not stated by the service');
    expect(text).toMatch(
      /^- FOPFare: sum [\d,.]+ \(once per TktNumber: the amount is the ticket's, repeated on each of its coupons\); [\d,.]+ to [\d,.]+ \(currency not stated by the service\)$/m,
    );
    const { out } = await query({
      resultId: head.resultId,
      groupBy: ['Account'],
      aggregates: [
        { fn: 'sum', field: 'FOPFare' },
        { fn: 'max', field: 'FOPFare' },
      ],
    });
    expect(out.groups![0].currency_FOPFare).toBe('currency not stated by the service');
    for (const g of out.groups!) {
      const mine = records.filter((r) => r.Account === g.key.Account);
      const once = new Map(mine.map((r) => [r.TktNumber, Math.round(Number(r.FOPFare) * 100)]));
      expect(cents(g.sum_FOPFare as number), String(g.key.Account)).toBe([...once.values()].reduce((a, b) => a + b, 0));
      expect(g.max_FOPFare).toBe(Math.max(...mine.map((r) => Number(r.FOPFare))));
    }
    expect(out.notes).toContain(
      "sum_FOPFare counts each TktNumber once: FOPFare is the ticket's, repeated on each of its coupons.",
    );
  });
});

describe('money inside lists and in unpublished records', () => {
  it("a PNR's hotel rates cannot be summed across the list's currencies: unnest is asked for", async () => {
    const ds = s.rt.sandbox!.dataset;
    const booking = [...ds.bookings].sort((a, b) => b.hotels.length - a.hotels.length)[0];
    const { head } = await report('pnr_segments', { RecordLocator: booking.recordLocator });
    const r = await s.call('query_report', {
      resultId: head.resultId,
      aggregates: [{ fn: 'sum', field: 'Segments.HotelSegments.Rate' }],
    });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain(
      "aggregates[0].field: 'Segments.HotelSegments.Rate' is money inside the list Segments.HotelSegments, whose " +
        'items may be in different currencies; add "unnest": "Segments.HotelSegments" to total it per currency',
    );
    const { out } = await query({
      resultId: head.resultId,
      unnest: 'Segments.HotelSegments',
      aggregates: [{ fn: 'sum', field: 'Rate' }],
    });
    const expected = new Map<string, number>();
    for (const h of booking.hotels)
      expected.set(h.currency, (expected.get(h.currency) ?? 0) + cents(h.rate.toFixed(2)));
    expect(new Map(out.groups!.map((g) => [String(g.key.Currency), cents(g.sum_Rate)]))).toEqual(expected);
  });

  it('tickets by number: the catalog names FOPCurrency for the fares of this unpublished record', async () => {
    const ds = s.rt.sandbox!.dataset;
    const numbers = ds.tickets.slice(0, 40).map((t) => t.number);
    const { head, records } = await report('tickets_issued_by_number', {
      parameters: { TicketNumber: numbers.join(',') },
    });
    const { out } = await query({ resultId: head.resultId, aggregates: [{ fn: 'sum', field: 'BaseFare' }] });
    expect(out.notes).toContain(
      'sum_BaseFare is given per FOPCurrency: FOPCurrency joined the group key, since amounts in different ' +
        'currencies are never added or compared.',
    );
    const expected = new Map<string, number>();
    for (const r of records) {
      const k = String(r.FOPCurrency);
      expected.set(k, (expected.get(k) ?? 0) + cents(r.BaseFare));
    }
    expect(new Map(out.groups!.map((g) => [String(g.key.FOPCurrency), cents(g.sum_BaseFare)]))).toEqual(expected);
  });
});

describe('nested records are readable in the text', () => {
  it("a PNR's itinerary: one line per air segment with its carrier, flight and route", async () => {
    const ds = s.rt.sandbox!.dataset;
    const booking = [...ds.bookings].sort((a, b) => b.air.length - a.air.length)[0];
    const { text } = await report('pnr_segments', { RecordLocator: booking.recordLocator });
    expect(text).not.toMatch(/\[\d+ items?\]/);
    expect(text).toContain(`  ↳ Segments.AirSegments of ${booking.recordLocator}: ${booking.air.length} items`);
    const lines = text.split('\n').filter((l) => l.startsWith('  | '));
    for (const seg of booking.air) {
      const line = lines.find(
        (l) =>
          l.includes(`| ${seg.carrier.code} |`) &&
          l.includes(`| ${seg.flightNbr} |`) &&
          l.startsWith(`  | ${seg.airNbr} |`),
      );
      expect(line, `segment ${seg.airNbr}`).toBeDefined();
      expect(line).toContain(`| ${seg.from.code} | ${seg.to.code} |`);
    }
  });

  it('a field named in fields is shown whole, not cut at a cell width', async () => {
    const ds = s.rt.sandbox!.dataset;
    const booking = [...ds.bookings].sort((a, b) => b.segments.length - a.segments.length)[0];
    const { records, text, head } = await report('booking_details', {
      RecordLocator: booking.recordLocator,
      LoadOptions: 'Itinerary',
      fields: ['RecordLocator', 'ItineraryFormatted'],
    });
    const whole = String(records[0].ItineraryFormatted).replace(/\s+/g, ' ');
    expect(whole.length).toBeGreaterThan(200);
    expect(text).toContain(whole.trim());
    const q = await query({ resultId: head.resultId, fields: ['ItineraryFormatted'] });
    expect(q.text).toContain(whole.trim());
  });
});

describe('incomplete stays visible in every answer derived from the result', () => {
  it('query_report, export_report and resource pages say how many of how many records, and what completes it', async () => {
    const { head } = await report('air_segments_by_date', {
      DateStart: '20261101',
      DateEnd: '20261130',
      maxRecords: 50,
    });
    expect(head.complete).toBe(false);
    const total = head.totalRecords!;
    expect(total).toBeGreaterThan(50);
    const line =
      `INCOMPLETE: this covers 50 of ${total.toLocaleString('en-US')} records of the report; ` +
      `continue_report {"resultId":"${head.resultId}"} fetches the ${(total - 50).toLocaleString('en-US')} missing.`;
    const { out, text } = await query({ resultId: head.resultId, groupBy: ['Account'] });
    expect(out.complete).toBe(false);
    expect(out.notes).toContain(line);
    expect(text.split('\n')).toContain(`Note: ${line}`);

    const page = (await readPage(s.client, head.resourceUri)) as unknown as { complete: boolean; incomplete: string };
    expect(page.complete).toBe(false);
    expect(page.incomplete).toBe(line);

    const exported = await s.call('export_report', { resultId: head.resultId, format: 'csv' });
    const ex = exported.structuredContent as { complete: boolean; notes: string[] };
    expect(ex.complete).toBe(false);
    expect(ex.notes[0]).toBe(`${line} The file holds only what was fetched.`);
  });
});

describe("each report's point first", () => {
  it('failed submissions list the locator, time, message, event, account and raw response', async () => {
    const { text, head } = await report('check_failed_submissions', {
      LogDateStart: '20260801',
      LogDateEnd: '20261115',
    });
    expect(text).toContain('rows (columns: RecordLocator, LogDateTime, LogMessage, EventType, Account, RawResponse):');
    expect(Object.keys(head.rows[0]).slice(0, 3)).toEqual(['LogCheckId', 'RecordLocator', 'PNRCreationDate']);
    // The summary leads with what went wrong; identifiers come last.
    const order = Object.keys(head.summary.fields);
    expect(order.slice(0, 3)).toEqual(['EventType', 'Account', 'LogMessage']);
    expect(order.indexOf('ServiceRef')).toBeGreaterThan(order.indexOf('OwningConsultant'));
    expect(text).not.toContain('"op":"eq","value"');
    expect(text).toContain(
      `Next, failures per event type and message: query_report {"resultId":"${head.resultId}","groupBy":["EventType","LogMessage"]}`,
    );
  });

  it('hotel stays show traveller, account, property, city, arrival, nights and rate with its currency', async () => {
    const { text } = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    expect(text).toContain(
      '| Passenger | Account | PropertyName | CityName | ArrivalDate | NbrNights | RateAmount | CurrencyCode | StatusCode | RecordLocator |',
    );
  });
});

describe('small things', () => {
  it('a lookup that finds nothing says so in words, without a Next line', async () => {
    const r = await s.call('pnr_segments', { RecordLocator: 'ABC123' });
    expect(textOf(r)).toBe(
      'No booking ABC123 found at the service (demo data): pnr_segments by RecordLocator. ' +
        'Check the value, or search by another field.',
    );
  });

  it('an export whose filter matches nothing writes no file and names the filter and the values there are', async () => {
    const { head, records } = await report('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261107' });
    const before = readdirSync(exportDir).length;
    const r = await s.call('export_report', {
      resultId: head.resultId,
      format: 'xlsx',
      where: [{ field: 'Account', op: 'eq', value: 'ACMEE' }],
    });
    expect(r.isError).toBe(true);
    const accounts = [...new Set(records.map((x) => String(x.Account)))].sort();
    expect(accounts.length).toBeLessThanOrEqual(20);
    expect(textOf(r)).toContain(
      `where[0]: 'Account eq "ACMEE"' matches none of the ${records.length.toLocaleString('en-US')} records, so no file was written. ` +
        `Account holds: ${accounts.map((a) => `'${a}'`).join(', ')}.`,
    );
    expect(readdirSync(exportDir).length).toBe(before);
  });

  it('a value cut in a text table carries its length', async () => {
    const ds = s.rt.sandbox!.dataset;
    const booking = [...ds.bookings].sort((a, b) => b.air.length - a.air.length)[0];
    const { text } = await report('pnr_segments', { RecordLocator: booking.recordLocator });
    // A ticket's coupons, too long for their cell.
    expect(text).toMatch(/…\[cut: [\d,]+ characters in all\] \|/);
    expect(text).not.toMatch(/[^\]]… \|/);
  });
});

describe('unnest: one row per list item', () => {
  it('air segments of all bookings travelling this week, per carrier, exactly', async () => {
    const { head, records } = await report('passenger_locations_by_routing', {
      DateStart: '20261116',
      DateEnd: '20261122',
      ToRegionCode: 'EUR',
    });
    const expected = new Map<string, number>();
    for (const r of records) {
      for (const seg of (r.Itinerary as Rec[] | undefined) ?? []) {
        if (seg.SegmentType !== 'AIR') continue;
        expected.set(String(seg.OperatorCode), (expected.get(String(seg.OperatorCode)) ?? 0) + 1);
      }
    }
    expect(expected.size).toBeGreaterThan(1);
    const { out, text } = await query({
      resultId: head.resultId,
      unnest: 'Itinerary',
      where: [{ field: 'SegmentType', op: 'eq', value: 'AIR' }],
      groupBy: ['OperatorCode'],
      limit: 1000,
    });
    expect(new Map(out.groups!.map((g) => [String(g.key.OperatorCode), g.count]))).toEqual(expected);
    expect(text).toContain(
      `Itinerary items (one row each) of ${records.length.toLocaleString('en-US')} held records match`,
    );
    // Each row carries its booking's fields: filter segments by the booking's account.
    const account = String(records[0].Account);
    const rows = await query({
      resultId: head.resultId,
      unnest: 'Itinerary',
      where: [{ field: 'Account', op: 'eq', value: account }],
    });
    const segments = records
      .filter((r) => r.Account === account)
      .reduce((n, r) => n + ((r.Itinerary as Rec[] | undefined)?.length ?? 0), 0);
    expect(rows.out.matched).toBe(segments);
  });

  it('unnest of a field that is not a list names the lists there are', async () => {
    const { head } = await report('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261102' });
    const r = await s.call('query_report', { resultId: head.resultId, unnest: 'Account' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("unnest: 'Account' is not a list in this result's records. Lists: none.");
  });
});

describe("the tour's question across two reports", () => {
  it('who in Singapore holds open coupons: each traveller counts the coupons naming them on their bookings', async () => {
    const sin = await report('travellers_at', { place: 'SIN', from: 'today', to: 'today+6' });
    const coupons = await report('ticket_coupons_by_status_code', {
      DateStart: 'today',
      DateEnd: 'today+365',
      CouponCodeGroup: 'OPEN',
      DateTracker: 'E',
    });
    const tables = [sin, coupons].map((r) => (r.head as Head & { table: string }).table);
    const r = await s.call('sql_query', { sql: openCouponsOfTravellersSql(tables[0], tables[1]) });
    expect(r.isError, textOf(r)).toBeFalsy();
    const rows = (r.structuredContent as { rows: Rec[] }).rows;

    // From the records themselves: a traveller's coupons are on one of their bookings and name them.
    const expected = new Map<string, { coupons: number; tickets: number }>();
    let othersOnTheirBookings = 0;
    for (const t of sin.records) {
      const bookings = String(t.RecordLocator).split(', ');
      const onBookings = coupons.records.filter((c) => bookings.includes(String(c.RecordLocator)));
      const theirs = onBookings.filter((c) => c.Passenger === t.Traveller);
      if (onBookings.length > theirs.length) othersOnTheirBookings++;
      if (theirs.length === 0) continue;
      const tickets = new Set(theirs.map((c) => c.TktNumber)).size;
      expected.set(`${t.Traveller}|${t.Status}|${t.RecordLocator}`, { coupons: theirs.length, tickets });
    }
    const got = new Map(
      rows.map((x) => [
        `${x.Traveller}|${x.Status}|${x.RecordLocator}`,
        { coupons: Number(x.open_coupons), tickets: Number(x.tickets) },
      ]),
    );
    expect(got).toEqual(expected);
    expect(expected.size).toBeGreaterThan(0);
    // Co-travellers' coupons sit on the same bookings: the Passenger condition is exercised.
    expect(othersOnTheirBookings).toBeGreaterThan(0);
  });
});
