/**
 * The service's signature check (docs/upstream.md, "Signing"): four headers, an
 * HMAC-SHA256 over METHOD + URL + CONTENT-TYPE + DATE keyed with the API key, and a date no
 * more than five minutes from the service's clock. Messages say which check failed and never
 * carry the expected signature or the key.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { HEADER_DATE, HEADER_SIGNATURE, HEADER_USERNAME, signRequest } from '../upstream/sign.js';

export const MAX_SKEW_MS = 5 * 60_000;

export interface AuthFailure {
  code: 'Unauthorized' | 'RequestExpired';
  message: string;
  verbose: string;
}

export interface Credentials {
  username: string;
  key: string;
}

const REQUIRED = [HEADER_USERNAME, HEADER_DATE, 'CONTENT-TYPE', HEADER_SIGNATURE] as const;
const CONTENT_TYPES = ['application/json', 'application/xml', 'text/csv'];
/** RFC 1123, weekday optional (the spec's example omits it): `Sun, 22 Nov 2026 01:16:28 GMT`. */
const RFC1123 = /^(?:[A-Za-z]{3},\s*)?\d{1,2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/;

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  if (x.length !== y.length) {
    timingSafeEqual(x, x); // same work either way
    return false;
  }
  return timingSafeEqual(x, y);
}

/** Null when the request is signed correctly, else what is wrong. `url` is the absolute URL. */
export function checkSignature(
  method: string,
  url: string,
  headers: IncomingHttpHeaders,
  creds: Credentials,
  nowMs: number,
): AuthFailure | null {
  const missing = REQUIRED.filter((h) => !header(headers, h));
  if (missing.length > 0) {
    return {
      code: 'Unauthorized',
      message: `Missing authentication header${missing.length > 1 ? 's' : ''}: ${missing.join(', ')}`,
      verbose: `Every request must carry ${REQUIRED.join(', ')}.`,
    };
  }
  const username = header(headers, HEADER_USERNAME)!;
  const date = header(headers, HEADER_DATE)!;
  const contentType = header(headers, 'CONTENT-TYPE')!;
  const signature = header(headers, HEADER_SIGNATURE)!;
  if (username !== creds.username) {
    return {
      code: 'Unauthorized',
      message: `Unknown API username in ${HEADER_USERNAME}`,
      verbose:
        `The API username '${username.slice(0, 80)}' is not registered with this service (it is the API ` +
        `username, not an application login e-mail).`,
    };
  }
  // The service documents CONTENT-TYPE as one of application/json, application/xml, text/csv.
  if (!CONTENT_TYPES.includes(contentType.trim().toLowerCase())) {
    return {
      code: 'Unauthorized',
      message: `CONTENT-TYPE '${contentType.slice(0, 60)}' is not accepted`,
      verbose: `CONTENT-TYPE must be one of ${CONTENT_TYPES.join(', ')}; it is also part of the signed message.`,
    };
  }
  const at = RFC1123.test(date.trim()) ? Date.parse(date) : Number.NaN;
  if (Number.isNaN(at)) {
    return {
      code: 'Unauthorized',
      message: `${HEADER_DATE} is not an RFC 1123 UTC date`,
      verbose: `Expected a date like 'Sun, 22 Nov 2026 01:16:28 GMT'; received '${date.slice(0, 60)}'.`,
    };
  }
  const skew = at - nowMs;
  if (Math.abs(skew) > MAX_SKEW_MS) {
    return {
      code: 'RequestExpired',
      message: `${HEADER_DATE} is more than 5 minutes ${skew < 0 ? 'behind' : 'ahead of'} the service clock`,
      verbose:
        `Request date ${new Date(at).toUTCString()}, service time ${new Date(nowMs).toUTCString()} ` +
        `(difference ${Math.round(Math.abs(skew) / 1000)} s). Check the client's clock.`,
    };
  }
  const expected = signRequest(method, url, contentType, date, creds.key);
  if (!safeEqual(signature, expected)) {
    return {
      code: 'Unauthorized',
      message: 'Invalid signature',
      verbose:
        `${HEADER_SIGNATURE} does not match base64(HMAC-SHA256(key, METHOD + URL + CONTENT-TYPE + DATE)) ` +
        `for ${method.toUpperCase()} ${url} with content type '${contentType}'. Sign the absolute URL exactly as ` +
        `sent, query string included, with the API key.`,
    };
  }
  return null;
}
