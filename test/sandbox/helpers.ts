/**
 * Signed requests to a sandbox with Node's fetch (not the project's client), built from the
 * spec's rules so the tests check the sandbox against the spec, not against itself.
 */

import type { Sandbox } from '../../src/sandbox/service.js';
import { decodeServiceDate } from '../../src/upstream/service-date.js';
import { rfc1123, signRequest } from '../../src/upstream/sign.js';

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** Header overrides; a value of undefined removes the header. */
  headers?: Record<string, string | undefined>;
  /** The date to sign with (default: now). */
  date?: Date;
  key?: string;
  username?: string;
  /** Sign this URL instead of the one sent (to simulate tampering). */
  signUrl?: string;
  signal?: AbortSignal;
}

export interface CallResult {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON (throws when the body is not JSON). */
  json: () => Envelope;
}

export interface Envelope {
  ResponseMetadata: {
    Success: boolean;
    HasCache: boolean;
    HasPaging: boolean;
    CacheMetadata?: { IsFromCache: boolean; CachedAt: string; CacheExpiresAt: string };
    PagingMetadata?: { Offset: string; Limit: string; TotalRecords: number; ResponseRecords: number };
  };
  ResponseReport?: Array<Record<string, unknown>> | { Item: Array<Record<string, unknown>> };
  ResponseError?: { ErrorCode: string; Message: string; StatusCode: string; VerboseMessage: string };
}

export function query(params: Record<string, string>): string {
  const pairs = Object.entries(params).map(
    ([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v).replace(/%2C/g, ',')}`,
  );
  return pairs.length ? `?${pairs.join('&')}` : '';
}

export async function call(sb: Sandbox, pathAndQuery: string, opts: CallOptions = {}): Promise<CallResult> {
  const method = opts.method ?? 'GET';
  const url = `${sb.url}${pathAndQuery}`;
  const date = rfc1123(opts.date ?? new Date());
  const contentType = 'application/json';
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'CONTENT-TYPE': contentType,
    'X-SERVICE-API-USERNAME': opts.username ?? sb.username,
    'X-SERVICE-API-DATE': date,
    'X-SERVICE-API-SIGNATURE': signRequest(method, opts.signUrl ?? url, contentType, date, opts.key ?? sb.key),
  };
  for (const [k, v] of Object.entries(opts.headers ?? {})) {
    const existing = Object.keys(headers).find((h) => h.toLowerCase() === k.toLowerCase());
    if (existing) delete headers[existing];
    if (v !== undefined) headers[k] = v;
  }
  const res = await fetch(url, {
    method,
    headers,
    body: opts.body === undefined ? undefined : typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body),
    signal: opts.signal,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) as Envelope };
}

/** GET a transaction and return the parsed envelope (asserting nothing). */
export async function getJson(
  sb: Sandbox,
  path: string,
  params: Record<string, string> = {},
  opts: CallOptions = {},
): Promise<Envelope> {
  return (await call(sb, `${path}${query(params)}`, opts)).json();
}

/** The records of an envelope, whichever the kind. */
export function recordsOf(env: Envelope): Array<Record<string, unknown>> {
  const r = env.ResponseReport;
  if (r === undefined) throw new Error(`no ResponseReport: ${JSON.stringify(env.ResponseError)}`);
  if (Array.isArray(r)) return r;
  // An Item report's one record may come as the object itself (docs/upstream.md, "Envelope").
  const item = r.Item as unknown;
  return Array.isArray(item) ? item : item === undefined || item === null ? [] : [item as Record<string, unknown>];
}

/** Every page of a paged transaction, walked by Offset += Limit. */
export async function walk(
  sb: Sandbox,
  path: string,
  params: Record<string, string>,
  limit: number,
  opts: CallOptions = {},
): Promise<{ records: unknown[]; pages: Envelope[] }> {
  const records: unknown[] = [];
  const pages: Envelope[] = [];
  for (let offset = 0; ; offset += limit) {
    const env = await getJson(sb, path, { ...params, Offset: String(offset), Limit: String(limit) }, opts);
    pages.push(env);
    const recs = recordsOf(env);
    records.push(...recs);
    if (offset + limit >= env.ResponseMetadata.PagingMetadata!.TotalRecords) break;
  }
  return { records, pages };
}

/** `YYYY-MM-DD` local date of a service datetime, as written (offset kept). */
export function localDate(value: unknown): string {
  const iso = decodeServiceDate(String(value));
  if (!iso) throw new Error(`not a service date with a value: ${String(value)}`);
  return iso.slice(0, 10);
}

/** `20261115` -> `2026-11-15`. */
export function dashed(ymd: string): string {
  return `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)}`;
}

/** Day number (days since 1970-01-01) -> `2026-11-15`. */
export function dayIso(day: number): string {
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}
