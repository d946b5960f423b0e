/**
 * Building the MCP Bundle (.mcpb) for one-click desktop installs: the shipped server
 * (bundle-server.ts: index.mjs and its chunks, everything it imports inside) copied into
 * server/ beside manifest.json and the icon, nothing else, then validated and zipped by
 * mcpb, the bundle format's own tool.
 */
import { copyFile, cp, mkdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { packExtension, validateManifest } from '@anthropic-ai/mcpb';
import { SERVER_DIR, SERVER_ENTRY } from './bundle-server.js';
import { checkBundleZip, writeChecksum } from './bundle-zip.js';
import { ROOT } from './root.js';

export { ROOT };

interface Manifest {
  name: string;
  version: string;
  icon: string;
  server: { entry_point: string };
}

export async function readManifest(dir = ROOT): Promise<Manifest> {
  return JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as Manifest;
}

/**
 * The staging folder: manifest.json, the icon and the bundled server as `npm run build` wrote
 * it (dist/server, copied, not bundled a second time), nothing else.
 */
export async function stage(dir: string): Promise<Manifest> {
  const manifest = await readManifest();
  if (path.posix.basename(manifest.server.entry_point) !== SERVER_ENTRY)
    throw new Error(
      `manifest.json names server.entry_point '${manifest.server.entry_point}'; the bundle's is ${SERVER_ENTRY}`,
    );
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await copyFile(path.join(ROOT, 'manifest.json'), path.join(dir, 'manifest.json'));
  await copyFile(path.join(ROOT, manifest.icon), path.join(dir, manifest.icon));
  if (!(await stat(path.join(SERVER_DIR, SERVER_ENTRY)).catch(() => undefined)))
    throw new Error(`${path.join(SERVER_DIR, SERVER_ENTRY)} is missing: run npm run build first`);
  await cp(SERVER_DIR, path.join(dir, path.posix.dirname(manifest.server.entry_point)), { recursive: true });
  return manifest;
}

/**
 * What mcpb does not check: the entry point the manifest names exists and is a file. A
 * bundle without it installs and then fails on every start.
 */
export async function checkStaged(dir: string): Promise<void> {
  const manifest = await readManifest(dir);
  const entry = path.join(dir, manifest.server.entry_point);
  const found = await stat(entry).catch(() => undefined);
  if (!found?.isFile()) {
    throw new Error(`manifest.json names server.entry_point '${manifest.server.entry_point}', but ${entry} is missing`);
  }
  if (!validateManifest(path.join(dir, 'manifest.json'))) {
    throw new Error(`mcpb validate rejected ${path.join(dir, 'manifest.json')} (see above)`);
  }
}

/**
 * Stages, checks, and packs `<name>-<version>.mcpb` into outDir, checks the zip against what
 * was staged (bundle-zip.ts) and writes its SHA-256 beside it (`<name>-<version>.mcpb.sha256`);
 * returns the bundle's path. The bundle is not signed: Claude Desktop refuses signed ones today.
 */
export async function packBundle(stagingDir: string, outDir: string): Promise<string> {
  const manifest = await stage(stagingDir);
  await checkStaged(stagingDir);
  const output = path.join(outDir, `${manifest.name}-${manifest.version}.mcpb`);
  await rm(`${output}.sha256`, { force: true });
  if (!(await packExtension({ extensionPath: stagingDir, outputPath: output, silent: true }))) {
    throw new Error(`mcpb pack failed for ${stagingDir}`);
  }
  await checkBundleZip(output, stagingDir);
  await writeChecksum(output);
  return output;
}
