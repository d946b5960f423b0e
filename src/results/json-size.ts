/**
 * The bytes a value's JSON takes once that JSON is itself written as a JSON string (a resource
 * page is the text of a resources/read answer: results/pages.ts), counted without writing it:
 * the same number as escapedBytes(JSON.stringify(value)), for the values a held record holds
 * (plain objects, arrays, strings, numbers, booleans, null). Splitting a million held air
 * segments into pages wrote and dropped 1.2 GB of text for that count, and took 3.6-6.8 s
 * before the first page could be read (bench case 8); the walk makes nothing. Anything else
 * (an object with toJSON, say) is measured by writing it.
 */

/** UTF-8 bytes of JSON.stringify(value), plus one for each quote and backslash in it. */
export function escapedJsonBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return stringBytes(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object':
      if (value === null) return 4;
      if (Array.isArray(value)) return arrayBytes(value);
      if (Object.getPrototypeOf(value) === Object.prototype) return objectBytes(value as Record<string, unknown>);
      return written(value);
    default:
      // undefined, a function or a symbol: JSON.stringify writes none (its caller leaves it out).
      return written(value);
  }
}

function arrayBytes(items: readonly unknown[]): number {
  let n = 2 + Math.max(0, items.length - 1);
  for (const item of items) n += omitted(item) ? 4 : escapedJsonBytes(item);
  return n;
}

function objectBytes(o: Record<string, unknown>): number {
  if (typeof o.toJSON === 'function') return written(o);
  let n = 2;
  let fields = 0;
  // Own keys only, as JSON.stringify: a plain object inherits no enumerable key.
  for (const key in o) {
    const v = o[key];
    if (omitted(v)) continue;
    // The key as a string, its colon, its value; a comma before every field but the first.
    n += keyBytes(key) + 1 + escapedJsonBytes(v) + (fields++ > 0 ? 1 : 0);
  }
  return n;
}

/** Keys measured once: a report's records repeat a few dozen (a quarter less time a record). A
 *  service sending endless new keys fills it to KEYS_KEPT, then they are measured each time. */
const keyCache = new Map<string, number>();
const KEYS_KEPT = 4_096;

function keyBytes(key: string): number {
  let n = keyCache.get(key);
  if (n === undefined) {
    n = stringBytes(key);
    if (keyCache.size < KEYS_KEPT) keyCache.set(key, n);
  }
  return n;
}

/** A value JSON.stringify leaves out of an object (written null in an array). */
function omitted(v: unknown): boolean {
  return v === undefined || typeof v === 'function' || typeof v === 'symbol';
}

/** A character JSON.stringify writes as more or other than itself, or UTF-8 as more than a byte. */
const NOT_PLAIN = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

/**
 * A string's JSON: its quotes (a byte and an escape each), then each character as
 * JSON.stringify writes it, in UTF-8, a backslash counting once more: `\"` and `\\` 4, `\n` and
 * the other short escapes 3, `\u00XX` and a lone surrogate's `\uXXXX` 7.
 */
function stringBytes(s: string): number {
  // Most texts are printable ASCII without a quote or a backslash: one byte a character.
  if (!NOT_PLAIN.test(s)) return s.length + 4;
  let n = 4;
  const length = s.length;
  for (let i = 0; i < length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) n += c === 0x22 || c === 0x5c ? 4 : 1;
    else if (c < 0x20) n += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 3 : 7;
    else if (c < 0x800) n += c === 0x7f ? 1 : 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = i + 1 < length ? s.charCodeAt(i + 1) : 0;
      if (next >= 0xdc00 && next <= 0xdfff) {
        n += 4;
        i++;
      } else n += 7;
    } else if (c >= 0xdc00 && c <= 0xdfff) n += 7;
    else n += 3;
  }
  return n;
}

/** Measured by writing: what escapedJsonBytes counts, for a value it does not walk. */
function written(value: unknown): number {
  const json = JSON.stringify(value);
  return json === undefined ? 0 : escapedBytes(json);
}

/**
 * UTF-8 bytes of a JSON text once that text is itself written as a JSON string: what
 * jsonStringBytes (cut.ts) gives, without a second JSON.stringify of the whole text.
 * JSON.stringify leaves no control character and no lone surrogate unescaped, so only its
 * quotes and backslashes gain a byte each.
 */
export function escapedBytes(json: string): number {
  let extra = 0;
  for (let i = json.indexOf('"'); i !== -1; i = json.indexOf('"', i + 1)) extra++;
  for (let i = json.indexOf('\\'); i !== -1; i = json.indexOf('\\', i + 1)) extra++;
  return Buffer.byteLength(json) + extra;
}
