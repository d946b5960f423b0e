/**
 * ServiceStack JSON dates: `/Date(ms)/`, `/Date(ms+hhmm)/`, `/Date(ms-hhmm)/`
 * (upstream-notes.md "Dates"). Decoded to ISO 8601 keeping the writer's offset
 * (CONTRACT.md section 5); .NET DateTime.MinValue means "no value" and becomes null.
 */
const SERVICE_DATE = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/;
export const MIN_VALUE_MS = -62135596800000;

export function isServiceDate(value: unknown): value is string {
  return typeof value === 'string' && SERVICE_DATE.test(value);
}

/** Returns the ISO string, null for MinValue, or undefined when `value` is not a service date. */
export function decodeServiceDate(value: string): string | null | undefined {
  const m = SERVICE_DATE.exec(value);
  if (!m) return undefined;
  const ms = Number(m[1]);
  if (ms <= MIN_VALUE_MS) return null;
  const offset = m[2];
  if (!offset || offset === '+0000' || offset === '-0000') {
    return new Date(ms).toISOString();
  }
  const sign = offset[0] === '-' ? -1 : 1;
  const minutes = sign * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(3, 5)));
  const local = new Date(ms + minutes * 60_000).toISOString().slice(0, -1); // wall clock, no 'Z'
  return `${local}${offset.slice(0, 3)}:${offset.slice(3)}`;
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
    if (Object.prototype.hasOwnProperty.call(value, key)) out[key] = decodeValue((value as Record<string, unknown>)[key]);
  }
  return out;
}
