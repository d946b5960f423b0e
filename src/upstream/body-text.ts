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
/** Buffers kept for reuse: one per request in flight at the usual concurrency. */
const KEPT = 8;
const FIRST_SIZE = 64 * 1024;

const free: Buffer[] = [];

/**
 * The body's bytes, given to `use` (which must not keep them: the buffer is reused after it
 * returns), and what `use` made of them. More than `bound.maxBytes` is refused as it comes.
 */
export async function readBody<T>(
  body: AsyncIterable<Uint8Array>,
  use: (bytes: Buffer) => T,
  bound?: { maxBytes: number; tooLarge: (received: number) => Error },
): Promise<T> {
  let buf = free.pop() ?? Buffer.allocUnsafe(FIRST_SIZE);
  let n = 0;
  try {
    for await (const chunk of body) {
      // Stops reading (which ends the stream and the request) before holding more than the bound.
      if (bound && n + chunk.length > bound.maxBytes) throw bound.tooLarge(n + chunk.length);
      if (n + chunk.length > buf.length) {
        const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, n + chunk.length));
        buf.copy(bigger, 0, 0, n);
        buf = bigger;
      }
      buf.set(chunk, n);
      n += chunk.length;
    }
    return use(buf.subarray(0, n));
  } finally {
    if (buf.length <= REUSED_MAX && free.length < KEPT) free.push(buf);
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
