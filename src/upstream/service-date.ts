/**
 * ServiceStack JSON dates: `/Date(ms)/`, `/Date(ms+hhmm)/`, `/Date(ms-hhmm)/`
 * (docs/upstream.md, "Dates"). Decoded to ISO 8601 keeping the writer's offset; .NET DateTime.MinValue means "no value" and becomes null.
 */
const SERVICE_DATE = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/;
export const MIN_VALUE_MS = -62135596800000;
/** The largest distance from the epoch a JavaScript Date holds. */
const MAX_DATE_MS = 8_640_000_000_000_000;

export function isServiceDate(value: unknown): value is string {
  return typeof value === 'string' && SERVICE_DATE.test(value);
}

/** Returns the ISO string, null for MinValue, or undefined when `value` is not a service date. */
export function decodeServiceDate(value: string): string | null | undefined {
  // SERVICE_DATE, read by hand, character codes only: the regex, the Number() of its groups
  // and then the offset's slices were most of the cost of decoding a report whose instants
  // rarely repeat.
  if (!isDatePrefix(value)) return undefined;
  let i = 6;
  const negative = value.charCodeAt(i) === 45; /* '-' */
  if (negative) i++;
  const digitsFrom = i;
  let ms = 0;
  for (let c = value.charCodeAt(i); isDigit(c); c = value.charCodeAt(++i)) ms = ms * 10 + (c - 48);
  if (i === digitsFrom) return undefined;
  if (negative) ms = -ms;
  // Where the offset (`+hhmm`, `-hhmm`) is, -1 for none.
  let offsetAt = -1;
  let minutes = 0;
  const at = value.charCodeAt(i);
  if (at === 43 || at === 45 /* '+' '-' */) {
    const h1 = value.charCodeAt(i + 1);
    const h2 = value.charCodeAt(i + 2);
    const m1 = value.charCodeAt(i + 3);
    const m2 = value.charCodeAt(i + 4);
    if (!isDigit(h1) || !isDigit(h2) || !isDigit(m1) || !isDigit(m2)) return undefined;
    minutes = ((h1 - 48) * 10 + (h2 - 48)) * 60 + (m1 - 48) * 10 + (m2 - 48);
    if (at === 45) minutes = -minutes;
    offsetAt = i;
    i += 5;
  }
  if (i + 2 !== value.length || value.charCodeAt(i) !== 41 || value.charCodeAt(i + 1) !== 47 /* ')/' */)
    return undefined;
  if (ms <= MIN_VALUE_MS) return null;
  // Beyond what a date can hold (±8.64e15 ms, /Date(8640000000000001)/): not decodable, so
  // the value stays as the service sent it (the caller notes it) rather than failing the call.
  // (Digits past 2^53 are inexact, but far beyond this bound either way.)
  if (Math.abs(ms) > MAX_DATE_MS || Math.abs(ms + minutes * 60_000) > MAX_DATE_MS) return undefined;
  // A zero offset (`+0000`, `-0000`) is UTC: `Z`, as with none.
  if (minutes === 0) return wallClock(ms, value, -1);
  return wallClock(ms + minutes * 60_000, value, offsetAt);
}

/** Whether `value` starts with `/Date(`: six character codes, cheaper than startsWith. */
function isDatePrefix(value: string): boolean {
  return (
    value.charCodeAt(0) === 47 &&
    value.charCodeAt(1) === 68 &&
    value.charCodeAt(2) === 97 &&
    value.charCodeAt(3) === 116 &&
    value.charCodeAt(4) === 101 &&
    value.charCodeAt(5) === 40
  );
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * `YYYY-MM-DDTHH:mm:ss.sss` of an epoch-ms value, then `Z` (`offsetAt` -1) or the offset
 * written at `offsetAt` in `sent` as `+hh:mm`. Integer arithmetic (days-to-civil, as in
 * H. Hinnant's date algorithms) because Date#toISOString dominated the decoding of large
 * reports, and the text is made in one piece: a string built by concatenation is a chain of
 * parts in V8's heap until flattened, about twice the memory of the flat text a held record
 * should keep. Years outside 0000-9999 fall back to Date.
 */
function wallClock(ms: number, sent: string, offsetAt: number): string {
  const days = Math.floor(ms / 86_400_000);
  // Below, every quantity is a small integer: `| 0` truncates, as Math.floor does for one
  // that is not negative (only the era can be).
  let rest = (ms - days * 86_400_000) | 0;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = ((doe - ((doe / 1460) | 0) + ((doe / 36_524) | 0) - ((doe / 146_096) | 0)) / 365) | 0;
  const doy = doe - (365 * yoe + ((yoe / 4) | 0) - ((yoe / 100) | 0));
  const mp = ((5 * doy + 2) / 153) | 0;
  const day = doy - (((153 * mp + 2) / 5) | 0) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) {
    const text = new Date(ms).toISOString().slice(0, -1);
    if (offsetAt < 0) return `${text}Z`;
    return `${text}${sent.slice(offsetAt, offsetAt + 3)}:${sent.slice(offsetAt + 3, offsetAt + 5)}`;
  }
  const hh = (rest / 3_600_000) | 0;
  rest -= hh * 3_600_000;
  const mm = (rest / 60_000) | 0;
  rest -= mm * 60_000;
  const ss = (rest / 1000) | 0;
  const mss = rest - ss * 1000;
  // One call with every character as an argument: no list is made for it. (Integer `%`
  // only: on a fraction it is a call to fmod.)
  const y1 = 48 + ((year / 1000) | 0);
  const y2 = 48 + (((year / 100) | 0) % 10);
  const y3 = 48 + (((year / 10) | 0) % 10);
  const y4 = 48 + (year % 10);
  const mo1 = 48 + ((month / 10) | 0);
  const mo2 = 48 + (month % 10);
  const d1 = 48 + ((day / 10) | 0);
  const d2 = 48 + (day % 10);
  const h1 = 48 + ((hh / 10) | 0);
  const h2 = 48 + (hh % 10);
  const m1 = 48 + ((mm / 10) | 0);
  const m2 = 48 + (mm % 10);
  const s1 = 48 + ((ss / 10) | 0);
  const s2 = 48 + (ss % 10);
  const f1 = 48 + ((mss / 100) | 0);
  const f2 = 48 + (((mss / 10) | 0) % 10);
  const f3 = 48 + (mss % 10);
  if (offsetAt < 0) {
    // biome-ignore format: one character per argument
    return String.fromCharCode(
      y1, y2, y3, y4, 45, mo1, mo2, 45, d1, d2, 84, h1, h2, 58, m1, m2, 58, s1, s2, 46, f1, f2, f3, 90,
    );
  }
  const o = offsetAt;
  // biome-ignore format: one character per argument, as above
  return String.fromCharCode(
    y1, y2, y3, y4, 45, mo1, mo2, 45, d1, d2, 84, h1, h2, 58, m1, m2, 58, s1, s2, 46, f1, f2, f3,
    sent.charCodeAt(o), sent.charCodeAt(o + 1), sent.charCodeAt(o + 2), 58, sent.charCodeAt(o + 3),
    sent.charCodeAt(o + 4),
  );
}

/** Encodes an instant as the service writes it (used by the sandbox). */
export function encodeServiceDate(ms: number, offsetMinutes = 0): string {
  if (offsetMinutes === 0) return `/Date(${ms}-0000)/`;
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `/Date(${ms}${sign}${hh}${mm})/`;
}

export const MIN_VALUE_DATE = `/Date(${MIN_VALUE_MS}-0000)/`;

/**
 * Decodes every service date in a record, recursing into nested objects and lists.
 * Hot path (every record of every page): strings are screened by their first character
 * before any regular expression runs.
 */
export function decodeDates<T>(value: T): T {
  return decodeValue(value) as T;
}

/**
 * The same, rewriting `value` in place: for records just parsed from a response, which
 * nothing else holds. Copying 50-field records cost more than decoding their dates.
 */
export function decodeDatesInPlace<T>(value: T, onKept?: (sent: string) => void): T {
  if (value === null || typeof value !== 'object') return decodeValue(value) as T;
  const target = value as Record<string, unknown>;
  for (const key in target) {
    const v = target[key];
    if (typeof v === 'string') {
      if (v.charCodeAt(0) === 47 /* '/' */ && v.startsWith('/Date(')) {
        const decoded = decodeCached(v);
        if (decoded !== undefined) target[key] = decoded;
        else onKept?.(v);
      }
    } else if (v !== null && typeof v === 'object') decodeDatesInPlace(v, onKept);
  }
  return value;
}

/**
 * Report records repeat their dates (a day, a booking's creation instant on each of its
 * segments): a bounded memo makes the repeats a lookup and lets the records share one string.
 */
const decodedDates = new Map<string, string | null | undefined>();
const DECODED_DATES_MAX = 20_000;

export function decodeCached(text: string): string | null | undefined {
  let decoded = decodedDates.get(text);
  if (decoded === undefined && !decodedDates.has(text)) {
    decoded = decodeServiceDate(text);
    if (decodedDates.size >= DECODED_DATES_MAX) decodedDates.clear();
    decodedDates.set(text, decoded);
  }
  return decoded;
}

/** How a decoded date sent as midnight with no offset ends, after its `YYYY-MM-DD`: such a
 *  value is a day without a time of day (results/day-dates.ts). */
export const MIDNIGHT_UTC = 'T00:00:00.000Z';
export const DAY_LENGTH = 10;

/** Whether a decoded date is midnight with no offset: a day, once every value of its field is. */
export function isMidnightUtc(decoded: string): boolean {
  return decoded.length === DAY_LENGTH + MIDNIGHT_UTC.length && decoded.endsWith(MIDNIGHT_UTC);
}

/** Deepest nesting kept as structure; deeper values are kept as their JSON text. */
export const MAX_RECORD_DEPTH = 32;

/**
 * A record nested thousands of levels deep would overflow the stack of every walk after it
 * (summaries, masking, queries). Values deeper than MAX_RECORD_DEPTH are replaced, in place,
 * by their JSON text: kept as sent, in a form every later step reads as a string.
 */
export function boundDepthInPlace(value: unknown, onCut: () => void, depth = 0): void {
  if (value === null || typeof value !== 'object') return;
  const target = value as Record<string, unknown>;
  for (const key in target) {
    const v = target[key];
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 >= MAX_RECORD_DEPTH) {
      target[key] = jsonText(v);
      onCut();
    } else boundDepthInPlace(v, onCut, depth + 1);
  }
}

export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    return jsonTextIteratively(value); // deeper than JSON.stringify's own stack allows
  }
}

/** JSON.stringify without recursion: an explicit stack of what is left to write. */
function jsonTextIteratively(root: unknown): string {
  const out: string[] = [];
  const todo: unknown[] = [root];
  const TEXT = Symbol('text');
  while (todo.length) {
    const v = todo.pop();
    if (v !== null && typeof v === 'object' && TEXT in v) {
      out.push((v as { [TEXT]: string })[TEXT]);
    } else if (Array.isArray(v)) {
      todo.push({ [TEXT]: ']' });
      for (let i = v.length - 1; i >= 0; i--) {
        todo.push(v[i] === undefined ? null : v[i]);
        if (i > 0) todo.push({ [TEXT]: ',' });
      }
      todo.push({ [TEXT]: '[' });
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v).filter(([, x]) => x !== undefined);
      todo.push({ [TEXT]: '}' });
      for (let i = entries.length - 1; i >= 0; i--) {
        todo.push(entries[i][1]);
        todo.push({ [TEXT]: `${i > 0 ? ',' : ''}${JSON.stringify(entries[i][0])}:` });
      }
      todo.push({ [TEXT]: '{' });
    } else out.push(JSON.stringify(v) ?? 'null');
  }
  return out.join('');
}

function decodeValue(value: unknown): unknown {
  if (typeof value === 'string') {
    if (value.charCodeAt(0) !== 47 /* '/' */ || !value.startsWith('/Date(')) return value;
    const decoded = decodeServiceDate(value);
    return decoded === undefined ? value : decoded;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = decodeValue(value[i]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    if (Object.hasOwn(value, key)) out[key] = decodeValue((value as Record<string, unknown>)[key]);
  }
  return out;
}
