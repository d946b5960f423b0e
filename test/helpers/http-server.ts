/**
 * The BUILT server (dist/server/index.mjs) in HTTP mode, started by a test on port 0 and ended
 * by its PID; and an SDK Client connected to it over Streamable HTTP.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../../src/sandbox/service.js';
import { BUILT_SERVER } from './built-server.js';

export const SERVER = BUILT_SERVER;

export function assertBuilt(): void {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build (npm test does it first).`);
}

/** The test's environment without any REPORTS_* setting, plus the given ones. */
export function serverEnv(extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('REPORTS_')) out[k] = v;
  // Held results in memory only: a test never writes into the user's cache folder.
  return { ...out, REPORTS_TIMEZONE: 'UTC', REPORTS_RESULTS_DIR: 'off', ...extra };
}

export interface HttpServerProcess {
  url: string;
  pid: number;
  child: ChildProcess;
  stderr(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGKILL if still running (afterEach/finally). */
  kill(): void;
}

/** Every server process started, so a test file's afterEach can end them all by PID. */
export const started = new Set<HttpServerProcess>();

export function killAll(): void {
  for (const s of started) s.kill();
  started.clear();
}

/** Starts the built server with `--http 127.0.0.1:0` (or `args`) and waits for its URL on stderr. */
export async function startHttpServer(
  opts: { args?: string[]; env?: Record<string, string> } = {},
): Promise<HttpServerProcess> {
  const args = opts.args ?? ['--http', '127.0.0.1:0'];
  const child = spawn(process.execPath, [SERVER, ...args], {
    env: serverEnv(opts.env ?? { REPORTS_DEMO: 'true' }),
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const proc: HttpServerProcess = {
    url: '',
    pid: child.pid ?? 0,
    child,
    stderr: () => err,
    exited,
    kill: () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
  started.add(proc);
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        child.stderr?.off('data', onData);
        resolve(m[1]);
      }
    };
    child.stderr?.on('data', onData);
    void exited.then(({ code }) => reject(new Error(`server exited (${code}) before listening: ${err}`)));
  });
  proc.url = url;
  return proc;
}

/** Starts the built server expecting it to refuse: resolves with its exit code and stderr. */
export async function startRefused(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [SERVER, ...args], { env: serverEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  clearTimeout(timer);
  return { code, stderr: err, stdout: out };
}

/**
 * A sandbox on a loopback port and the built server in HTTP mode, live against it (its URL and
 * credentials) with `env` added. The caller closes the sandbox; killAll() ends the server.
 */
export async function startLiveHttpServer(
  sandboxOptions: SandboxOptions,
  env: Record<string, string>,
): Promise<{ sandbox: Sandbox; server: HttpServerProcess }> {
  const sandbox = await startSandbox(sandboxOptions);
  const server = await startHttpServer({
    env: {
      REPORTS_BASE_URL: sandbox.url,
      REPORTS_API_USERNAME: sandbox.username,
      REPORTS_API_KEY: sandbox.key,
      ...env,
    },
  }).catch(async (err) => {
    await sandbox.close();
    throw err;
  });
  return { sandbox, server };
}

/** The JSON-RPC message an HTTP answer carries, as a JSON body or as a server-sent event. */
export function answerMessage(body: string): unknown {
  const data = body.split('\n').find((l) => l.startsWith('data: ')) ?? body;
  return JSON.parse(data.replace(/^data: /, ''));
}

export interface HttpClient {
  client: Client;
  transport: StreamableHTTPClientTransport;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export async function connectClient(url: string, token?: string): Promise<HttpClient> {
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : undefined,
  });
  const client = new Client({ name: 'http-test-client', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    transport,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await transport.terminateSession().catch(() => {});
      await client.close();
    },
  };
}

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One raw HTTP request with any headers (Host included, which fetch does not allow). */
export function rawRequest(
  url: string,
  opts: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: opts.method ?? 'POST', headers: opts.headers }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The headers a Streamable HTTP POST needs. */
export const MCP_HEADERS = {
  'Content-Type': 'application/json',
  Accept: 'application/json, text/event-stream',
};

export const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});
