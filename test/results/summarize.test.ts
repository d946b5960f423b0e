import { describe, expect, it } from 'vitest';
import { renderResult } from '../../src/presentation/report-text.js';
import { moneyFields } from '../../src/results/amounts.js';
import { runQuery } from '../../src/results/query.js';
import { summarize } from '../../src/results/summarize.js';
import { toInstant } from '../../src/results/values.js';
import { decodeServiceDate, encodeServiceDate } from '../../src/upstream/service-date.js';
import { cents, coupons, generateCoupons } from './fixtures.js';

describe('summarize', () => {
  const records = coupons();
  const s = summarize(records);

  it('counts records and categorical values exactly, ties broken by value', () => {
    expect(s.recordCount).toBe(12);
    expect(s.fields.Account).toEqual({
      kind: 'categorical',
      nulls: 0,
      distinct: 4,
      top: [
        { value: 'ACME', count: 5 },
        { value: 'GLOBEX', count: 4 },
        { value: 'INITECH', count: 2 },
        { value: 'UMBRELLA', count: 1 },
      ],
    });
    expect(s.fields.Carrier.top).toEqual([
      { value: 'AA', count: 4 },
      { value: 'BA', count: 4 },
      { value: 'LH', count: 4 },
    ]);
    expect(s.fields['Summary.CreatedBy'].top).toEqual([
      { value: 'AGENT', count: 6 },
      { value: 'WEB', count: 6 },
    ]);
  });

  it('treats numeric strings as numbers and sums amount-like fields exactly', () => {
    const fare = s.fields.FOPFare;
    const total = records.reduce((acc, r) => acc + cents(r.FOPFare), 0) / 100;
    expect(fare.kind).toBe('numeric');
    expect(fare.sum).toBe(total);
    expect(fare.sum).toBe(4061.54);
    expect(fare.min).toBe(0.99);
    expect(fare.max).toBe(1500);
    const km = s.fields.FlownKM;
    expect(km.kind).toBe('numeric');
    expect(km.sum).toBe(records.reduce((acc, r) => acc + Number(r.FlownKM) * 10, 0) / 10);
  });

  it('keeps identifiers with numeric text categorical (no min/max/sum)', () => {
    expect(s.fields.TktNumber).toEqual({ kind: 'categorical', nulls: 0, distinct: 12, unique: true });
    expect(s.fields.CouponSequenceNbr.kind).toBe('categorical');
    expect(s.fields.CouponSequenceNbr.top).toEqual([
      { value: '1', count: 8 },
      { value: '2', count: 4 },
    ]);
    expect(s.fields.CouponSequenceNbr.sum).toBeUndefined();
  });

  it('compares dates as instants and reports them as written', () => {
    const d = s.fields.FlightDate;
    const byInstant = [...records].sort((a, b) => Date.parse(String(a.FlightDate)) - Date.parse(String(b.FlightDate)));
    expect(d.kind).toBe('date');
    expect(d.min).toBe(byInstant[0].FlightDate);
    expect(d.max).toBe(byInstant[11].FlightDate);
    // Lexicographically '2026-12-01T00:30+09:00' would be last; as an instant it is not.
    expect(d.max).toBe('2026-11-30T22:00:00.000Z');
    expect(d.min).toBe('2026-10-31T12:00:00.000Z');
    expect(s.fields.VndIssueDt.nulls).toBe(1);
  });

  it('finds the earliest and latest of decoded dates in many offsets and of other layouts, as instants', () => {
    // Dates as the service's are decoded (each offset its own layout), mixed with other ISO
    // forms; the answer is checked against every value parsed and compared.
    let seed = 7;
    const next = (n: number) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const offsets = [0, 780, 570, -300, -570, 345, 60];
    const values: string[] = [];
    for (let i = 0; i < 3000; i++) {
      const ms = Date.UTC(2026, 5, 1) + next(2 * 86_400) * 1000 + next(1000);
      values.push(decodeServiceDate(encodeServiceDate(ms, offsets[next(offsets.length)])) as string);
    }
    const range = (texts: string[]) => {
      const profile = summarize(texts.map((At) => ({ At }))).fields.At;
      const byInstant = [...texts].sort((a, b) => (toInstant(a) as number) - (toInstant(b) as number));
      expect(profile).toMatchObject({ kind: 'date', min: byInstant[0], max: byInstant.at(-1) });
      return [profile.min, profile.max];
    };
    // Read as text, the earliest and latest are others: the offsets must be told apart.
    const byText = [...values].sort();
    expect(range(values)).not.toEqual([byText[0], byText.at(-1)]);
    values.push('2025-12-31', '2026-12-31T23:59', '2025-12-31T23:00:00+0100', '2027-01-01T08:30:00.000+09:00');
    expect(range(values)).toEqual(['2025-12-31', '2026-12-31T23:59']);
  });

  it('counts missing, null and empty as nulls; lists empty-everywhere fields once', () => {
    expect(s.fields.Passenger.nulls).toBe(1);
    expect(s.fields.Passenger.distinct).toBe(7);
    expect(s.fields.EmailAddress.nulls).toBe(1);
    expect(s.emptyFields).toEqual(['ExchangedForTicket', 'Tax5Amt']);
    expect(s.fields.ExchangedForTicket).toBeUndefined();
  });

  it('profiles booleans, free text, nested objects and lists', () => {
    expect(s.fields.IsVip).toEqual({
      kind: 'boolean',
      nulls: 0,
      distinct: 2,
      top: [
        { value: 'false', count: 10 },
        { value: 'true', count: 2 },
      ],
    });
    expect(s.fields.Remark.kind).toBe('text');
    expect(s.fields.Remark.distinct).toBe(12);
    expect(s.fields.Remark.top).toBeUndefined();
    expect(s.fields.Remark.sample!.startsWith('Traveller requested aisle seat')).toBe(true);
    expect(s.fields.Remark.sample!.length).toBeLessThanOrEqual(80);
    expect(s.fields['Summary.RecordLocator']).toEqual({ kind: 'categorical', nulls: 0, distinct: 12, unique: true });
    expect(s.fields.Summary).toBeUndefined();
    expect(s.fields.Passengers).toEqual({ kind: 'list', nulls: 1, items: { min: 0, max: 1, total: 11 } });
    expect(s.fields.TicketNumbers).toEqual({ kind: 'list', nulls: 0, items: { min: 1, max: 2, total: 16 } });
  });

  it('is JSON-serialisable and bounded: field cap and top size', () => {
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
    const capped = summarize(records, { maxFields: 3, topN: 2 });
    expect(Object.keys(capped.fields)).toEqual(['RecordLocator', 'TktNumber', 'Passenger']);
    expect(capped.otherFields?.[0]).toBe('Account');
    expect(capped.fields.Passenger.top).toEqual([
      { value: 'MUELLER/ANNA MRS', count: 2 },
      { value: 'NAKAMURA/KEN MR', count: 2 },
    ]);
  });

  // Speed is judged by npm run bench, not here (no timing assertions in tests).
  it('summarises 50,000 realistic records exactly and compactly', () => {
    const many = generateCoupons(50_000);
    const big = summarize(many);
    expect(big.recordCount).toBe(50_000);
    expect(big.fields.Account.distinct).toBe(12);
    const sum = many.reduce((acc, r) => acc + cents(r.FOPFare), 0) / 100;
    expect(big.fields.FOPFare.sum).toBe(sum);
    expect(big.fields.RecordLocator.unique).toBe(true);
    expect(JSON.stringify(big).length).toBeLessThan(12_000);
  });
});

describe('amounts and their currencies', () => {
  const records = [
    {
      RateAmount: '100.50',
      CurrencyCode: 'GBP',
      FOPFare: '10.00',
      FOPCurrency: 'EUR',
      CreditValue: 5,
      CreditCurrency: 'USD',
      NbrNights: 2,
    },
    {
      RateAmount: '200.25',
      CurrencyCode: 'USD',
      FOPFare: '20.10',
      FOPCurrency: 'EUR',
      CreditValue: 7,
      CreditCurrency: 'SGD',
      NbrNights: 3,
    },
    { RateAmount: '50', CurrencyCode: 'GBP', FOPFare: '5.05', FOPCurrency: 'EUR', NbrNights: 1 },
    { RateAmount: '1.10', FOPFare: '1', FOPCurrency: 'EUR' },
  ];
  const s = summarize(records);

  it('never adds amounts across currencies: one sum per currency, most records first', () => {
    expect(s.fields.RateAmount.sum).toBeUndefined();
    expect(s.fields.RateAmount.sumByCurrency).toEqual({
      field: 'CurrencyCode',
      currencies: 3,
      sums: [
        { currency: 'GBP', sum: 150.5, count: 2, min: 50, max: 100.5 },
        { currency: '(none)', sum: 1.1, count: 1, min: 1.1, max: 1.1 },
        { currency: 'USD', sum: 200.25, count: 1, min: 200.25, max: 200.25 },
      ],
    });
    // Nor compared across them: no min or max over all currencies either.
    expect(s.fields.RateAmount.min).toBeUndefined();
    expect(s.fields.RateAmount.max).toBeUndefined();
    // CreditValue pairs with CreditCurrency by name, not with CurrencyCode.
    expect(s.fields.CreditValue.sumByCurrency?.field).toBe('CreditCurrency');
    expect(s.fields.CreditValue.sumByCurrency?.sums).toEqual([
      { currency: 'SGD', sum: 7, count: 1, min: 7, max: 7 },
      { currency: 'USD', sum: 5, count: 1, min: 5, max: 5 },
    ]);
  });

  it('one currency: the plain sum, labelled with it; no currency field: the plain sum', () => {
    expect(s.fields.FOPFare.sum).toBe(36.15);
    expect(s.fields.FOPFare.currency).toEqual({ field: 'FOPCurrency', value: 'EUR' });
    expect(s.fields.NbrNights.sum).toBe(6);
    expect(s.fields.NbrNights.currency).toBeUndefined();
  });

  it('a published record: an undeclared amount beside a currency field is money, never added across', () => {
    const rows = [
      { FareAmount: 100, FareCurrency: 'NZD', RateAmount: 90, CurrencyCode: 'NZD', TaxAmount: 1, Commission: 10 },
      { FareAmount: 9000, FareCurrency: 'JPY', RateAmount: 8000, CurrencyCode: 'JPY', TaxAmount: 2, Commission: 8 },
      { FareAmount: 50.5, FareCurrency: 'NZD', RateAmount: 40, CurrencyCode: 'NZD', TaxAmount: 3.5, Commission: 5 },
    ];
    // Air segments publish no money: FareAmount pairs with FareCurrency by its name, RateAmount
    // with the record's general CurrencyCode.
    const air = summarize(rows, { report: 'air_segments_by_date' });
    expect(air.fields.FareAmount.sum).toBeUndefined();
    expect(air.fields.FareAmount.sumByCurrency?.sums).toEqual([
      { currency: 'NZD', sum: 150.5, count: 2, min: 50.5, max: 100 },
      { currency: 'JPY', sum: 9000, count: 1, min: 9000, max: 9000 },
    ]);
    expect(air.fields.RateAmount.sum).toBeUndefined();
    expect(air.fields.RateAmount.sumByCurrency?.field).toBe('CurrencyCode');
    expect(air.fields.RateAmount.sumByCurrency?.sums.map((x) => [x.currency, x.sum])).toEqual([
      ['NZD', 130],
      ['JPY', 8000],
    ]);
    expect(air.fields.TaxAmount.sumByCurrency?.field).toBe('CurrencyCode');
    // Named as money but not as an amount (a percentage, a fare basis): as the record has it.
    expect(
      moneyFields('air_segments_by_date', ['FareBasis', 'FareCurrency', 'Commission', 'TaxRate', 'CurrencyCode']),
    ).toEqual(new Map());
    expect(air.fields.Commission.sumByCurrency).toBeUndefined();
    // No currency field beside it: a number as the published record has it, summed.
    const stateless = summarize(
      rows.map(({ RateAmount }) => ({ RateAmount })),
      { report: 'air_segments_by_date' },
    );
    expect(stateless.fields.RateAmount.sum).toBe(8130);
    expect(stateless.fields.RateAmount.sumByCurrency).toBeUndefined();
    // A declared amount keeps its declared currency (hotel segments: RateAmount by CurrencyCode).
    const hotel = summarize(rows, { report: 'hotel_segments' });
    expect(hotel.fields.RateAmount.sumByCurrency?.field).toBe('CurrencyCode');
    expect(hotel.fields.FareAmount.sumByCurrency?.field).toBe('FareCurrency');
  });

  it('renders per-currency sums', () => {
    const text = renderResult({
      report: 'hotel_segments',
      source: 'demo',
      query: {},
      totalRecords: 4,
      fetchedRecords: 4,
      complete: true,
      notes: [],
      resultId: 'r_x',
      table: 'hotel_segments_1',
      resourceUri: 'reports://results/r_x',
      summary: s,
      records,
    });
    expect(text).toContain(
      '- RateAmount: sum per CurrencyCode (never added across currencies): GBP 150.50, (none) 1.10, USD 200.25',
    );
    expect(text).toContain('- FOPFare: sum 36.15 EUR; 1.00 to 20.10 EUR');
  });

  it('writes money of one currency in its minor units, and money of no stated currency alike throughout', () => {
    const records = [
      { TktNumber: '1', FareAmount: 1000, FareCurrency: 'JPY', FOPFare: 208.7 },
      { TktNumber: '2', FareAmount: 205010, FareCurrency: 'JPY', FOPFare: 27425.35 },
      { TktNumber: '3', FareAmount: 9000, FareCurrency: 'JPY', FOPFare: 9 },
    ];
    // Coupons of three tickets: FOPFare is money whose currency these records do not state.
    const text = renderResult({
      report: 'ticket_coupons_by_status_code',
      source: 'demo',
      query: {},
      totalRecords: 3,
      fetchedRecords: 3,
      complete: true,
      notes: [],
      resultId: 'r_x',
      table: 'ticket_coupons_by_status_code_1',
      resourceUri: 'reports://results/r_x',
      summary: summarize(records, { report: 'ticket_coupons_by_status_code' }),
      records,
    });
    expect(text).toContain('- FareAmount: sum 215,010 JPY; 1,000 to 205,010 JPY');
    expect(text).toMatch(
      /^- FOPFare: sum 27,643\.05 \(once per TktNumber[^)]*\); 9\.00 to 27,425\.35 \(currency not stated/m,
    );
  });

  it('a line of sums in many currencies holds whole amounts, then says how many currencies are left', () => {
    const currencies = ['EUR', 'USD', 'GBP', 'CNY', 'CHF', 'HKD', 'INR', 'AUD', 'JPY', 'SGD', 'AED', 'CAD', 'NZD'];
    // Large sums, fewer records for each currency further down the list (the line's order).
    const records = currencies.flatMap((c, i) =>
      Array.from({ length: currencies.length - i }, (_, k) => ({ TripCost: 123456.78 + k, TripCurrency: c })),
    );
    const text = renderResult({
      report: 'air_segments_by_date',
      source: 'demo',
      query: {},
      totalRecords: records.length,
      fetchedRecords: records.length,
      complete: true,
      notes: [],
      resultId: 'r_x',
      table: 'air_segments_by_date_1',
      resourceUri: 'reports://results/r_x',
      summary: summarize(records, { report: 'air_segments_by_date' }),
      records,
    });
    const line = text.split('\n').find((l) => l.startsWith('- TripCost:')) ?? '';
    expect(line).not.toContain('[cut:');
    expect(line.length).toBeLessThanOrEqual(222);
    const items = line
      .slice(line.indexOf('currencies): ') + 13)
      .split(' and ')[0]
      .split(', ');
    // Each amount whole: its currency, then its sum written out (13 x 123,456.78 + 78 for EUR).
    expect(items[0]).toBe('EUR 1,605,016.14');
    for (const item of items) expect(item).toMatch(/^[A-Z]{3} [\d,]+(\.\d{2})?$/);
    expect(line.endsWith(` and ${currencies.length - items.length} more currencies`)).toBe(true);
    expect(items.length).toBeGreaterThan(2);
  });
});

describe('sums stay exact over many decimal amounts', () => {
  it('100,000 amounts of up to 100,000,000.99: the sum equals the exact integer-cent sum', () => {
    let seed = 7;
    const next = () => (seed = (seed * 48271) % 2147483647);
    let cents = 0n;
    const records = Array.from({ length: 100_000 }, () => {
      const c = BigInt(next() % 100_000) * 100_000n + BigInt(next() % 100_000);
      cents += c;
      const s = c.toString().padStart(3, '0');
      return { FOPFare: `${s.slice(0, -2)}.${s.slice(-2)}` };
    });
    const exact = Number(cents) / 100;
    const summary = summarize(records);
    expect(summary.fields.FOPFare.sum).toBe(exact);
    const q = runQuery(records, { aggregates: [{ fn: 'sum', field: 'FOPFare' }] });
    expect(q.groups![0].sum_FOPFare).toBe(exact);
  });
});
