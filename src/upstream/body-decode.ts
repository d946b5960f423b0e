/**
 * Compressed answers from the service (docs/upstream.md, "Compression"). Requests ask for
 * gzip, deflate or br; an answer's body is read as sent, then decoded by its Content-Encoding
 * in one pass on libuv's thread pool (a small body on the main thread: SMALL_BODY), into one
 * buffer sized by what the body says it decodes to (a gzip body's trailer) or a guess. Every
 * bound on a body counts decoded bytes: a small compressed body that decodes to gigabytes is
 * refused by the same bound as a large plain one, once that many bytes have come out, never
 * held whole. An encoding this client cannot decode, or a body that is not what its
 * Content-Encoding says, is an error naming the encoding.
 *
 * Decoded as the body streamed in, zlib's 16 KB pieces each took a trip to the thread pool, a
 * buffer and a turn of the stream on the main thread, and a piece waited for that turn while
 * the main thread parsed or walked another page. A bench page of 500 air segments (294 KB of
 * JSON gzipped to 51 KB) cost 2.2-2.4 ms of CPU so, 1.0-1.1 of it on the main thread; whole,
 * 1.0-1.3 ms, 0.5 on the main thread; and a 100,000-record fetch at 0 ms took 12-14% less
 * time (docs/upstream.md, "Compression").
 */
import { constants } from 'node:buffer';
import type { Readable } from 'node:stream';
import { promisify } from 'node:util';
import {
  type BrotliOptions,
  brotliDecompress,
  brotliDecompressSync,
  gunzip,
  gunzipSync,
  inflate,
  inflateSync,
  type ZlibOptions,
} from 'node:zlib';
import { ReportsError } from '../errors.js';

export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Each coding's decoders of a whole body (node:zlib): on the thread pool, for an answer as it
 *  comes (decodeBytes), and on the calling thread, for a small answer and for a kept page read
 *  back (decodeWire). */
interface Codec {
  decode: (bytes: Buffer, options: ZlibOptions & BrotliOptions) => Promise<Buffer>;
  decodeSync: (bytes: Buffer, options?: ZlibOptions & BrotliOptions) => Buffer;
}
const GZIP: Codec = { decode: promisify(gunzip), decodeSync: gunzipSync };
const CODECS: Record<string, Codec> = {
  gzip: GZIP,
  'x-gzip': GZIP,
  deflate: { decode: promisify(inflate), decodeSync: inflateSync },
  br: { decode: promisify(brotliDecompress), decodeSync: brotliDecompressSync },
};

/** The output buffer a decode starts with: at least 64 KB (four of zlib's own 16 KB pieces),
 *  and for a body whose decoded size is not stated, about what JSON compresses by (the bench's
 *  pages 5.8x with gzip, Brotli more); a body that decodes to more gets further buffers, joined
 *  at the end. */
const FIRST_OUTPUT_MIN = 64 * 1024;
const GUESSED_RATIO = 8;
/** A gzip trailer's size is taken up to this: it states the last member's size, the whole
 *  body's only when there is one member (zlib checks it against what that member decodes to). */
const FIRST_OUTPUT_MAX = 16 * 1024 * 1024;
/** The bytes of a gzip member's trailer: CRC-32, then ISIZE, its decoded size modulo 2^32. */
const GZIP_TRAILER = 8;
/**
 * A body of at most SMALL_BODY bytes as sent is decoded on the main thread, up to SMALL_DECODED
 * bytes out (a body that decodes to more is decoded again on the thread pool, to the real
 * bound): the trip there and back, and zlib's stream around it, took a 100-record page (9 KB
 * of gzip, 47 KB of JSON) 1.0-1.2 ms before its parse could begin, the decode itself 0.2-0.3
 * (the built server, 300 small calls, twice). A page of 500 air segments (51 KB as sent)
 * still goes to the pool, its decode off the main thread.
 */
const SMALL_BODY = 16 * 1024;
const SMALL_DECODED = 256 * 1024;

/** A body as the service sent it, still compressed: a page kept on disk as it came
 *  (results/disk/page-copy.ts) and decoded again when it is read back (decodeWire). */
export interface WireBody {
  /** The Content-Encoding, as the service wrote it (never ''). */
  encoding: string;
  bytes: Buffer;
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

/** How a body is to be decoded: its Content-Encoding as the service wrote it ('' for none) and
 *  the codings to undo, the last applied first. */
export interface BodyCoding {
  encoding: string;
  undo: string[];
}

/** The body's coding; throws (before reading anything, the body discarded) for an encoding
 *  this client cannot decode. */
export function bodyCoding(body: Readable, contentEncoding: string | undefined, path: string): BodyCoding {
  const encoding = (contentEncoding ?? '').trim();
  const applied = codings(contentEncoding);
  const unknown = applied.find((c) => !CODECS[c]);
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
  return { encoding, undo: applied.reverse() };
}

/**
 * The bytes of a body as sent, decoded by `coding` (the bytes themselves when it has none),
 * each coding's output at most `maxBytes`: past it, decoding stops and this throws tooLarge.
 * A body that is not what its coding says throws undecodable.
 */
export async function decodeBytes(bytes: Buffer, coding: BodyCoding, path: string, maxBytes: number): Promise<Buffer> {
  let out = bytes;
  for (const c of coding.undo) {
    try {
      out = decodedSmall(out, c, maxBytes) ?? (await decodedOnPool(out, c, maxBytes));
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw tooLarge(path, coding.encoding, maxBytes, maxBytes);
      throw undecodable(path, coding.encoding, err as Error);
    }
  }
  return out;
}

/** `bytes` decoded on this thread when the body is small (see SMALL_BODY), else undefined. */
function decodedSmall(bytes: Buffer, c: string, maxBytes: number): Buffer | undefined {
  if (bytes.length > SMALL_BODY) return undefined;
  const bound = Math.min(maxBytes, SMALL_DECODED);
  try {
    return CODECS[c].decodeSync(bytes, { chunkSize: firstOutput(bytes, c, bound), maxOutputLength: bound });
  } catch (err) {
    // More than a small body decodes to: the real bound decides, on the thread pool.
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' && bound < maxBytes) return undefined;
    throw err;
  }
}

function decodedOnPool(bytes: Buffer, c: string, maxBytes: number): Promise<Buffer> {
  const maxOutputLength = Math.min(maxBytes, constants.MAX_LENGTH);
  return CODECS[c].decode(bytes, { chunkSize: firstOutput(bytes, c, maxBytes), maxOutputLength });
}

/** The size of the first output buffer for decoding `bytes` of coding `c`: what a gzip body's
 *  trailer says it decodes to, plus one (a buffer filled exactly is taken for a full one, and
 *  another is made), else a guess (see GUESSED_RATIO); within the bound. */
function firstOutput(bytes: Buffer, c: string, maxBytes: number): number {
  const gzip = c.endsWith('gzip') && bytes.length > GZIP_TRAILER;
  const size = gzip ? bytes.readUInt32LE(bytes.length - 4) + 1 : bytes.length * GUESSED_RATIO;
  return Math.max(FIRST_OUTPUT_MIN, Math.min(size, FIRST_OUTPUT_MAX, maxBytes + 1));
}

/** A kept body (WireBody) decoded, as decodeBytes decoded it when it came. */
export function decodeWire(wire: WireBody): Buffer {
  let bytes = wire.bytes;
  for (const c of codings(wire.encoding).reverse()) {
    const codec = CODECS[c];
    if (!codec)
      throw new Error(`a kept page has Content-Encoding "${wire.encoding.slice(0, 60)}", not one this server decodes`);
    bytes = codec.decodeSync(bytes);
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

/** The error for a body whose decoded size passes the bound; `asSent`: the body was refused
 *  before decoding, its bytes as sent passing the bound already. */
export function tooLarge(
  path: string,
  encoding: string,
  maxBytes: number,
  received: number,
  asSent = false,
): ReportsError {
  const mb = (n: number) => `${Math.round((n / 1_048_576) * 10) / 10} MB`;
  const read = asSent ? `${mb(received)} as sent, still compressed,` : `${mb(received)} decoded`;
  return new ReportsError(
    'malformed_response',
    `${path} answered with a body of more than ${mb(maxBytes)} once decoded` +
      `${encoding ? ` (Content-Encoding "${encoding.slice(0, 60)}", ${read} when reading stopped)` : ''}: ` +
      'refused unread, as no result could hold it within REPORTS_RESULTS_MAX_MB. ' +
      'Ask for a smaller page (REPORTS_PAGE_SIZE) or a shorter date range.',
    { path },
  );
}
