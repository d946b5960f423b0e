import type { ErrorKind } from '../errors.js';
import { oneLine, ReportsError, redact, serviceWords, valueText } from '../errors.js';

/**
 * The one factory that turns an HTTP answer or a transport failure into a ReportsError
 * (docs/upstream.md, "Errors and retries"). What is retryable is decided here and nowhere else:
 * connection errors, timeouts, 429, 502, 503, 504. Never other 4xx, never 500.
 */
const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

export interface HttpAnswer {
  status: number;
  contentType: string;
  /** The `Date` header of the response, if any. */
  date?: string;
  retryAfter?: string;
  /** The body as text; absent only when a large successful page was parsed in pieces
   *  (json-pieces.ts), which nothing reads the text of. */
  bodyText?: string;
  /** The parsed body, when it was JSON. */
  json?: unknown;
  /** The number PageRequest.keepWire gave the body as sent, when it copied it. */
  wire?: number;
}

export function errorFromStatus(answer: HttpAnswer, path: string, now: Date, secrets: readonly string[]): ReportsError {
  const { status } = answer;
  const envelopeError = envelopeErrorText(answer.json);
  const said = envelopeError
    ? ` The service said: ${serviceWords(envelopeError)}`
    : answer.json !== undefined
      ? ''
      : (answer.bodyText ?? '').trim() === ''
        ? ' The body was empty.'
        : ` The body (${answer.contentType || 'no content type'}) begins: ${bodySnippet(answer, secrets)}`;
  const details = { status, path, upstreamMessage: envelopeError };

  if (status === 401 || status === 403) {
    return new ReportsError(
      'auth',
      `The service refused the credentials for ${path} (HTTP ${status}). Check REPORTS_API_USERNAME and ` +
        `REPORTS_API_KEY.${clockAdvice(answer.date, now)}${said}`,
      details,
    );
  }
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(answer.retryAfter, now);
    const wait = retryAfterMs !== undefined ? ` It asked to wait ${Math.ceil(retryAfterMs / 1000)} s.` : '';
    return new ReportsError(
      'rate_limited',
      `The service is rate limiting requests to ${path} (HTTP 429).${wait} Lower REPORTS_CONCURRENCY or try again shortly.`,
      { ...details, retryAfterMs },
      true,
    );
  }
  const kind: ErrorKind = status >= 500 ? 'server' : 'upstream';
  const what =
    status === 404
      ? ` ${path} was not found: check REPORTS_BASE_URL (it should end where the report paths begin).`
      : status >= 500
        ? ' The service failed; this is not caused by the request.'
        : '';
  return new ReportsError(
    kind,
    `${path} answered HTTP ${status}.${what}${said}`,
    details,
    RETRYABLE_STATUS.has(status),
  );
}

/** A 2xx answer whose body is not JSON (an HTML error page, truncated JSON). */
export function malformedBody(answer: HttpAnswer, path: string, secrets: readonly string[]): ReportsError {
  return new ReportsError(
    'malformed_response',
    `${path} answered HTTP ${answer.status} with ${answer.contentType || 'no content type'} that is not valid JSON; ` +
      `first 200 characters: ${bodySnippet(answer, secrets)}`,
    { status: answer.status, path },
  );
}

export function networkError(err: unknown, origin: string, path: string, secrets: readonly string[]): ReportsError {
  const e = err as { code?: string; message?: string } | undefined;
  const code = e?.code ? `${e.code}: ` : '';
  const message = redact(`${code}${e?.message ?? String(err)}`, secrets);
  return new ReportsError(
    'network',
    `Could not complete the request to ${origin}${path} (${message}). Check REPORTS_BASE_URL and that the service is reachable.`,
    { path },
    true,
  );
}

export function timeoutError(path: string, timeoutMs: number): ReportsError {
  return new ReportsError(
    'timeout',
    `${path} did not answer within ${timeoutMs} ms (REPORTS_TIMEOUT_MS).`,
    { path },
    true,
  );
}

export function budgetError(path: string, budgetMs: number): ReportsError {
  return new ReportsError(
    'timeout',
    `The call's time budget of ${budgetMs} ms (REPORTS_CALL_BUDGET_MS) ran out while waiting for ${path}.`,
    { path },
  );
}

/** Retry-After is either delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/** How far the local clock is from the service's, when its Date header tells. */
export function clockSkewMs(dateHeader: string | undefined, now: Date): number | undefined {
  if (!dateHeader) return undefined;
  const service = Date.parse(dateHeader);
  return Number.isNaN(service) ? undefined : now.getTime() - service;
}

function clockAdvice(dateHeader: string | undefined, now: Date): string {
  const skew = clockSkewMs(dateHeader, now);
  if (skew === undefined) return ' The service sent no Date header, so the clock could not be compared.';
  // HTTP dates have 1 s resolution; a couple of seconds is noise.
  if (Math.abs(skew) < 60_000)
    return (
      ` The local clock agrees with the service's (within ${Math.max(1, Math.round(Math.abs(skew) / 1000))} ` +
      `s), so the clock is not the cause.`
    );
  return (
    ` The local clock is ${formatDuration(Math.abs(skew))} ${skew > 0 ? 'ahead of' : 'behind'} the service's ` +
    `(its Date: ${dateHeader}); signatures carry the time, so correct the system clock.`
  );
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}

function bodySnippet(answer: HttpAnswer, secrets: readonly string[]): string {
  const text = oneLine(redact(answer.bodyText ?? '', secrets).slice(0, 200))
    .replace(/\s+/g, ' ')
    .trim();
  return text ? `'${text}'` : '(empty body)';
}

function envelopeErrorText(json: unknown): string | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const err = (json as { ResponseError?: Record<string, unknown> }).ResponseError;
  if (!err || typeof err !== 'object') return undefined;
  const parts = [valueText(err.ErrorCode), valueText(err.Message)].filter((v) => v !== undefined && v !== '');
  return parts.length ? oneLine(parts.join(': ')) : undefined;
}
