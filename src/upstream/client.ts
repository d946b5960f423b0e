import { setTimeout as sleep } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { cancelledError, ReportsError } from '../errors.js';
import { ACCEPT_ENCODING, bodyCoding, decodeBytes, discard, tooLarge, type WireBody } from './body-decode.js';
import { readBody } from './body-text.js';
import { EchoRedactor } from './echoes.js';
import { type EnvelopeKind, type ParsedPage, parseEnvelope } from './envelope.js';
import { budgetError, errorFromStatus, type HttpAnswer, malformedBody, networkError, timeoutError } from './failure.js';
import { parseInPieces } from './json-pieces.js';
import type { ConcurrencyLimit } from './limiter.js';
import { buildUrl, pageQuery } from './request.js';
import { HEADER_SIGNATURE, signedHeaders } from './sign.js';

export interface RetryPolicy {
  /** Total tries of one request, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export interface UpstreamOptions {
  baseUrl: string;
  username: string;
  key: string;
  timeoutMs: number;
  /** Shared process-wide; see Limiter. */
  limiter: ConcurrencyLimit;
  dispatcher?: Dispatcher;
  now?: () => Date;
  random?: () => number;
  retry?: Partial<RetryPolicy>;
  /** Most bytes one answer's body may decode to (default 256 MB, REPORTS_RESULTS_MAX_MB's default). */
  maxBodyBytes?: number;
  /** Retries and failures. */
  log?: (line: string) => void;
  /** One line per request answered (default: to `log`). The server passes a no-op: a line
   *  per page is a blocking write to a stderr pipe on the hot path of every report. */
  debug?: (line: string) => void;
}

export interface PageRequest {
  path: string;
  query: Record<string, string>;
  /** The page window; both absent for transactions without paging (no Offset/Limit sent). */
  offset?: number;
  limit?: number;
  envelope: EnvelopeKind;
  signal?: AbortSignal;
  /** Epoch ms after which no request is started or waited for (the call budget). */
  deadline?: number;
  /** The budget the deadline came from, for messages. */
  budgetMs?: number;
  /** Where the page's body as sent is copied, when it was compressed and held nothing redacted
   *  (so that decoding and parsing it again gives the page); answers the copy's number for it
   *  (PageAnswer.wire). */
  keepWire?: (wire: WireBody) => number;
  /** Asked when the request's turn to be sent comes (a slot of the limiter taken), and before
   *  each retry: false leaves it unsent, getPage then throwing NotWanted. */
  wanted?: () => boolean;
  /** Called once an answer's body is read, before it is decoded and parsed (on the main
   *  thread, where that may wait behind another page's walk): the caller may send its next
   *  request then. Called again for a retry's answer. */
  bodyRead?: () => void;
}

/** What getPage throws for a request whose `wanted()` said no when its turn came: not sent. */
export class NotWanted extends Error {
  constructor(path: string, offset: number | undefined) {
    super(`${path} Offset=${offset} was no longer wanted when its turn came, and was not sent`);
  }
}

export interface PageAnswer extends ParsedPage {
  attempts: number;
  /** With keepWire: the number keepWire gave the page's body, when it copied it. */
  wire?: number;
}

/** Where a fetch gets its pages: the service (UpstreamClient), or pages kept (upstream/kept-pages.ts). */
export interface PageSource {
  /** How many requests are sent at once. */
  readonly limiter: { readonly limit: number };
  getPage(req: PageRequest): Promise<PageAnswer>;
}

const DEFAULT_MAX_BODY_BYTES = 256 * 1024 * 1024;
const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 200, maxDelayMs: 5_000 };

/**
 * undici is loaded on the first request, not at start-up: its hundred-odd CommonJS files
 * cost about 80 ms of cold start, which a client that only lists the tools never needs.
 */
let undici: Promise<typeof import('./undici-parts.js')> | undefined;
function loadUndici(): Promise<typeof import('./undici-parts.js')> {
  undici ??= import('./undici-parts.js');
  return undici;
}

/**
 * The signed HTTP client of the reporting service: one page per call, with the limiter,
 * a timeout per request, retries with exponential backoff and jitter, each retry signed
 * afresh. Keep-alive connections through one undici Agent per client (one per process).
 */
export class UpstreamClient implements PageSource {
  /** Created with the first request (see loadUndici). */
  private dispatcher?: Promise<Dispatcher>;
  private readonly ownsDispatcher: boolean;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly retry: RetryPolicy;
  private readonly log: (line: string) => void;
  private readonly debug: (line: string) => void;
  private readonly secrets: string[];
  private readonly echoes: EchoRedactor;
  readonly limiter: ConcurrencyLimit;

  constructor(private readonly opts: UpstreamOptions) {
    this.ownsDispatcher = !opts.dispatcher;
    this.now = opts.now ?? (() => new Date());
    this.random = opts.random ?? Math.random;
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
    this.log = opts.log ?? (() => {});
    this.debug = opts.debug ?? this.log;
    this.limiter = opts.limiter;
    this.secrets = [opts.key];
    this.echoes = new EchoRedactor(this.secrets);
  }

  get origin(): string {
    return new URL(this.opts.baseUrl).origin;
  }

  /** Fetches one page, retrying what is retryable while the deadline allows. */
  async getPage(req: PageRequest): Promise<PageAnswer> {
    for (let attempt = 1; ; attempt++) {
      try {
        const page = await this.limiter.run((done) => this.attempt(req, done), req.signal);
        return { ...page, attempts: attempt };
      } catch (err) {
        if (err instanceof NotWanted) throw err;
        const error = err instanceof ReportsError ? err : networkError(err, this.origin, req.path, this.secrets);
        if (!error.retryable) throw error;
        if (attempt >= this.retry.attempts) {
          throw new ReportsError(
            error.kind,
            `${error.message} Gave up after ${attempt} attempts.`,
            error.details,
            error.retryable,
          );
        }
        const backoff = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
        const jittered = backoff / 2 + this.random() * (backoff / 2);
        const delay = Math.max(jittered, error.details.retryAfterMs ?? 0);
        if (req.deadline !== undefined && Date.now() + delay >= req.deadline) {
          throw new ReportsError(
            error.kind,
            `${error.message} Not retried: waiting ${Math.round(delay)} ms would pass the call's time budget (REPORTS_CALL_BUDGET_MS).`,
            error.details,
          );
        }
        this.log(
          `retry ${attempt}/${this.retry.attempts - 1} of ${req.path} Offset=${req.offset} in ${Math.round(delay)} ` +
            `ms after ${error.kind}${error.details.status ? ` ${error.details.status}` : ''}`,
        );
        try {
          await sleep(delay, undefined, { signal: req.signal });
        } catch {
          throw cancelledError(req.signal);
        }
      }
    }
  }

  /** One signed request; throws a ReportsError for every failure. `done` gives the limiter's
   *  slot back once the body is read (ConcurrencyLimit.run). */
  private async attempt(req: PageRequest, done?: () => void): Promise<ParsedPage & { wire?: number }> {
    if (req.signal?.aborted) throw cancelledError(req.signal);
    if (req.wanted?.() === false) throw new NotWanted(req.path, req.offset);
    const remaining = req.deadline === undefined ? Infinity : req.deadline - Date.now();
    if (remaining <= 0) throw budgetError(req.path, req.budgetMs ?? 0);
    const limitedByBudget = remaining < this.opts.timeoutMs;
    const timeoutMs = Math.min(this.opts.timeoutMs, remaining);

    const url = buildUrl(
      this.opts.baseUrl,
      req.path,
      req.offset === undefined || req.limit === undefined ? req.query : pageQuery(req.query, req.offset, req.limit),
    );
    const controller = new AbortController();
    const onCallerAbort = () => controller.abort();
    req.signal?.addEventListener('abort', onCallerAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const started = Date.now();
    const fail = (err: unknown): ReportsError => {
      if (req.signal?.aborted) return cancelledError(req.signal);
      if (timedOut)
        return limitedByBudget ? budgetError(req.path, req.budgetMs ?? 0) : timeoutError(req.path, this.opts.timeoutMs);
      return err instanceof ReportsError ? err : networkError(err, this.origin, req.path, this.secrets);
    };

    try {
      let answer: HttpAnswer;
      try {
        const read = req.bodyRead
          ? () => {
              done?.();
              req.bodyRead?.();
            }
          : done;
        answer = await this.send(url, this.now(), controller.signal, req.keepWire, read);
      } catch (err) {
        throw fail(err);
      }
      this.debug(
        `GET ${req.path}${req.offset === undefined ? '' : ` Offset=${req.offset} Limit=${req.limit}`} ` +
          `-> ${answer.status} in ${Date.now() - started} ms`,
      );
      if (answer.status < 200 || answer.status >= 300)
        throw errorFromStatus(answer, req.path, this.now(), this.secrets);
      if (answer.json === undefined) throw malformedBody(answer, req.path, this.secrets);
      const page = parseEnvelope(answer.json, req.envelope, req.path);
      return answer.wire === undefined ? page : { ...page, wire: answer.wire };
    } catch (err) {
      throw fail(err);
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  /**
   * One raw signed request for diagnose_connection: never throws for HTTP answers, so the
   * caller can inspect status, Date header and body together.
   */
  async probe(
    path: string,
    query: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<{ answer?: HttpAnswer; error?: ReportsError; elapsedMs: number; sentAt: Date }> {
    const url = buildUrl(this.opts.baseUrl, path, query);
    const sentAt = this.now();
    const started = Date.now();
    const timeout = AbortSignal.timeout(this.opts.timeoutMs);
    try {
      const answer = await this.send(url, sentAt, signal ? AbortSignal.any([signal, timeout]) : timeout);
      return { answer, elapsedMs: Date.now() - started, sentAt };
    } catch (err) {
      return { error: networkError(err, this.origin, path, this.secrets), elapsedMs: Date.now() - started, sentAt };
    }
  }

  /**
   * Signs and sends one GET, reads the whole answer. The body is redacted where it enters:
   * an upstream that echoes the request (debug pages, verbose errors) must not carry the key
   * or this request's signature into any message.
   */
  private async send(
    url: string,
    now: Date,
    signal: AbortSignal,
    keepWire?: PageRequest['keepWire'],
    bodyRead?: () => void,
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = {
      ...signedHeaders({ method: 'GET', url, username: this.opts.username, key: this.opts.key, now }),
      'Accept-Encoding': ACCEPT_ENCODING,
    };
    const [{ request }, dispatcher] = await Promise.all([loadUndici(), this.agent()]);
    const res = await request(url, { method: 'GET', headers, dispatcher, signal });
    const header = (name: string) => {
      const v = res.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    this.echoes.remember(headers[HEADER_SIGNATURE]);
    const ok = res.statusCode >= 200 && res.statusCode < 300;
    const path = new URL(url).pathname;
    const encodings = res.headers['content-encoding'];
    const encoding = Array.isArray(encodings) ? encodings.join(', ') : encodings;
    const coding = bodyCoding(res.body, encoding, path);
    const compressed = coding.undo.length > 0;
    const maxBytes = this.opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    let body: { bodyText?: string; json: unknown };
    let wire: number | undefined;
    try {
      body = await readBody(
        res.body,
        async (sent) => {
          // The request is over: the next may go out while this body is decoded and parsed.
          bodyRead?.();
          const { clean, ...read } = this.bodyOf(await decodeBytes(sent, coding, path, maxBytes), ok);
          // Copied only when parsing the bytes again gives this page: nothing in them was redacted.
          if (keepWire && ok && clean && compressed) wire = keepWire({ encoding: coding.encoding, bytes: sent });
          return read;
        },
        {
          // A body as sent is at most as large as what it decodes to, but for a few bytes a block.
          maxBytes: compressed ? maxBytes + (maxBytes >> 10) + 1024 : maxBytes,
          tooLarge: (received) => tooLarge(path, coding.encoding, maxBytes, received, compressed),
        },
      );
    } catch (err) {
      // Reading stopped early (a bound, an undecodable body): the rest of the answer is not wanted.
      discard(res.body);
      throw err;
    }
    return {
      status: res.statusCode,
      contentType: header('content-type') ?? '',
      date: header('date'),
      retryAfter: header('retry-after'),
      ...body,
      ...(wire === undefined ? {} : { wire }),
    };
  }

  /**
   * A body's JSON (undefined when it is not JSON) and its text, redacted of every echo. A
   * large successful page that holds nothing to redact is parsed in pieces and has no text
   * (json-pieces.ts): only failures read it.
   */
  private bodyOf(bytes: Buffer, ok: boolean): { bodyText?: string; json: unknown; clean: boolean } {
    const mayHoldEcho = this.echoes.mayHoldEcho(bytes);
    if (ok && !mayHoldEcho) {
      const json = parseInPieces(bytes);
      if (json !== undefined) return { json, clean: true };
    }
    const bodyText = this.echoes.text(bytes, mayHoldEcho);
    try {
      return { bodyText, json: JSON.parse(bodyText), clean: !mayHoldEcho };
    } catch {
      return { bodyText, json: undefined, clean: false };
    }
  }

  private agent(): Promise<Dispatcher> {
    const { dispatcher, limiter } = this.opts;
    this.dispatcher ??= dispatcher
      ? Promise.resolve(dispatcher)
      : loadUndici().then(
          ({ Agent }) => new Agent({ keepAliveTimeout: 10_000, connections: Math.max(limiter.limit, 1) * 2 }),
        );
    return this.dispatcher;
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher && this.dispatcher) await (await this.dispatcher).close();
  }
}
