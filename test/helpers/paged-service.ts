import type { IncomingMessage, ServerResponse } from 'node:http';
import { signRequest } from '../../src/upstream/sign.js';
import { listenOnLoopback } from './loopback-server.js';

/**
 * A minimal signed, paged HTTP service for the upstream client's tests: it checks every
 * request's signature against the URL on the request line, serves `total` numbered records
 * in Offset/Limit pages with optional latency, and lets a test script a fault per request.
 * (The full simulator is src/sandbox; this one keeps the client tests independent of it.)
 */
export type Fault =
  | {
      status: number;
      body?: string;
      contentType?: string;
      headers?: Record<string, string>;
      /** Send no Date header (Node adds one by default). */
      noDate?: true;
    }
  | { reset: true }
  | { hang: true }
  | { records: number } // answer this many records instead of the page
  | { extra: number } // answer this many records beyond Limit (a page longer than asked)
  | { total: number } // report this TotalRecords on this page
  | { delayMs: number };

export interface SeenRequest {
  n: number;
  url: string;
  offset: number;
  limit: number;
  signatureOk: boolean;
  headers: Record<string, string | string[] | undefined>;
  /** Date.now() when the request arrived. */
  at: number;
  /** Date.now() when the response was fully written, or the connection closed first. */
  endedAt?: number;
  /** The connection closed before a response was written (client abort, reset, hang). */
  closedEarly?: boolean;
}

export interface PagedService {
  url: string;
  requests: SeenRequest[];
  maxInFlight: number;
  inFlight: number;
  close(): Promise<void>;
}

export async function startPagedService(opts: {
  total: number;
  username?: string;
  key?: string;
  latencyMs?: number;
  envelope?: 'collection' | 'item';
  fault?: (req: SeenRequest) => Fault | undefined;
  /** Omit PagingMetadata entirely. */
  noPaging?: boolean;
}): Promise<PagedService> {
  const username = opts.username ?? 'api-user';
  const key = opts.key ?? 'test-secret-key';
  const requests: SeenRequest[] = [];
  const state = { inFlight: 0, maxInFlight: 0 };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = `http://${req.headers.host}${req.url}`;
    const q = new URL(url).searchParams;
    const date = String(req.headers['x-service-api-date'] ?? '');
    const expected = signRequest(req.method ?? 'GET', url, String(req.headers['content-type'] ?? ''), date, key);
    const seen: SeenRequest = {
      n: requests.length,
      url,
      offset: Number(q.get('Offset') ?? 0),
      limit: Number(q.get('Limit') ?? 100),
      signatureOk:
        req.headers['x-service-api-signature'] === expected && req.headers['x-service-api-username'] === username,
      headers: req.headers,
      at: Date.now(),
    };
    requests.push(seen);
    state.inFlight++;
    state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
    // Counted out at the first of 'finish' (last byte handed to the OS, before the client can
    // have read it) and 'close' (aborted), so a quick follow-up request never overlaps a
    // response that only looks unfinished.
    let done = false;
    const end = (early: boolean) => {
      if (done) return;
      done = true;
      state.inFlight--;
      seen.endedAt = Date.now();
      seen.closedEarly = early;
    };
    res.on('finish', () => end(false));
    res.on('close', () => end(!res.writableFinished));

    const fault = opts.fault?.(seen);
    if (opts.latencyMs) await new Promise((r) => setTimeout(r, opts.latencyMs));
    if (fault && 'delayMs' in fault) await new Promise((r) => setTimeout(r, fault.delayMs));
    if (fault && 'hang' in fault) return;
    if (fault && 'reset' in fault) {
      req.socket.destroy();
      return;
    }
    if (fault && 'status' in fault) {
      if (fault.noDate) res.sendDate = false;
      res.writeHead(fault.status, { 'content-type': fault.contentType ?? 'application/json', ...fault.headers });
      res.end(fault.body ?? '');
      return;
    }
    if (!seen.signatureOk) {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          ResponseMetadata: { Success: false },
          ResponseError: { ErrorCode: 'Unauthorized', Message: 'Invalid signature', StatusCode: '401' },
        }),
      );
      return;
    }
    const total = fault && 'total' in fault ? fault.total : opts.total;
    const extra = fault && 'extra' in fault ? fault.extra : 0;
    const last = Math.min(opts.total, seen.offset + seen.limit + extra);
    let records = Array.from({ length: Math.max(0, last - seen.offset) }, (_, i) => record(seen.offset + i));
    if (fault && 'records' in fault) records = records.slice(0, fault.records);
    const body = {
      ResponseMetadata: {
        Success: true,
        HasCache: false,
        HasPaging: !opts.noPaging,
        ...(opts.noPaging
          ? {}
          : {
              PagingMetadata: {
                Offset: String(seen.offset),
                Limit: String(seen.limit),
                TotalRecords: total,
                ResponseRecords: records.length,
              },
            }),
      },
      ResponseReport: opts.envelope === 'item' ? { Item: records } : records,
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const server = await listenOnLoopback(handle);
  return {
    url: server.url,
    requests,
    get maxInFlight() {
      return state.maxInFlight;
    },
    get inFlight() {
      return state.inFlight;
    },
    close: server.close,
  };
}

/** Record number `seq` as the service serves it (its When is a /Date(...-0500)/ value). */
export function record(seq: number): { Seq: number; When: string } {
  return { Seq: seq, When: `/Date(${1_700_000_000_000 + seq * 60_000}-0500)/` };
}
