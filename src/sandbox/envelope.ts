/**
 * The response envelope (docs/upstream.md, "Envelope") and the three wire formats: JSON (with the
 * service's escaped `\/Date(...)\/` slashes), JSONP and CSV.
 */
import type { JsonRecord } from './booking-detail.js';
import { serviceInstant } from './days.js';

export interface PageInfo {
  offset: number;
  limit: number;
  totalRecords: number;
  responseRecords: number;
}

export interface CacheInfo {
  isFromCache: boolean;
  cachedAtMs: number;
  expiresAtMs: number;
}

export function successEnvelope(
  envelope: 'item' | 'collection',
  records: JsonRecord[],
  page: PageInfo | null,
  cache: CacheInfo,
): JsonRecord {
  const meta: JsonRecord = {
    Success: true,
    HasCache: true,
    HasPaging: page !== null,
    CacheMetadata: {
      IsFromCache: cache.isFromCache,
      CachedAt: serviceInstant(cache.cachedAtMs, 0),
      CacheExpiresAt: serviceInstant(cache.expiresAtMs, 0),
    },
  };
  if (page) {
    meta.PagingMetadata = {
      Offset: String(page.offset),
      Limit: String(page.limit),
      TotalRecords: page.totalRecords,
      ResponseRecords: page.responseRecords,
    };
  }
  // The spec says "ResponseReport.Item is one <record>" while pages hold many; the published
  // pages leave open which. The sandbox answers both forms: a lone record as the object itself,
  // several as a list, so clients meet both.
  const item = records.length === 1 ? records[0] : records;
  return { ResponseMetadata: meta, ResponseReport: envelope === 'item' ? { Item: item } : records };
}

export function errorEnvelope(code: string, message: string, statusCode: string, verbose: string): JsonRecord {
  return {
    ResponseMetadata: { Success: false, HasCache: false, HasPaging: false },
    ResponseError: { ErrorCode: code, Message: message, StatusCode: statusCode, VerboseMessage: verbose },
  };
}

const SERVICE_DATE_IN_JSON = /"\/Date\((-?\d+(?:[+-]\d{4})?)\)\/"/g;

/** JSON text as the service writes it: service dates with escaped slashes. */
export function toJson(value: unknown): string {
  return JSON.stringify(value).replace(SERVICE_DATE_IN_JSON, '"\\/Date($1)\\/"');
}

export const CALLBACK_NAME = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/;

export function toJsonp(callback: string, value: unknown): string {
  return `${callback}(${toJson(value)});`;
}

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * CSV of records (layout not published; chosen): a header row with every top-level member
 * (in record order), then one row per record; nested lists/objects are JSON-encoded in
 * their cell; RFC 4180 quoting, CRLF line ends. No records: an empty body.
 */
export function toCsv(records: readonly JsonRecord[]): string {
  // Union of members; one first seen in a later record goes right after its predecessor
  // in that record, so optional members keep their place in the record type's order.
  const columns: string[] = [];
  for (const r of records) {
    let after = -1;
    for (const k of Object.keys(r)) {
      const at = columns.indexOf(k);
      if (at >= 0) {
        after = at;
      } else {
        columns.splice(after + 1, 0, k);
        after += 1;
      }
    }
  }
  if (columns.length === 0) return '';
  const lines = [columns.map(csvCell).join(',')];
  for (const r of records) lines.push(columns.map((c) => csvCell(r[c])).join(','));
  return `${lines.join('\r\n')}\r\n`;
}
