/**
 * Building the MCP Bundle (.mcpb) for one-click desktop installs: the server and everything
 * it imports (the SDK, zod, undici, and the sandbox that demo mode starts) bundled by esbuild
 * into one file, staged beside manifest.json and the icon, nothing else, then validated and
 * zipped by mcpb, the bundle format's own tool.
 */
import { copyFile, mkdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packExtension, validateManifest } from '@anthropic-ai/mcpb';
import { build } from 'esbuild';

/** The repository root (this file runs as scripts/*.ts under vitest and as dist/scripts/*.js). */
export const ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  return path.basename(path.dirname(from)) === 'dist' ? path.resolve(from, '..', '..') : path.resolve(from, '..');
}

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
 * The SQL worker (src/sql/worker.ts) as one CommonJS script with SQLite's wasm inlined (sql.js's
 * own inline build), to be embedded in the server file and started as an eval'd worker: the
 * bundle stays one file, and no .wasm or native add-on ships beside it.
 */
export async function bundleSqlWorker(): Promise<string> {
  const out = await build({
    entryPoints: [path.join(ROOT, 'src', 'sql', 'worker.ts')],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    legalComments: 'none',
    logLevel: 'warning',
    alias: { 'sql.js': path.join(ROOT, 'node_modules', 'sql.js', 'dist', 'sql-wasm-inline.js') },
  });
  return out.outputFiles[0].text;
}

/**
 * One ESM file for Node 20. Bundled CommonJS dependencies still call require() for Node's
 * built-ins, which an ES module lacks, so the banner defines it. The SQL worker's source is
 * embedded as a string constant (src/sql/engine.ts starts it from there).
 */
export async function bundleServer(outfile: string): Promise<void> {
  const sqlWorker = await bundleSqlWorker();
  await build({
    entryPoints: [path.join(ROOT, 'src', 'index.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    legalComments: 'none',
    logLevel: 'warning',
    define: { __SQL_WORKER_SOURCE__: JSON.stringify(sqlWorker) },
    banner: {
      js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
    },
  });
}

/** The staging folder: manifest.json, the icon and the bundled entry point, nothing else. */
export async function stage(dir: string): Promise<Manifest> {
  const manifest = await readManifest();
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  await copyFile(path.join(ROOT, 'manifest.json'), path.join(dir, 'manifest.json'));
  await copyFile(path.join(ROOT, manifest.icon), path.join(dir, manifest.icon));
  await bundleServer(path.join(dir, manifest.server.entry_point));
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

/** Stages, checks, and packs `<name>-<version>.mcpb` into outDir; returns its path. */
export async function packBundle(stagingDir: string, outDir: string): Promise<string> {
  const manifest = await stage(stagingDir);
  await checkStaged(stagingDir);
  const output = path.join(outDir, `${manifest.name}-${manifest.version}.mcpb`);
  if (!(await packExtension({ extensionPath: stagingDir, outputPath: output, silent: true }))) {
    throw new Error(`mcpb pack failed for ${stagingDir}`);
  }
  return output;
}
