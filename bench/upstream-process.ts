/**
 * The bench's upstream, run as its own process (as the real service is): a loopback HTTP
 * service that checks each request's signature and answers Offset/Limit pages of the bench
 * records from PRE-SERIALISED bodies, built before timing starts ('prepare' message), so
 * the bench measures the client and not the simulator. The base URL's path carries the
 * case: /{latencyMs}/{variant}/{totalRecords}, then the transaction path. It compresses as a
 * real service does when asked (Accept-Encoding: gzip, at zlib's default level), each page
 * compressed once at 'prepare'; the bytes it sends and the encodings are counted ('stats').
 * Messages: parent -> {prepare: PageSet[]}, {stats: true}, {drop: PageSet[]};
 * child -> {url} when listening, {prepared}, {stats}.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { toJson } from '../src/sandbox/envelope.js';
import { benchRecords } from './data.js';

export interface PageSet {
  variant: number;
  total: number;
  pageSize: number;
}

export const BENCH_USERNAME = 'bench-user';
export const BENCH_KEY = 'bench-signing-key';

/** A page as served: its JSON, and that JSON gzipped. */
interface Body {
  plain: Buffer;
  gzip: Buffer;
}

const bodies = new Map<string, Body>();
let builtOnDemand = 0;
/** Body bytes sent and requests answered, by Content-Encoding ('identity' for none). */
const sent: Record<string, { bytes: number; requests: number }> = {};

function pageKey(variant: number, total: number, offset: number, limit: number): string {
  return `${variant}/${total}/${offset}/${limit}`;
}

function body(variant: number, total: number, offset: number, limit: number): Body {
  const key = pageKey(variant, total, offset, limit);
  let b = bodies.get(key);
  if (!b) {
    builtOnDemand++;
    b = serialise(variant, total, offset, limit);
    bodies.set(key, b);
  }
  return b;
}

function serialise(variant: number, total: number, offset: number, limit: number): Body {
  const records = benchRecords(variant, total, offset, limit);
  const plain = Buffer.from(
    toJson({
      ResponseMetadata: {
        Success: true,
        HasCache: false,
        HasPaging: true,
        PagingMetadata: {
          Offset: String(offset),
          Limit: String(limit),
          TotalRecords: total,
          ResponseRecords: records.length,
        },
      },
      ResponseReport: { Item: records },
    }),
  );
  return { plain, gzip: gzipSync(plain) };
}

function prepare(set: PageSet): void {
  for (let o = 0; o < set.total; o += set.pageSize) {
    const key = pageKey(set.variant, set.total, o, set.pageSize);
    if (!bodies.has(key)) bodies.set(key, serialise(set.variant, set.total, o, set.pageSize));
  }
}

function signatureOk(url: string, headers: Record<string, string | string[] | undefined>): boolean {
  const date = String(headers['x-service-api-date'] ?? '');
  const sent = Buffer.from(String(headers['x-service-api-signature'] ?? ''));
  const expected = Buffer.from(
    createHmac('sha256', BENCH_KEY)
      .update(`GET${url}${String(headers['content-type'] ?? '')}${date}`)
      .digest('base64'),
  );
  return (
    headers['x-service-api-username'] === BENCH_USERNAME &&
    sent.length === expected.length &&
    timingSafeEqual(sent, expected)
  );
}

const CASE = /^\/(\d+)\/(\d+)\/(\d+)\/[A-Za-z]+$/;

const server = createServer((req, res) => {
  const url = `http://${req.headers.host}${req.url}`;
  const parsed = new URL(url);
  const m = CASE.exec(parsed.pathname);
  if (!m || req.method !== 'GET') {
    res.writeHead(404).end();
    return;
  }
  if (!signatureOk(url, req.headers)) {
    res.writeHead(401, { 'content-type': 'application/json' }).end('{"ResponseMetadata":{"Success":false}}');
    return;
  }
  const [latency, total] = [Number(m[1]), Number(m[3])];
  // Variant 0 lets one base URL serve several reports: DateStart's year picks it (2011 -> 11).
  const variant = Number(m[2]) || Number((parsed.searchParams.get('DateStart') ?? '2000').slice(0, 4)) - 2000;
  const offset = Number(parsed.searchParams.get('Offset') ?? 0);
  const limit = Number(parsed.searchParams.get('Limit') ?? total);
  const page = body(variant, total, offset, limit);
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const answer = gzip ? page.gzip : page.plain;
  const encoding = gzip ? 'gzip' : 'identity';
  sent[encoding] ??= { bytes: 0, requests: 0 };
  sent[encoding].bytes += answer.length;
  sent[encoding].requests++;
  const headers = { 'content-type': 'application/json', ...(gzip ? { 'content-encoding': 'gzip' } : {}) };
  const send = () => res.writeHead(200, headers).end(answer);
  if (latency > 0) setTimeout(send, latency);
  else send();
});
server.keepAliveTimeout = 60_000;

server.listen(0, '127.0.0.1', () => {
  process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});

process.on('message', (msg: { prepare?: PageSet[]; stats?: true; drop?: PageSet[] }) => {
  if (msg.prepare) {
    for (const set of msg.prepare) prepare(set);
    const bytes: Record<string, number> = {};
    const gzipBytes: Record<string, number> = {};
    for (const set of msg.prepare) {
      let n = 0;
      let z = 0;
      for (let o = 0; o < set.total; o += set.pageSize) {
        const b = body(set.variant, set.total, o, set.pageSize);
        n += b.plain.length;
        z += b.gzip.length;
      }
      bytes[`${set.variant}/${set.total}`] = n;
      gzipBytes[`${set.variant}/${set.total}`] = z;
    }
    process.send?.({ prepared: { bytes, gzipBytes } });
  }
  // A large report's pages are let go once its case is done (a million records are 0.6 GB).
  if (msg.drop) {
    for (const set of msg.drop)
      for (let o = 0; o < set.total; o += set.pageSize) bodies.delete(pageKey(set.variant, set.total, o, set.pageSize));
  }
  if (msg.stats) {
    process.send?.({ stats: { builtOnDemand, bodies: bodies.size, sent: structuredClone(sent) } });
    for (const k of Object.keys(sent)) delete sent[k];
  }
});
process.on('disconnect', () => process.exit(0));
