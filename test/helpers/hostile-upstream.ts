import type { IncomingMessage, ServerResponse } from 'node:http';
import { signRequest } from '../../src/upstream/sign.js';
import { listenOnLoopback } from './loopback-server.js';

/**
 * An adversarial copy of the reporting service on 127.0.0.1: every request's signature is
 * checked like the real service does, then the test's `answer` decides what comes back, byte
 * for byte (a lying envelope, repeated pages, huge values, deep nesting, echoed secrets).
 */
export const HOSTILE_USERNAME = 'api-user';
export const HOSTILE_KEY = 'hostile-test-key-9f3a';

export interface HostileRequest {
  n: number;
  path: string;
  query: URLSearchParams;
  offset: number;
  limit: number;
  /** The X-SERVICE-API-SIGNATURE the request carried. */
  signature: string;
  signatureOk: boolean;
}

export interface HostileAnswer {
  status?: number;
  /** An object is sent as JSON; a string is sent as it is. */
  body: unknown;
  contentType?: string;
}

export interface HostileUpstream {
  url: string;
  requests: HostileRequest[];
  close(): Promise<void>;
}

export async function startHostileUpstream(
  answer: (req: HostileRequest) => HostileAnswer | Promise<HostileAnswer>,
): Promise<HostileUpstream> {
  const requests: HostileRequest[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = `http://${req.headers.host}${req.url}`;
    const parsed = new URL(url);
    const date = String(req.headers['x-service-api-date'] ?? '');
    const signature = String(req.headers['x-service-api-signature'] ?? '');
    const seen: HostileRequest = {
      n: requests.length,
      path: parsed.pathname,
      query: parsed.searchParams,
      offset: Number(parsed.searchParams.get('Offset') ?? 0),
      limit: Number(parsed.searchParams.get('Limit') ?? 0),
      signature,
      signatureOk:
        signature === signRequest('GET', url, String(req.headers['content-type'] ?? ''), date, HOSTILE_KEY) &&
        req.headers['x-service-api-username'] === HOSTILE_USERNAME,
    };
    requests.push(seen);
    const a = await answer(seen);
    const body = typeof a.body === 'string' ? a.body : JSON.stringify(a.body);
    res.writeHead(a.status ?? 200, { 'content-type': a.contentType ?? 'application/json' });
    res.end(body);
  };
  const server = await listenOnLoopback(handle);
  return {
    url: server.url,
    requests,
    close: server.close,
  };
}

/** A successful page as the service writes it: the records of [offset, offset + limit). */
export function page(
  records: readonly unknown[],
  opts: { total?: number | null; offset?: number; limit?: number; item?: boolean } = {},
): Record<string, unknown> {
  const paging =
    opts.total === null
      ? {}
      : {
          PagingMetadata: {
            Offset: String(opts.offset ?? 0),
            Limit: String(opts.limit ?? records.length),
            TotalRecords: opts.total ?? records.length,
            ResponseRecords: records.length,
          },
        };
  return {
    ResponseMetadata: { Success: true, HasCache: false, HasPaging: opts.total !== null, ...paging },
    ResponseReport: opts.item ? { Item: [...records] } : [...records],
  };
}

/** The window of `all` a paged request asks for, as a page. */
export function window(all: readonly unknown[], req: HostileRequest, item = false): Record<string, unknown> {
  return page(all.slice(req.offset, req.offset + req.limit), {
    total: all.length,
    offset: req.offset,
    limit: req.limit,
    item,
  });
}
