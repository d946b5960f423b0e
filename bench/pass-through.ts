/**
 * The hand-written pass-through client every figure is compared with: it signs, fetches
 * pages (the first, then the rest `concurrency` at a time), asks for gzip as the server does,
 * inflates and JSON.parses them, nothing else. Same HTTP library as the server (undici,
 * keep-alive), its own signing code.
 */
import { createHmac } from 'node:crypto';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { Agent, request } from 'undici';
import { BENCH_KEY, BENCH_USERNAME } from './upstream.js';

export function passThroughAgent(concurrency: number): Agent {
  return new Agent({ keepAliveTimeout: 10_000, connections: concurrency * 2 });
}

/** One signed GET, parsed. */
export async function rawRequest(agent: Agent, url: string): Promise<{ records: unknown[]; total: number }> {
  const json = JSON.parse(await rawText(agent, url));
  return { records: json.ResponseReport.Item, total: json.ResponseMetadata.PagingMetadata.TotalRecords };
}

const inflate = promisify(gunzip);

/** One signed GET, its body as text (inflated when the service compressed it). */
export async function rawText(agent: Agent, url: string): Promise<string> {
  const date = new Date().toUTCString();
  const signature = createHmac('sha256', BENCH_KEY).update(`GET${url}application/json${date}`).digest('base64');
  const res = await request(url, {
    dispatcher: agent,
    headers: {
      Accept: 'application/json',
      'Accept-Encoding': 'gzip',
      'CONTENT-TYPE': 'application/json',
      'X-SERVICE-API-USERNAME': BENCH_USERNAME,
      'X-SERVICE-API-DATE': date,
      'X-SERVICE-API-SIGNATURE': signature,
    },
  });
  const body = Buffer.from(await res.body.arrayBuffer());
  if (res.statusCode !== 200) throw new Error(`pass-through: ${url} answered ${res.statusCode}`);
  return (res.headers['content-encoding'] === 'gzip' ? await inflate(body) : body).toString();
}

/** Every record of a paged report; returns how many. */
export async function passThroughReport(
  agent: Agent,
  baseUrl: string,
  opts: { pageSize: number; concurrency: number; maxRecords?: number },
): Promise<number> {
  const url = (offset: number) =>
    `${baseUrl}/AirSegmentsByDate?DateStart=20260101&DateEnd=20261231&Offset=${offset}&Limit=${opts.pageSize}`;
  const first = await rawRequest(agent, url(0));
  const total = Math.min(first.total, opts.maxRecords ?? Infinity);
  const offsets: number[] = [];
  for (let o = opts.pageSize; o < total; o += opts.pageSize) offsets.push(o);
  let fetched = first.records.length;
  const worker = async () => {
    for (let o = offsets.shift(); o !== undefined; o = offsets.shift()) {
      const page = await rawRequest(agent, url(o));
      fetched += page.records.length;
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  return fetched;
}
