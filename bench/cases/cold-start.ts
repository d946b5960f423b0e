/**
 * Case 3. Cold start: spawn to the answer of the first tools/list over stdio, for the built
 * server (live mode, pointed at the bench upstream) and for a minimal SDK server with one
 * tool, alternated run by run.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { row } from '../stats.js';
import { BENCH_KEY, BENCH_USERNAME } from '../upstream.js';
import type { CaseOutput } from './context.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const OURS = path.join(here, '..', '..', 'src', 'index.js');
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

export async function coldStartCase(origin: string, runs: number): Promise<CaseOutput> {
  const env = {
    REPORTS_BASE_URL: `${origin}/0/1/20000`,
    REPORTS_API_USERNAME: BENCH_USERNAME,
    REPORTS_API_KEY: BENCH_KEY,
  };
  await timeToToolsList(OURS, env); // warm the file cache
  await timeToToolsList(MINIMAL, {});
  const ours: number[] = [];
  const minimal: number[] = [];
  const ratio: number[] = [];
  for (let run = 0; run < runs; run++) {
    const o = await timeToToolsList(OURS, env);
    const m = await timeToToolsList(MINIMAL, {});
    ours.push(o);
    minimal.push(m);
    ratio.push(o / m);
  }
  const c = '3 cold start to tools/list';
  return {
    rows: [
      row(c, 'ours (built, stdio)', 'ms', ours),
      row(c, 'minimal SDK server', 'ms', minimal),
      row(c, 'ours / minimal', 'x', ratio, 1.3),
    ],
  };
}
