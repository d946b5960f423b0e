/**
 * A small file of a kept result written whole (docs/held-results.md, "On disk"): to
 * `<path>.<random>.tmp`, then renamed to `path`, so a reader never sees half of it.
 *
 * Only the open and the rename go through the thread pool; the write, the times and the close
 * are a system call each on the calling thread (a few tens of KB into the file system's cache).
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
export async function writeWholeFile(path: string, parts: readonly Buffer[], mtimeMs?: number): Promise<number> {
  const bytes = parts.length === 1 ? parts[0] : Buffer.concat(parts);
  const tmp = tmpBeside(path);
  const fd = await new Promise<number>((resolve, reject) =>
    open(tmp, 'wx', 0o600, (err, opened) => (err ? reject(err) : resolve(opened))),
  );
  try {
    try {
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      if (mtimeMs !== undefined) futimesSync(fd, mtimeMs / 1000, mtimeMs / 1000);
    } finally {
      closeSync(fd);
    }
    await rename(tmp, path);
    return bytes.length;
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
}

/** A temporary file's name beside `path`, to be renamed to it (a leftover ends in `.tmp`). */
export function tmpBeside(path: string): string {
  return `${path}.${pooledRandomBytes(6).toString('hex')}.tmp`;
}
