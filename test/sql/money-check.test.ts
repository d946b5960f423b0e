/**
 * The money rule in SQL (src/sql/money-check.ts): a total of a money column without its
 * currency kept apart is refused before anything runs, however the statement hides it.
 */
import { describe, expect, it } from 'vitest';
import { ReportsError } from '../../src/errors.js';
import { checkMoney } from '../../src/sql/money-check.js';

const HOTELS = ['hotel_segments'];

function refusal(sql: string, reports = HOTELS): string {
  try {
    checkMoney(sql, reports);
  } catch (err) {
    expect(err).toBeInstanceOf(ReportsError);
    return (err as ReportsError).message;
  }
  throw new Error(`not refused: ${sql}`);
}

describe('sql money check', () => {
  it.each([
    ['no GROUP BY, the currency only selected', 'SELECT CurrencyCode, SUM(RateAmount) FROM hotel_segments_1'],
    ['grouped by something else', 'SELECT Account, SUM(RateAmount) FROM hotel_segments_1 GROUP BY Account'],
    ['the aggregate wraps the column', 'SELECT SUM(CAST(RateAmount AS REAL)) FROM hotel_segments_1'],
    ['the currency only in a comment', 'SELECT SUM(RateAmount) FROM hotel_segments_1 -- CurrencyCode'],
    ['the currency only in a string', "SELECT SUM(RateAmount), 'CurrencyCode' FROM hotel_segments_1"],
    ['an alias in a CTE', 'WITH t AS (SELECT RateAmount AS x FROM hotel_segments_1) SELECT SUM(x) FROM t'],
    ['avg across currencies', 'select avg(rateamount) from hotel_segments_1 where CurrencyCode is not null'],
    [
      'an outer total over a per-currency CTE',
      'WITH t AS (SELECT CurrencyCode, SUM(RateAmount) AS total FROM h GROUP BY CurrencyCode) SELECT SUM(total) FROM t',
    ],
    [
      'a subquery grouped by currency, its outer total not',
      'SELECT SUM(s) FROM (SELECT CurrencyCode, SUM(RateAmount) AS s FROM h GROUP BY CurrencyCode)',
    ],
    ['grouped by the position of another column', 'SELECT Account, CurrencyCode, SUM(RateAmount) FROM h GROUP BY 1'],
    // A number in PARTITION BY is a constant to SQLite, not a position: one partition.
    ['partitioned by a number', 'SELECT CurrencyCode, SUM(RateAmount) OVER (PARTITION BY 1) FROM h'],
    // Expressions of the code that may put two currencies in one group.
    ['grouped by a part of the currency', 'SELECT substr(CurrencyCode, 1, 1), SUM(RateAmount) FROM h GROUP BY 1'],
    ['grouped by whether a currency is stated', 'SELECT SUM(RateAmount) FROM h GROUP BY CurrencyCode IS NULL'],
    ['grouped by the currency as a number', 'SELECT SUM(RateAmount) FROM h GROUP BY CAST(CurrencyCode AS INTEGER)'],
    ['grouped by arithmetic on the currency', 'SELECT SUM(RateAmount) FROM h GROUP BY h.CurrencyCode + 0'],
    ['grouped by a test of the currency', "SELECT SUM(RateAmount) FROM h GROUP BY CurrencyCode = 'EUR'"],
    ['kept to two currencies', "SELECT SUM(RateAmount) FROM h WHERE CurrencyCode IN ('EUR', 'USD')"],
    ['kept to what a subquery gives', 'SELECT SUM(RateAmount) FROM h WHERE CurrencyCode IN (SELECT c FROM t)'],
    ['compared with another column', 'SELECT SUM(RateAmount) FROM h JOIN t ON t.c = h.CurrencyCode'],
    ['one currency or another', "SELECT SUM(RateAmount) FROM h WHERE CurrencyCode = 'EUR' OR CurrencyCode = 'USD'"],
    ['every currency but one', "SELECT SUM(RateAmount) FROM h WHERE NOT CurrencyCode = 'EUR'"],
    [
      'one currency named only inside another aggregate',
      "SELECT COUNT(CASE WHEN CurrencyCode = 'EUR' THEN 1 END), SUM(RateAmount) FROM h",
    ],
    [
      'grouped by the position of an expression of another column',
      'SELECT upper(Account), CurrencyCode, SUM(RateAmount) FROM h GROUP BY 1',
    ],
  ])('refuses %s', (_why, sql) => {
    expect(refusal(sql)).toMatch(/without CurrencyCode: amounts in different currencies are never added or compared/);
  });

  it.each([
    ['grouped by the currency', 'SELECT CurrencyCode, SUM(RateAmount) FROM hotel_segments_1 GROUP BY CurrencyCode'],
    [
      'grouped by account and currency',
      'SELECT Account, CurrencyCode, SUM(RateAmount) FROM h GROUP BY 1, CurrencyCode',
    ],
    ['one currency kept', "SELECT MAX(RateAmount) FROM hotel_segments_1 WHERE CurrencyCode = 'EUR'"],
    [
      'one currency kept in a list of one',
      "SELECT MAX(RateAmount) FROM h WHERE Account = 'X' AND CurrencyCode IN ('EUR')",
    ],
    ['one currency kept, written the other way', "SELECT SUM(RateAmount) FROM h WHERE 'EUR' = h.CurrencyCode"],
    ['a few currencies, partitioned', 'SELECT SUM(RateAmount) OVER (PARTITION BY CurrencyCode) FROM hotel_segments_1'],
    ['grouped by positions', 'SELECT Account, CurrencyCode, SUM(RateAmount) FROM h GROUP BY 1, 2'],
    [
      'an outer total per currency over a CTE',
      'WITH t AS (SELECT CurrencyCode AS cur, SUM(RateAmount) AS total FROM h GROUP BY cur) ' +
        'SELECT cur, SUM(total) FROM t GROUP BY 1',
    ],
    [
      'a union of per-currency totals',
      'SELECT CurrencyCode, SUM(RateAmount) FROM h GROUP BY CurrencyCode UNION ALL ' +
        'SELECT CurrencyCode, MAX(RateAmount) FROM h GROUP BY CurrencyCode',
    ],
    ['no money totalled', 'SELECT SUM(NbrNights), RateAmount FROM hotel_segments_1 GROUP BY Account'],
    // Expressions that keep each code apart, written out, by position and by the name given.
    [
      'grouped by an expression of the currency',
      'SELECT Account, SUM(RateAmount) FROM h GROUP BY upper(CurrencyCode), 1',
    ],
    ['grouped by the position of an expression', 'SELECT upper(CurrencyCode), SUM(RateAmount) FROM h GROUP BY 1'],
    [
      'grouped by the name given to an expression',
      "SELECT Account, coalesce(CurrencyCode, '?') AS cur, SUM(RateAmount) FROM h GROUP BY Account, cur",
    ],
    ['partitioned by an expression', 'SELECT SUM(RateAmount) OVER (PARTITION BY lower(CurrencyCode)) FROM h'],
    [
      'partitioned by the currency, with a frame',
      'SELECT SUM(RateAmount) OVER (PARTITION BY CurrencyCode ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) FROM h',
    ],
    [
      'grouped by a column named with its table',
      'SELECT h.Account, h.CurrencyCode, SUM(RateAmount) FROM h JOIN a ON a.k = h.k GROUP BY h.Account, h.CurrencyCode',
    ],
    [
      'grouped by the currency joined to another column',
      "SELECT SUM(RateAmount) FROM h GROUP BY Account || '/' || CurrencyCode",
    ],
    [
      'grouped by the currency as text',
      'SELECT SUM(RateAmount) FROM h GROUP BY CAST(CurrencyCode AS TEXT) COLLATE NOCASE',
    ],
  ])('answers %s', (_why, sql) => {
    // A rate summed is answered with the words that it is a rate, not spend.
    const rate =
      'RateAmount is a rate per night, not spend: EstimatedCost (per EstimatedCostCurrency) is the cost of each stay or rental.';
    const totalsRate = /\b(sum|avg)\s*\(\s*rateamount/i.test(sql);
    expect(checkMoney(sql, HOTELS)).toEqual(totalsRate ? [rate] : []);
  });

  it("notes money whose record states no currency, and a ticket's fare summed over its coupons", () => {
    expect(checkMoney('SELECT SUM(FOPFare) FROM t', ['ticket_coupons_by_status_code'])).toEqual([
      "FOPFare is the ticket's, repeated on each of its coupons: a total over coupon rows counts a ticket once per " +
        'coupon; total it over SELECT DISTINCT TktNumber, FOPFare, ... to count each ticket once.',
      'FOPFare: currency not stated by the service, so a total of it may mix currencies.',
    ]);
    expect(checkMoney('SELECT MAX(FOPFare) FROM t', ['ticket_coupons_by_status_code'])).toEqual([
      'FOPFare: currency not stated by the service, so a total of it may mix currencies.',
    ]);
  });

  it('reads money inside a child table by its own column names', () => {
    expect(refusal('SELECT SUM(Rate) FROM pnr_segments_1__Segments_HotelSegments', ['pnr_segments'])).toMatch(
      /^sql: .* sums Rate without Currency:/,
    );
  });
});
