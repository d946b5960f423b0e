/**
 * Seven questions consultants ask, each answered through the BUILT server over stdio in demo
 * mode, as an assistant would: the report tool, then query_report or export_report. The
 * numbers are checked against the sandbox's own records, read back whole through the
 * result's resource pages and counted here, never against a copy of the answer. Each case
 * also checks that the text alone (what Claude Desktop shows the model) answers it, and
 * prints the calls and the sizes of text and structuredContent.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_SERVER as SERVER } from '../helpers/built-server.js';
import { CheckedClient } from '../helpers/checked-client.js';
import { readAllRecords } from '../helpers/resources.js';
import { closeStdio } from '../helpers/stdio.js';

type Rec = Record<string, unknown>;

let client: CheckedClient;
let transport: StdioClientTransport;
let exportDir: string;
const sizes: string[] = [];

beforeAll(async () => {
  exportDir = mkdtempSync(join(tmpdir(), 'answers-stdio-'));
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('REPORTS_')) env[k] = v;
  transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, '--demo'],
    // Held results in memory only: a test never writes into the user's cache folder.
    env: { ...env, REPORTS_TIMEZONE: 'UTC', REPORTS_EXPORT_DIR: exportDir, REPORTS_RESULTS_DIR: 'off' },
    stderr: 'pipe',
  });
  client = new CheckedClient({ name: 'answers', version: '1.0.0' });
  await client.connect(transport);
});

afterAll(async () => {
  await closeStdio(client, transport?.pid ?? undefined);
  rmSync(exportDir, { recursive: true, force: true });
  console.error(`[answers] question | calls | text chars | structuredContent chars\n${sizes.join('\n')}`);
});

interface Asked {
  calls: string[];
  text: number;
  structured: number;
}

function newAsk(): Asked {
  return { calls: [], text: 0, structured: 0 };
}

async function call(asked: Asked, name: string, args: Rec): Promise<{ sc: Rec; text: string }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = r.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');
  expect(r.isError, text).toBeFalsy();
  asked.calls.push(name);
  asked.text += text.length;
  asked.structured += JSON.stringify(r.structuredContent ?? {}).length;
  return { sc: r.structuredContent as Rec, text };
}

function done(question: string, asked: Asked): void {
  sizes.push(`${question} | ${asked.calls.join(' + ')} | ${asked.text} | ${asked.structured}`);
}

/** YYYYMMDD of today + days (UTC, the server's REPORTS_TIMEZONE here). */
function day(offset: number, base = new Date()): string {
  const d = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate() + offset));
  return d.toISOString().slice(0, 10).replace(/-/g, '');
}

function monthBounds(monthsFromNow: number): [string, string] {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsFromNow, 1));
  const last = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + monthsFromNow + 1, 0));
  const f = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');
  return [f(first), f(last)];
}

const cents = (v: unknown) => Math.round(Number(v) * 100);

/** Sums in cents (or counts, with no amount) per key, from the records. */
function tally(records: Rec[], key: (r: Rec) => string, amount?: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of records) {
    const add = amount === undefined ? 1 : r[amount] === undefined || r[amount] === '' ? 0 : cents(r[amount]);
    out.set(key(r), (out.get(key(r)) ?? 0) + add);
  }
  return out;
}

/** The table cell text of a number as the text writes it in a group row. */
/** Cents as the text writes money: the currency's minor units (Intl's ISO 4217 list), thousands. */
const money = (c: number, currency: string) => {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions()
    .maximumFractionDigits as number;
  return (c / 100).toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
};

describe('seven consultant questions, over stdio in demo mode', () => {
  it('which travellers fly into Singapore this week', async () => {
    const asked = newAsk();
    const { sc, text } = await call(asked, 'passenger_locations_by_routing', {
      ToAirportCode: 'SIN',
      DateStart: 'today',
      DateEnd: 'today+6',
      rowLimit: 100,
    });
    const records = await readAllRecords(client, String(sc.resourceUri));
    expect(records.length).toBeGreaterThan(0);
    expect(sc.complete).toBe(true);
    for (const r of records) expect(r.OffPoint).toBe('SIN');
    // The text alone names every traveller with their booking.
    for (const r of records) {
      const line = text.split('\n').find((l) => l.includes(`| ${r.RecordLocator} |`));
      expect(line, String(r.RecordLocator)).toContain(String(r.PaxList));
    }
    done('travellers flying into SIN this week', asked);
  });

  it('open coupons expiring next month per account, with credit value per currency', async () => {
    const asked = newAsk();
    const [start, end] = monthBounds(1);
    const { sc } = await call(asked, 'ticket_coupons_by_status_code', {
      CouponCodeGroup: 'OPEN',
      DateTracker: 'E',
      DateStart: start,
      DateEnd: end,
    });
    const records = await readAllRecords(client, String(sc.resourceUri));
    expect(records.length).toBeGreaterThan(0);
    const q = await call(asked, 'query_report', {
      resultId: sc.resultId,
      groupBy: ['Account'],
      aggregates: [{ fn: 'sum', field: 'CreditValue' }],
      limit: 1000,
    });
    const expected = tally(records, (r) => `${r.Account}|${r.CreditCurrency}`, 'CreditValue');
    const counts = tally(records, (r) => `${r.Account}|${r.CreditCurrency}`);
    const groups = q.sc.groups as Array<Rec & { key: Rec; count: number }>;
    expect(new Map(groups.map((g) => [`${g.key.Account}|${g.key.CreditCurrency}`, cents(g.sum_CreditValue)]))).toEqual(
      expected,
    );
    // The text alone: one line per account and currency with its coupons and credit.
    for (const [key, c] of expected) {
      const [account, currency] = key.split('|');
      expect(q.text).toContain(`| ${account} | ${currency} | ${counts.get(key)} | ${money(c, currency)} |`);
    }
    done('open coupons expiring next month per account, credit per currency', asked);
  });

  it("what went wrong in yesterday's failed submissions", async () => {
    const asked = newAsk();
    const { sc, text } = await call(asked, 'check_failed_submissions', {
      LogDateStart: 'yesterday',
      LogDateEnd: 'yesterday',
    });
    const records = await readAllRecords(client, String(sc.resourceUri));
    expect(records.length).toBeGreaterThan(0);
    for (const r of records)
      expect(String(r.LogDateTime).slice(0, 10)).toBe(day(-1).replace(/(\d{4})(\d\d)(\d\d)/, '$1-$2-$3'));
    // The text alone shows each failure's message, event and the service's raw response.
    for (const r of records) {
      const line = text
        .split('\n')
        .find((l) => l.startsWith(`| ${r.RecordLocator} |`) && l.includes(String(r.LogMessage)));
      expect(line, String(r.RecordLocator)).toContain(`| ${r.EventType} | ${r.Account} |`);
      expect(line).toContain(String(r.RawResponse));
    }
    const q = await call(asked, 'query_report', { resultId: sc.resultId, groupBy: ['LogMessage'] });
    const expected = tally(records, (r) => String(r.LogMessage));
    const groups = q.sc.groups as Array<{ key: Rec; count: number }>;
    expect(new Map(groups.map((g) => [String(g.key.LogMessage), g.count]))).toEqual(expected);
    done("yesterday's failed submissions", asked);
  });

  it('hotel nights per account last month, and the chains', async () => {
    const asked = newAsk();
    const [start, end] = monthBounds(-1);
    const { sc } = await call(asked, 'hotel_segments', { DateStart: start, DateEnd: end });
    const records = await readAllRecords(client, String(sc.resourceUri));
    expect(records.length).toBeGreaterThan(0);
    const perAccount = await call(asked, 'query_report', {
      resultId: sc.resultId,
      groupBy: ['Account'],
      aggregates: [{ fn: 'sum', field: 'NbrNights' }],
      limit: 1000,
    });
    const nights = tally(records, (r) => String(r.Account), 'NbrNights');
    const groups = perAccount.sc.groups as Array<Rec & { key: Rec }>;
    expect(new Map(groups.map((g) => [String(g.key.Account), cents(g.sum_NbrNights)]))).toEqual(nights);
    const chains = await call(asked, 'query_report', {
      resultId: sc.resultId,
      groupBy: ['VendorCode'],
      aggregates: [{ fn: 'sum', field: 'NbrNights' }],
      limit: 1000,
    });
    const perChain = tally(records, (r) => String(r.VendorCode), 'NbrNights');
    for (const [chain, c] of perChain)
      expect(chains.text).toMatch(new RegExp(`\\| ${chain} \\| \\d+ \\| ${c / 100} \\|`));
    done('hotel nights per account last month and the chains', asked);
  });

  it("a PNR's full itinerary, in the text", async () => {
    const asked = newAsk();
    // A booking travelling this week, as a consultant would pick one.
    const { sc: week } = await call(asked, 'air_segments_by_date', { DateStart: 'today', DateEnd: 'today+6' });
    const locator = String((week.rows as Rec[])[0].RecordLocator);
    const { sc, text } = await call(asked, 'pnr_segments', { RecordLocator: locator });
    const [pnr] = await readAllRecords(client, String(sc.resourceUri));
    const segments = pnr.Segments as Record<string, Rec[]>;
    expect(segments.AirSegments.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/\[\d+ items?\]/);
    const lines = text.split('\n');
    for (const seg of segments.AirSegments) {
      const line = lines.find((l) =>
        l.startsWith(`  | ${seg.AirSegmentNbr} | ${seg.SegmentStatus} | ${seg.DepartureDate} |`),
      );
      expect(line, `segment ${seg.AirSegmentNbr}`).toContain(
        `| ${seg.CarrierCode} | ${seg.BoardPoint} | ${seg.OffPoint} |`,
      );
    }
    for (const hotel of segments.HotelSegments ?? []) expect(text).toContain(String(hotel.PropertyName));
    done("PNR's full itinerary (text)", asked);
  });

  it("export last month's air segments for one account to Excel", async () => {
    const asked = newAsk();
    const [start, end] = monthBounds(-1);
    const { sc } = await call(asked, 'air_segments_by_date', { DateStart: start, DateEnd: end });
    const records = await readAllRecords(client, String(sc.resourceUri));
    const account = String(records[0].Account);
    const mine = records.filter((r) => r.Account === account);
    const ex = await call(asked, 'export_report', {
      resultId: sc.resultId,
      format: 'xlsx',
      where: [{ field: 'Account', op: 'eq', value: account }],
    });
    expect(ex.sc.rows).toBe(mine.length);
    expect(readdirSync(exportDir)).toContain(ex.sc.fileName);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(String(ex.sc.path));
    const sheet = book.worksheets[0];
    expect(sheet.rowCount).toBe(mine.length + 1);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const locatorColumn = header.indexOf('RecordLocator') + 1;
    const locators = Array.from({ length: mine.length }, (_, i) =>
      String(sheet.getRow(i + 2).getCell(locatorColumn).value),
    );
    expect(locators).toEqual(mine.map((r) => String(r.RecordLocator)));
    expect(ex.text).toContain(`Exported ${mine.length.toLocaleString('en-US')} records`);
    done("last month's air segments of one account to Excel", asked);
  });

  it('all air segments of all bookings travelling this week, per carrier (unnest)', async () => {
    const asked = newAsk();
    const { sc } = await call(asked, 'passenger_locations_by_routing', {
      DateStart: 'today',
      DateEnd: 'today+6',
      ToRegionCode: 'EUR',
    });
    const records = await readAllRecords(client, String(sc.resourceUri));
    const q = await call(asked, 'query_report', {
      resultId: sc.resultId,
      unnest: 'Itinerary',
      where: [{ field: 'SegmentType', op: 'eq', value: 'AIR' }],
      groupBy: ['OperatorCode'],
      limit: 1000,
    });
    const expected = new Map<string, number>();
    for (const r of records)
      for (const seg of (r.Itinerary as Rec[] | undefined) ?? [])
        if (seg.SegmentType === 'AIR')
          expected.set(String(seg.OperatorCode), (expected.get(String(seg.OperatorCode)) ?? 0) + 1);
    expect(expected.size).toBeGreaterThan(1);
    const groups = q.sc.groups as Array<{ key: Rec; count: number }>;
    expect(new Map(groups.map((g) => [String(g.key.OperatorCode), g.count]))).toEqual(expected);
    for (const [carrier, n] of expected) expect(q.text).toContain(`| ${carrier} | ${n} |`);
    done('air segments travelling this week per carrier (unnest)', asked);
  });
});

/** The GDS codes the sandbox writes, and which of them hold the seat, car or room. */
const CONFIRMED = new Set(['HK', 'TK', 'GK']);

describe('questions whose numbers must mean what a travel professional means, over stdio', () => {
  it('air segments travelling this week, per carrier: confirmed segments only', async () => {
    const asked = newAsk();
    const { sc, text } = await call(asked, 'air_segments_by_date', { DateStart: day(-6), DateEnd: day(0) });
    const records = await readAllRecords(client, String(sc.resourceUri));
    const confirmed = records.filter((r) => CONFIRMED.has(String(r.SegmentStatus)));
    expect(confirmed.length).toBeLessThan(records.length);
    expect(text).toContain(`Segment states: ${confirmed.length} of ${records.length} segments confirmed; `);
    const q = await call(asked, 'query_report', {
      resultId: sc.resultId,
      where: [{ field: 'SegmentState', op: 'eq', value: 'confirmed' }],
      groupBy: ['CarrierCode'],
      limit: 1000,
    });
    const expected = tally(confirmed, (r) => String(r.CarrierCode));
    const groups = q.sc.groups as Array<{ key: Rec; count: number }>;
    expect(new Map(groups.map((g) => [String(g.key.CarrierCode), g.count]))).toEqual(expected);
    for (const [carrier, n] of expected) expect(q.text).toContain(`| ${carrier} | ${n} |`);
    done('air segments travelling this week per carrier (confirmed)', asked);
  });

  it('car rental cost per vendor last month, per currency: rate x periods, never the rate summed', async () => {
    const asked = newAsk();
    const [start, end] = monthBounds(-1);
    const { sc, text } = await call(asked, 'car_segments_by_date', { DateStart: start, DateEnd: end });
    expect(text).toMatch(/^- RateAmount \(a rate per rental period/m);
    const records = await readAllRecords(client, String(sc.resourceUri));
    const PERIOD: Record<string, number> = { DAILY: 1, WEEKLY: 7, MONTHLY: 30 };
    const expected = new Map<string, number>();
    for (const r of records) {
      const word = /^(DAILY|WEEKLY|MONTHLY) RATE /.exec(String(r.ServiceInformation))?.[1];
      if (!CONFIRMED.has(String(r.SegmentStatus)) || !word) continue;
      const days = Math.max(
        1,
        Math.ceil((Date.parse(String(r.DropOffDate)) - Date.parse(String(r.PickUpDate))) / 864e5),
      );
      const digits = new Intl.NumberFormat('en', {
        style: 'currency',
        currency: String(r.CurrencyCode),
      }).resolvedOptions().maximumFractionDigits as number;
      const cost = Math.round(((Number(r.RateAmount) * days) / PERIOD[word]) * 10 ** digits) / 10 ** digits;
      const key = `${r.VendorName}|${r.CurrencyCode}`;
      expected.set(key, (expected.get(key) ?? 0) + cents(cost));
    }
    const q = await call(asked, 'query_report', {
      resultId: sc.resultId,
      where: [{ field: 'SegmentState', op: 'eq', value: 'confirmed' }],
      groupBy: ['VendorName'],
      aggregates: [{ fn: 'sum', field: 'EstimatedCost' }],
      limit: 1000,
    });
    const groups = (q.sc.groups as Array<Rec & { key: Rec }>).filter((g) => g.sum_EstimatedCost !== null);
    const got = new Map(
      groups.map((g) => [`${g.key.VendorName}|${g.key.EstimatedCostCurrency}`, cents(g.sum_EstimatedCost)]),
    );
    expect(got).toEqual(expected);
    done('car rental cost per vendor last month per currency', asked);
  });

  it('hotel nights per account last month: the nights in the month, and the stays it leaves out', async () => {
    const asked = newAsk();
    const [start, end] = monthBounds(-1);
    const { sc } = await call(asked, 'hotel_segments', { DateStart: start, DateEnd: end });
    const records = await readAllRecords(client, String(sc.resourceUri));
    const dayOf = (v: unknown) => Math.floor(Date.parse(String(v).slice(0, 10)) / 864e5);
    const iso = (ymd: string) => `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6)}`;
    const [from, to] = [dayOf(iso(start)), dayOf(iso(end)) + 1];
    const expected = new Map<string, number>();
    for (const r of records) {
      if (!CONFIRMED.has(String(r.StatusCode)) || r.IsCancelled === true) continue;
      const nights = Math.max(0, Math.min(dayOf(r.DepartureDate), to) - Math.max(dayOf(r.ArrivalDate), from));
      expected.set(String(r.Account), (expected.get(String(r.Account)) ?? 0) + nights);
    }
    const q = await call(asked, 'query_report', {
      resultId: sc.resultId,
      where: [{ field: 'SegmentState', op: 'eq', value: 'confirmed' }],
      groupBy: ['Account'],
      aggregates: [{ fn: 'sum', field: 'NightsInWindow' }],
      limit: 1000,
    });
    const groups = q.sc.groups as Array<Rec & { key: Rec }>;
    expect(new Map(groups.map((g) => [String(g.key.Account), Number(g.sum_NightsInWindow)]))).toEqual(expected);
    // The stays fetched are the month's arrivals: the answer says the stays already in-house
    // when the month began are not among them, and from when to fetch them.
    const lookback = day(-30, new Date(Date.UTC(+start.slice(0, 4), +start.slice(4, 6) - 1, +start.slice(6))));
    const inHouse = (q.sc.notes as string[]).find((note) => note.startsWith('NightsInWindow counts nights from '));
    expect(inHouse).toContain(`stays already in-house on ${start} are not here`);
    expect(inHouse).toContain(`fetch from DateStart=${lookback} (30 days before)`);
    done('hotel nights per account last month (nights in the month)', asked);
  });
});
