/**
 * Sealed record files (src/results/disk/sealed-file.ts) on a real temporary folder: a result
 * of one batch is sealed whole in memory, a larger one through streams a batch per line;
 * both read back exactly, and neither opens under another key or role, or with a byte
 * changed. Files written before Brotli (TRM1, gzip) still read.
 */
import { createCipheriv, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  readSealedJson,
  readSealedRecords,
  SealedFileError,
  writeSealedRecords,
} from '../../src/results/disk/sealed-file.js';

let dir: string;
const key = randomBytes(32);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sealed-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Records alike in shape, each distinct: an accented name, a date, an amount, a list. */
function records(n: number): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => ({
    RecordLocator: `R${String(i).padStart(5, '0')}`,
    Passengers: i % 3 ? `NÚÑEZ/JOSÉ MR ${i}` : `DOE/JANE MS ${i}`,
    DepartureDate: `2026-${String((i % 12) + 1).padStart(2, '0')}-15`,
    FareAmount: i * 1.25,
    Remarks: null,
    Coupons: [{ n: i, ok: i % 2 === 0 }],
  }));
}

describe('sealed record files', () => {
  // 0 and 1,000: one batch, whole in memory; 1,001 and 2,500: a stream of batches.
  it.each([0, 1, 1_000, 1_001, 2_500])('%i records read back exactly, and only with their key and role', async (n) => {
    const path = join(dir, `r${n}.data`);
    const written = records(n);
    const bytes = await writeSealedRecords(path, key, `data:r${n}`, written);
    const file = await readFile(path);
    expect(file.length).toBe(bytes);
    expect(file.subarray(0, 4).toString('latin1')).toBe('TRM2');
    // Nothing in clear: compressed, then sealed.
    if (n > 0) expect(file.includes(Buffer.from('R00000'))).toBe(false);
    expect(await readSealedRecords(path, key, `data:r${n}`)).toEqual(written);

    await expect(readSealedRecords(path, randomBytes(32), `data:r${n}`)).rejects.toThrow(SealedFileError);
    await expect(readSealedRecords(path, key, `data:other`)).rejects.toThrow(/does not authenticate/);
    const flipped = Buffer.from(file);
    flipped[flipped.length >> 1] ^= 1;
    await writeFile(path, flipped);
    await expect(readSealedRecords(path, key, `data:r${n}`)).rejects.toThrow(/does not authenticate/);
  });

  it('reads a file written before Brotli (TRM1: gzip, then sealed)', async () => {
    const written = records(1_500);
    const lines = `${JSON.stringify(written.slice(0, 1_000))}\n${JSON.stringify(written.slice(1_000))}\n`;
    const path = join(dir, 'old.data');
    await writeFile(path, sealedGzip('data:old', Buffer.from(lines, 'utf8')));
    expect(await readSealedRecords(path, key, 'data:old')).toEqual(written);
    await expect(readSealedRecords(path, key, 'data:other')).rejects.toThrow(/does not authenticate/);

    const meta = { id: 'old', report: 'air_segments', notes: ['Ñ'] };
    await writeFile(join(dir, 'old.meta'), sealedGzip('meta:old', Buffer.from(JSON.stringify(meta), 'utf8')));
    expect(await readSealedJson(join(dir, 'old.meta'), key, 'meta:old')).toEqual(meta);
  });

  it('refuses a file of neither form, naming its size', async () => {
    const path = join(dir, 'other.data');
    await writeFile(path, Buffer.concat([Buffer.from('TRM9', 'latin1'), randomBytes(60)]));
    await expect(readSealedRecords(path, key, 'data:other')).rejects.toThrow(
      'it is not a sealed result file (64 bytes)',
    );
  });

  it('leaves no temporary file beside what it wrote', async () => {
    const names = await readdir(dir);
    expect(names.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

/** A file as TRM1 wrote it (docs/held-results.md): "TRM1", the nonce, the AES-256-GCM
 *  ciphertext of the gzip of the content with the role authenticated, the tag. */
function sealedGzip(role: string, plain: Buffer): Buffer {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(role, 'utf8'));
  const body = Buffer.concat([cipher.update(gzipSync(plain)), cipher.final()]);
  return Buffer.concat([Buffer.from('TRM1', 'latin1'), nonce, body, cipher.getAuthTag()]);
}
