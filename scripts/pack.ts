/** `npm run pack`: writes travel-reports-mcp-<version>.mcpb at the repository root. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { packBundle, ROOT } from './mcpb.js';

const output = await packBundle(path.join(ROOT, 'dist', 'mcpb'), ROOT);
const { size } = await stat(output);
const serverDir = path.join(ROOT, 'dist', 'mcpb', 'server');
let unpacked = 0;
for (const file of await readdir(serverDir)) unpacked += (await stat(path.join(serverDir, file))).size;
process.stderr.write(
  `${path.basename(output)}: ${(size / 1024).toFixed(0)} KiB (server ${(unpacked / 1024).toFixed(0)} KiB unpacked)\n`,
);
