/**
 * One error family for everything that can go wrong in a tool call (docs/architecture.md).
 * Handlers only throw these; one boundary in the server turns them into `isError` results.
 * Messages are written for the assistant: what went wrong and what to do next. They never
 * carry the API key or a signature (see redact()).
 */
export type ErrorKind =
  | 'invalid_input' // a tool argument is wrong; nothing was sent upstream
  | 'configuration' // a setting is missing or malformed
  | 'auth' // 401/403: username, key or clock
  | 'rate_limited' // 429
  | 'server' // 5xx
  | 'timeout' // one request exceeded REPORTS_TIMEOUT_MS
  | 'network' // connection refused/reset, DNS
  | 'malformed_response' // not JSON, truncated, not the envelope
  | 'upstream' // Success:false envelope
  | 'inconsistent' // paging does not add up
  | 'cancelled' // the caller aborted
  | 'not_found'; // an unknown resultId or resource

export interface ReportsErrorDetails {
  status?: number;
  errorCode?: string;
  statusCode?: string;
  verboseMessage?: string;
  upstreamMessage?: string;
  retryAfterMs?: number;
  path?: string;
  /** Input parameter the error is about (invalid_input). */
  param?: string;
  /** not_found of a result that was held once: whose it was (only they learn why it went). */
  goneOwner?: string;
}

export class ReportsError extends Error {
  override readonly name = 'ReportsError';
  readonly kind: ErrorKind;
  readonly details: ReportsErrorDetails;
  /** Whether the same request may succeed if sent again (retry policy reads this). */
  readonly retryable: boolean;

  constructor(kind: ErrorKind, message: string, details: ReportsErrorDetails = {}, retryable = false) {
    super(message);
    this.kind = kind;
    this.details = details;
    this.retryable = retryable;
  }
}

/** The one error a cancelled call ends with, wherever the abort was noticed. */
export function cancelledError(signal?: AbortSignal): ReportsError {
  return signal?.reason instanceof ReportsError
    ? signal.reason
    : new ReportsError('cancelled', 'The request was cancelled by the client.');
}

export function invalidInput(param: string, received: unknown, expected: string): ReportsError {
  return new ReportsError('invalid_input', `${param}: ${describeValue(received)} ${expected}`, { param });
}

/** `'2026-02-30'`, `5 (number)`, `missing`: how a received value is quoted in messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'missing;';
  if (typeof value === 'string') return quote(value);
  if (typeof value === 'number' || typeof value === 'boolean') return `${value} (${typeof value})`;
  if (value === null) return 'null';
  return `${cutText(valueText(value, 80) ?? String(value), 80)} (${Array.isArray(value) ? 'array' : typeof value})`;
}

/**
 * A JSON value of any type as text: a string as it is, a number or boolean written out, an
 * object or array as its JSON (never "[object Object]"), cut at `max`; undefined for null or
 * absent. Used where the service's members may be of any type (a ResponseError's).
 */
export function valueText(value: unknown, max = 2_000): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value !== 'object') return String(value);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined; // nested past what the stack holds
  }
  return json === undefined
    ? `(${Array.isArray(value) ? 'array' : 'object'} too deeply nested to show)`
    : cutText(json, max);
}

/** A received text in quotes, cut to `max` characters with its length when longer. */
export function quote(text: string, max = 80): string {
  return `'${cutText(oneLine(text), max)}'`;
}

// C0 controls but tab, line feed and carriage return; DEL; C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;
const LINE_BREAKS = /[\r\n\u2028\u2029\u0085\t]+/g;
/** Any character CONTROL or LINE_BREAKS would change. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/**
 * Text from the service (or a caller) as it may enter one line of our text: control
 * characters removed, line breaks and tabs made spaces, so it can neither start a line of its
 * own (a fake `resultId:` or `Note:` line) nor drive a terminal.
 */
export function oneLine(text: string): string {
  // Nearly every text has none of them: one scan instead of two replaces.
  if (!CONTROL_OR_BREAK.test(text)) return text;
  return text.replace(CONTROL, '').replace(LINE_BREAKS, ' ');
}

/**
 * The service's own words inside a line of ours: on one line, in double quotes, cut at `max`
 * characters, so a reader (or a model) can tell where the service's text ends and ours resumes.
 */
export function serviceWords(text: string, max = 500): string {
  return `"${cutText(oneLine(text), max)}"`;
}

/** Control characters removed; line breaks kept (for texts whose lines are our own). */
export function withoutControls(text: string): string {
  return text.replace(CONTROL, '');
}

/**
 * The one way a long text is shortened anywhere in the output: its first `max` characters,
 * then a marker saying how long it was (`…[cut: 3,000,000 characters in all]`).
 */
export function cutText(text: string, max: number): string {
  return text.length > max
    ? `${text.slice(0, max)}…[cut: ${text.length.toLocaleString('en-US')} characters in all]`
    : text;
}

/** Removes every occurrence of the given secrets from a text (belt and braces for logs). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (s && s.length >= 4 && out.includes(s)) out = out.split(s).join('[redacted]');
  return out;
}
