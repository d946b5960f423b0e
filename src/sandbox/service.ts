/**
 * The embedded sandbox: a faithful simulator of the reporting service (docs/upstream.md)
 * over HTTP on loopback, with deterministic synthetic data, the real signature check, the
 * envelope, paging, caching metadata, error envelopes, and injectable latency and faults.
 * Used by the demo, the tests and the benchmarks. node:http only.
 *
 * Request handling order: route (404) -> verb (405) -> signature (401) -> request body (400)
 * -> format and Accept (406) -> parameters (200 error envelope) -> records. Injected faults
 * and latency apply before all of that, to every request.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { checkSignature } from './auth.js';
import type { JsonRecord } from './booking-detail.js';
import { chooseEncoding, compress } from './compress.js';
import { type Dataset, DEFAULT_DATA_NOW, sharedDataset } from './data.js';
import { CALLBACK_NAME, errorEnvelope, successEnvelope, toCsv, toJson, toJsonp } from './envelope.js';
import {
  DEFAULT_FAULT_KINDS,
  type FaultKind,
  faultResponse,
  latencyFor,
  pickRandomFault,
  truncateBody,
} from './faults.js';
import { Rng } from './random.js';
import { prepare, type ReportContext, type ReportDef, reportAtPath, reportByName } from './reports.js';
import { pagingForLog, parsePaging, SandboxError } from './validate.js';

export type { Dataset } from './data.js';
export type { FaultKind } from './faults.js';

export interface SandboxOptions {
  /** Default 42; same seed => byte-identical answers. */
  seed?: number;
  /** Number of bookings, default 2000 (40000 gives 100k+ segment and coupon records). */
  size?: number;
  /** Credentials it accepts; defaults DEFAULT_USERNAME / DEFAULT_KEY. */
  username?: string;
  key?: string;
  /** Default 0 (ephemeral) / '127.0.0.1'. */
  port?: number;
  host?: string;
  /** Its clock, for the 5-minute date window and the cache metadata; default the real clock. */
  now?: () => Date;
  /** Added before answering each request: fixed, or a random [min, max]. */
  latencyMs?: number | [min: number, max: number];
  /** Share of requests (0..1) given a random fault from faultKinds (seeded). */
  faultRate?: number;
  /** Default ['500', '502', '503', '429']. */
  faultKinds?: FaultKind[];
  /** Retry-After on 429, default 1. */
  retryAfterSeconds?: number;
  /** Scripted faults, checked before faultRate. */
  faultPlan?: (req: SandboxRequestInfo) => FaultKind | undefined;
  /** Added to the TotalRecords reported on this request (totals changing mid-paging). */
  totalDrift?: (req: SandboxRequestInfo) => number;
  /** Anchor of the synthetic data's dates; default 2026-11-15T00:00:00Z. */
  dataNow?: Date;
  /** Compress answers as the request's Accept-Encoding allows (br, gzip, deflate); default true. */
  compress?: boolean;
}

export interface SandboxRequestInfo {
  /** 1-based arrival number since the sandbox started (resetStats does not reset it). */
  n: number;
  method: string;
  /** The path as requested, without the query string. */
  path: string;
  /** Canonical transaction name, '' when the path is unknown. */
  transaction: string;
  /** Query parameters, merged with a POST body's members (lists comma-joined). */
  query: Record<string, string>;
  offset: number;
  limit: number;
}

export type SandboxRequestLog = SandboxRequestInfo & {
  /** HTTP status answered; 0 when no answer was sent (reset, hang, client gone). */
  status: number;
  startedAt: number;
  endedAt: number;
  fault?: FaultKind;
  /** Bytes of the answer's body as sent (compressed when it was), 0 when none was sent. */
  bodyBytes: number;
  /** The answer's Content-Encoding, when it was compressed. */
  encoding?: string;
};

export interface Sandbox {
  url: string;
  username: string;
  key: string;
  requests: SandboxRequestLog[];
  maxInFlight: number;
  resetStats(): void;
  dataset: Dataset;
  report(transaction: string, params: Record<string, string>): unknown[];
  close(): Promise<void>;
}

export const DEFAULT_USERNAME = 'demo-user';
/** The demo key: not a secret, it only opens the local sandbox. */
export const DEFAULT_KEY = 'demo-key-7f3a9c2e51b84d06';
export const CACHE_TTL_MS = 60_000;
const ROWS_CACHE_ENTRIES = 48;
const MAX_BODY_BYTES = 1_000_000;

interface Answer {
  status: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

function jsonAnswer(status: number, value: unknown, headers?: Record<string, string>): Answer {
  return { status, contentType: 'application/json; charset=utf-8', body: toJson(value), headers };
}

function errorAnswer(
  status: number,
  code: string,
  message: string,
  verbose: string,
  headers?: Record<string, string>,
): Answer {
  return jsonAnswer(status, errorEnvelope(code, message, String(status), verbose), headers);
}

function headerText(req: IncomingMessage, name: string): string {
  const v = req.headers[name];
  return (Array.isArray(v) ? v.join(',') : v) ?? '';
}

/** A POST body's members as query-style strings (lists comma-joined). */
function bodyParams(text: string, transaction: string): Record<string, string> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new SandboxError(
      'SerializationException',
      'The request body is not valid JSON',
      `${transaction}: POST bodies are JSON objects whose members are the query parameters`,
      '400',
      400,
    );
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new SandboxError(
      'SerializationException',
      'The request body must be a JSON object',
      `${transaction}: POST bodies are JSON objects whose members are the query parameters`,
      '400',
      400,
    );
  }
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parsed as Record<string, unknown>)) {
    if (v === null || v === undefined) continue;
    if (Array.isArray(v)) out[k] = v.map((x) => (typeof x === 'object' ? JSON.stringify(x) : String(x))).join(',');
    else if (typeof v === 'object') out[k] = JSON.stringify(v);
    else out[k] = String(v);
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooBig = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) tooBig = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(tooBig ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', () => resolve(''));
    req.on('close', () => resolve(tooBig ? null : Buffer.concat(chunks).toString('utf8')));
  });
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? 42;
  const size = options.size ?? 2000;
  const username = options.username ?? DEFAULT_USERNAME;
  const key = options.key ?? DEFAULT_KEY;
  const host = options.host ?? '127.0.0.1';
  const now = options.now ?? (() => new Date());
  const dataNow = options.dataNow ?? DEFAULT_DATA_NOW;
  const faultKinds = options.faultKinds ?? [...DEFAULT_FAULT_KINDS];
  const retryAfter = options.retryAfterSeconds ?? 1;
  const faultRng = Rng.derive(seed, 'faults');
  const latencyRng = Rng.derive(seed, 'latency');

  let dataset: Dataset | undefined;
  const getDataset = (): Dataset => (dataset ??= sharedDataset({ seed, size, dataNow }));

  /** Selected rows per (transaction, validated parameters): paging re-reads, never recomputes. */
  const rowsCache = new Map<string, unknown[]>();
  /** First time each query (ignoring Offset) was answered, for CacheMetadata. */
  const serviceCache = new Map<string, number>();

  const compute = (
    def: ReportDef<unknown>,
    raw: Readonly<Record<string, string>>,
  ): { ctx: ReportContext; rows: unknown[]; key: string } => {
    const ds = getDataset();
    const ctx = prepare(def, ds, raw);
    const cacheKey = `${def.transaction}?${JSON.stringify(Object.entries(ctx.p).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
    let rows = rowsCache.get(cacheKey);
    if (rows) {
      rowsCache.delete(cacheKey);
    } else {
      rows = def.select(ctx);
      if (rowsCache.size >= ROWS_CACHE_ENTRIES) rowsCache.delete(rowsCache.keys().next().value as string);
    }
    rowsCache.set(cacheKey, rows);
    return { ctx, rows, key: cacheKey };
  };

  const state = {
    requests: [] as SandboxRequestLog[],
    maxInFlight: 0,
  };
  let inFlight = 0;
  let counter = 0;
  let closed = false;
  const sockets = new Set<Socket>();
  const sleepers = new Set<() => void>();

  const sleep = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  function answerRequest(
    req: IncomingMessage,
    info: SandboxRequestInfo,
    query: Record<string, string>,
    def: ReportDef<unknown> | undefined,
    suffixFormat: 'json' | 'csv' | undefined,
    bodyText: string | null,
    fault: FaultKind | undefined,
  ): Answer {
    const method = info.method;
    if (!def) {
      return errorAnswer(
        404,
        'NotFound',
        `No transaction at ${info.path}`,
        'Unknown path: this service answers only its public report transactions (for example /AirSegmentsByDate).',
      );
    }
    const allowed = def.verbs === 'ALL' ? 'GET, POST' : 'GET';
    if (method !== 'GET' && !(method === 'POST' && def.verbs === 'ALL')) {
      return errorAnswer(
        405,
        'MethodNotAllowed',
        `${method} is not allowed on ${def.paths[0]}`,
        `${def.transaction} accepts ${allowed}.`,
        { Allow: allowed },
      );
    }
    const hostHeader = req.headers.host ?? `${host}:${port}`;
    const authFailure = checkSignature(
      method,
      `http://${hostHeader}${req.url ?? '/'}`,
      req.headers,
      { username, key },
      now().getTime(),
    );
    if (authFailure) return errorAnswer(401, authFailure.code, authFailure.message, authFailure.verbose);

    let params = query;
    if (method === 'POST' && bodyText === null) {
      return errorAnswer(
        413,
        'RequestTooLarge',
        'The request body is too large',
        `Bodies are limited to ${MAX_BODY_BYTES} bytes.`,
      );
    }

    // Representation: suffix, then ?format=, then the Accept header.
    const accept = headerText(req, 'accept');
    let format = suffixFormat;
    const formatParam = params.format?.trim().toLowerCase();
    if (!format && formatParam) {
      if (formatParam !== 'json' && formatParam !== 'csv') {
        return errorAnswer(
          406,
          'UnsupportedFormat',
          `format '${params.format}' is not supported`,
          'Use format=json or format=csv (or the .json/.csv suffix).',
        );
      }
      format = formatParam;
    }
    if (!format) format = /text\/csv/i.test(accept) && !/application\/json/i.test(accept) ? 'csv' : 'json';
    if (format === 'json' && def.accept && !/application\/json/i.test(accept)) {
      return errorAnswer(
        406,
        'NotAcceptable',
        `${def.transaction} requires the header Accept: application/json`,
        `Received Accept '${accept.slice(0, 80)}'. This transaction answers JSON only to requests that accept ` +
          `application/json (or ask for CSV with .csv / format=csv).`,
      );
    }
    const callback = format === 'json' ? params.callback?.trim() : undefined;
    if (callback !== undefined && callback !== '' && !CALLBACK_NAME.test(callback)) {
      return errorAnswer(
        400,
        'InvalidCallback',
        'callback must be a JavaScript function name',
        `Received callback '${callback.slice(0, 60)}'.`,
      );
    }
    const wrap = (status: number, value: unknown): Answer =>
      callback
        ? { status, contentType: 'application/javascript; charset=utf-8', body: toJsonp(callback, value) }
        : jsonAnswer(status, value);

    try {
      if (method === 'POST' && bodyText && bodyText.trim() !== '') {
        params = { ...params, ...bodyParams(bodyText, def.transaction) };
      }
      const { ctx, rows, key: rowsKey } = compute(def, params);
      const paging = def.paging ? parsePaging(def.transaction, params) : null;
      const start = paging ? Math.min(paging.offset, rows.length) : 0;
      const end = paging ? Math.min(rows.length, paging.offset + paging.limit) : rows.length;
      let records: JsonRecord[] = [];
      for (let i = start; i < end; i++) records.push(def.render(rows[i], ctx, i));
      const responseRecords = records.length;
      if (fault === 'short-page') records = records.slice(0, Math.floor(records.length / 2));
      const total = rows.length + (options.totalDrift?.(info) ?? 0);

      const nowMs = now().getTime();
      const cacheKey = paging ? `${rowsKey}#${paging.limit}` : rowsKey;
      const cachedAt = serviceCache.get(cacheKey);
      const fromCache = cachedAt !== undefined && nowMs - cachedAt < CACHE_TTL_MS && nowMs >= cachedAt;
      const since = fromCache ? cachedAt : nowMs;
      if (!fromCache) {
        if (serviceCache.size >= 5000) {
          for (const [k, t] of serviceCache) if (nowMs - t >= CACHE_TTL_MS || nowMs < t) serviceCache.delete(k);
          if (serviceCache.size >= 5000) serviceCache.clear();
        }
        serviceCache.set(cacheKey, nowMs);
      }

      const envelope = successEnvelope(
        def.envelope,
        records,
        paging ? { offset: paging.offset, limit: paging.limit, totalRecords: total, responseRecords } : null,
        { isFromCache: fromCache, cachedAtMs: since, expiresAtMs: since + CACHE_TTL_MS },
      );
      if (format === 'csv') return { status: 200, contentType: 'text/csv; charset=utf-8', body: toCsv(records) };
      return wrap(200, envelope);
    } catch (e) {
      if (e instanceof SandboxError)
        return wrap(e.httpStatus, errorEnvelope(e.code, e.message, e.statusCode, e.verbose));
      throw e;
    }
  }

  function send(res: ServerResponse, a: Answer, entry?: SandboxRequestLog, acceptEncoding?: string): void {
    if (res.destroyed || res.writableEnded || res.headersSent) return;
    const encoding = options.compress === false ? undefined : chooseEncoding(acceptEncoding);
    const body = encoding ? compress(a.body, encoding) : a.body;
    if (entry) {
      entry.bodyBytes = Buffer.byteLength(body);
      if (encoding) entry.encoding = encoding;
    }
    res.writeHead(a.status, {
      // The sandbox's own clock, so a client checking its skew against Date sees the same
      // time the signature window uses.
      Date: now().toUTCString(),
      'Content-Type': a.contentType,
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'private',
      ...(encoding ? { 'Content-Encoding': encoding, Vary: 'Accept-Encoding' } : {}),
      ...a.headers,
    });
    res.end(body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const startedAt = Date.now();
    const n = ++counter;
    inFlight += 1;
    if (inFlight > state.maxInFlight) state.maxInFlight = inFlight;
    const method = (req.method ?? 'GET').toUpperCase();
    const entry: SandboxRequestLog = {
      n,
      method,
      path: req.url ?? '/',
      transaction: '',
      query: {},
      offset: 0,
      limit: 100,
      status: 0,
      startedAt,
      endedAt: 0,
      bodyBytes: 0,
    };
    state.requests.push(entry);
    res.on('close', () => {
      inFlight -= 1;
      entry.endedAt = Date.now();
      entry.status = res.headersSent ? res.statusCode : 0;
    });
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    } catch {
      send(
        res,
        errorAnswer(
          400,
          'BadRequest',
          'The request URL cannot be parsed',
          `Received '${String(req.url).slice(0, 100)}'.`,
        ),
      );
      return;
    }
    let path = url.pathname;
    entry.path = path;

    let suffixFormat: 'json' | 'csv' | undefined;
    const suffix = /\.(json|csv)$/i.exec(path);
    if (suffix) {
      suffixFormat = suffix[1].toLowerCase() as 'json' | 'csv';
      path = path.slice(0, -suffix[0].length);
    }
    if (path.length > 1) path = path.replace(/\/+$/, '');
    const def = reportAtPath(path);
    const query: Record<string, string> = {};
    for (const [k, v] of url.searchParams) query[k] = query[k] === undefined ? v : `${query[k]},${v}`;

    const bodyText = await readBody(req);
    let merged = query;
    if (method === 'POST' && def && bodyText && bodyText.trim() !== '') {
      try {
        merged = { ...query, ...bodyParams(bodyText, def.transaction) };
      } catch {
        // Reported by answerRequest after the signature check.
      }
    }
    const paging = pagingForLog(merged);
    const info: SandboxRequestInfo = {
      n,
      method,
      path: url.pathname,
      transaction: def?.transaction ?? '',
      query: merged,
      offset: paging.offset,
      limit: paging.limit,
    };
    entry.transaction = info.transaction;
    entry.query = merged;
    entry.offset = paging.offset;
    entry.limit = paging.limit;

    const fault = options.faultPlan?.(info) ?? pickRandomFault(faultRng, options.faultRate ?? 0, faultKinds);
    if (fault) entry.fault = fault;
    const delay = latencyFor(latencyRng, options.latencyMs);
    if (delay > 0) await sleep(delay);
    if (closed || res.destroyed) return;

    if (fault === 'hang') return; // never answered; close() destroys the socket
    if (fault === 'reset') {
      req.socket.destroy();
      return;
    }
    const canned = fault ? faultResponse(fault, retryAfter) : null;
    if (canned) {
      send(res, canned, entry, req.headers['accept-encoding']);
      return;
    }
    const answer = answerRequest(req, info, query, def, suffixFormat, bodyText, fault);
    if (fault === 'truncated') answer.body = truncateBody(answer.body);
    send(res, answer, entry, req.headers['accept-encoding']);
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      const detail = err instanceof Error ? err.message : String(err);
      send(res, errorAnswer(500, 'InternalServerError', 'The sandbox failed while answering', detail.slice(0, 300)));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket) => {
    socket.destroy();
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 0);
  const urlHost = host.includes(':') ? `[${host}]` : host;

  const sandbox: Sandbox = {
    url: `http://${urlHost}:${port}`,
    username,
    key,
    get requests() {
      return state.requests;
    },
    set requests(v: SandboxRequestLog[]) {
      state.requests = v;
    },
    get maxInFlight() {
      return state.maxInFlight;
    },
    set maxInFlight(v: number) {
      state.maxInFlight = v;
    },
    resetStats() {
      state.requests = [];
      state.maxInFlight = inFlight;
    },
    get dataset() {
      return getDataset();
    },
    report(transaction: string, params: Record<string, string>): unknown[] {
      const def = reportByName(transaction);
      if (!def) throw new Error(`Unknown transaction '${transaction}'`);
      const { ctx, rows } = compute(def, params);
      return rows.map((row, i) => def.render(row, ctx, i));
    },
    close(): Promise<void> {
      if (closed) return Promise.resolve();
      closed = true;
      for (const wake of [...sleepers]) wake();
      return new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 1000);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeAllConnections();
        for (const s of sockets) s.destroy();
      });
    },
  };
  return sandbox;
}
