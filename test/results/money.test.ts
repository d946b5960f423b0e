/**
 * Money to its currency's minor units (results/money.ts), each currency looked up once: the
 * same digits however a code is written or how often it is asked, ISO 4217's as the
 * `currency-codes` package lists them (JPY 0, EUR 2, KWD 3), and two for a text it does not list,
 * also once the memo of looked-up texts is full.
 */
import { code } from 'currency-codes';
import { describe, expect, it } from 'vitest';
import { formatMoney, minorUnits, roundMoney } from '../../src/results/money.js';

describe('minor units', () => {
  it("are ISO 4217's, however the code is written, and two for a text that is not a code", () => {
    for (const [written, digits] of [
      ['JPY', 0],
      [' jpy ', 0],
      ['EUR', 2],
      ['eur', 2],
      ['KWD', 3],
      ['CLF', 4],
      ['XXQ', 2],
      ['', 2],
    ] as const) {
      // Asked twice: once looked up, then remembered.
      expect([minorUnits(written), minorUnits(written)], written).toEqual([digits, digits]);
    }
    expect(minorUnits(undefined)).toBe(2);
    expect(minorUnits(392)).toBe(2);
  });

  it('stay right once a service has sent more distinct texts than are remembered', () => {
    for (let i = 0; i < 3000; i++) expect(minorUnits(`Z${i}`)).toBe(2);
    // Texts met after the memo is full are looked up each time, with the same answers.
    for (const c of ['BHD', 'VND', 'usd', ' kwd']) expect(minorUnits(c), c).toBe(code(c.trim().toUpperCase())?.digits);
    expect(minorUnits('BHD')).toBe(3);
  });

  it('round and write amounts to them', () => {
    expect(roundMoney(1.005, 'USD')).toBe(1.01);
    expect(roundMoney(1234.5, 'JPY')).toBe(1235);
    expect(roundMoney(-2.0005, 'KWD')).toBe(-2.001);
    expect(formatMoney(2016.9, 'GBP')).toBe('2,016.90');
    expect(formatMoney(215010, 'JPY')).toBe('215,010');
    expect(formatMoney(-1234.5, ' kwd ')).toBe('-1,234.500');
  });
});
