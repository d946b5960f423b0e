/**
 * A small kept file written whole (src/results/disk/whole-file.ts), on a real temporary folder:
 * its parts in order, its times when asked, owner-only, nothing else left in the folder; a
 * file written again replaces the old one whole; a write that fails leaves the old file as it
 * was and no temporary file.
 */
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmpBeside, writeWholeFile } from '../../src/results/disk/whole-file.js';

let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'whole-file-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a file written whole', () => {
  it('holds its parts in order, with the time asked, readable by its owner only, and nothing beside it', async () => {
    const folder = await mkdtemp(join(dir, 'parts-'));
    const path = join(folder, 'r.meta');
    const parts = [Buffer.from('TRM2'), Buffer.alloc(70_000, 0x61), Buffer.from('tag')];
    const at = Date.UTC(2026, 10, 3, 9, 15, 27);
    expect(await writeWholeFile(path, parts, at)).toBe(70_007);
    // Its times before it is read (a read may set its access time).
    const s = await stat(path);
    expect(s.mtimeMs).toBe(at);
    expect(s.atimeMs).toBe(at);
    expect(await readFile(path)).toEqual(Buffer.concat(parts));
    if (process.platform !== 'win32') expect(s.mode & 0o777).toBe(0o600);
    expect(await readdir(folder)).toEqual(['r.meta']);
  });

  it('without a time, is dated when written; written again, it is replaced whole', async () => {
    const folder = await mkdtemp(join(dir, 'again-'));
    const path = join(folder, 'r.data');
    const before = Date.now();
    await writeWholeFile(path, [Buffer.from('first version, longer than the second')]);
    expect((await stat(path)).mtimeMs).toBeGreaterThanOrEqual(before - 1_000);
    await writeWholeFile(path, [Buffer.from('second')]);
    expect((await readFile(path)).toString()).toBe('second');
    expect(await readdir(folder)).toEqual(['r.data']);
  });

  it('fails leaving the file as it was and no temporary file, when it cannot be written', async () => {
    const folder = await mkdtemp(join(dir, 'fails-'));
    const path = join(folder, 'r.meta');
    await writeFile(path, 'kept');
    // A time the file system cannot take: the write fails after the temporary file was made.
    await expect(writeWholeFile(path, [Buffer.from('new')], Number.NaN)).rejects.toThrow();
    expect(await readFile(path, 'utf8')).toBe('kept');
    expect(await readdir(folder)).toEqual(['r.meta']);
    // Into a folder that is not there: nothing is made.
    await expect(writeWholeFile(join(folder, 'gone', 'r.meta'), [Buffer.from('x')])).rejects.toThrow(/ENOENT/);
    expect(await readdir(folder)).toEqual(['r.meta']);
  });

  it('names its temporary file beside the file, ending in .tmp, a new name each time', () => {
    const a = tmpBeside('/kept/r.meta');
    const b = tmpBeside('/kept/r.meta');
    expect(a).toMatch(/^\/kept\/r\.meta\.[0-9a-f]{12}\.tmp$/);
    expect(a).not.toBe(b);
  });
});
