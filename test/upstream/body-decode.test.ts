/**
 * decodeBytes decodes a body as sent in one pass, into a first buffer sized by what a gzip
 * body's trailer says (else a guess), bounded by the decoded bytes: a body of two members, whose
 * trailer states the last one only, comes out whole, and never more than the bound is held.
 * Through the client and a real service: compression.test.ts.
 */
import { PassThrough } from 'node:stream';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ReportsError } from '../../src/errors.js';
import { bodyCoding, decodeBytes } from '../../src/upstream/body-decode.js';

const PATH = '/AirSegmentsByDate';
const text = JSON.stringify({ ResponseReport: Array.from({ length: 20_000 }, (_, i) => ({ Id: i, Seq: `s${i}` })) });
const MB = 1024 * 1024;

const coding = (encoding: string) => bodyCoding(new PassThrough(), encoding, PATH);
const decoded = async (bytes: Buffer, encoding: string, maxBytes = 64 * MB) =>
  (await decodeBytes(bytes, coding(encoding), PATH, maxBytes)).toString('utf8');

/** `gz` with the decoded size its trailer states (ISIZE) replaced by `size`. */
function stating(gz: Buffer, size: number): Buffer {
  const out = Buffer.from(gz);
  out.writeUInt32LE(size >>> 0, out.length - 4);
  return out;
}

async function rejection(p: Promise<unknown>): Promise<ReportsError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof ReportsError)) throw new Error(`expected a ReportsError, got ${String(err)}`);
  return err;
}

describe('decodeBytes', () => {
  it('decodes a gzip body whole, its size taken from its trailer', async () => {
    expect(text.length).toBeGreaterThan(400_000);
    expect(await decoded(gzipSync(text), 'gzip')).toBe(text);
  });

  it('a trailer that does not state the size is refused: zlib checks it', async () => {
    const err = await rejection(decodeBytes(stating(gzipSync(text), 1000), coding('gzip'), PATH, 64 * MB));
    expect(err.message).toContain('could not be decoded as that (incorrect length check)');
  });

  it('a body of two gzip members (the trailer states the last one only) gives both', async () => {
    // The last member is 100 characters: the first buffer (64 KB) fills, and more follow.
    const cut = text.length - 100;
    const twoMembers = Buffer.concat([gzipSync(text.slice(0, cut)), gzipSync(text.slice(cut))]);
    expect(await decoded(twoMembers, 'gzip')).toBe(text);
  });

  it('stacked codings are undone last first; no coding gives the bytes themselves', async () => {
    expect(await decoded(brotliCompressSync(gzipSync(text)), 'gzip, br')).toBe(text);
    const plain = Buffer.from(text);
    expect(await decodeBytes(plain, coding(''), PATH, 64 * MB)).toBe(plain);
  });

  it('decoding stops at the bound: more than it is refused, naming the encoding and the bound', async () => {
    const bomb = gzipSync('0'.repeat(8 * MB));
    const err = await rejection(decodeBytes(bomb, coding('gzip'), PATH, MB));
    expect(err.kind).toBe('malformed_response');
    expect(err.message).toBe(
      `${PATH} answered with a body of more than 1 MB once decoded (Content-Encoding "gzip", 1 MB decoded when ` +
        'reading stopped): refused unread, as no result could hold it within REPORTS_RESULTS_MAX_MB. Ask for a ' +
        'smaller page (REPORTS_PAGE_SIZE) or a shorter date range.',
    );
    // Exactly the bound is not more than it.
    expect(await decoded(gzipSync('0'.repeat(MB)), 'gzip', MB)).toBe('0'.repeat(MB));
  });

  it('a body that is not what its coding says is an error naming the encoding', async () => {
    const err = await rejection(decodeBytes(Buffer.from(text), coding('x-gzip'), PATH, MB));
    expect(err.message).toBe(
      `${PATH} answered with Content-Encoding "x-gzip" but its body could not be decoded as that (incorrect header ` +
        'check): the body is cut short or not encoded as the header says. ' +
        'Check the service or the proxy in front of it.',
    );
  });

  describe('a small body (16 KB as sent, at most) is decoded on the main thread', () => {
    // A page of 100 records, well under 16 KB in every coding.
    const page = JSON.stringify({ ResponseReport: Array.from({ length: 100 }, (_, i) => ({ Id: i, Seq: `s${i}` })) });
    const encoders: Record<string, (t: string) => Buffer> = {
      gzip: gzipSync,
      deflate: deflateSync,
      br: brotliCompressSync,
    };

    /** Whether `p` settles within `turns` turns of the microtask queue: no trip to the thread pool. */
    async function settlesWithin(p: Promise<unknown>, turns: number): Promise<boolean> {
      let settled = false;
      p.then(
        () => (settled = true),
        () => (settled = true),
      );
      for (let i = 0; i < turns && !settled; i++) await Promise.resolve();
      return settled;
    }

    it('its answer is there before the event loop turns; a large one goes to the thread pool', async () => {
      for (const [encoding, encode] of Object.entries(encoders)) {
        const bytes = encode(page);
        expect(bytes.length).toBeLessThan(16 * 1024);
        const p = decodeBytes(bytes, coding(encoding), PATH, 64 * MB);
        expect(await settlesWithin(p, 5)).toBe(true);
        expect((await p).toString('utf8')).toBe(page);
      }
      // A large one goes to the thread pool: not settled without a turn of the event loop.
      const large = gzipSync(text);
      expect(large.length).toBeGreaterThan(16 * 1024);
      const p = decodeBytes(large, coding('gzip'), PATH, 64 * MB);
      expect(await settlesWithin(p, 50)).toBe(false);
      expect((await p).toString('utf8')).toBe(text);
    });

    it('one that decodes to more than 256 KB is decoded whole, up to the real bound', async () => {
      const zeros = '0'.repeat(3 * MB);
      const bytes = gzipSync(zeros);
      expect(bytes.length).toBeLessThan(16 * 1024);
      expect(await decoded(bytes, 'gzip')).toBe(zeros);
      // The bound as for any body: more than it is refused, naming it.
      const err = await rejection(decodeBytes(bytes, coding('gzip'), PATH, 2 * MB));
      expect(err.message).toContain('with a body of more than 2 MB once decoded (Content-Encoding "gzip", 2 MB');
      // A bound under 256 KB refuses it on the main thread, with the same words.
      const small = await rejection(decodeBytes(bytes, coding('gzip'), PATH, 100 * 1024));
      expect(small.message).toContain('with a body of more than 0.1 MB once decoded (Content-Encoding "gzip", 0.1 MB');
    });

    it('one that is not what its coding says is the same error as a large one', async () => {
      const err = await rejection(decodeBytes(Buffer.from(page.slice(0, 500)), coding('gzip'), PATH, MB));
      expect(err.message).toBe(
        `${PATH} answered with Content-Encoding "gzip" but its body could not be decoded as that (incorrect header ` +
          'check): the body is cut short or not encoded as the header says. ' +
          'Check the service or the proxy in front of it.',
      );
      const whole = gzipSync(page);
      const cut = whole.subarray(0, whole.length - 20);
      expect((await rejection(decodeBytes(cut, coding('gzip'), PATH, MB))).message).toContain(
        '(unexpected end of file)',
      );
    });
  });

  it('an encoding it cannot decode is refused before anything is read, the body discarded', () => {
    const body = new PassThrough();
    expect(() => bodyCoding(body, 'gzip, zstd', PATH)).toThrow(/"zstd" is not one of gzip, deflate, br/);
    expect(body.destroyed).toBe(true);
  });
});
