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
  // SERVICE_DATE, read by hand: the regex and the Number() of its groups were most of the cost
  // of decoding a report whose instants rarely repeat.
  if (!value.startsWith('/Date(')) return undefined;
  let i = 6;
  const negative = value.charCodeAt(i) === 45; /* '-' */
  if (negative) i++;
  const digitsFrom = i;
  let ms = 0;
  for (let c = value.charCodeAt(i); isDigit(c); c = value.charCodeAt(++i)) ms = ms * 10 + (c - 48);
  if (i === digitsFrom) return undefined;
  if (negative) ms = -ms;
  let offset = '';
  const at = value.charCodeAt(i);
  if (at === 43 || at === 45 /* '+' '-' */) {
    offset = value.slice(i, i + 5);
    for (let k = 1; k < 5; k++) if (!isDigit(offset.charCodeAt(k))) return undefined;
    i += 5;
  }
  if (i + 2 !== value.length || value.charCodeAt(i) !== 41 || value.charCodeAt(i + 1) !== 47 /* ')/' */)
    return undefined;
  if (ms <= MIN_VALUE_MS) return null;
  const sign = offset.charCodeAt(0) === 45 ? -1 : 1;
  const minutes = offset ? sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(3, 5))) : 0;
  // Beyond what a date can hold (±8.64e15 ms, /Date(8640000000000001)/): not decodable, so
  // the value stays as the service sent it (the caller notes it) rather than failing the call.
  // (Digits past 2^53 are inexact, but far beyond this bound either way.)
  if (Math.abs(ms) > MAX_DATE_MS || Math.abs(ms + minutes * 60_000) > MAX_DATE_MS) return undefined;
  if (!offset || offset === '+0000' || offset === '-0000') return wallClock(ms, 0, '');
  return wallClock(ms + minutes * 60_000, sign, offset);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/**
 * `YYYY-MM-DDTHH:mm:ss.sss` of an epoch-ms value, then `Z` (sign 0) or the offset as
 * `+hh:mm`. Integer arithmetic (days-to-civil, as in H. Hinnant's date algorithms) because
 * Date#toISOString dominated the decoding of large reports, and the text is made in one
 * piece: a string built by concatenation is a chain of parts in V8's heap until flattened,
 * about twice the memory of the flat text a held record should keep. Years outside
 * 0000-9999 fall back to Date.
 */
function wallClock(ms: number, sign: number, offset: string): string {
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  if (year < 0 || year > 9999) {
    const text = new Date(ms).toISOString().slice(0, -1);
    return sign === 0 ? `${text}Z` : `${text}${offset.slice(0, 3)}:${offset.slice(3)}`;
  }
  const hh = Math.floor(rest / 3_600_000);
  rest -= hh * 3_600_000;
  const mm = Math.floor(rest / 60_000);
  rest -= mm * 60_000;
  const ss = Math.floor(rest / 1000);
  const mss = rest - ss * 1000;
  // One call with every character as an argument: no list is made for it.
  const y1 = digit(year / 1000);
  const y2 = digit((year / 100) % 10);
  const y3 = digit((year / 10) % 10);
  const y4 = digit(year % 10);
  const mo1 = digit(month / 10);
  const mo2 = digit(month % 10);
  const d1 = digit(day / 10);
  const d2 = digit(day % 10);
  const h1 = digit(hh / 10);
  const h2 = digit(hh % 10);
  const m1 = digit(mm / 10);
  const m2 = digit(mm % 10);
  const s1 = digit(ss / 10);
  const s2 = digit(ss % 10);
  const f1 = digit(mss / 100);
  const f2 = digit((mss / 10) % 10);
  const f3 = digit(mss % 10);
  if (sign === 0) {
    return String.fromCharCode(
      y1,
      y2,
      y3,
      y4,
      45,
      mo1,
      mo2,
      45,
      d1,
      d2,
      84,
      h1,
      h2,
      58,
      m1,
      m2,
      58,
      s1,
      s2,
      46,
      f1,
      f2,
      f3,
      90,
    );
  }
  const o = (k: number) => offset.charCodeAt(k);
  // biome-ignore format: one character per argument, as above
  return String.fromCharCode(
    y1, y2, y3, y4, 45, mo1, mo2, 45, d1, d2, 84, h1, h2, 58, m1, m2, 58, s1, s2, 46, f1, f2, f3,
    o(0), o(1), o(2), 58, o(3), o(4),
  );
}

/** The character code of the digit `n` (its integer part). */
function digit(n: number): number {
  return 48 + Math.floor(n);
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
