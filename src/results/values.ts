/**
 * How record values are read by the profile, the query engine and the renderer, so that all
 * three agree on what is empty, what is a number and what is a date.
 */
import { oneLine } from '../errors.js';

/** Missing, null, '' or an empty list: counted as "empty" everywhere. */
export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

// No leading zeros ('0012' is a code, not twelve), no exponent, no thousands separators.
const NUMERIC = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/** The number a value holds (a JS number, or a numeric string like '123.45'), else undefined. */
export function toNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string' && NUMERIC.test(value)) return Number(value);
  return undefined;
}

/** Digits after the decimal point of a numeric string or number (to round sums exactly). */
export function decimalsOf(value: unknown): number {
  const s = typeof value === 'number' ? String(value) : typeof value === 'string' ? value : '';
  const dot = s.indexOf('.');
  return dot < 0 || /e/i.test(s) ? 0 : s.length - dot - 1;
}

/** 10 ** d for d up to 15, each exact: `**` is a call to pow, which was most of the cost of
 *  maxDecimals (55 ns a value against 10 with this table). */
const POWERS_OF_TEN = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15];

/**
 * The decimals of `value` or `decimals`, whichever is more: what a sum keeps as values come.
 * A number is written out only when it has more: x has at most d decimals exactly when
 * round(x * 10^d) / 10^d is x (the quotient, correctly rounded, is the number the text k/10^d
 * reads as), and writing a number out costs far more than that test, once per value summed.
 */
export function maxDecimals(decimals: number, value: unknown): number {
  if (typeof value === 'number' && decimals <= 15) {
    const scale = POWERS_OF_TEN[decimals];
    if (Math.round(value * scale) / scale === value) return decimals;
  }
  return Math.max(decimals, decimalsOf(value));
}

export function roundTo(value: number, decimals: number): number {
  const d = Math.min(decimals, 10);
  const f = 10 ** d;
  return Math.round(value * f) / f;
}

// ISO 8601 as the decoder writes it (…Z or …±hh:mm), also date-only and offset-less forms.
const ISO = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Milliseconds of an ISO date/datetime string; date-only and offset-less forms read as UTC. */
export function toInstant(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.length < 10) return undefined;
  const m = ISO.exec(value);
  if (!m) return undefined;
  const [, day, time, zone] = m;
  let text = time ? `${day}T${time}` : `${day}T00:00`;
  if (!zone || zone === 'Z') text += 'Z';
  else text += zone.includes(':') ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

export function isIsoDate(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 10 && ISO.test(value);
}

/** A query value as a date: 'YYYY-MM-DD' or 'YYYYMMDD' (a calendar day) or a full ISO instant. */
export function parseQueryDate(value: unknown): { day: string } | { instant: number } | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  const s = String(value).trim();
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(s) ?? /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (m) {
    const day = `${m[1]}-${m[2]}-${m[3]}`;
    return toInstant(day) === undefined ? undefined : { day };
  }
  if (!s.includes('T') && !s.includes(' ')) return undefined;
  const instant = toInstant(s);
  return instant === undefined ? undefined : { instant };
}

/** Booleans as the service writes them: true/false, or the strings 'true'/'false'. */
export function toBoolean(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const s = value.trim().toLowerCase();
    if (s === 'true') return true;
    if (s === 'false') return false;
  }
  return undefined;
}

/** Scalars as text for keys and cells; objects and lists as JSON. */
export function scalarText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Identifier-like names: numeric values there are labels (no min/max/sum). */
export const ID_LIKE = /(?:id|ref|nbr|number|code|locator|guid|iata|pcc)$/i;
/** Amount-like names: numeric fields there get a sum. */
export const AMOUNT_LIKE = /fare|tax|amt|amount|rate|value|nights|total|credit|tonnage|km/i;

export function isAmountField(path: string): boolean {
  const name = path.slice(path.lastIndexOf('.') + 1);
  return AMOUNT_LIKE.test(name) && !ID_LIKE.test(name);
}

export function isIdField(path: string): boolean {
  return ID_LIKE.test(path.slice(path.lastIndexOf('.') + 1));
}

// Made on first use: creating it at import time was ICU's whole start-up cost (~17 ms).
let numberFormat: Intl.NumberFormat | undefined;
/** 1234567.891 -> '1,234,567.891'. */
export function formatNumber(n: number): string {
  // Whole numbers (nearly every count a text shows) are grouped here as Intl groups them:
  // Intl takes 1-2 us a number, a hundred numbers in one report's text.
  if (Number.isSafeInteger(n) && !Object.is(n, -0)) return groupedInteger(n);
  numberFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 6 });
  return numberFormat.format(n);
}

/** -1234567 -> '-1,234,567'. */
function groupedInteger(n: number): string {
  const digits = String(Math.abs(n));
  const sign = n < 0 ? '-' : '';
  if (digits.length <= 3) return sign + digits;
  let out = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let i = out.length; i < digits.length; i += 3) out += `,${digits.slice(i, i + 3)}`;
  return sign + out;
}

/**
 * `raw` on one line, cut to about `max` characters with a marker saying how long it was
 * (`…[cut: 3,000,000 characters in all]`), so a cut value never reads as whole.
 */
export function truncate(raw: string, max: number): string {
  // Every value, key and note the text shows passes here: on one line, without controls.
  const text = oneLine(raw);
  if (text.length <= max) return text;
  const marker = `…[cut: ${formatNumber(text.length)} characters in all]`;
  return `${text.slice(0, Math.max(8, max - marker.length))}${marker}`;
}

/**
 * Neumaier-compensated summation: sums of many decimal amounts (100,000 fares) stay exact to
 * the cent where a plain running total drifts in the last digits.
 */
export class ExactSum {
  private sum = 0;
  private compensation = 0;

  add(x: number): void {
    const t = this.sum + x;
    this.compensation += Math.abs(this.sum) >= Math.abs(x) ? this.sum - t + x : x - t + this.sum;
    this.sum = t;
  }

  get value(): number {
    return this.sum + this.compensation;
  }
}
