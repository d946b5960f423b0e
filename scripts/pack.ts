/** `npm run pack`: writes travel-reports-mcp-<version>.mcpb and its .sha256 at the repository root. */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { packBundle, ROOT } from './mcpb.js';

const output = await packBundle(path.join(ROOT, 'dist', 'mcpb'), ROOT);
const { size } = await stat(output);
const serverDir = path.join(ROOT, 'dist', 'mcpb', 'server');
let unpacked = 0;
for (const file of await readdir(serverDir)) unpacked += (await stat(path.join(serverDir, file))).size;
const digest = (await readFile(`${output}.sha256`, 'utf8')).split(' ')[0];
process.stderr.write(
  `${path.basename(output)}: ${(size / 1024).toFixed(0)} KiB (server ${(unpacked / 1024).toFixed(0)} KiB unpacked)\n` +
    `SHA-256 ${digest} (in ${path.basename(output)}.sha256; check with: sha256sum -c ${path.basename(output)}.sha256)\n`,
);
