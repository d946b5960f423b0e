/** `npm run docs`: regenerates README.md's configuration and tool tables. */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderReadme } from './readme-tables.js';

const README = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'README.md');
const before = await readFile(README, 'utf8');
const after = await renderReadme(before);
await writeFile(README, after);
process.stderr.write(before === after ? 'README.md tables already up to date\n' : 'README.md tables updated\n');
