/**
 * Compressed answers from the service (docs/upstream.md, "Compression"). Requests ask for
 * gzip, deflate or br; an answer is decoded by its Content-Encoding as it streams in, so every
 * bound on a body counts decoded bytes (a small compressed body that decodes to gigabytes is
 * refused by the same bound as a large plain one, once that many bytes have come out, never
 * held whole). An encoding this client cannot decode, or a body that is not what its
 * Content-Encoding says, is an error naming the encoding.
 */
import type { Readable, Transform } from 'node:stream';
import {
  brotliDecompressSync,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  gunzipSync,
  inflateSync,
} from 'node:zlib';
import { ReportsError } from '../errors.js';
import { ReusedBytes } from './body-text.js';

export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** zlib's own 16 KB pieces. 64 KB pieces cost less CPU (0.4-0.55 against 0.7-0.9 ms of main
 *  thread for 485 KB of JSON gzipped to 90 KB) but raised the peak of a 100,000-record fetch by
 *  about 7 MB (83.8-95.6 MB against 77.4-86.6, 6 runs each): more outside V8's heap until a
 *  collection frees it. */
const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** A body as the service sent it, still compressed: a page kept on disk as it came
 *  (results/disk/page-copy.ts) and decoded again when it is read back (decodeWire). */
export interface WireBody {
  /** The Content-Encoding, as the service wrote it (never ''). */
  encoding: string;
  bytes: Buffer;
}

/** Decoders of one whole body, for decodeWire. */
const WHOLE_DECODERS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

export interface DecodedBody {
  /** The decoded bytes as they come. */
  chunks: AsyncIterable<Uint8Array>;
  /** With `keepWire`, once the body is read: its bytes as sent, when it was compressed (valid
   *  until release()). */
  wire(): WireBody | undefined;
  /** Gives back the buffer the bytes as sent were gathered in. */
  release(): void;
  /** The Content-Encoding as the service wrote it ('' for none). */
  encoding: string;
  /** The error of a decoder, when the body was not what its encoding says. */
  decodeError(): Error | undefined;
}

/** Stops reading a body that is not wanted (a destroyed undici body reports the abort as an error). */
export function discard(body: Readable): void {
  if (body.destroyed) return;
  body.on('error', () => {});
  body.destroy();
}

/** The codings of a Content-Encoding header, in the order they were applied ('identity' left out). */
export function codings(contentEncoding: string | undefined): string[] {
  return (contentEncoding ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/**
 * The body decoded by its Content-Encoding; throws (before reading anything) for an unknown
 * encoding. With `keepWire`, a compressed body's bytes as sent are gathered too (DecodedBody.wire):
 * a tenth or so of what they decode to, where a copy of the decoded ones would cost as much
 * again to compress. They are copied into a reused buffer as they come: the stream's own
 * chunks, kept until the body's end, outlived young collections and stayed until a major one.
 */
export function decodeBody(
  body: Readable,
  contentEncoding: string | undefined,
  path: string,
  keepWire = false,
): DecodedBody {
  const encoding = (contentEncoding ?? '').trim();
  const applied = codings(contentEncoding);
  const unknown = applied.find((c) => !DECODERS[c]);
  if (unknown !== undefined) {
    discard(body);
    throw new ReportsError(
      'malformed_response',
      `${path} answered with Content-Encoding "${encoding.slice(0, 60)}", which this server cannot decode ` +
        `("${unknown.slice(0, 30)}" is not one of gzip, deflate, br, which are all it asks for in Accept-Encoding). ` +
        'Check the service or the proxy in front of it.',
      { path },
    );
  }
  if (applied.length === 0)
    return { chunks: body, encoding: '', wire: () => undefined, release: () => {}, decodeError: () => undefined };
  let failed: Error | undefined;
  // The last coding applied is the first to undo.
  const decoders = applied.reverse().map((c) => {
    const d = DECODERS[c]();
    d.once('error', (err: Error) => {
      failed ??= err;
    });
    return d;
  });
  // Piped by hand rather than with stream.pipeline, which ends every run by aborting an
  // AbortController of its own: a DOMException with its stack for each page (0.7% of the CPU
  // of a 1,000,000-record fetch). As pipeline does, an error anywhere destroys every stream
  // with it, so the reader of the last one sees it.
  const streams: Readable[] = [body, ...decoders];
  for (let i = 1; i < streams.length; i++) streams[i - 1].pipe(decoders[i - 1]);
  for (const s of streams) {
    s.on('error', (err: Error) => {
      for (const other of streams) if (other !== s) other.destroy(err);
    });
  }
  // Beside the pipe, in the same turn: both see every chunk (pipe still pauses the body).
  const sent = keepWire ? new ReusedBytes() : undefined;
  if (sent) body.on('data', (chunk: Buffer) => sent.add(chunk));
  // A body destroyed before its end (a bound reached: discard) takes the decoders with it,
  // their zlib state freed now rather than when they are collected.
  body.once('close', () => {
    if (!body.readableEnded) for (const d of decoders) d.destroy();
  });
  return {
    chunks: streams[streams.length - 1],
    encoding,
    wire: () => (sent && body.readableEnded ? { encoding, bytes: sent.bytes } : undefined),
    release: () => sent?.release(),
    decodeError: () => failed,
  };
}

/** A kept body (WireBody) decoded whole, as decodeBody decodes it as it comes. */
export function decodeWire(wire: WireBody): Buffer {
  let bytes = wire.bytes;
  for (const c of codings(wire.encoding).reverse()) {
    const decode = WHOLE_DECODERS[c];
    if (!decode)
      throw new Error(`a kept page has Content-Encoding "${wire.encoding.slice(0, 60)}", not one this server decodes`);
    bytes = decode(bytes);
  }
  return bytes;
}

/** The error for a body that is not what its Content-Encoding says (truncated, or not compressed). */
export function undecodable(path: string, encoding: string, err: Error): ReportsError {
  return new ReportsError(
    'malformed_response',
    `${path} answered with Content-Encoding "${encoding.slice(0, 60)}" but its body could not be decoded as that ` +
      `(${err.message.slice(0, 100)}): the body is cut short or not encoded as the header says. ` +
      'Check the service or the proxy in front of it.',
    { path },
  );
}

/** The error for a body whose decoded size passes the bound. */
export function tooLarge(path: string, encoding: string, maxBytes: number, received: number): ReportsError {
  const mb = (n: number) => `${Math.round((n / 1_048_576) * 10) / 10} MB`;
  return new ReportsError(
    'malformed_response',
    `${path} answered with a body of more than ${mb(maxBytes)} once decoded` +
      `${encoding ? ` (Content-Encoding "${encoding.slice(0, 60)}", ${mb(received)} decoded when reading stopped)` : ''}: ` +
      'refused unread, as no result could hold it within REPORTS_RESULTS_MAX_MB. ' +
      'Ask for a smaller page (REPORTS_PAGE_SIZE) or a shorter date range.',
    { path },
  );
}
