/**
 * Writes a file atomically into the export folder: the content goes to a temporary file in
 * the same folder, which is then linked under its final name (link fails rather than
 * replace an existing file, so an earlier export is never overwritten) and removed. A reader
 * never sees a half-written export under the final name.
 */
import { randomBytes } from 'node:crypto';
import { link, mkdir, rename, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { ReportsError } from '../errors.js';

export interface Placed {
  path: string;
  fileName: string;
  bytes: number;
}

/** Most `-N` suffixes tried before giving up (a folder holding 1,000 exports of one day). */
const MAX_CANDIDATES = 1000;

export async function placeFile(
  folder: string,
  nameFor: (n: number) => string,
  write: (tmpPath: string) => Promise<void>,
): Promise<Placed> {
  const dir = resolve(folder);
  try {
    await mkdir(dir, { recursive: true });
  } catch (err) {
    throw unwritable(dir, err);
  }
  const tmp = join(dir, `.export-${randomBytes(8).toString('hex')}.tmp`);
  try {
    await write(tmp);
    const { size } = await stat(tmp);
    for (let n = 1; n <= MAX_CANDIDATES; n++) {
      const fileName = nameFor(n);
      const target = join(dir, fileName);
      // The name was checked part by part; this is the last word on where the file goes.
      if (dirname(target) !== dir || basename(target) !== fileName)
        throw new ReportsError('invalid_input', `The export name '${fileName}' would leave REPORTS_EXPORT_DIR.`);
      if (await settle(tmp, target)) return { path: target, fileName, bytes: size };
    }
    throw new ReportsError(
      'configuration',
      `REPORTS_EXPORT_DIR '${dir}' already holds ${MAX_CANDIDATES} exports named ${nameFor(1)} and its -N ` +
        `variants; move some away or pass another name.`,
    );
  } catch (err) {
    if (err instanceof ReportsError) throw err;
    throw unwritable(dir, err);
  } finally {
    await rm(tmp, { force: true });
  }
}

/** Puts tmp under target unless target exists; false when it does. */
async function settle(tmp: string, target: string): Promise<boolean> {
  try {
    await link(tmp, target);
    return true;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // Some file systems have no hard links: rename, after checking the name is free.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EOPNOTSUPP') throw err;
    if (await exists(target)) return false;
    await rename(tmp, target);
    return true;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

function unwritable(dir: string, err: unknown): ReportsError {
  const e = err as NodeJS.ErrnoException;
  const why = e?.code ? `${e.code}: ${e.message}` : String(err);
  return new ReportsError(
    'configuration',
    `REPORTS_EXPORT_DIR '${dir}' cannot be written (${why}). Set REPORTS_EXPORT_DIR (or --export-dir) to a ` +
      `folder this server can create and write to.`,
  );
}
