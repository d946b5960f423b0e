/**
 * A kept result's files put in place whole (docs/held-results.md, "On disk"): written to
 * `<path>.<random>.tmp`, then renamed to `path`, so a reader never sees half of one
 * (writeAtomically; sealed-file.ts streams a large result's records through it).
 *
 * A small file made in memory (writeWholeFile): only the open and the rename go through the
 * thread pool; the write, the times and the close are a system call each on the calling thread
 * (a few tens of KB into the file system's cache).
 * On the bench's machine each operation through the pool took about 0.1 ms of the main thread,
 * and fs.promises.writeFile is three (open, write, close): a small result's copy made seven,
 * and nine writes of the page copy's pieces besides (0.38 ms of the main thread a result, of
 * 0.8 for the whole copy). The open stays on the pool: made synchronous it took 2.8 ms there.
 */
import { closeSync, futimesSync, open, writeSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { pooledRandomBytes } from '../random-bytes.js';

/** Writes `parts`, in order, as the file at `path`, its modification (and access) time
 *  `mtimeMs` when given; answers the bytes written. On failure no file is left but `path` as it was. */
export function writeWholeFile(path: string, parts: readonly Buffer[], mtimeMs?: number): Promise<number> {
  const bytes = parts.length === 1 ? parts[0] : Buffer.concat(parts);
  return writeAtomically(path, async (tmp) => {
    const fd = await new Promise<number>((resolve, reject) =>
      open(tmp, 'wx', 0o600, (err, opened) => (err ? reject(err) : resolve(opened))),
    );
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      if (mtimeMs !== undefined) futimesSync(fd, mtimeMs / 1000, mtimeMs / 1000);
    } finally {
      closeSync(fd);
    }
    return bytes.length;
  });
}

/**
 * Writes `<path>.<random>.tmp` with `write` (which answers the bytes written), then renames it
 * to `path`, so a reader never sees half a file; the temporary file goes on failure.
 */
export async function writeAtomically(path: string, write: (tmp: string) => Promise<number>): Promise<number> {
  const tmp = tmpBeside(path);
  try {
    const bytes = await write(tmp);
    await rename(tmp, path);
    return bytes;
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

/** A temporary file's name beside `path`, to be renamed to it (a leftover ends in `.tmp`). */
export function tmpBeside(path: string): string {
  return `${path}.${pooledRandomBytes(6).toString('hex')}.tmp`;
}
