/**
 * Our server as a desktop host runs it (CONTRACT section 9): the built bundle
 * (dist/server/index.mjs, `npm run build`) spawned as its own process, spoken to over stdio
 * by a real SDK client, with the bench upstream as its service. Its memory and CPU are read
 * from /proc/<pid> (VmHWM, VmRSS, utime + stime), so the figures are that process's alone:
 * no client heap beside it, every message crossing a pipe.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { REPORT_ARGS, REPORT_TOOL } from './ours.js';
import { BENCH_KEY, BENCH_USERNAME } from './upstream.js';

const here = path.dirname(fileURLToPath(import.meta.url));
/** The server as it ships (npm run build's bundle: the bin, npm start and the .mcpb run it). */
export const BUILT_SERVER = path.join(here, '..', 'server', 'index.mjs');

/** The repository's manifest.json: how a desktop host runs the bundle. */
const MANIFEST = path.join(here, '..', '..', 'manifest.json');

/** The Node options a desktop host runs the server with: the manifest's NODE_OPTIONS. */
function hostNodeOptions(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8')) as {
    server: { mcp_config: { env?: Record<string, string> } };
  };
  const options = manifest.server.mcp_config.env?.NODE_OPTIONS;
  return options ? { NODE_OPTIONS: options } : {};
}

/** Clock ticks a second of /proc/<pid>/stat's times (USER_HZ: 100 on every Linux Node runs on). */
const TICKS_PER_SECOND = 100;

export interface ProcessMemory {
  /** Peak resident set (VmHWM), bytes. */
  hwm: number;
  /** Resident set now (VmRSS), bytes. */
  rss: number;
}

export interface OwnServer {
  client: Client;
  pid: number;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** The bench report with `fresh: true` (a call identical to one answered within 60 s is
   *  otherwise answered from its held result: server/joined-calls.ts). */
  report(args?: Record<string, unknown>): Promise<CallToolResult>;
  memory(): ProcessMemory;
  /** CPU time the process has used (every thread), ms. */
  cpuMs(): number;
  /** CPU time its main thread has used, ms. */
  mainCpuMs(): number;
  /** Resolves once the process has used no more than 2% of a CPU over half a second: what
   *  it does after an answer (writing the result to disk, collecting) is over. */
  idle(): Promise<void>;
  /** A one-page report of another query, answered before what is measured: the code a
   *  report call loads on first use (server/lazy.ts) and the compiler's first work are then
   *  done, as in a server that has answered before. */
  warmUp(): Promise<void>;
  /** What each report held, by the budget's own measure, as the server's log line says
   *  (`... bytes held`), in the order they were put. */
  heldBytes: number[];
  close(): Promise<void>;
}

/** `BENCH_SERVER_ENV="REPORTS_RESULTS_DIR=off K=V"`: settings for the server beyond the bench's
 *  own, for a profile that leaves a part out (the disk copy, say). */
function extraServerEnv(): Record<string, string> {
  const pairs = process.env.BENCH_SERVER_ENV?.split(' ').filter(Boolean) ?? [];
  return Object.fromEntries(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
}

/** Reads VmHWM and VmRSS of a process (Linux). */
export function processMemory(pid: number): ProcessMemory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!m) throw new Error(`/proc/${pid}/status has no ${name}`);
    return Number(m[1]) * 1024;
  };
  return { hwm: kb('VmHWM'), rss: kb('VmRSS') };
}

/** utime + stime of a process, ms (fields 14 and 15 of /proc/<pid>/stat, after the name). */
export function processCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/stat`);
}

/** utime + stime of a process's main thread alone (its task of the same id), ms: the thread
 *  that parses, walks and answers, where the other threads inflate, collect and compile. */
export function mainThreadCpuMs(pid: number): number {
  return statCpuMs(`/proc/${pid}/task/${pid}/stat`);
}

function statCpuMs(file: string): number {
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

export async function startOwnServer(baseUrl: string, env: Record<string, string> = {}): Promise<OwnServer> {
  // Held results kept on disk as a desktop host keeps them, in a folder of this server's own.
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-own-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Node's options for a profile of the server (--cpu-prof, --trace-gc): BENCH_SERVER_NODE_ARGS.
    args: [...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []), BUILT_SERVER],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? dir,
      REPORTS_BASE_URL: baseUrl,
      REPORTS_API_USERNAME: BENCH_USERNAME,
      REPORTS_API_KEY: BENCH_KEY,
      REPORTS_TIMEZONE: 'UTC',
      REPORTS_RESULTS_DIR: path.join(dir, 'results'),
      REPORTS_EXPORT_DIR: path.join(dir, 'exports'),
      // As the .mcpb's host runs it (manifest.json's mcp_config), Node's options included.
      ...hostNodeOptions(),
      ...env,
      ...extraServerEnv(),
    },
    stderr: 'pipe',
  });
  // The server's log is read (a full pipe would stop it) and its tail kept for a failure.
  let tail = '';
  let partial = '';
  const heldBytes: number[] = [];
  transport.stderr?.on('data', (d: Buffer) => {
    const text = d.toString();
    tail = (tail + text).slice(-4000);
    if (process.env.BENCH_SERVER_LOG) process.stderr.write(d);
    const lines = (partial + text).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const held = / (\d+) bytes held$/.exec(line);
      if (held) heldBytes.push(Number(held[1]));
    }
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`the built server did not start (${BUILT_SERVER}; npm run build first?): ${err}\n${tail}`);
  }
  const pid = transport.pid;
  if (pid === null) throw new Error('the built server has no pid');
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args }, undefined, {
      timeout: 3_600_000,
    })) as CallToolResult;
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content).slice(0, 500)}\n${tail}`);
    return result;
  };
  return {
    client,
    pid,
    call,
    report: (args = {}) => call(REPORT_TOOL, { ...REPORT_ARGS, fresh: true, ...args }),
    memory: () => processMemory(pid),
    cpuMs: () => processCpuMs(pid),
    mainCpuMs: () => mainThreadCpuMs(pid),
    heldBytes,
    idle: async () => {
      for (let last = processCpuMs(pid); ; ) {
        await new Promise((r) => setTimeout(r, 500));
        const now = processCpuMs(pid);
        if (now - last <= 10) return;
        last = now;
      }
    },
    warmUp: async () => {
      const lines = heldBytes.length;
      await call(REPORT_TOOL, { DateStart: '20250101', DateEnd: '20251231', maxRecords: 500, fresh: true });
      // The server logs a call's line after its answer (src/log.ts): the warm-up's, then none.
      for (let waited = 0; heldBytes.length === lines; waited += 10) {
        if (waited >= 5000) throw new Error(`the warm-up's log line did not come; stderr: ${tail.slice(-500)}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      heldBytes.length = 0;
    },
    close: async () => {
      await client.close();
      try {
        process.kill(pid);
      } catch {
        // already gone: closing the client ended it
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
