/**
 * The server as it ships (README, "How it works"; docs/architecture.md, "Start-up"):
 * src/index.ts and everything it imports (the SDK, zod, undici, the sandbox that demo mode
 * starts) bundled by esbuild into dist/server/index.mjs, the npm bin and the .mcpb's entry point, with each dynamic import
 * (HTTP mode, demo mode, a report call's code, exports, SQL, the result view's page) in a
 * chunk of its own beside it, loaded when first used.
 *
 * Why a bundle: the same code as the tsc output in dist/src, but one module to compile at
 * start instead of some 230 files to resolve, read and link one by one, so the first
 * tools/list answers sooner (bench case 3; figures in docs/architecture.md).
 */
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type BuildOptions, build } from 'esbuild';
import { PLACES_PACKAGE, placeRowsFromPackage, placeRowsText } from '../src/results/place-rows.js';
import { AIRPORT_PACKAGES, airportRowsFromPackages, airportRowsText } from '../src/sql/airports-table.js';
import { ROOT } from './root.js';

/** Where `npm run build` writes the bundle, and the file the bin runs. */
export const SERVER_DIR = path.join(ROOT, 'dist', 'server');
export const SERVER_ENTRY = 'index.mjs';

/**
 * The SQL worker (src/sql/worker.ts) as one CommonJS script with SQLite's wasm inlined (sql.js's
 * own inline build), to be embedded in the server's SQL chunk and started as an eval'd worker:
 * no .wasm or native add-on ships beside it. The airports table's rows are read from their
 * packages here, once, and carried as text (src/sql/airports-table.ts): the packages stay out
 * of the script, which was 7.5 MB with them and about 1.5 MB without, read by the server and
 * compiled by the worker at the first sql_query of every process.
 */
export async function bundleSqlWorker(): Promise<string> {
  const airports = airportRowsText(await airportRowsFromPackages());
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
    define: { __AIRPORT_ROWS__: JSON.stringify(airports) },
    // Read only where __AIRPORT_ROWS__ is not defined, which it is here.
    external: [...AIRPORT_PACKAGES],
  });
  return out.outputFiles[0].text;
}

/**
 * How the server is bundled: ES modules for Node 20, split at each dynamic import. Bundled
 * CommonJS dependencies still call require() for Node's built-ins, which an ES module lacks,
 * so each file's banner defines it. Bench case 3 bundles its minimal server with these too.
 */
export const BUNDLE_OPTIONS = {
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  legalComments: 'none',
  logLevel: 'warning',
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
} as const satisfies BuildOptions;

/**
 * The server in `outdir`: index.mjs and its chunks. The SQL worker's source is embedded as a
 * string constant (src/sql/engine.ts starts it from there). The places of airports are read
 * from their package here and carried as text (src/results/place-rows.ts), in the chunk that
 * reads them: the package's 1.45 MB of source stays out. The folder is emptied first: chunk
 * names change with their content.
 */
export async function bundleServer(outdir: string): Promise<void> {
  const [sqlWorker, places] = await Promise.all([bundleSqlWorker(), placeRowsFromPackage()]);
  await rm(outdir, { recursive: true, force: true });
  await build({
    ...BUNDLE_OPTIONS,
    entryPoints: { index: path.join(ROOT, 'src', 'index.ts') },
    outdir,
    define: { __SQL_WORKER_SOURCE__: JSON.stringify(sqlWorker), __PLACE_ROWS__: JSON.stringify(placeRowsText(places)) },
    // Read only where __PLACE_ROWS__ is not defined, which it is here.
    external: [PLACES_PACKAGE],
  });
}
