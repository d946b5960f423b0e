import { describe, expect, test } from 'vitest';
import { buildUrl, pageQuery } from '../../src/upstream/request.js';

const BASE = 'https://reports.example.com/api';

describe('request builder', () => {
  test('lists comma-joined, booleans and YYYYMMDD dates pass through, order kept, Offset/Limit appended', () => {
    const query = {
      DateStart: '20260101',
      DateEnd: '20260131',
      Account: 'ACME,GLOBEX',
      IncludeItinerary: 'true',
      DateByComments: 'false',
      CityCode: 'LON',
    };
    expect(buildUrl(BASE, '/CarSegmentsByDate', pageQuery(query, 1500, 500))).toBe(
      `${BASE}/CarSegmentsByDate?DateStart=20260101&DateEnd=20260131&Account=ACME,GLOBEX&IncludeItinerary=true&DateByComments=false&CityCode=LON&Offset=1500&Limit=500`,
    );
    // Order is the caller's, not alphabetical.
    expect(buildUrl(BASE, '/X', { Zeta: '1', Alpha: '2', Mid: '3' })).toBe(`${BASE}/X?Zeta=1&Alpha=2&Mid=3`);
  });

  test('pageQuery appends Offset and Limit after the parameters without touching them', () => {
    const query = { B: '1', A: '2' };
    expect(Object.entries(pageQuery(query, 0, 250))).toEqual([
      ['B', '1'],
      ['A', '2'],
      ['Offset', '0'],
      ['Limit', '250'],
    ]);
    expect(query).toEqual({ B: '1', A: '2' });
  });

  test('base URL trailing slashes and a path without a leading slash', () => {
    expect(buildUrl(`${BASE}//`, 'CarSegmentCountsPerAccountByVendor/user', {})).toBe(
      `${BASE}/CarSegmentCountsPerAccountByVendor/user`,
    );
    expect(buildUrl(BASE, '/X', {})).toBe(`${BASE}/X`);
  });

  test('the URL is a fixed point of WHATWG parsing (what undici sends is what was signed)', () => {
    const nasty = [
      "O'Brien",
      'Zürich',
      'a b',
      'x@y.com',
      'A,B',
      '!*()~-_.',
      '"<>`{}|\\^[]',
      '#&=+%/?;:$',
      'ÆØÅ 日本 😀',
      "'",
    ];
    for (const value of nasty) {
      const url = buildUrl(BASE, '/X', { "Odd Name's": value, Next: 'v' });
      expect(new URL(url).href).toBe(url);
      expect(new URL(url).searchParams.get("Odd Name's")).toBe(value);
      expect(new URL(url).searchParams.get('Next')).toBe('v');
    }
  });
});
