import { createHmac } from 'node:crypto';

/**
 * The service's request signature (docs/upstream.md, "Signing"):
 * base64(HMAC-SHA256(key, METHOD + URL + CONTENT-TYPE + DATE)), no separators.
 * Pure: the caller supplies the date, so a fixed clock gives a fixed signature.
 */
export function signRequest(method: string, url: string, contentType: string, date: string, key: string): string {
  return createHmac('sha256', key)
    .update(method.toUpperCase() + url + contentType + date, 'utf8')
    .digest('base64');
}

/** RFC 1123 UTC, as `X-SERVICE-API-DATE` expects: `Sun, 22 Nov 2026 01:16:28 GMT`. */
export function rfc1123(date: Date): string {
  return date.toUTCString();
}

export const HEADER_USERNAME = 'X-SERVICE-API-USERNAME';
export const HEADER_DATE = 'X-SERVICE-API-DATE';
export const HEADER_SIGNATURE = 'X-SERVICE-API-SIGNATURE';
export const CONTENT_TYPE_JSON = 'application/json';

/** The four authentication headers plus Accept, for one request. */
export function signedHeaders(opts: {
  method: string;
  url: string;
  username: string;
  key: string;
  now: Date;
}): Record<string, string> {
  const date = rfc1123(opts.now);
  return {
    Accept: CONTENT_TYPE_JSON,
    'CONTENT-TYPE': CONTENT_TYPE_JSON,
    [HEADER_USERNAME]: opts.username,
    [HEADER_DATE]: date,
    [HEADER_SIGNATURE]: signRequest(opts.method, opts.url, CONTENT_TYPE_JSON, date, opts.key),
  };
}
