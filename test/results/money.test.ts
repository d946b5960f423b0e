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

  it('round an amount as its 15-digit decimal reads, half away from zero, near a half or not', () => {
    // The rule, written out: the scaled amount read as 15 significant digits, then rounded.
    const byRule = (amount: number, digits: number) =>
      (Math.sign(amount) * Math.round(Number((Math.abs(amount) * 10 ** digits).toPrecision(15)))) / 10 ** digits;
    for (const [amount, currency, rounded] of [
      [1.005, 'USD', 1.01],
      [2.675, 'USD', 2.68],
      [1.015, 'EUR', 1.02],
      [-1.005, 'USD', -1.01],
      [0.0005, 'KWD', 0.001],
      [2.5, 'JPY', 3],
      [-2.5, 'JPY', -3],
      [123456789.125, 'USD', 123456789.13],
      [84.7 * 3, 'USD', 254.1],
    ] as const) {
      expect(roundMoney(amount, currency), `${amount} ${currency}`).toBe(rounded);
    }
    // Costs as derived.ts makes them (a rate of cents times nights and rooms), in every digit
    // count, halves included, small and past 1e8 minor units.
    let halves = 0;
    for (let i = 0; i < 200_000; i++) {
      const rate = (i % 50_000) / (i % 3 === 0 ? 1000 : 100) + (i % 7 === 0 ? 0.005 : 0);
      const amount = rate * (1 + (i % 9)) * (1 + (i % 2)) * (i % 11 === 0 ? 1e7 : 1) * (i % 13 === 0 ? -1 : 1);
      const [currency, digits] = (
        [
          ['JPY', 0],
          ['USD', 2],
          ['KWD', 3],
        ] as const
      )[i % 3];
      const expected = byRule(amount, digits);
      if (Math.abs(((Math.abs(amount) * 10 ** digits) % 1) - 0.5) < 1e-6) halves++;
      if (roundMoney(amount, currency) !== expected) expect(roundMoney(amount, currency), `${amount}`).toBe(expected);
    }
    expect(halves).toBeGreaterThan(1000);
  });

  it('round and write amounts to them', () => {
    expect(roundMoney(1234.5, 'JPY')).toBe(1235);
    expect(roundMoney(-2.0005, 'KWD')).toBe(-2.001);
    expect(formatMoney(2016.9, 'GBP')).toBe('2,016.90');
    expect(formatMoney(215010, 'JPY')).toBe('215,010');
    expect(formatMoney(-1234.5, ' kwd ')).toBe('-1,234.500');
  });
});
