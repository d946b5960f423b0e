import { fileURLToPath } from 'node:url';

/**
 * The server as it ships: `npm run build`'s bundle, which the npm bin, `npm start` and the
 * .mcpb run (scripts/bundle-server.ts). Tests that start a process start this one.
 */
export const BUILT_SERVER = fileURLToPath(new URL('../../dist/server/index.mjs', import.meta.url));

/** The built server's arguments for demo data in a test: UTC, and held results in memory only
 *  (a test never writes into the user's cache folder). */
export const DEMO_ARGS = [BUILT_SERVER, '--demo', '--timezone', 'UTC', '--results-dir', 'off'];
