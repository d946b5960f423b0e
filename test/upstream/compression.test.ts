/**
 * Compressed answers (issue 31; docs/upstream.md, "Compression"): requests ask for gzip,
 * deflate or br; bodies are decoded by their Content-Encoding as they stream, stacked codings
 * too; the bound on a body counts decoded bytes, so a small body that decodes to many
 * megabytes (a decompression bomb) is refused like a large plain one; an unknown encoding, or a
 * body that is not what its header says, is an error naming the encoding. The sandbox
 * compresses when asked, and a report through it reads the same records as without.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { request } from 'undici';
import { afterEach, describe, expect, test } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { page } from '../helpers/hostile-upstream.js';
import { type LoopbackServer, listenOnLoopback } from '../helpers/loopback-server.js';
import { startInProcess } from '../helpers/mcp.js';
import { client, PATH, rejection } from './harness.js';

const records = Array.from({ length: 40 }, (_, i) => ({ Seq: i, Remark: `record ${i} `.repeat(20) }));
const json = JSON.stringify(page(records, { total: records.length, limit: 100 }));

let server: LoopbackServer | undefined;
let seen: IncomingMessage[] = [];
afterEach(async () => {
  await server?.close();
  server = undefined;
  seen = [];
});

/** A service answering every request with `body` and these headers. */
async function answering(body: Buffer | string, headers: Record<string, string>): Promise<string> {
  server = await listenOnLoopback(async (req: IncomingMessage, res: ServerResponse) => {
    seen.push(req);
    res.writeHead(200, { 'Content-Type': 'application/json', ...headers });
    res.end(body);
  });
  return server.url;
}

const get = (url: string, maxBodyBytes?: number) =>
  client(url, maxBodyBytes ? { maxBodyBytes } : {}).getPage({
    path: PATH,
    query: {},
    offset: 0,
    limit: 100,
    envelope: 'collection',
  });

describe('compressed answers from the service', () => {
  test.each([
    ['gzip', gzipSync(json)],
    ['x-gzip', gzipSync(json)],
    ['deflate', deflateSync(json)],
    ['br', brotliCompressSync(json)],
    ['gzip, br', brotliCompressSync(gzipSync(json))],
    ['identity', Buffer.from(json)],
  ])('Content-Encoding %s: decoded as it streams, the same records', async (encoding, body) => {
    const url = await answering(body, { 'Content-Encoding': encoding });
    const got = await get(url);
    expect(got.records).toEqual(records);
    expect(seen[0].headers['accept-encoding']).toBe('gzip, deflate, br');
  });

  test('an encoding the client cannot decode is an error naming it; nothing is retried', async () => {
    const url = await answering(Buffer.from(json), { 'Content-Encoding': 'zstd' });
    const err = await rejection(get(url));
    expect(err.kind).toBe('malformed_response');
    expect(err.message).toBe(
      `${PATH} answered with Content-Encoding "zstd", which this server cannot decode ("zstd" is not one of gzip, ` +
        'deflate, br, which are all it asks for in Accept-Encoding). Check the service or the proxy in front of it.',
    );
    expect(seen).toHaveLength(1);
  });

  test('a body that is not what its Content-Encoding says is an error naming the encoding', async () => {
    const url = await answering(Buffer.from(json), { 'Content-Encoding': 'gzip' });
    const err = await rejection(get(url));
    expect(err.kind).toBe('malformed_response');
    expect(err.message).toBe(
      `${PATH} answered with Content-Encoding "gzip" but its body could not be decoded as that (incorrect header ` +
        'check): the body is cut short or not encoded as the header says. Check the service or the proxy in front of it.',
    );
    const gz = gzipSync(json);
    const cut = await answering(gz.subarray(0, gz.length - 20), { 'Content-Encoding': 'gzip' });
    expect((await rejection(get(cut))).message).toContain(
      'answered with Content-Encoding "gzip" but its body could not',
    );
  });

  test('a decompression bomb is refused by the bound on decoded bytes, as a large plain body is', async () => {
    // 64 MB of JSON that gzips to about 64 KB.
    const bomb = gzipSync(`{"ResponseReport":["${'0'.repeat(64 * 1024 * 1024)}"]}`);
    expect(bomb.length).toBeLessThan(128 * 1024);
    const url = await answering(bomb, { 'Content-Encoding': 'gzip' });
    const err = await rejection(get(url, 1024 * 1024));
    expect(err.kind).toBe('malformed_response');
    expect(err.message).toMatch(
      new RegExp(
        `^${PATH} answered with a body of more than 1 MB once decoded \\(Content-Encoding "gzip", 1(\\.\\d)? MB decoded ` +
          'when reading stopped\\): refused unread, as no result could hold it within REPORTS_RESULTS_MAX_MB\\. ' +
          'Ask for a smaller page \\(REPORTS_PAGE_SIZE\\) or a shorter date range\\.$',
      ),
    );
    // Bytes as sent that no body within the bound compresses to are refused before decoding.
    const noise = randomBytes(2 * 1024 * 1024);
    const large = await answering(noise, { 'Content-Encoding': 'gzip' });
    expect((await rejection(get(large, 1024 * 1024))).message).toMatch(
      new RegExp(
        `^${PATH} answered with a body of more than 1 MB once decoded \\(Content-Encoding "gzip", 1(\\.\\d)? MB as ` +
          'sent, still compressed, when reading stopped\\): refused unread',
      ),
    );
    const plain = await answering(`{"ResponseReport":["${'0'.repeat(2 * 1024 * 1024)}"]}`, {});
    expect((await rejection(get(plain, 1024 * 1024))).message).toBe(
      `${PATH} answered with a body of more than 1 MB once decoded: refused unread, as no result could hold it ` +
        'within REPORTS_RESULTS_MAX_MB. Ask for a smaller page (REPORTS_PAGE_SIZE) or a shorter date range.',
    );
  });
});

describe('the sandbox compresses when asked', () => {
  let sb: Sandbox | undefined;
  afterEach(async () => {
    await sb?.close();
    sb = undefined;
  });

  test.each([
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['deflate;q=1, gzip;q=0', 'deflate'],
    ['identity', undefined],
    [undefined, undefined],
  ])('Accept-Encoding %s: answered with %s', async (accept, expected) => {
    sb = await startSandbox({ dataNow: new Date('2026-11-15T00:00:00Z') });
    const res = await request(`${sb.url}/nope`, { headers: accept ? { 'accept-encoding': accept } : {} });
    await res.body.arrayBuffer();
    expect(res.headers['content-encoding']).toBe(expected);
    expect(sb.requests[0].encoding).toBe(expected);
  });

  test('a report through the compressing sandbox reads the same records, in fewer bytes', async () => {
    const args = { DateStart: '2026-11-01', DateEnd: '2026-11-30', maxRecords: 2000 };
    const run = async (compress: boolean) => {
      const s = await startInProcess({ sandbox: { compress } });
      try {
        const r = await s.call('air_segments_by_date', args);
        const sc = r.structuredContent as { fetchedRecords: number; summary: unknown };
        const log = s.rt.sandbox!.requests;
        return {
          fetched: sc.fetchedRecords,
          summary: sc.summary,
          bytes: log.reduce((n, q) => n + q.bodyBytes, 0),
          encodings: [...new Set(log.map((q) => q.encoding))],
        };
      } finally {
        await s.close();
      }
    };
    const [plain, compressed] = [await run(false), await run(true)];
    expect(plain.encodings).toEqual([undefined]);
    expect(compressed.encodings).toEqual(['br']);
    expect(compressed.fetched).toBe(plain.fetched);
    expect(compressed.fetched).toBeGreaterThan(100);
    expect(compressed.summary).toEqual(plain.summary);
    expect(compressed.bytes).toBeLessThan(plain.bytes / 4);
  });
});
