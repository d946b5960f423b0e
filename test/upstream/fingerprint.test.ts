import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/upstream/paging/fingerprint.js';

describe('fingerprint (identity of a record as sent, for repeated-page checks)', () => {
  const record = {
    RecordLocator: 'L4YEFB',
    Fare: 123.45,
    Count: 3,
    Active: true,
    Note: null,
    Passengers: [{ LastName: 'SMITH', First: 'ANA' }],
    When: '/Date(1763169166000+0800)/',
  };

  const fareFirst = () => {
    const { Fare, ...rest } = record;
    return { Fare, ...rest };
  };

  it('is the same for identical records, however they were built', () => {
    expect(fingerprint(record)).toBe(fingerprint(JSON.parse(JSON.stringify(record))));
    expect(Number.isSafeInteger(fingerprint(record))).toBe(true);
  });

  it('differs when any value, type, name, order or nesting differs', () => {
    const variants: unknown[] = [
      { ...record, RecordLocator: 'L4YEFC' },
      { ...record, Fare: 123.46 },
      { ...record, Count: '3' },
      { ...record, Active: false },
      { ...record, Note: '' },
      { ...record, Note: undefined },
      { ...record, Passengers: [{ LastName: 'SMITH', First: 'ANN' }] },
      { ...record, Passengers: [{ LastName: 'SMITH' }, { First: 'ANA' }] },
      { ...record, Passengers: { LastName: 'SMITH', First: 'ANA' } },
      { ...record, Extra: 1 },
      fareFirst(), // the same fields, Fare first: another order
      Object.fromEntries(Object.entries(record).reverse()),
      { ...record, RecordLocator: 'L4YEF', Fare: 'B123.45' },
    ];
    const own = fingerprint(record);
    const prints = variants.map(fingerprint);
    expect(prints.filter((p) => p === own)).toEqual([]);
    expect(new Set(prints).size).toBe(variants.length);
  });

  it('tells 300,000 records that differ in one field apart', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 300_000; i++) seen.add(fingerprint({ ...record, Seq: i, RecordLocator: `R${i % 977}` }));
    expect(seen.size).toBe(300_000);
  });
});
