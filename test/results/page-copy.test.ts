/**
 * Copies of a result's pages (src/results/disk/page-copy.ts) on a real temporary folder: bodies
 * copied as they are read, and the pages accepted from them, are read back by Offset exactly as
 * sent (a body whose page was not accepted left out), only with their key and the nonce the
 * result's description names; a page whose body was not copied spoils the copy, an
 * abandoned copy leaves no file behind, and a copy given no body makes none. A copy opens its
 * file once OPEN_AFTER bytes are sealed; a smaller one makes its file whole at finish.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPEN_AFTER, PageCopy, readPageCopy } from '../../src/results/disk/page-copy.js';
import { SealedFileError } from '../../src/results/disk/sealed-file.js';
import { decodeWire } from '../../src/upstream/body-decode.js';

let dir: string;
const key = randomBytes(32);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'page-copy-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A page's JSON as a service sends it, distinct per Offset. */
function page(offset: number): string {
  const records = Array.from({ length: 3 }, (_, i) => ({ RecordLocator: `L${offset + i}`, Passengers: 'NÚÑEZ/JOSÉ' }));
  return JSON.stringify({ ResponseMetadata: { Success: true }, ResponseReport: records });
}

/** The folder's files, temporary ones included. */
async function files(folder: string): Promise<string[]> {
  return (await readdir(folder)).sort();
}

describe('a copy of the pages of a fetch', () => {
  it('reads back every page by Offset, decoding as sent (gzip, br, both), only with its key and nonce', async () => {
    const folder = await mkdtemp(join(dir, 'whole-'));
    const copy = new PageCopy(folder, key);
    const sent = [
      { offset: 200, wire: { encoding: 'gzip', bytes: gzipSync(page(200)) } },
      { offset: 0, wire: { encoding: 'br', bytes: brotliCompressSync(page(0)) } },
      { offset: 100, wire: { encoding: 'gzip, br', bytes: brotliCompressSync(gzipSync(page(100))) } },
    ];
    // A body read for Offset 100 first, then retried: its page came from the second.
    const retried = copy.body({ encoding: 'gzip', bytes: gzipSync(page(999)) });
    const numbers = sent.map((p) => copy.body(p.wire));
    expect(copy.whole).toBe(false);
    sent.forEach((p, i) => copy.accept(p.offset, numbers[i]));
    expect([retried, ...numbers]).toEqual([0, 1, 2, 3]);
    expect(copy.whole).toBe(true);
    const path = join(folder, 'r.data');
    const { bytes, nonce } = await copy.finish(path);
    expect(await files(folder)).toEqual(['r.data']);
    const file = await readFile(path);
    expect(file.length).toBe(bytes);
    expect(file.subarray(0, 4).toString('latin1')).toBe('TRP1');
    expect(file.includes(Buffer.from('RecordLocator'))).toBe(false);

    const pages = await readPageCopy(path, key, nonce);
    expect([...pages.keys()]).toEqual([200, 0, 100]);
    for (const p of sent) {
      expect(pages.get(p.offset)).toEqual(p.wire);
      expect(decodeWire(pages.get(p.offset)!).toString('utf8')).toBe(page(p.offset));
    }

    await expect(readPageCopy(path, randomBytes(32), nonce)).rejects.toThrow(SealedFileError);
    await expect(readPageCopy(path, key, '00'.repeat(12))).rejects.toThrow('the copy of the pages of another result');
    const flipped = Buffer.from(file);
    flipped[flipped.length >> 1] ^= 0x01;
    await writeFile(path, flipped);
    await expect(readPageCopy(path, key, nonce)).rejects.toThrow('it does not authenticate');
  });

  it('a small copy makes no file before finish; a large one writes as its bodies come', async () => {
    const folder = await mkdtemp(join(dir, 'open-'));
    const small = new PageCopy(folder, key);
    small.accept(0, small.body({ encoding: 'gzip', bytes: gzipSync(page(0)) }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await files(folder)).toEqual([]);
    const { nonce } = await small.finish(join(folder, 'small.data'));
    expect(await files(folder)).toEqual(['small.data']);
    const back = await readPageCopy(join(folder, 'small.data'), key, nonce);
    expect(decodeWire(back.get(0)!).toString('utf8')).toBe(page(0));
    // Bodies that do not compress (random bytes as sent): past OPEN_AFTER the file is open.
    const large = new PageCopy(folder, key);
    const bodies = Array.from({ length: 5 }, () => randomBytes(OPEN_AFTER / 4));
    bodies.forEach((bytes, i) => large.accept(i * 100, large.body({ encoding: 'gzip', bytes })));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const temporary = (await files(folder)).filter((f) => f.endsWith('.tmp'));
    expect(temporary).toHaveLength(1);
    expect((await readFile(join(folder, temporary[0]))).length).toBeGreaterThan(OPEN_AFTER);
    const written = await large.finish(join(folder, 'large.data'));
    expect(await files(folder)).toEqual(['large.data', 'small.data']);
    const pages = await readPageCopy(join(folder, 'large.data'), key, written.nonce);
    expect([...pages.keys()]).toEqual([0, 100, 200, 300, 400]);
    expect(pages.get(300)?.bytes.equals(bodies[3])).toBe(true);
  });

  it('a page that cannot be kept spoils the copy; an abandoned copy leaves no file', async () => {
    const folder = await mkdtemp(join(dir, 'spoiled-'));
    const copy = new PageCopy(folder, key);
    copy.accept(0, copy.body({ encoding: 'gzip', bytes: gzipSync(page(0)) }));
    expect(copy.whole).toBe(true);
    copy.accept(100, undefined);
    copy.accept(200, copy.body({ encoding: 'gzip', bytes: gzipSync(page(200)) }));
    expect(copy.whole).toBe(false);
    await expect(copy.finish(join(folder, 'r.data'))).rejects.toThrow('the copy of the pages is not whole');
    const abandoned = new PageCopy(folder, key);
    abandoned.accept(0, abandoned.body({ encoding: 'br', bytes: brotliCompressSync(page(0)) }));
    await abandoned.abandon();
    await copy.abandon();
    expect(await files(folder)).toEqual([]);
    const unused = new PageCopy(folder, key);
    expect(unused.whole).toBe(false);
    await expect(unused.finish(join(folder, 'u.data'))).rejects.toThrow('the copy of the pages is not whole');
    // No body copied (the service answered uncompressed): no file was ever made.
    expect(await files(folder)).toEqual([]);
    await unused.abandon();
    expect(await files(folder)).toEqual([]);
    // Spoiled before its first body (a page came uncompressed), then given one: still no file.
    const late = new PageCopy(folder, key);
    late.accept(0, undefined);
    late.accept(100, late.body({ encoding: 'gzip', bytes: gzipSync(page(100)) }));
    await late.abandon();
    await new Promise((r) => setTimeout(r, 50));
    expect(await files(folder)).toEqual([]);
  });
});
