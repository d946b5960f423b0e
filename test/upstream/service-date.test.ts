import { describe, expect, test } from 'vitest';
import {
  decodeDates,
  decodeDatesInPlace,
  decodeServiceDate,
  encodeServiceDate,
  isServiceDate,
  MIN_VALUE_DATE,
} from '../../src/upstream/service-date.js';

describe('/Date(...)/ decoding (docs/upstream.md, Dates)', () => {
  test('keeps the writer offset', () => {
    expect(decodeServiceDate('/Date(1459781734000-0500)/')).toBe('2016-04-04T09:55:34.000-05:00');
    expect(decodeServiceDate('/Date(1459781734000+0530)/')).toBe('2016-04-04T20:25:34.000+05:30');
    expect(decodeServiceDate('/Date(1459781734123+0100)/')).toBe('2016-04-04T15:55:34.123+01:00');
    // Offset pushing the wall clock across midnight.
    expect(decodeServiceDate('/Date(1459728000000-0230)/')).toBe('2016-04-03T21:30:00.000-02:30');
  });

  test('no offset, -0000 and +0000 are UTC', () => {
    expect(decodeServiceDate('/Date(1459781734000)/')).toBe('2016-04-04T14:55:34.000Z');
    expect(decodeServiceDate('/Date(1459781734000-0000)/')).toBe('2016-04-04T14:55:34.000Z');
    expect(decodeServiceDate('/Date(1459781734000+0000)/')).toBe('2016-04-04T14:55:34.000Z');
  });

  test('DateTime.MinValue means no value', () => {
    expect(decodeServiceDate('/Date(-62135596800000-0000)/')).toBeNull();
    expect(decodeServiceDate('/Date(-62135596800000)/')).toBeNull();
    expect(MIN_VALUE_DATE).toBe('/Date(-62135596800000-0000)/');
  });

  test('leading zeros and a negative zero are read as the number they write', () => {
    expect(decodeServiceDate('/Date(0001459781734000-0500)/')).toBe('2016-04-04T09:55:34.000-05:00');
    expect(decodeServiceDate('/Date(-0)/')).toBe('1970-01-01T00:00:00.000Z');
    expect(decodeServiceDate('/Date(99999999999999999999)/')).toBeUndefined();
  });

  test('negative milliseconds (before 1970)', () => {
    expect(decodeServiceDate('/Date(-86400000)/')).toBe('1969-12-31T00:00:00.000Z');
    expect(decodeServiceDate('/Date(-1)/')).toBe('1969-12-31T23:59:59.999Z');
    expect(decodeServiceDate('/Date(-315619200000-0500)/')).toBe('1959-12-31T19:00:00.000-05:00');
  });

  test('the escaped JSON form decodes once parsed', () => {
    const parsed = JSON.parse('{"D":"\\/Date(1459781734000-0000)\\/"}') as { D: string };
    expect(parsed.D).toBe('/Date(1459781734000-0000)/');
    expect(decodeDates(parsed)).toEqual({ D: '2016-04-04T14:55:34.000Z' });
  });

  test('non-date strings are untouched', () => {
    for (const s of [
      'Date(1459781734000)',
      '/Date(abc)/',
      '/Date(1459781734000-05)/',
      ' /Date(1459781734000)/',
      '/Date(1459781734000)/x',
      '/Date()/',
      '/Date(-)/',
      '/Date(+12)/',
      '/Date(12 )/',
      '/Date(12+12)/',
      '/Date(12+12a4)/',
      '/Date(12+1234)',
      '2016-04-04',
      '',
      '14:55',
    ]) {
      expect(isServiceDate(s)).toBe(false);
      expect(decodeServiceDate(s)).toBeUndefined();
      expect(decodeDates(s)).toBe(s);
    }
  });

  test('nested records and lists are decoded, other values kept', () => {
    const record = {
      ServiceRef: 42,
      RecordLocator: 'ABC123',
      CreationDate: '/Date(1459781734000-0500)/',
      PNRCreationDate: '/Date(-62135596800000-0000)/',
      IsVip: true,
      Nothing: null,
      Passengers: [{ FirstName: 'Ann', FrequentFlyers: [{ Number: '/Date(x)/' }] }],
      Notepads: [{ CreatedDate: '/Date(0)/', Remark: 'hi' }],
      CarbonEmissions: [{ Value: 1.5, CalculationDateTime: '/Date(1459781734000+0530)/', Unit: { Id: 1 } }],
      TicketNumbers: ['0011234567890', '/Date(86400000-0000)/'],
    };
    const copy = structuredClone(record);
    expect(decodeDates(record)).toEqual({
      ServiceRef: 42,
      RecordLocator: 'ABC123',
      CreationDate: '2016-04-04T09:55:34.000-05:00',
      PNRCreationDate: null,
      IsVip: true,
      Nothing: null,
      Passengers: [{ FirstName: 'Ann', FrequentFlyers: [{ Number: '/Date(x)/' }] }],
      Notepads: [{ CreatedDate: '1970-01-01T00:00:00.000Z', Remark: 'hi' }],
      CarbonEmissions: [{ Value: 1.5, CalculationDateTime: '2016-04-04T20:25:34.000+05:30', Unit: { Id: 1 } }],
      TicketNumbers: ['0011234567890', '1970-01-02T00:00:00.000Z'],
    });
    expect(record).toEqual(copy); // the input is not mutated
  });

  test('encodeServiceDate round-trips through decodeServiceDate', () => {
    expect(encodeServiceDate(1459781734000)).toBe('/Date(1459781734000-0000)/');
    expect(encodeServiceDate(1459781734000, -300)).toBe('/Date(1459781734000-0500)/');
    expect(encodeServiceDate(1459781734000, 330)).toBe('/Date(1459781734000+0530)/');
    expect(decodeServiceDate(encodeServiceDate(1459781734000, -300))).toBe('2016-04-04T09:55:34.000-05:00');
  });
});

describe('decodeServiceDate agrees with Date#toISOString', () => {
  test('over a sweep of instants from 1601 to 2400, offsets included', () => {
    // A fixed pseudo-random walk (no Math.random: the test must be repeatable).
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let i = 0; i < 20_000; i++) {
      const ms = -11_644_473_600_000 + Math.floor((next() / 2 ** 31) * 24_000_000_000_000) + (next() % 1000);
      expect(decodeServiceDate(`/Date(${ms})/`)).toBe(new Date(ms).toISOString());
      const wall = new Date(ms + 330 * 60_000).toISOString().slice(0, -1);
      expect(decodeServiceDate(`/Date(${ms}+0530)/`)).toBe(`${wall}+05:30`);
      const west = new Date(ms - 420 * 60_000).toISOString().slice(0, -1);
      expect(decodeServiceDate(`/Date(${ms}-0700)/`)).toBe(`${west}-07:00`);
    }
    // Leap days and year ends, both sides of the epoch.
    for (const iso of [
      '2024-02-29T23:59:59.999Z',
      '2000-02-29T00:00:00.000Z',
      '1900-03-01T00:00:00.000Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2100-12-31T12:00:00.001Z',
    ]) {
      expect(decodeServiceDate(`/Date(${Date.parse(iso)}-0000)/`)).toBe(iso);
    }
    // The last instant written in four digits, and the first past it (Date's own text).
    expect(decodeServiceDate('/Date(253402300799999)/')).toBe('9999-12-31T23:59:59.999Z');
    expect(decodeServiceDate('/Date(253402300800000)/')).toBe('+010000-01-01T00:00:00.000Z');
    expect(decodeServiceDate('/Date(253402300800000+0100)/')).toBe('+010000-01-01T01:00:00.000+01:00');
    // A zero offset in any form is UTC.
    expect(decodeServiceDate('/Date(1000+0000)/')).toBe('1970-01-01T00:00:01.000Z');
  });
});

describe('decodeDatesInPlace', () => {
  test('rewrites nested records and lists in place, leaving other values alone', () => {
    const record = {
      When: '/Date(1459781734000-0500)/',
      Never: '/Date(-62135596800000-0000)/',
      Name: '/Date is not a date',
      Count: 3,
      Empty: null,
      Passengers: [{ Born: '/Date(-86400000)/', Tags: ['/Date(0+0100)/', 'x'] }],
    };
    const same = decodeDatesInPlace(record);
    expect(same).toBe(record);
    expect(record).toEqual({
      When: '2016-04-04T09:55:34.000-05:00',
      Never: null,
      Name: '/Date is not a date',
      Count: 3,
      Empty: null,
      Passengers: [{ Born: '1969-12-31T00:00:00.000Z', Tags: ['1970-01-01T01:00:00.000+01:00', 'x'] }],
    });
  });
});
