/** `npm run docs` (second half): regenerates manifest.json and icon.png at the repository root. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drawIcon } from './icon.js';
import { ICON_FILE, manifestJson } from './manifest.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

async function update(file: string, content: string | Buffer): Promise<void> {
  const target = path.join(ROOT, file);
  const before = await readFile(target).catch(() => undefined);
  const same = before !== undefined && Buffer.compare(before, Buffer.from(content)) === 0;
  if (!same) await writeFile(target, content);
  process.stderr.write(`${file} ${same ? 'already up to date' : 'updated'}\n`);
}

await update('manifest.json', await manifestJson());
await update(ICON_FILE, drawIcon());
