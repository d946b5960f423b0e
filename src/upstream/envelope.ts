import { cutText, describeValue, oneLine, ReportsError, serviceWords, valueText } from '../errors.js';

/** The two forms a report answer takes: a list in ResponseReport, or `{Item: ...}` (docs/upstream.md, "Envelope"). */
export type EnvelopeKind = 'collection' | 'item';

/** One parsed page of a report: its records (still service-encoded) and paging facts. */
export interface ParsedPage {
  records: Record<string, unknown>[];
  /** PagingMetadata.TotalRecords, or null when the service sent no paging metadata. */
  totalRecords: number | null;
  /** PagingMetadata.ResponseRecords, or null when absent. */
  responseRecords: number | null;
  fromCache: boolean;
  /** Why a TotalRecords that was sent cannot be used as a count (1e20, -1, 'many'). */
  unusableTotal?: string;
}

/**
 * Parses the service's envelope (docs/upstream.md, "Envelope"). Tolerates what the published
 * pages disagree on: `ResponseReport` as a list or as `{Item: object | list}` whichever kind
 * was expected, and absent `ResponseError`/`ResponseReport` members. A `ResponseError`, or a
 * `Success` that is not the boolean true, becomes an upstream error carrying ErrorCode,
 * Message, StatusCode and VerboseMessage.
 */
export function parseEnvelope(body: unknown, expected: EnvelopeKind, path: string): ParsedPage {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new ReportsError(
      'malformed_response',
      `${path} answered JSON that is not the service's envelope (expected an object with ResponseMetadata, ` +
        `got ${Array.isArray(body) ? 'a list' : typeof body}).`,
      { path },
    );
  }
  const env = body as Record<string, unknown>;
  const meta = env.ResponseMetadata as Record<string, unknown> | undefined;
  if (!meta || typeof meta !== 'object') {
    throw new ReportsError(
      'malformed_response',
      `${path} answered JSON without ResponseMetadata; this does not look like the reporting service (check REPORTS_BASE_URL).`,
      { path },
    );
  }
  // A failure is whatever is not plainly a success: a ResponseError of any content, or a
  // Success that is missing, a string ("false", "true") or anything but the boolean true.
  // Reading such an answer as an empty page would report "0 records, complete".
  const hasError = env.ResponseError !== undefined && env.ResponseError !== null;
  if (hasError || meta.Success === false) throw upstreamFailure(env.ResponseError, path);
  if (meta.Success !== true) throw notSuccess(meta.Success, path);

  const records = reportRecords(env.ResponseReport, expected, path);
  const paging = meta.PagingMetadata as Record<string, unknown> | undefined;
  const cache = meta.CacheMetadata as Record<string, unknown> | undefined;
  const totalRecords = toCount(paging?.TotalRecords);
  const sent = paging?.TotalRecords;
  return {
    records,
    totalRecords,
    responseRecords: toCount(paging?.ResponseRecords),
    fromCache: cache?.IsFromCache === true,
    ...(totalRecords === null && sent !== undefined && sent !== null
      ? {
          unusableTotal:
            `The service sent TotalRecords ` +
            `${cutText(typeof sent === 'string' ? sent : (JSON.stringify(sent) ?? String(sent)), 40)}, which is ` +
            `not a usable count; records were read page by page until a short page, within the cap.`,
        }
      : {}),
  };
}

function reportRecords(report: unknown, expected: EnvelopeKind, path: string): Record<string, unknown>[] {
  if (report === undefined || report === null) return [];
  // Accept both kinds regardless of `expected`: the published pages disagree between versions.
  let list: unknown;
  if (Array.isArray(report)) list = report;
  else if (typeof report === 'object' && 'Item' in (report as object)) {
    const item = (report as { Item: unknown }).Item;
    list = item === null || item === undefined ? [] : Array.isArray(item) ? item : [item];
  } else {
    throw new ReportsError(
      'malformed_response',
      `${path}: ResponseReport is neither a list nor {Item: ...} (expected ${expected === 'item' ? '{Item: ...}' : 'a list of records'}).`,
      { path },
    );
  }
  const records = list as unknown[];
  const bad = records.findIndex((r) => r === null || typeof r !== 'object' || Array.isArray(r));
  if (bad !== -1) {
    throw new ReportsError('malformed_response', `${path}: record ${bad} of the page is not an object.`, { path });
  }
  return records as Record<string, unknown>[];
}

function notSuccess(success: unknown, path: string): ReportsError {
  const got = success === undefined ? 'no Success member' : `Success ${describeValue(success).replace(/;$/, '')}`;
  return new ReportsError(
    'upstream',
    `${path} answered without success: its ResponseMetadata has ${got} where true is expected, and no ResponseError ` +
      `saying why; the page is treated as failed, not as empty.`,
    { path },
  );
}

function upstreamFailure(error: unknown, path: string): ReportsError {
  // A ResponseError that is not an object (a string, a list) is the message itself.
  const e = (error && typeof error === 'object' && !Array.isArray(error) ? error : { Message: error }) as Record<
    string,
    unknown
  >;
  // The service's words, on one line of ours: no control characters, no line breaks; members
  // of any JSON type as text (an object as its JSON, not "[object Object]").
  const str = (v: unknown) => {
    const text = valueText(v);
    return text === undefined ? undefined : oneLine(text);
  };
  const errorCode = str(e.ErrorCode);
  const message = str(e.Message);
  const statusCode = str(e.StatusCode);
  const verbose = str(e.VerboseMessage);
  const parts = [
    `The service refused the request to ${path}`,
    errorCode
      ? ` (${errorCode}${statusCode ? `, status ${statusCode}` : ''})`
      : statusCode
        ? ` (status ${statusCode})`
        : '',
    `: ${message ? serviceWords(message) : 'no message given'}`,
    verbose && verbose !== message ? ` — ${serviceWords(verbose)}` : '',
    '.',
  ];
  return new ReportsError('upstream', parts.join('').replace(/\.\.$/, '.'), {
    path,
    errorCode,
    upstreamMessage: message,
    statusCode,
    verboseMessage: verbose,
  });
}

function toCount(v: unknown): number | null {
  const n = typeof v === 'string' ? Number(v) : v;
  // Beyond 2^53 a number is not a count: it cannot be added to or compared exactly.
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : null;
}
