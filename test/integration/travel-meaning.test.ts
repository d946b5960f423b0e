/**
 * Answers that mean what a travel professional means (issue 28; docs/travel-meaning.md):
 * segment states, cost not rate, cities not airports, nights in the period, a fare once per
 * ticket, exact money, relative dates in filters, filters the service ignored. Each question
 * goes through a real MCP client to the server against the sandbox, and each expected figure
 * is worked out here from the records read back and the sandbox's own reference data, by
 * rules written out in this file (the GDS codes the sandbox writes, the rate periods its
 * texts name, the sandbox's airport table), not by the server's code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { airport } from '../../src/sandbox/reference.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllRecords } from '../helpers/resources.js';

type Rec = Record<string, unknown>;

/** The codes the sandbox writes, and what each means for travel. */
const STATE_OF: Record<string, string> = {
  HK: 'confirmed',
  TK: 'confirmed',
  GK: 'confirmed',
  HX: 'cancelled',
  UN: 'cancelled',
  UC: 'cancelled',
  NO: 'cancelled',
  HL: 'waitlisted',
  US: 'waitlisted',
};

const stateOf = (code: unknown) => STATE_OF[String(code)] ?? 'other';

let s: InProcess;
beforeAll(async () => {
  s = await startInProcess();
});
afterAll(async () => {
  await s?.close();
});

interface Head {
  resultId: string;
  notes: string[];
  summary: { fields: Record<string, Rec>; derived?: Array<{ field: string; how: string }> };
}

async function report(tool: string, args: Rec): Promise<{ head: Head; text: string; records: Rec[] }> {
  const r = await s.call(tool, args);
  expect(r.isError, textOf(r)).toBeFalsy();
  const head = r.structuredContent as unknown as Head & { resourceUri: string };
  return { head, text: textOf(r), records: (await readAllRecords(s.client, head.resourceUri)) as Rec[] };
}

async function query(args: Rec): Promise<{ out: Rec & { groups?: Rec[]; notes?: string[] }; text: string }> {
  const r = await s.call('query_report', args);
  expect(r.isError, textOf(r)).toBeFalsy();
  return { out: r.structuredContent as Rec, text: textOf(r) };
}

/** query_report's total of `field` over the confirmed segments of a result, and its notes. */
async function confirmedTotal(resultId: string, field: string): Promise<{ total: number; notes: string[] }> {
  const { out } = await query({
    resultId,
    where: [{ field: 'SegmentState', op: 'eq', value: 'confirmed' }],
    aggregates: [{ fn: 'sum', field }],
  });
  return { total: Number(out.groups?.[0][`sum_${field}`]), notes: out.notes ?? [] };
}

function countBy<T>(items: readonly T[], key: (t: T) => string): Map<string, number> {
  const out = new Map<string, number>();
  for (const t of items) out.set(key(t), (out.get(key(t)) ?? 0) + 1);
  return out;
}

/** Minor units of a currency as Intl knows them (ISO 4217 through ICU). */
function digitsOf(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits as number;
}

/** EstimatedCost in minor units per EstimatedCostCurrency, over the records that have a cost. */
function centsPerCurrency(records: readonly Rec[]): Map<string, number> {
  const cents = new Map<string, number>();
  for (const x of records) {
    if (typeof x.EstimatedCost !== 'number') continue;
    const c = String(x.EstimatedCostCurrency);
    cents.set(c, (cents.get(c) ?? 0) + Math.round(x.EstimatedCost * 10 ** digitsOf(c)));
  }
  return cents;
}

const round = (n: number, currency: string) => Math.round(n * 10 ** digitsOf(currency)) / 10 ** digitsOf(currency);

describe('segment states: cancelled and waitlisted segments are not travel', () => {
  it('air segments travelling this week, per carrier: confirmed only, the others counted and named', async () => {
    const { head, records, text } = await report('air_segments_by_date', {
      DateStart: '20261109',
      DateEnd: '20261115',
    });
    for (const r of records) expect(r.SegmentState, String(r.SegmentStatus)).toBe(stateOf(r.SegmentStatus));
    const confirmed = records.filter((r) => stateOf(r.SegmentStatus) === 'confirmed');
    const others = records.length - confirmed.length;
    expect(others).toBeGreaterThan(0);
    expect(head.notes).toContain(
      head.notes.find((n) =>
        n.startsWith(`Segment states: ${confirmed.length} of ${records.length} segments confirmed; ${others} not: `),
      ),
    );
    const top = (head.summary.fields.SegmentState as { top: Array<{ value: string; count: number }> }).top;
    expect(new Map(top.map((t) => [t.value, t.count]))).toEqual(countBy(records, (r) => stateOf(r.SegmentStatus)));
    // The report's own Next line asks for confirmed flights per carrier.
    const next = /^Next, confirmed flights per carrier: query_report (.*)$/m.exec(text);
    expect(next).not.toBeNull();
    const { out } = await query(JSON.parse(next![1]));
    const want = countBy(confirmed, (r) => String(r.CarrierCode));
    expect(new Map(out.groups!.map((g) => [String((g.key as Rec).CarrierCode), g.count]))).toEqual(want);
    // Counted without the filter, the answer says how many are not confirmed.
    const all = await query({ resultId: head.resultId, groupBy: ['CarrierCode'], limit: 100 });
    expect(all.out.notes?.[0]).toMatch(
      new RegExp(
        `^Of the ${records.length} matched: Segment states: ${confirmed.length} of ${records.length} segments confirmed; ${others} not: `,
      ),
    );
  });

  it('sql_query counting segments without reading SegmentState says how many are not confirmed', async () => {
    const { head, records } = await report('air_segments_by_date', { DateStart: '20261109', DateEnd: '20261115' });
    const table = (head as unknown as { table: string }).table;
    const states = countBy(records, (r) => stateOf(r.SegmentStatus));
    const confirmed = states.get('confirmed') ?? 0;
    const others = records.length - confirmed;
    expect(others).toBeGreaterThan(0);
    const perCarrier = async (where: string) => {
      const r = await s.call('sql_query', {
        sql: `SELECT CarrierCode, COUNT(*) AS n FROM ${table} ${where} GROUP BY CarrierCode`,
      });
      expect(r.isError, textOf(r)).toBeFalsy();
      const out = r.structuredContent as { rows: Array<{ CarrierCode: string; n: number }>; notes?: string[] };
      return { counts: new Map(out.rows.map((x) => [x.CarrierCode, x.n])), notes: out.notes ?? [] };
    };
    const all = await perCarrier('');
    expect(all.counts).toEqual(countBy(records, (r) => String(r.CarrierCode)));
    const note = all.notes.find((n) => n.startsWith(`${table} holds `));
    expect(note).toBeDefined();
    expect(note).toContain(`${table} holds ${confirmed} of ${records.length} segments confirmed; ${others} not: `);
    for (const [state, n] of states) if (state !== 'confirmed') expect(note).toContain(`${state} ${n} (`);
    expect(note).toMatch(/does not read SegmentState, .* add WHERE SegmentState = 'confirmed'\.$/);
    // Counted as the note says: the confirmed flights per carrier, and no note.
    const travel = await perCarrier("WHERE SegmentState = 'confirmed'");
    const wanted = records.filter((r) => stateOf(r.SegmentStatus) === 'confirmed');
    expect(travel.counts).toEqual(countBy(wanted, (r) => String(r.CarrierCode)));
    expect(travel.notes.filter((n) => n.startsWith(`${table} holds `))).toEqual([]);
    // Picking states by their codes is reading them too.
    const byCode = await perCarrier("WHERE SegmentStatus IN ('HK', 'TK', 'GK')");
    expect(byCode.notes.filter((n) => n.startsWith(`${table} holds `))).toEqual([]);
  });

  it('sql_query over hotel stays counts a stay flagged IsCancelled as cancelled, whatever its code', async () => {
    const { head, records } = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    const table = (head as unknown as { table: string }).table;
    const cancelled = records.filter((r) => r.IsCancelled === true || stateOf(r.StatusCode) === 'cancelled');
    expect(cancelled.length).toBeGreaterThan(0);
    const confirmed = records.filter((r) => r.IsCancelled !== true && stateOf(r.StatusCode) === 'confirmed');
    const r = await s.call('sql_query', { sql: `SELECT SUM(NbrNights) AS nights FROM ${table}` });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toContain(
      `${table} holds ${confirmed.length} of ${records.length} segments confirmed; ` +
        `${records.length - confirmed.length} not: cancelled ${cancelled.length} (`,
    );
  });

  it('a status code outside the GDS lists is "other", and the answer names it', async () => {
    const { head, records } = await report('air_segments_by_date', { DateStart: '20261001', DateEnd: '20261031' });
    const unknown = records.filter((r) => r.SegmentStatus === 'ZQ');
    expect(unknown).toHaveLength(1);
    expect(unknown[0].SegmentState).toBe('other');
    expect(head.notes.find((n) => n.startsWith('Segment states: '))).toMatch(/other 1 \(ZQ 1\)/);
  });
});

describe('cost, not rate', () => {
  it('car rental cost per vendor last month: rate x periods for confirmed rentals, per currency', async () => {
    const { head, records, text } = await report('car_segments_by_date', {
      DateStart: '20261001',
      DateEnd: '20261031',
    });
    const PERIOD: Record<string, number> = { DAILY: 1, WEEKLY: 7, MONTHLY: 30 };
    const expected = new Map<string, number>();
    let monthly = 0;
    let unstated = 0;
    for (const r of records) {
      const currency = String(r.CurrencyCode);
      const word = /^(DAILY|WEEKLY|MONTHLY) RATE /.exec(String(r.ServiceInformation))?.[1];
      if (stateOf(r.SegmentStatus) !== 'confirmed') {
        expect([r.EstimatedCost, r.CostBasis]).toEqual([null, `none: cancelled (${r.SegmentStatus})`]);
        continue;
      }
      if (!word) {
        unstated++;
        expect(r.EstimatedCost).toBeNull();
        expect(r.CostBasis).toMatch(/^none: the rate's period \(day, week, month\) is not stated/);
        continue;
      }
      const days = Math.max(
        1,
        Math.ceil((Date.parse(String(r.DropOffDate)) - Date.parse(String(r.PickUpDate))) / 864e5),
      );
      const cost = round((Number(r.RateAmount) * days) / PERIOD[word], currency);
      expect(r.EstimatedCost, String(r.CostBasis)).toBe(cost);
      expect(r.EstimatedCostCurrency).toBe(currency);
      if (word === 'MONTHLY') {
        monthly++;
        expect(r.CostBasis).toBe(`monthly rate ${Number(r.RateAmount).toFixed(2)} x ${days} days / 30`);
      }
      const key = `${r.VendorName}|${currency}`;
      expected.set(key, (expected.get(key) ?? 0) + Math.round(cost * 100));
    }
    expect([monthly, unstated]).toEqual([1, 1]);
    // The rate is never summed as spend: the summary gives its range, the cost its sums.
    expect(text).toMatch(/^- RateAmount \(a rate per rental period \(day, week or month\), not spend\): range per /m);
    const priced = records.filter((r) => typeof r.EstimatedCost === 'number').length;
    expect(head.notes).toContain(
      'RateAmount is a rate per rental period (day, week or month), not a cost: spend is EstimatedCost, each ' +
        `whole rental's from pick-up to drop-off, per EstimatedCostCurrency (${priced} rentals priced; ${unstated} ` +
        'not priced, CostBasis says why; unconfirmed ones have none).',
    );
    const next = /^Next, confirmed rentals and their estimated cost per vendor: query_report (.*)$/m.exec(text);
    expect(next).not.toBeNull();
    const { out } = await query({ ...JSON.parse(next![1]), limit: 500 });
    const got = new Map(
      out
        .groups!.filter((g) => g.sum_EstimatedCost !== null)
        .map((g) => {
          const key = g.key as Rec;
          return [`${key.VendorName}|${key.EstimatedCostCurrency}`, Math.round(Number(g.sum_EstimatedCost) * 100)];
        }),
    );
    expect(got).toEqual(expected);
  });

  /** The notes of a query_report `fn` of RateAmount per CurrencyCode over October's hotel stays. */
  async function rateNotes(fn: 'sum' | 'avg'): Promise<string[] | undefined> {
    const { head } = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    const { out } = await query({
      resultId: head.resultId,
      groupBy: ['CurrencyCode'],
      aggregates: [{ fn, field: 'RateAmount' }],
    });
    return out.notes;
  }

  it("a booking's notes speak of hotel and car rates only when it has stays or rentals", async () => {
    const { records: stays } = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    const { records: flights } = await report('air_segments_by_date', { DateStart: '20261109', DateEnd: '20261115' });
    const locators = [String(stays[0].RecordLocator), ...flights.map((r) => String(r.RecordLocator)).slice(0, 12)];
    const seen = { hotel: 0, none: 0 };
    for (const RecordLocator of new Set(locators)) {
      const booking = await report('pnr_segments', { RecordLocator });
      const segments = (booking.records[0]?.Segments ?? {}) as Record<string, unknown[] | undefined>;
      const hotels = segments.HotelSegments?.length ?? 0;
      const cars = segments.CarSegments?.length ?? 0;
      const notes = booking.head.notes;
      expect(
        notes.some((n) => n.startsWith('Rate is a rate per night, not a cost: ')),
        RecordLocator,
      ).toBe(hotels > 0);
      expect(
        notes.some((n) => n.startsWith('RateAmount is a rate per rental period')),
        RecordLocator,
      ).toBe(cars > 0);
      if (hotels > 0) seen.hotel++;
      else seen.none++;
    }
    // Both kinds of booking were asked about.
    expect(seen.hotel).toBeGreaterThan(0);
    expect(seen.none).toBeGreaterThan(0);
  });

  it('a rate summed in query_report is said to be a rate, not spend', async () => {
    expect(await rateNotes('sum')).toContain(
      'sum_RateAmount adds up RateAmount, a rate per night, not spend: the spend is EstimatedCost (per EstimatedCostCurrency).',
    );
  });

  it('a rate averaged in query_report is said to be an average per record, not weighted by nights', async () => {
    const notes = await rateNotes('avg');
    expect(notes).toContain(
      'avg_RateAmount averages RateAmount, a rate per night, over the records (not weighted by nights); ' +
        'the spend is EstimatedCost (per EstimatedCostCurrency).',
    );
    expect(notes?.join('\n')).not.toContain('adds up');
  });
});

describe('cities, not airports', () => {
  it("flights carry their airports' IATA cities and countries, as the sandbox's airport table has them", async () => {
    const { records } = await report('air_segments_by_date', { DateStart: '20261001', DateEnd: '20261031' });
    const multi = new Set<string>();
    for (const r of records) {
      const from = airport(String(r.BoardPoint));
      const to = airport(String(r.OffPoint));
      expect([r.BoardCity, r.OffCity, r.BoardCountry, r.OffCountry]).toEqual([
        from.cityCode,
        to.cityCode,
        from.countryCode,
        to.countryCode,
      ]);
      if (to.cityCode !== to.code) multi.add(`${to.code}:${to.cityCode}`);
    }
    // Multi-airport cities are among them: JFK and EWR are NYC, LHR and LGW are LON.
    expect([...multi].some((m) => m.endsWith(':NYC'))).toBe(true);
    expect([...multi].some((m) => m.endsWith(':LON'))).toBe(true);
  });

  it('hotel stays in a city with no flight into it in the same booking: joined on OffCity, not OffPoint', async () => {
    const hotels = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    const flights = await report('air_segments_by_date', { DateStart: '20260901', DateEnd: '20261130' });
    const into = new Set(flights.records.map((r) => `${r.RecordLocator}|${airport(String(r.OffPoint)).cityCode}`));
    const expected = hotels.records
      .filter((h) => !into.has(`${h.RecordLocator}|${h.CityCode}`))
      .map((h) => `${h.RecordLocator}|${h.HotelSegmentNbr}`)
      .sort();
    const byAirport = hotels.records.filter(
      (h) => !flights.records.some((f) => f.RecordLocator === h.RecordLocator && f.OffPoint === h.CityCode),
    );
    // Joined on the airport code, more stays would look unflown-to than there are.
    expect(byAirport.length).toBeGreaterThan(expected.length);
    const ht = (hotels.head as unknown as { table: string }).table;
    const ft = (flights.head as unknown as { table: string }).table;
    const r = await s.call('sql_query', {
      sql:
        `SELECT h.RecordLocator || '|' || h.HotelSegmentNbr AS k FROM ${ht} h WHERE NOT EXISTS ` +
        `(SELECT 1 FROM ${ft} f WHERE f.RecordLocator = h.RecordLocator AND f.OffCity = h.CityCode) ORDER BY k`,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const rows = (r.structuredContent as { rows: Array<{ k: string }> }).rows.map((x) => x.k);
    expect(rows).toEqual(expected);
  });
});

describe('the airports reference table', () => {
  it('every caller has airports: airport, city, country, time zone, name', async () => {
    const r = await s.call('sql_query', {
      sql:
        "SELECT airport, city, country, time_zone FROM airports WHERE airport IN ('JFK', 'LGA', 'EWR', 'NRT', " +
        "'HND', 'LHR', 'SIN') ORDER BY airport",
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const rows = (r.structuredContent as { rows: Rec[] }).rows.map((x) => Object.values(x).join(' '));
    expect(rows).toEqual([
      'EWR NYC US America/New_York',
      'HND TYO JP Asia/Tokyo',
      'JFK NYC US America/New_York',
      'LGA NYC US America/New_York',
      'LHR LON GB Europe/London',
      'NRT TYO JP Asia/Tokyo',
      'SIN SIN SG Asia/Singapore',
    ]);
  });

  it('a statement comparing a city code with an airport code is answered with a note naming OffCity', async () => {
    const { head } = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    const flights = await report('air_segments_by_date', { DateStart: '20261001', DateEnd: '20261031' });
    const [ht, ft] = [head, flights.head].map((h) => (h as unknown as { table: string }).table);
    const r = await s.call('sql_query', {
      sql: `SELECT COUNT(*) AS n FROM ${ht} h JOIN ${ft} f ON f.RecordLocator = h.RecordLocator AND h.CityCode = f.OffPoint`,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    expect(textOf(r)).toContain(
      'This statement compares a city code (CityCode: NYC, LON) with an airport code (OffPoint: JFK, LHR)',
    );
    // Joined through the airports table, the same stays as on OffCity.
    const a = await s.call('sql_query', {
      sql:
        `SELECT COUNT(*) AS n FROM ${ht} h JOIN ${ft} f ON f.RecordLocator = h.RecordLocator ` +
        'JOIN airports a ON a.airport = f.OffPoint WHERE a.city = h.CityCode',
    });
    const b = await s.call('sql_query', {
      sql: `SELECT COUNT(*) AS n FROM ${ht} h JOIN ${ft} f ON f.RecordLocator = h.RecordLocator AND h.CityCode = f.OffCity`,
    });
    const n = (x: typeof a) => (x.structuredContent as { rows: Array<{ n: number }> }).rows[0].n;
    expect(n(a)).toBe(n(b));
    expect(n(a)).toBeGreaterThan(n(r));
  });
});

describe('nights in the period', () => {
  it('hotel nights per account last month count the nights that fall in October', async () => {
    const { head, records, text } = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    const day = (v: unknown) => Math.floor(Date.parse(String(v).slice(0, 10)) / 864e5);
    const [from, to] = [day('2026-10-01'), day('2026-11-01')];
    const inWindow = new Map<string, number>();
    const byArrival = new Map<string, number>();
    // The cost of October's nights, in minor units per account and currency: rate x nights x rooms.
    const costInWindow = new Map<string, number>();
    let spanning = 0;
    for (const r of records) {
      const nights = Math.max(0, Math.min(day(r.DepartureDate), to) - Math.max(day(r.ArrivalDate), from));
      expect(r.NightsInWindow, String(r.RecordLocator)).toBe(nights);
      if (nights !== r.NbrNights) spanning++;
      if (stateOf(r.StatusCode) !== 'confirmed' || r.IsCancelled === true) {
        expect(r.EstimatedCostInWindow).toBeNull();
        continue;
      }
      const a = String(r.Account);
      inWindow.set(a, (inWindow.get(a) ?? 0) + nights);
      byArrival.set(a, (byArrival.get(a) ?? 0) + Number(r.NbrNights));
      const currency = String(r.CurrencyCode);
      const cost = round(Number(r.RateAmount) * nights * Number(r.NbrRooms ?? 1), currency);
      expect(r.EstimatedCostInWindow, String(r.RecordLocator)).toBe(cost);
      const key = `${a}|${currency}`;
      costInWindow.set(key, (costInWindow.get(key) ?? 0) + Math.round(cost * 10 ** digitsOf(currency)));
    }
    // Stays spanning the month's end: by arrival they would count nights of November, and cost them.
    expect(spanning).toBeGreaterThan(0);
    expect(records.some((r) => Number(r.EstimatedCostInWindow) < Number(r.EstimatedCost))).toBe(true);
    expect(inWindow).not.toEqual(byArrival);
    const priced = records.filter((r) => typeof r.EstimatedCost === 'number').length;
    expect(head.notes).toContain(
      'RateAmount is a rate per night, not a cost: spend is EstimatedCost, per EstimatedCostCurrency, and the ' +
        `spend on the nights in the window EstimatedCostInWindow (${priced} stays priced; unconfirmed ones have none).`,
    );
    expect(head.summary.derived?.find((d) => d.field === 'NightsInWindow')?.how).toBe(
      'the nights of the stay that fall from 20261001 to 20261031 (a night is dated by its evening; a stay of ' +
        'several rooms counts each night once, not per room); NbrNights counts every night of the stay',
    );
    const next = /^Next, confirmed nights in the window and their estimated cost per account: query_report (.*)$/m.exec(
      text,
    );
    expect(next).not.toBeNull();
    const { out } = await query({ ...JSON.parse(next![1]), limit: 500 });
    const got = new Map<string, number>();
    const gotCost = new Map<string, number>();
    for (const g of out.groups!) {
      const key = g.key as Rec;
      const a = String(key.Account);
      // Grouped per EstimatedCostCurrency too (money is never added across currencies).
      got.set(a, (got.get(a) ?? 0) + Number(g.sum_NightsInWindow));
      const currency = String(key.EstimatedCostCurrency);
      gotCost.set(`${a}|${currency}`, Math.round(Number(g.sum_EstimatedCostInWindow) * 10 ** digitsOf(currency)));
    }
    expect(got).toEqual(inWindow);
    expect(gotCost).toEqual(costInWindow);
  });

  it('says which nights in October the stays arriving in October leave out, and how to count every one', async () => {
    const day = (v: unknown) => Math.floor(Date.parse(String(v).slice(0, 10)) / 864e5);
    const [from, to] = [day('2026-10-01'), day('2026-11-01')];
    const nightsIn = (r: Rec) => Math.max(0, Math.min(day(r.DepartureDate), to) - Math.max(day(r.ArrivalDate), from));
    const confirmed = (r: Rec) => stateOf(r.StatusCode) === 'confirmed' && r.IsCancelled !== true;
    const october = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    const arriving = october.records.filter(confirmed).reduce((n, r) => n + Number(r.NightsInWindow), 0);
    const statement =
      "MAX(0, julianday(MIN(substr(DepartureDate,1,10), '2026-11-01')) - " +
      "julianday(MAX(substr(ArrivalDate,1,10), '2026-10-01')))";
    const note =
      'NightsInWindow counts nights from 20261001 to 20261031 of the stays here, which the service selects by ' +
      'ArrivalDate: stays already in-house on 20261001 are not here. To count them too, fetch from ' +
      `DateStart=20260901 (30 days before) and sum in sql_query over confirmed stays: ${statement}`;
    expect(october.head.notes).toContain(note);
    // Whole in the text: a note is cut at 400 characters there.
    expect(october.text.split('\n')).toContain(`Note: ${note}`);
    // query_report's total of NightsInWindow says it too.
    const totals = await confirmedTotal(october.head.resultId, 'NightsInWindow');
    expect(totals.total).toBe(arriving);
    expect(totals.notes).toContain(note);
    // And sql_query's, over the result's table.
    const octoberTable = (october.head as Head & { table: string }).table;
    const summed = await s.call('sql_query', {
      sql: `SELECT SUM(NightsInWindow) AS nights FROM ${octoberTable} WHERE SegmentState = 'confirmed'`,
    });
    const sqlOut = summed.structuredContent as { rows: Array<{ nights: number }>; notes?: string[] };
    expect(sqlOut.rows[0].nights).toBe(arriving);
    expect(sqlOut.notes).toContain(note);

    // As the note says: from 30 days before, summed by the statement it gives.
    const wider = await report('hotel_segments', { DateStart: '20260901', DateEnd: '20261031' });
    const table = (wider.head as Head & { table: string }).table;
    const r = await s.call('sql_query', {
      sql: `SELECT SUM(${statement}) AS nights FROM ${table} WHERE SegmentState = 'confirmed'`,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const counted = (r.structuredContent as { rows: Array<{ nights: number }> }).rows[0].nights;
    // The statement reads no NightsInWindow: nothing is left out, nothing said.
    expect(textOf(r)).not.toContain('NightsInWindow counts');
    const every = wider.records.filter(confirmed).reduce((n, x) => n + nightsIn(x), 0);
    const inHouse = wider.records.filter((x) => confirmed(x) && day(x.ArrivalDate) < from && nightsIn(x) > 0);
    expect(counted).toBe(every);
    expect(inHouse.length).toBeGreaterThan(0);
    expect(every).toBe(arriving + inHouse.reduce((n, x) => n + nightsIn(x), 0));
  });

  it('a total of NbrNights over stays arriving in October says it counts nights after October too', async () => {
    const october = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    const confirmed = october.records.filter((r) => stateOf(r.StatusCode) === 'confirmed' && r.IsCancelled !== true);
    const all = confirmed.reduce((n, r) => n + Number(r.NbrNights), 0);
    const inWindow = confirmed.reduce((n, r) => n + Number(r.NightsInWindow), 0);
    // Stays running into November: every night of them is more than October's.
    expect(all).toBeGreaterThan(inWindow);
    const window =
      'nights after DateEnd=20261031 included: these stays were selected by ArrivalDate from 20261001 to ' +
      '20261031. The nights that fall in that window are NightsInWindow, their cost EstimatedCostInWindow.';
    const note = `NbrNights counts every night of each stay, ${window}`;
    const table = (october.head as Head & { table: string }).table;
    const r = await s.call('sql_query', {
      sql: `SELECT Account, SUM(NbrNights) AS nights FROM ${table} WHERE SegmentState = 'confirmed' GROUP BY 1`,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const out = r.structuredContent as { rows: Array<{ nights: number }>; notes?: string[] };
    expect(out.rows.reduce((n, x) => n + x.nights, 0)).toBe(all);
    expect(out.notes).toContain(note);
    const totals = await confirmedTotal(october.head.resultId, 'NbrNights');
    expect(totals.total).toBe(all);
    expect(totals.notes).toContain(note);
    // The whole stays' cost, alone and beside their nights.
    const spend = await s.call('sql_query', {
      sql: `SELECT EstimatedCostCurrency, SUM(EstimatedCost) AS cost FROM ${table} GROUP BY 1`,
    });
    expect(textOf(spend)).toContain(`Note: EstimatedCost is the cost of every night of each stay, ${window}`);
    const both = await query({
      resultId: october.head.resultId,
      aggregates: [
        { fn: 'sum', field: 'NbrNights' },
        { fn: 'sum', field: 'EstimatedCost' },
      ],
    });
    expect(both.out.notes).toContain(`NbrNights and EstimatedCost are of every night of each stay, ${window}`);
    // Nights listed, not totalled: nothing said.
    const listed = await s.call('sql_query', { sql: `SELECT NbrNights FROM ${table} LIMIT 3` });
    expect(textOf(listed)).not.toContain('NbrNights counts every night');
    // Stays booked in October (a window of creation dates): NbrNights is their figure, nothing said.
    const booked = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031', DateSearchType: 'C' });
    const bookedTable = (booked.head as Head & { table: string }).table;
    const summed = await s.call('sql_query', { sql: `SELECT SUM(NbrNights) AS nights FROM ${bookedTable}` });
    expect(textOf(summed)).not.toContain('NbrNights counts every night');
  });

  it("hotel totals per chain say what the service's totals do not say, and where the window's nights are", async () => {
    const { head, records } = await report('hotel_segment_counts_per_location', {
      DateStart: '20261001',
      DateEnd: '20261031',
    });
    const stays = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    const totalNights = records.reduce((n, r) => n + Number(r.TotalNights), 0);
    const inWindow = stays.records
      .filter((r) => stateOf(r.StatusCode) === 'confirmed' && r.IsCancelled !== true)
      .reduce((n, r) => n + Number(r.NightsInWindow), 0);
    // The sandbox's totals count the stays' every night: more than October's.
    expect(totalNights).toBeGreaterThan(inWindow);
    expect(head.notes).toContain(
      "TotalSegments and TotalNights are the service's own totals: it does not say whether they count stays not " +
        'confirmed, or nights after DateEnd. hotel_segments with the same dates gives each stay its SegmentState ' +
        'and NightsInWindow (the nights that fall between DateStart and DateEnd).',
    );
    const cars = await report('car_segment_counts_per_account_by_vendor', {
      DateStart: '20261001',
      DateEnd: '20261031',
      VendorCode: 'ZE',
    });
    expect(cars.head.notes).toContain(
      "TotalSegments is the service's own total: it does not say whether it counts rentals not confirmed. " +
        'car_segments_by_date with the same dates gives each rental its SegmentState.',
    );
  });

  it('a window of booking creation dates counts no nights in it', async () => {
    const { head, records, text } = await report('hotel_segments', {
      DateStart: '20261001',
      DateEnd: '20261031',
      DateSearchType: 'C',
    });
    expect(records.length).toBeGreaterThan(0);
    for (const r of records) {
      expect(r).not.toHaveProperty('NightsInWindow');
      expect(r).not.toHaveProperty('EstimatedCostInWindow');
    }
    expect(head.summary.derived?.map((d) => d.field)).not.toContain('NightsInWindow');
    expect(head.notes.join(' ')).not.toContain('NightsInWindow');
    // The nights of the stays booked then are still there, by NbrNights.
    expect(text).toMatch(/^Next, confirmed stays, their nights and estimated cost per account: /m);
    expect(text).not.toContain('nights in the window');
  });
});

describe('sums over stays not all confirmed', () => {
  it("the summary's night sums are the confirmed stays', every state's beside them", async () => {
    const { head, records, text } = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    const confirmed = records.filter((r) => stateOf(r.StatusCode) === 'confirmed' && r.IsCancelled !== true);
    const notConfirmed = records.length - confirmed.length;
    expect(notConfirmed).toBeGreaterThan(0);
    const total = (rs: Rec[], f: string) => rs.reduce((n, r) => n + Number(r[f] ?? 0), 0);
    for (const f of ['NightsInWindow', 'NbrNights']) {
      const [c, all] = [total(confirmed, f), total(records, f)];
      expect(all).toBeGreaterThan(c);
      expect(head.summary.fields[f]).toMatchObject({ sum: all, confirmed: { sum: c, notConfirmed } });
      const line = `- ${f}: sum ${c.toLocaleString('en-US')} confirmed (${all.toLocaleString('en-US')} over every state, ${notConfirmed} not confirmed); `;
      expect(text).toContain(line);
    }
  });

  it("a booking's air segment count is never summed per stay", async () => {
    const { head, text } = await report('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
    expect(head.summary.fields.TotalAirSegs.sum).toBeUndefined();
    expect(head.summary.fields.TotalAirSegs.notSummed).toBe(
      "the booking's count, repeated on each of its segments: not summed",
    );
    expect(text).toMatch(/^- TotalAirSegs \(the booking's count, repeated on each of its segments: not summed\): /m);
  });
});

describe('travellers, not lists of them', () => {
  const names = (v: unknown) =>
    String(v ?? '')
      .split(', ')
      .filter(Boolean);

  it("a flight's Passengers are counted one traveller at a time in the summary", async () => {
    const { head, records, text } = await report('air_segments_by_date', {
      DateStart: '20261101',
      DateEnd: '20261130',
    });
    const segmentsOf = new Map<string, number>();
    let several = 0;
    for (const r of records) {
      const named = names(r.Passengers);
      if (named.length > 1) several++;
      for (const name of named) segmentsOf.set(name, (segmentsOf.get(name) ?? 0) + 1);
    }
    expect(several).toBeGreaterThan(0);
    const top = [...segmentsOf]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, 5)
      .map(([value, count]) => ({ value, count }));
    expect(head.summary.fields.Passengers.travellers).toEqual({ distinct: segmentsOf.size, several, top });
    // More travellers than distinct texts: a text naming two is one value but two people.
    expect(segmentsOf.size).not.toBe(head.summary.fields.Passengers.distinct);
    expect(text).toContain(
      `- Passengers: ${segmentsOf.size} travellers named (${several} records name several); top, by records naming each: ` +
        `${top.map((t) => `${t.value} ${t.count}`).join(', ')}…`,
    );
  });

  it('query_report grouped by Passengers makes one group per traveller, each with their segments', async () => {
    const { head, records } = await report('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261130' });
    const confirmed = records.filter((r) => r.SegmentState === 'confirmed');
    const expected = new Map<string, number>();
    for (const r of confirmed)
      for (const name of new Set(names(r.Passengers))) expected.set(name, (expected.get(name) ?? 0) + 1);
    const several = confirmed.filter((r) => names(r.Passengers).length > 1).length;
    expect(several).toBeGreaterThan(0);
    const { out, text } = await query({
      resultId: head.resultId,
      where: [{ field: 'SegmentState', op: 'eq', value: 'confirmed' }],
      groupBy: ['Passengers'],
      limit: 500,
    });
    const got = new Map(out.groups!.map((g) => [(g.key as Rec).Passengers as string, g.count as number]));
    expect(got).toEqual(expected);
    expect(out.groupCount).toBe(expected.size);
    // The busiest traveller first, by the segments naming them.
    expect(out.groups![0].count).toBe(Math.max(...expected.values()));
    const note =
      'Grouped by each traveller Passengers names (one text may name several: DOE/JANE MS, DOE/JOHN MR): ' +
      `${several} of the ${confirmed.length} records matched name several and count in the group of each (their ` +
      'amounts too), so the groups add up to more than the records matched.';
    expect(out.notes).toContain(note);
    expect(text).toContain(note);

    // With a second key, each traveller's segments per carrier.
    const byCarrier = await query({ resultId: head.resultId, groupBy: ['Passengers', 'CarrierCode'], limit: 1000 });
    const pairs = new Map<string, number>();
    for (const r of records)
      for (const name of new Set(names(r.Passengers))) {
        const k = `${name}|${r.CarrierCode}`;
        pairs.set(k, (pairs.get(k) ?? 0) + 1);
      }
    const gotPairs = new Map(
      byCarrier.out.groups!.map((g) => [`${(g.key as Rec).Passengers}|${(g.key as Rec).CarrierCode}`, g.count]),
    );
    expect(gotPairs).toEqual(pairs);
  });

  it('sql_query counting Passengers distinct says it counts lists, and query_report counts the travellers', async () => {
    const { head, records } = await report('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261130' });
    const table = (head as unknown as { table: string }).table;
    const r = await s.call('sql_query', { sql: `SELECT COUNT(DISTINCT Passengers) AS n FROM ${table}` });
    expect(r.isError, textOf(r)).toBeFalsy();
    const out = r.structuredContent as { rows: Array<{ n: number }>; notes?: string[] };
    const lists = new Set(records.map((x) => x.Passengers).filter(Boolean));
    expect(out.rows).toEqual([{ n: lists.size }]);
    const note =
      "Passengers names a booking's travellers in one text (DOE/JANE MS, DOE/JOHN MR): COUNT(DISTINCT Passengers) " +
      'counts distinct lists, not travellers. query_report counts them a traveller at a time (groupBy Passengers, ' +
      'or countDistinct of it).';
    expect(out.notes).toContain(note);
    expect(textOf(r)).toContain(note);
    // Grouped by its position, as assistants often write it: one group per list, said so.
    const byPosition = await s.call('sql_query', {
      sql: `SELECT Passengers, COUNT(*) AS n FROM ${table} GROUP BY 1 ORDER BY 2 DESC, 1`,
    });
    const grouped = byPosition.structuredContent as {
      rows: Array<{ Passengers: string | null; n: number }>;
      notes?: string[];
    };
    expect(grouped.rows).toHaveLength(new Set(records.map((x) => x.Passengers ?? null)).size);
    expect(grouped.rows.reduce((t, row) => t + row.n, 0)).toBe(records.length);
    expect(grouped.notes).toContain(
      "Passengers names a booking's travellers in one text (DOE/JANE MS, DOE/JOHN MR): grouped by Passengers, each " +
        'group is a list, not travellers. query_report counts them a traveller at a time (groupBy Passengers, or ' +
        'countDistinct of it).',
    );
    const { out: travellers } = await query({
      resultId: head.resultId,
      aggregates: [{ fn: 'countDistinct', field: 'Passengers' }],
    });
    const named = new Set(records.flatMap((x) => names(x.Passengers)));
    expect(travellers.groups![0].countDistinct_Passengers).toBe(named.size);
    expect(named.size).toBeGreaterThan(lists.size);
  });

  it('travellers per destination city count each traveller a booking names', async () => {
    const { text, records } = await report('passenger_locations_by_routing', {
      DateStart: '20261101',
      DateEnd: '20261130',
    });
    const next = /^Next, travellers per destination city: query_report (.*)$/m.exec(text);
    expect(next).not.toBeNull();
    const { out } = await query({ ...JSON.parse(next![1]), limit: 500 });
    const expected = new Map<string, Set<string>>();
    for (const r of records) {
      const city = String(r.DestinationCities ?? '');
      const set = expected.get(city) ?? new Set<string>();
      expected.set(city, set);
      for (const name of names(r.PaxList)) set.add(name);
    }
    const got = new Map(
      out.groups!.map((g) => [String((g.key as Rec).DestinationCities ?? ''), g.countDistinct_PaxList]),
    );
    expect(got).toEqual(new Map([...expected].map(([city, set]) => [city, set.size])));
    // Some city's count differs from the count of distinct lists: the test can tell them apart.
    const lists = new Map<string, Set<string>>();
    for (const r of records) {
      const city = String(r.DestinationCities ?? '');
      lists.set(city, (lists.get(city) ?? new Set<string>()).add(String(r.PaxList)));
    }
    expect([...lists].some(([city, set]) => set.size !== got.get(city))).toBe(true);
    expect(out.notes).toContain(
      'countDistinct_PaxList counts travellers: PaxList may name several in one text (DOE/JANE MS, DOE/JOHN MR), ' +
        'each counted once.',
    );
  });
});

describe('exact money and relative dates', () => {
  it('sql_query totals are exact to the cent, never a binary float tail', async () => {
    const { head, records } = await report('car_segments_by_date', { DateStart: '20261001', DateEnd: '20261031' });
    const table = (head as unknown as { table: string }).table;
    const r = await s.call('sql_query', {
      sql: `SELECT EstimatedCostCurrency AS c, SUM(EstimatedCost) AS total FROM ${table} GROUP BY 1 ORDER BY 1`,
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const rows = (r.structuredContent as { rows: Array<{ c: string | null; total: number | null }> }).rows;
    const cents = centsPerCurrency(records);
    for (const row of rows.filter((x) => x.c !== null)) {
      const c = row.c as string;
      expect(row.total, c).toBe((cents.get(c) as number) / 10 ** digitsOf(c));
      expect(String(row.total)).toMatch(digitsOf(c) === 0 ? /^\d+$/ : /^\d+(\.\d{1,2})?$/);
    }
  });

  it('sql_query answers a total grouped by an expression that keeps currencies apart, and refuses one that may not', async () => {
    const { head, records } = await report('car_segments_by_date', { DateStart: '20261001', DateEnd: '20261031' });
    const table = (head as unknown as { table: string }).table;
    const r = await s.call('sql_query', {
      sql:
        `SELECT coalesce(EstimatedCostCurrency, '(none)') AS c, SUM(EstimatedCost) AS total FROM ${table} ` +
        'GROUP BY 1 ORDER BY 1',
    });
    expect(r.isError, textOf(r)).toBeFalsy();
    const rows = (r.structuredContent as { rows: Array<{ c: string; total: number | null }> }).rows;
    const cents = centsPerCurrency(records);
    // Every cost here states its currency: the groups are the currencies, each total exact.
    expect(
      records.every((x) => typeof x.EstimatedCost !== 'number' || typeof x.EstimatedCostCurrency === 'string'),
    ).toBe(true);
    expect(cents.size).toBeGreaterThan(1);
    expect(rows.filter((x) => x.total !== null).map((x) => x.c)).toEqual([...cents.keys()].sort());
    for (const row of rows.filter((x) => x.total !== null))
      expect(row.total, row.c).toBe((cents.get(row.c) as number) / 10 ** digitsOf(row.c));
    // The first letter of the code would put CAD and CHF in one total.
    const mixed = await s.call('sql_query', {
      sql: `SELECT substr(EstimatedCostCurrency, 1, 1) AS c, SUM(EstimatedCost) FROM ${table} GROUP BY 1`,
    });
    expect(mixed.isError).toBe(true);
    expect(textOf(mixed)).toContain(
      'sums EstimatedCost without EstimatedCostCurrency: amounts in different currencies are never added or compared.',
    );
  });

  it('query_report reads today in a filter on a date as a report tool does, and says what it became', async () => {
    const { head, records } = await report('air_segments_by_date', { DateStart: '20261109', DateEnd: '20261121' });
    // The data's today (2026-11-15) as days before the real today (REPORTS_TIMEZONE is UTC).
    const back = Math.round((Date.parse(new Date().toISOString().slice(0, 10)) - Date.parse('2026-11-15')) / 864e5);
    const value = `today-${back}`;
    const { out } = await query({
      resultId: head.resultId,
      where: [{ field: 'DepartureDate', op: 'gte', value }],
    });
    const expected = records.filter((r) => String(r.DepartureDate).slice(0, 10) >= '2026-11-15').length;
    expect(expected).toBeGreaterThan(0);
    expect(expected).toBeLessThan(records.length);
    expect(out.matched).toBe(expected);
    expect(out.notes).toContain(`where[0].value "${value}" is 2026-11-15 (UTC).`);
  });
});

describe('filters the service ignored', () => {
  it('find_bookings with a parameter the service does not apply names it, with the counts', async () => {
    const { head, records } = await report('find_bookings', {
      parameters: { DateStart: '20260915', DateEnd: '20261115', TravellerName: 'SMITH' },
    });
    const holding = records.filter((r) => JSON.stringify(r).toLowerCase().includes('smith')).length;
    expect(holding).toBeLessThan(records.length * 0.9);
    expect(head.notes).toContain(
      head.notes.find((n) =>
        n.startsWith(
          `TravellerName=SMITH: only ${holding.toLocaleString('en-US')} of ${records.length.toLocaleString('en-US')} ` +
            'records returned hold "SMITH" anywhere: the service appears to have ignored this filter',
        ),
      ),
    );
  });
});

describe('bookings with active segments', () => {
  it('a booking of passive lines only is not travelling, and the answer counts them', async () => {
    const { head, records } = await report('bookings_with_active_segments', {
      TravelDateStart: '20261115',
      TravelDateEnd: '20261215',
    });
    for (const r of records) expect(r.Travelling).toBe(r.HasAir === true || r.HasHtl === true || r.HasCar === true);
    const idle = records.filter((r) => r.Travelling === false).length;
    const note = head.notes.find((n) => n.includes('hold no air, hotel or car segment'));
    if (idle)
      expect(note).toMatch(new RegExp(`^${idle} bookings? of ${records.length} hold no air, hotel or car segment`));
    else expect(note).toBeUndefined();
  });
});

describe('prompts', () => {
  it('the open tickets review never asks for a total across currencies or per coupon', async () => {
    const r = await s.client.getPrompt({ name: 'open_unused_tickets_review', arguments: {} });
    const text = (r.messages[0].content as { text: string }).text;
    expect(text).not.toMatch(/sum of FOPFare/);
    expect(text).toMatch(/sum of CreditValue \(given per CreditCurrency/);
    expect(text).toMatch(/never added across currencies/);
  });
});
