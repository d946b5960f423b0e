/**
 * A response body read into one buffer and decoded once (docs/architecture.md, "Response
 * bodies"). Decoding chunk by chunk made a string of parts that JSON.parse (or the first
 * search) then copied into one: twice the work of decoding the whole body at once. Buffers
 * are reused from page to page: a page-sized allocation outside V8's heap per page is what
 * the C allocator kept (RSS 40 MB higher after six 100,000-record reports), so only a body
 * larger than REUSED_MAX gets a buffer of its own.
 */

/** Bodies up to this size are read into a reused buffer. */
const REUSED_MAX = 4 * 1024 * 1024;
/** Buffers kept for reuse: two per request in flight at the usual concurrency (its decoded
 *  body, and its body as sent when that is kept: body-decode.ts). */
const KEPT = 16;
const FIRST_SIZE = 64 * 1024;

const free: Buffer[] = [];

/**
 * The body's bytes, given to `use` (which must not keep them: the buffer is reused once it
 * returns, or once the promise it returns settles), and what `use` made of them. More than
 * `bound.maxBytes` is refused as it comes.
 */
export async function readBody<T>(
  body: AsyncIterable<Uint8Array>,
  use: (bytes: Buffer) => T | Promise<T>,
  bound?: { maxBytes: number; tooLarge: (received: number) => Error },
): Promise<T> {
  const read = new ReusedBytes();
  try {
    for await (const chunk of body) {
      // Stops reading (which ends the stream and the request) before holding more than the bound.
      if (bound && read.length + chunk.length > bound.maxBytes) throw bound.tooLarge(read.length + chunk.length);
      read.add(chunk);
    }
    // Awaited here: the buffer is given back once `use` is done with it.
    return await use(read.bytes);
  } finally {
    read.release();
  }
}

/** Bytes gathered as they come into a buffer reused from body to body (see above). */
export class ReusedBytes {
  private buf: Buffer | undefined = free.pop() ?? Buffer.allocUnsafe(FIRST_SIZE);
  length = 0;

  /** Adds `chunk`; nothing once released (a stream may still be emitting as it is discarded). */
  add(chunk: Uint8Array): void {
    let buf = this.buf;
    if (!buf) return;
    if (this.length + chunk.length > buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, this.length + chunk.length));
      buf.copy(bigger, 0, 0, this.length);
      this.buf = buf = bigger;
    }
    buf.set(chunk, this.length);
    this.length += chunk.length;
  }

  /** The bytes gathered: valid until release(). */
  get bytes(): Buffer {
    return (this.buf as Buffer).subarray(0, this.length);
  }

  /** Gives the buffer back for reuse (once): nothing may read the bytes after. */
  release(): void {
    const { buf } = this;
    this.buf = undefined;
    if (buf && buf.length <= REUSED_MAX && free.length < KEPT) free.push(buf);
  }
}

/** UTF-8 text of `bytes`, a leading byte order mark dropped (as TextDecoder does). */
export function utf8(bytes: Buffer): string {
  return bytes.toString('utf8', bomLength(bytes));
}

/** Bytes of the UTF-8 byte order mark `bytes` begin with: 3, or 0 without one. */
export function bomLength(bytes: Buffer): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}
