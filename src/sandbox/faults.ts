/**
 * Injected faults and latency. Which request gets a fault: a scripted plan first, then a
 * seeded random share. How each fault looks on the wire is decided here too, except the
 * ones that need the real answer (truncated, short-page), which service.ts applies.
 */
import type { JsonRecord } from './booking-detail.js';
import { errorEnvelope, toJson } from './envelope.js';
import type { Rng } from './random.js';

export type FaultKind = '500' | '502' | '503' | '429' | '401' | 'html' | 'truncated' | 'reset' | 'hang' | 'short-page';

export const FAULT_KINDS: readonly FaultKind[] = [
  '500',
  '502',
  '503',
  '429',
  '401',
  'html',
  'truncated',
  'reset',
  'hang',
  'short-page',
];
export const DEFAULT_FAULT_KINDS: readonly FaultKind[] = ['500', '502', '503', '429'];

export interface FaultResponse {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/** The canned response of a fault that replaces the answer, or null for the other kinds. */
export function faultResponse(kind: FaultKind, retryAfterSeconds: number): FaultResponse | null {
  const json = (status: number, envelope: JsonRecord, headers?: Record<string, string>): FaultResponse => ({
    status,
    contentType: 'application/json; charset=utf-8',
    body: toJson(envelope),
    headers,
  });
  switch (kind) {
    case '500':
      return json(
        500,
        errorEnvelope(
          'InternalServerError',
          'An unexpected error occurred while running the report',
          '500',
          'System.Data.SqlClient.SqlException: Transaction (Process ID 87) was deadlocked on lock resources (simulated)',
        ),
      );
    case '502':
      return {
        status: 502,
        contentType: 'text/plain; charset=utf-8',
        body: '502 Bad Gateway: the upstream server did not answer\n',
      };
    case '503':
      return json(
        503,
        errorEnvelope(
          'ServiceUnavailable',
          'The reporting service is temporarily unavailable',
          '503',
          'Maintenance or overload (simulated); retry shortly',
        ),
      );
    case '429':
      return json(
        429,
        errorEnvelope(
          'TooManyRequests',
          'Rate limit exceeded',
          '429',
          `Too many requests for this API username; retry after ${retryAfterSeconds} s (simulated)`,
        ),
        { 'Retry-After': String(retryAfterSeconds) },
      );
    case '401':
      return json(
        401,
        errorEnvelope(
          'Unauthorized',
          'Authentication failed',
          '401',
          'The credentials were rejected (simulated fault)',
        ),
      );
    case 'html':
      return {
        status: 502,
        contentType: 'text/html; charset=utf-8',
        body:
          '<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>Bad Gateway</h1>\n' +
          '<p>The proxy server received an invalid response from an upstream server.</p>\n<hr><address>Simulated ' +
          'proxy</address></body></html>\n',
      };
    default:
      return null;
  }
}

/** Cuts a JSON body mid-way (at least one character short, never empty). */
export function truncateBody(body: string): string {
  if (body.length <= 1) return '';
  return body.slice(0, Math.max(1, Math.floor(body.length / 2)));
}

export function pickRandomFault(rng: Rng, rate: number, kinds: readonly FaultKind[]): FaultKind | undefined {
  if (rate <= 0 || kinds.length === 0) return undefined;
  if (rng.next() >= rate) return undefined;
  return rng.pick(kinds);
}

export function latencyFor(rng: Rng, latency: number | readonly [number, number] | undefined): number {
  if (latency === undefined) return 0;
  if (typeof latency === 'number') return Math.max(0, latency);
  const [min, max] = latency;
  return Math.max(0, Math.round(min + rng.next() * (max - min)));
}
