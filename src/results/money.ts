/**
 * Money to its currency's minor units (ISO 4217: JPY none, EUR two, KWD three), from the
 * `currency-codes` package (MIT; ISO's own list, with its publish date), so that an amount
 * the server computes is exact to the unit its currency counts in and never carries a binary
 * float's tail (`308.34`, not `308.34000000000003`).
 */
import { code as currencyCode } from 'currency-codes';

/** Minor units by currency as written, each looked up once: the package finds a code by a
 *  scan of its whole list (2.2 us a lookup here), and a hotel stay's or car rental's cost
 *  looks its currency up twice (results/derived.ts). Bounded: a service's texts are data. */
const DIGITS = new Map<string, number>();
const DIGITS_MAX = 1024;

/** Minor units of `currency`; two for a code ISO 4217 does not list (most currencies). */
export function minorUnits(currency: unknown): number {
  if (typeof currency !== 'string') return 2;
  let digits = DIGITS.get(currency);
  if (digits === undefined) {
    digits = currencyCode(currency.trim().toUpperCase())?.digits ?? 2;
    if (DIGITS.size < DIGITS_MAX) DIGITS.set(currency, digits);
  }
  return digits;
}

/** Below this many minor units, an amount at least HALF_MARGIN from a half rounds alike read
 *  in binary or as its 15-digit decimal (see roundMoney). */
const FAST_BELOW = 1e8;
const HALF_MARGIN = 1e-6;

/** `amount` rounded half away from zero to `currency`'s minor units. */
export function roundMoney(amount: number, currency: unknown): number {
  const scale = 10 ** minorUnits(currency);
  let scaled = Math.abs(amount) * scale;
  // Read as its 15-digit decimal when near a half: 1.005 * 100 is 100.49999999999999 in
  // binary, 100.5 in decimal. Below 1e8 that reading moves the value by under 5e-8 (seven
  // decimals are left), so only a fraction within HALF_MARGIN of .5 can round otherwise;
  // toPrecision and the parse back cost about 1 us, most of a hotel stay's cost to derive.
  if (scaled >= FAST_BELOW || Math.abs(scaled - Math.floor(scaled) - 0.5) < HALF_MARGIN)
    scaled = Number(scaled.toPrecision(15));
  return (Math.sign(amount) * Math.round(scaled)) / scale;
}

/**
 * A number as its shortest decimal of 15 significant digits: what a double holds exactly,
 * without the tail that sums of decimal amounts in binary floating point leave.
 */
export function withoutFloatTail(n: number): number {
  return Number.isFinite(n) && !Number.isInteger(n) ? Number(n.toPrecision(15)) : n;
}

/** An amount written with its currency's minor units: 2016.9 GBP -> '2,016.90', 215010 JPY -> '215,010'. */
export function formatMoney(amount: number, currency: unknown): string {
  const digits = minorUnits(currency);
  const [whole, fraction] = Math.abs(amount).toFixed(digits).split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${amount < 0 ? '-' : ''}${grouped}${fraction ? `.${fraction}` : ''}`;
}
