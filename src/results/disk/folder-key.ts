/**
 * The key that seals kept results (docs/held-results.md, "On disk"): HKDF-SHA256 of the API
 * key (the demo's own fixed secret in demo mode) with a random salt kept in the folder, bound
 * to the service's address and username. The folder without the API key is unreadable, and
 * another API key derives another key: its results go to a subfolder of their own, named by
 * a digest of the key (which tells nothing of it), and neither reads the other's.
 */
import { createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { link, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

const SALT_FILE = 'salt';
const SALT_BYTES = 32;

/** What the key is derived from: the secret, and what else it is bound to. */
export interface KeySource {
  secret: string;
  /** The service's address and username, or `demo`. */
  context: string;
}

export interface FolderKey {
  /** AES-256-GCM key for the files of this key's subfolder. */
  key: Buffer;
  /** The subfolder holding this key's results. */
  folder: string;
  /** An HMAC key for PII masks, stable across restarts (masks then match between old and new results). */
  maskKey: Buffer;
}

/** Reads (or makes) the folder's salt and derives this key's part of it; creates the folders. */
export async function openFolderKey(root: string, source: KeySource): Promise<FolderKey> {
  await mkdir(root, { recursive: true, mode: 0o700 });
  const salt = await readOrMakeSalt(root);
  const derive = (use: string) =>
    Buffer.from(hkdfSync('sha256', source.secret, salt, `travel-reports-mcp ${use}\n${source.context}`, 32));
  const key = derive('held results v1');
  const name = createHmac('sha256', key).update('folder name').digest('hex').slice(0, 24);
  const folder = join(root, name);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  return { key, folder, maskKey: derive('pii masks v1') };
}

/**
 * The salt, made once per folder. Two servers starting together may both make one: each
 * writes its own temporary file and renames it into place, and both then read the one that
 * stayed. A salt of the wrong size (damaged) is replaced: the results sealed under the old one
 * cannot be read any more and go as other keys' results go (docs/held-results.md).
 */
async function readOrMakeSalt(root: string): Promise<Buffer> {
  const path = join(root, SALT_FILE);
  const existing = await readFile(path).catch(() => undefined);
  if (existing?.length === SALT_BYTES) return existing;
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  await writeFile(tmp, randomBytes(SALT_BYTES), { mode: 0o600, flag: 'wx' });
  if (existing) await rename(tmp, path);
  else {
    // Only if still missing: another server's salt, made meanwhile, wins.
    await link(tmp, path).catch(() => {});
    await unlink(tmp).catch(() => {});
  }
  const salt = await readFile(path);
  if (salt.length !== SALT_BYTES) throw new Error(`the salt file ${path} has ${salt.length} bytes, not ${SALT_BYTES}`);
  return salt;
}
