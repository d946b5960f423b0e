/**
 * The result view's words and chart arithmetic (view/words.ts, view/model.ts), as pure
 * functions: what the browser test cannot reach with the demo's data on a given day (days
 * outside the asked window, a window across a year's end, an empty list, one item).
 */
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/results/money.js';
import { barsOf, cellText, chartQuery, daySpan, measuresOf, type Summary, summaryLines } from '../../view/model.js';
import { askedWindow, dayRangeText, itemNoun, parseDay, readableTimestamp } from '../../view/words.js';

const day = (s: string) => parseDay(s)!;

describe('the view writes dates in words', () => {
  it('writes an asked window as a person would', () => {
    expect(dayRangeText(day('20261001'), day('20261031'))).toBe('1–31 Oct 2026');
    expect(dayRangeText(day('20261124'), day('20261201'))).toBe('24 Nov – 1 Dec 2026');
    expect(dayRangeText(day('20261228'), day('20270103'))).toBe('28 Dec 2026 – 3 Jan 2027');
    expect(dayRangeText(day('2026-11-24'), day('2026-11-24'))).toBe('24 Nov 2026');
  });

  it('finds the asked window in a query, whatever the pair is called', () => {
    expect(askedWindow({ DateStart: '20261124', DateEnd: '20261201', Account: 'ACME' })).toEqual({
      startKey: 'DateStart',
      endKey: 'DateEnd',
      from: { year: 2026, month: 11, day: 24 },
      to: { year: 2026, month: 12, day: 1 },
    });
    expect(askedWindow({ ArrivalDateStart: '20261001', ArrivalDateEnd: '20261031' })?.startKey).toBe(
      'ArrivalDateStart',
    );
    expect(askedWindow({ RecordLocator: 'ERHH7U' })).toBeUndefined();
    expect(askedWindow({ DateStart: '20261124' })).toBeUndefined();
  });

  it("keeps a timestamp's own local time and drops a midnight that only marks a date", () => {
    expect(readableTimestamp('2026-11-24T14:05:33.000+08:00')).toBe('24 Nov 2026 14:05');
    expect(readableTimestamp('2026-11-24T23:59:00.000-05:00')).toBe('24 Nov 2026 23:59');
    expect(readableTimestamp('2026-11-24T00:00:00.000Z')).toBe('24 Nov 2026');
    expect(readableTimestamp('2026-11-19')).toBe('19 Nov 2026');
    expect(readableTimestamp('7107800')).toBeUndefined();
    expect(readableTimestamp('2026-13-01')).toBeUndefined();
  });
});

describe('the view writes cells and lists', () => {
  it('never formats an identifier as a quantity', () => {
    expect(cellText(7107800, 'ServiceRef')).toBe('7107800');
    expect(cellText(1252432610117, 'TktNumber')).toBe('1252432610117');
    expect(cellText(7107800, 'CarbonTonnage')).toBe('7,107,800');
    expect(cellText(1234.5, 'FOPFare')).toBe('1,234.5');
  });

  it('counts a list of records in words, joins a list of values, and shows no JSON', () => {
    expect(cellText([{ a: 1 }, { a: 2 }, { a: 3 }, { a: 4 }], 'Segments.AirSegments')).toBe('4 air segments');
    expect(cellText([{ a: 1 }], 'Passengers')).toBe('1 passenger');
    expect(cellText([{ a: 1 }, { a: 2 }], 'Itinerary')).toBe('2 itinerary items');
    expect(cellText([{ a: 1 }], 'Summary.AirlineReferences')).toBe('1 airline reference');
    expect(cellText(['GB', 'UB'], 'TaxCodes')).toBe('GB, UB');
    expect(cellText([], 'Tickets')).toBe('');
    expect(cellText({ Vendor: 'TG', VendorLocator: 'Z74XV8' }, 'Ref')).toBe('Vendor TG · VendorLocator Z74XV8');
    expect(itemNoun('CustomFields')).toEqual({ singular: 'custom field', plural: 'custom fields' });
    expect(itemNoun('Categories')).toEqual({ singular: 'category', plural: 'categories' });
  });

  it("profiles a list by what it holds, with plurals right, never 'items in all'", () => {
    const summary: Summary = {
      recordCount: 3,
      emptyFields: [],
      fields: {
        'Segments.AirSegments': { kind: 'list', nulls: 0, items: { min: 1, max: 3, total: 6 } },
        Passengers: { kind: 'list', nulls: 2, items: { min: 1, max: 1, total: 1 } },
        ServiceRef: { kind: 'numeric', nulls: 0, distinct: 3, min: 7107800, max: 7109321 },
        RateAmount: {
          kind: 'numeric',
          nulls: 0,
          distinct: 3,
          sumByCurrency: {
            field: 'CurrencyCode',
            currencies: 12,
            sums: [
              { currency: 'EUR', sum: 2100, count: 2, min: 100, max: 2000 },
              { currency: 'JPY', sum: 1000, count: 1, min: 1000, max: 1000 },
            ],
          },
        },
        DepartureDate: { kind: 'date', nulls: 0, distinct: 2, min: '2026-11-24T00:00:00.000Z', max: '2026-12-01' },
        Account: { kind: 'categorical', nulls: 0, distinct: 1, top: [{ value: 'STARK', count: 3 }] },
        Remark: { kind: 'categorical', nulls: 2, distinct: 1, top: [{ value: 'VIP', count: 1 }] },
      },
    };
    expect(summaryLines(summary)).toEqual([
      { field: 'Segments.AirSegments', text: '6 air segments in 3 records (1–3 each)' },
      { field: 'Passengers', text: '1 passenger in 1 record · 2 empty' },
      { field: 'ServiceRef', text: '7107800 – 7109321' },
      // Each currency its own range: never one min or max across currencies.
      // In each currency's minor units, as the text answer writes money: cents for EUR, none for JPY.
      {
        field: 'RateAmount',
        text: 'sums 2,100.00 EUR (100.00 – 2,000.00), 1,000 JPY (1,000 – 1,000), … (12 currencies)',
      },
      { field: 'DepartureDate', text: '24 Nov – 1 Dec 2026' },
      { field: 'Account', text: 'STARK in all 3' },
      { field: 'Remark', text: 'VIP · 2 empty' },
    ]);
    // A chart sums one currency at a time: one measure per currency, none across them.
    expect(measuresOf(summary).map((m) => [m.id, m.label, m.currency?.value])).toEqual([
      ['count', 'Records', undefined],
      ['sum:RateAmount:EUR', 'Sum of RateAmount in EUR', 'EUR'],
      ['sum:RateAmount:JPY', 'Sum of RateAmount in JPY', 'JPY'],
    ]);
    const where = [{ field: 'Account', op: 'ne' as const, value: 'ACME' }];
    expect(chartQuery('r_1', { groupBy: 'Account', perDay: false, measure: measuresOf(summary)[2] }, where)).toEqual({
      resultId: 'r_1',
      where: [...where, { field: 'CurrencyCode', op: 'eq', value: 'JPY' }],
      groupBy: ['Account', 'CurrencyCode'],
      aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'RateAmount' }],
      orderBy: undefined,
      limit: 30,
    });
  });
});

describe("the view writes money in its currency's minor units", () => {
  it('as ISO 4217 has them; a code no currency can have gets two digits, as the server gives it', () => {
    expect([formatMoney(1250.5, 'NZD'), formatMoney(215010, 'JPY'), formatMoney(12.3456, 'KWD')]).toEqual([
      '1,250.50',
      '215,010',
      '12.346',
    ]);
    expect([formatMoney(1250.5, 'EURO'), formatMoney(7, ' jpy ')]).toEqual(['1,250.50', '7']);
  });

  it('a sum in one currency, its range too', () => {
    const summary: Summary = {
      recordCount: 4,
      emptyFields: [],
      fields: {
        TotalFare: {
          kind: 'numeric',
          nulls: 0,
          min: 10.5,
          max: 2000,
          sum: 2110.5,
          currency: { field: 'CurrencyCode', value: 'AUD' },
          confirmed: { sum: 2010.5, notConfirmed: 1 },
        },
      },
    };
    expect(summaryLines(summary)).toEqual([
      {
        field: 'TotalFare',
        text: 'sum 2,010.50 AUD confirmed; 2,110.50 over every state, 1 segment not confirmed (10.50 – 2,000.00)',
      },
    ]);
  });
});

describe('sums over segments not all confirmed', () => {
  const summary: Summary = {
    recordCount: 90,
    emptyFields: [],
    fields: {
      NightsInWindow: {
        kind: 'numeric',
        nulls: 0,
        min: 1,
        max: 10,
        sum: 284,
        confirmed: { sum: 282, notConfirmed: 1 },
      },
      FareAmount: {
        kind: 'numeric',
        nulls: 0,
        sumByCurrency: {
          field: 'FareCurrency',
          currencies: 3,
          sums: [
            { currency: 'NZD', sum: 1250.5, confirmedSum: 1000.25, count: 60, min: 5, max: 90 },
            { currency: 'JPY', sum: 9000, confirmedSum: 0, count: 30, min: 100, max: 900 },
            // Only confirmed segments carry it in USD: the one sum, as an amount's.
            { currency: 'USD', sum: 40, confirmedSum: 40, count: 4, min: 10, max: 10 },
          ],
          notConfirmed: 12,
        },
      },
      TotalAirSegs: {
        kind: 'numeric',
        nulls: 0,
        min: 0,
        max: 4,
        notSummed: "the booking's count, repeated on each of its segments: not summed",
      },
    },
  };

  it('the summary gives the confirmed sum first, and never sums a booking count', () => {
    expect(summaryLines(summary)).toEqual([
      { field: 'NightsInWindow', text: 'sum 282 confirmed; 284 over every state, 1 segment not confirmed (1 – 10)' },
      {
        field: 'FareAmount',
        text:
          'sums confirmed 1,000.25 NZD (1,250.50 over every state), 0 JPY (9,000 over every state), ' +
          '40.00 USD (10.00 – 10.00); 12 segments not confirmed',
      },
      { field: 'TotalAirSegs', text: "0 – 4 (the booking's count, repeated on each of its segments: not summed)" },
    ]);
  });

  it('the chart sums confirmed segments only', () => {
    const measures = measuresOf(summary);
    expect(measures.map((m) => m.label)).toEqual([
      'Records',
      'Sum of NightsInWindow, confirmed',
      'Sum of FareAmount in NZD, confirmed',
      'Sum of FareAmount in JPY, confirmed',
      'Sum of FareAmount in USD, confirmed',
    ]);
    expect(chartQuery('r_1', { groupBy: 'Account', perDay: false, measure: measures[3] }, [])).toEqual({
      resultId: 'r_1',
      where: [
        { field: 'FareCurrency', op: 'eq', value: 'JPY' },
        { field: 'SegmentState', op: 'eq', value: 'confirmed' },
      ],
      groupBy: ['Account', 'FareCurrency'],
      aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'FareAmount' }],
      orderBy: undefined,
      limit: 30,
    });
    expect(chartQuery('r_1', { groupBy: 'Account', perDay: false, measure: measures[1] }, [])).toEqual({
      resultId: 'r_1',
      where: [{ field: 'SegmentState', op: 'eq', value: 'confirmed' }],
      groupBy: ['Account'],
      aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'NightsInWindow' }],
      orderBy: undefined,
      limit: 30,
    });
  });
});

describe('a text naming several travellers', () => {
  it('is summarised by the travellers it names', () => {
    const summary: Summary = {
      recordCount: 4,
      emptyFields: [],
      fields: {
        Passengers: {
          kind: 'categorical',
          nulls: 0,
          distinct: 3,
          top: [{ value: 'DOE/JANE MS, DOE/JOHN MR', count: 2 }],
          travellers: {
            distinct: 4,
            several: 2,
            top: [
              { value: 'DOE/JANE MS', count: 3 },
              { value: 'DOE/JOHN MR', count: 2 },
              { value: 'LEE/ANN MS', count: 1 },
              { value: 'ROY/MAX MR', count: 1 },
            ],
          },
        },
      },
    };
    expect(summaryLines(summary)).toEqual([
      {
        field: 'Passengers',
        text:
          '4 travellers named (2 records name several); by records naming each: DOE/JANE MS 3, DOE/JOHN MR 2, ' +
          'LEE/ANN MS 1, …',
      },
    ]);
  });
});

describe('top values that would read wrong in a list', () => {
  it('are quoted, as in the text answer: a comma, a quote, or a number at the end', () => {
    const summary: Summary = {
      recordCount: 9,
      emptyFields: [],
      fields: {
        Address: {
          kind: 'categorical',
          nulls: 0,
          distinct: 4,
          top: [
            { value: '297 Orchard Road, Chicago US', count: 3 },
            { value: '+1 3096 7424', count: 3 },
            { value: 'Raffles Place', count: 2 },
          ],
        },
      },
    };
    expect(summaryLines(summary)).toEqual([
      { field: 'Address', text: '4 distinct: “297 Orchard Road, Chicago US” 3, “+1 3096 7424” 3, Raffles Place 2, …' },
    ]);
  });
});

describe('the per-day chart spans the asked days', () => {
  const chart = { groupBy: 'DepartureDate', perDay: true, measure: { id: 'count', label: 'Records' } };
  const window = askedWindow({ DateStart: '20261124', DateEnd: '20261201' });
  const answer = {
    resultId: 'r',
    matched: 10,
    offset: 0,
    limit: 366,
    nextOffset: null,
    groups: [
      { key: { 'DepartureDate:day': '2026-11-22' }, count: 2 },
      { key: { 'DepartureDate:day': '2026-11-23' }, count: 1 },
      { key: { 'DepartureDate:day': '2026-11-24' }, count: 4 },
      { key: { 'DepartureDate:day': '2026-11-27' }, count: 3 },
    ],
  };

  it('draws every asked day, days without records as zero, and none outside, saying how many it left out', () => {
    const span = daySpan({ kind: 'date', nulls: 0, min: '2026-11-22T08:00:00.000Z', max: '2026-11-27' }, window);
    const { bars, outside } = barsOf(answer, chart, span);
    expect(bars).toEqual([
      { label: '24 Nov 2026', value: 4 },
      { label: '25 Nov 2026', value: 0 },
      { label: '26 Nov 2026', value: 0 },
      { label: '27 Nov 2026', value: 3 },
      { label: '28 Nov 2026', value: 0 },
      { label: '29 Nov 2026', value: 0 },
      { label: '30 Nov 2026', value: 0 },
      { label: '1 Dec 2026', value: 0 },
    ]);
    expect(outside).toEqual({ records: 3, from: day('20261122'), to: day('20261123') });
  });

  it("spans a date field's own days when they lie outside the asked window (a booking's creation date)", () => {
    const span = daySpan({ kind: 'date', nulls: 0, min: '2026-07-20T15:23:18.000Z', max: '2026-07-22' }, window);
    expect(span).toEqual([day('20260720'), day('20260722')]);
  });
});
