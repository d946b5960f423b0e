/**
 * decodeBody pipes the body through its decoders by hand (no stream.pipeline): an error on
 * either side reaches the reader and destroys the other, and a body destroyed before its end
 * takes the decoder with it.
 */
import { once } from 'node:events';
import { PassThrough, type Readable } from 'node:stream';
import { setTimeout } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeBody } from '../../src/upstream/body-decode.js';

const text = JSON.stringify({ ResponseReport: Array.from({ length: 2_000 }, (_, i) => ({ Id: i })) });

async function readAll(chunks: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(Buffer.from(c));
  return Buffer.concat(parts).toString('utf8');
}

describe('decodeBody', () => {
  it('reads a gzip body whole, in order', async () => {
    const body = new PassThrough();
    const decoded = decodeBody(body, 'gzip', '/AirSegmentsByDate');
    const zipped = gzipSync(text);
    body.write(zipped.subarray(0, 100));
    body.end(zipped.subarray(100));
    expect(await readAll(decoded.chunks)).toBe(text);
    expect(decoded.decodeError()).toBeUndefined();
  });

  it('a body that is not gzip: the reader gets the decoder error and the body is destroyed', async () => {
    const body = new PassThrough();
    const decoded = decodeBody(body, 'gzip', '/AirSegmentsByDate');
    body.end(Buffer.from('not gzip at all'));
    await expect(readAll(decoded.chunks)).rejects.toThrow(/incorrect header check/);
    expect(decoded.decodeError()?.message).toMatch(/incorrect header check/);
    expect(body.destroyed).toBe(true);
  });

  it('a body failing mid-way (the connection reset): the reader gets its error', async () => {
    const body = new PassThrough();
    const decoded = decodeBody(body, 'gzip', '/AirSegmentsByDate');
    body.write(gzipSync(text).subarray(0, 50));
    const reading = readAll(decoded.chunks);
    body.destroy(new Error('socket hang up'));
    await expect(reading).rejects.toThrow('socket hang up');
  });

  it('a body destroyed before its end (a bound reached) takes the decoder with it', async () => {
    const body = new PassThrough();
    const decoded = decodeBody(body, 'gzip', '/AirSegmentsByDate');
    body.write(gzipSync(text).subarray(0, 50));
    body.destroy();
    const decoder = decoded.chunks as unknown as Readable;
    if (!decoder.destroyed) await Promise.race([once(decoder, 'close'), setTimeout(2_000)]);
    expect(decoder.destroyed).toBe(true);
  });
});
