/**
 * Case 3. Cold start: spawn to the answer of the first tools/list over stdio, for the server
 * as it ships (live mode, pointed at the bench upstream), for a minimal SDK server with one
 * tool as one writes it, and for that minimal server bundled the way ours ships (esbuild,
 * scripts/bundle-server.ts), alternated run by run. The target is against the minimal server
 * as written; the bundled one shows what is ours alone (no target).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_OPTIONS } from '../../scripts/bundle-server.js';
import { row } from '../stats.js';
import { BENCH_KEY, BENCH_USERNAME } from '../upstream.js';
import type { CaseOutput } from './context.js';

const here = path.dirname(fileURLToPath(import.meta.url));
// The server as it ships (npm run build's bundle: the bin, npm start and the .mcpb run it).
const OURS = path.join(here, '..', '..', 'server', 'index.mjs');
const MINIMAL = path.join(here, '..', 'minimal-server.js');

/** Milliseconds from spawn to the tools/list answer; the process is then killed by its pid. */
export async function timeToToolsList(script: string, env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [script], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  try {
    const send = (m: unknown) => child.stdin.write(`${JSON.stringify(m)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
    });
    let buffer = '';
    for await (const chunk of child.stdout) {
      buffer += chunk;
      let nl = buffer.indexOf('\n');
      while (nl >= 0) {
        const msg = JSON.parse(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
        if (msg.id === 1) {
          send({ jsonrpc: '2.0', method: 'notifications/initialized' });
          send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
        } else if (msg.id === 2) {
          if (!Array.isArray(msg.result?.tools) || msg.result.tools.length === 0)
            throw new Error(`${script}: no tools listed`);
          return performance.now() - started;
        }
        nl = buffer.indexOf('\n');
      }
    }
    throw new Error(`${script} exited before answering tools/list (code ${child.exitCode})`);
  } finally {
    if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
  }
}

/** The minimal server bundled with the options ours ships with; returns its entry. */
async function bundleMinimal(dir: string): Promise<string> {
  await build({ ...BUNDLE_OPTIONS, entryPoints: { minimal: MINIMAL }, outdir: dir });
  return path.join(dir, 'minimal.mjs');
}

export async function coldStartCase(origin: string, runs: number): Promise<CaseOutput> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-minimal-'));
  const env = {
    REPORTS_BASE_URL: `${origin}/0/1/20000`,
    REPORTS_API_USERNAME: BENCH_USERNAME,
    REPORTS_API_KEY: BENCH_KEY,
    // Held results kept on disk as a desktop host runs it, in a folder of the bench's own (empty).
    REPORTS_RESULTS_DIR: path.join(dir, 'results'),
  };
  try {
    const bundled = await bundleMinimal(dir);
    // Warm the file cache.
    for (const script of [OURS, MINIMAL, bundled]) await timeToToolsList(script, script === OURS ? env : {});
    const ours: number[] = [];
    const minimal: number[] = [];
    const minimalBundled: number[] = [];
    const ratio: number[] = [];
    const ratioBundled: number[] = [];
    for (let run = 0; run < runs; run++) {
      const o = await timeToToolsList(OURS, env);
      const m = await timeToToolsList(MINIMAL, {});
      const b = await timeToToolsList(bundled, {});
      ours.push(o);
      minimal.push(m);
      minimalBundled.push(b);
      ratio.push(o / m);
      ratioBundled.push(o / b);
    }
    const c = '3 cold start to tools/list';
    return {
      rows: [
        row(c, 'ours (as shipped: bundled, stdio)', 'ms', ours),
        row(c, 'minimal SDK server', 'ms', minimal),
        row(c, 'minimal SDK server, bundled as ours is', 'ms', minimalBundled),
        row(c, 'ours / minimal', 'x', ratio, 1.3),
        row(c, 'ours / minimal bundled (ours alone)', 'x', ratioBundled),
      ],
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
