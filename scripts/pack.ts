/** `npm run pack`: writes travel-reports-mcp-<version>.mcpb at the repository root. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { packBundle, ROOT } from './mcpb.js';

const output = await packBundle(path.join(ROOT, 'dist', 'mcpb'), ROOT);
const { size } = await stat(output);
const bundle = await stat(path.join(ROOT, 'dist', 'mcpb', 'server', 'index.mjs'));
process.stderr.write(
  `${path.basename(output)}: ${(size / 1024).toFixed(0)} KiB (server bundle ${(bundle.size / 1024).toFixed(0)} KiB unpacked)\n`,
);
