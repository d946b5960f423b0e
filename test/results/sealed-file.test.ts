/**
 * Sealed record files (src/results/disk/sealed-file.ts) on a real temporary folder: a result
 * of one batch is sealed whole in memory, a larger one through streams a batch per line;
 * both read back exactly, and neither opens under another key or role, or with a byte
 * changed.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSealedRecords, SealedFileError, writeSealedRecords } from '../../src/results/disk/sealed-file.js';

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
    expect(file.subarray(0, 4).toString('latin1')).toBe('TRM1');
    // Nothing in clear: gzip, then sealed.
    if (n > 0) expect(file.includes(Buffer.from('R00000'))).toBe(false);
    expect(await readSealedRecords(path, key, `data:r${n}`)).toEqual(written);

    await expect(readSealedRecords(path, randomBytes(32), `data:r${n}`)).rejects.toThrow(SealedFileError);
    await expect(readSealedRecords(path, key, `data:other`)).rejects.toThrow(/does not authenticate/);
    const flipped = Buffer.from(file);
    flipped[flipped.length >> 1] ^= 1;
    await writeFile(path, flipped);
    await expect(readSealedRecords(path, key, `data:r${n}`)).rejects.toThrow(/does not authenticate/);
  });

  it('leaves no temporary file beside what it wrote', async () => {
    const names = await readdir(dir);
    expect(names.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});
