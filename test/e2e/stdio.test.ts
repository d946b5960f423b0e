/**
 * The BUILT server (dist/server/index.mjs, as `npm start` / the bin runs it) over stdio, in demo
 * mode: through the SDK's StdioClientTransport, and raw, as JSON-RPC lines written to its
 * stdin, to check that stdout carries nothing but the protocol and that it exits cleanly.
 * `npm test` builds before vitest runs.
 */

import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type CallToolResult, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/server/create-server.js';
import { BUILT_SERVER as SERVER } from '../helpers/built-server.js';
import { CheckedClient } from '../helpers/checked-client.js';
import { otherNotes } from '../helpers/derived.js';
import { readAllRecords } from '../helpers/resources.js';

/** Every tool the server lists, in order: the catalog's report tools, then the server's own. */
const TOOLS = TOOL_NAMES;

/** The test's own environment without any REPORTS_* setting, plus the given ones. */
function env(extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('REPORTS_')) out[k] = v;
  // Held results in memory only: a test never writes into the user's cache folder.
  return { ...out, REPORTS_TIMEZONE: 'UTC', REPORTS_RESULTS_DIR: 'off', ...extra };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(check: () => boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return check();
}

function ymd(d: Date): string {
  return d.toISOString().slice(0, 10).replace(/-/g, '');
}

/** Every process a test starts, ended after it if still running. */
const pids = new Set<number>();

afterEach(() => {
  for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  pids.clear();
});

beforeAll(() => {
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build (npm test does it first).`);
});

describe('the built server through the SDK client over stdio', () => {
  it('initializes, lists every tool, runs a report and a query, and exits when the client closes', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER, '--demo'],
      env: env({ REPORTS_DEMO: 'true' }),
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const client = new CheckedClient({ name: 'e2e-client', version: '1.0.0' });
    await client.connect(transport);
    const pid = transport.pid!;
    expect(pid).toBeGreaterThan(0);
    pids.add(pid);

    expect(client.getServerVersion()).toEqual({ name: 'travel-reports-mcp', version: '0.1.0' });
    const instructions = client.getInstructions() ?? '';
    expect(instructions).toMatch(/DEMO MODE/);
    expect(instructions).toMatch(/synthetic/);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS);
    // Every tool is marked read-only but export_report, which writes a file (never replacing one).
    expect(tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name)).toEqual(['export_report']);
    expect(tools.find((t) => t.name === 'export_report')?.annotations).toMatchObject({ destructiveHint: false });

    const now = new Date();
    const report = (await client.callTool({
      name: 'air_segments_by_date',
      arguments: { DateStart: 'today-30', DateEnd: 'today+30' },
    })) as CallToolResult;
    expect(report.isError).toBeFalsy();
    const out = report.structuredContent as Record<string, unknown>;
    expect(out.report).toBe('air_segments_by_date');
    expect(out.source).toBe('demo');
    expect(out.complete).toBe(true);
    expect(otherNotes(out.notes)).toEqual([]);
    const fetched = Number(out.fetchedRecords);
    expect(fetched).toBeGreaterThan(0);
    expect(out.totalRecords).toBe(fetched);
    expect((out.query as Record<string, string>).DateStart).toBe(ymd(new Date(now.getTime() - 30 * 86_400_000)));
    expect((out.query as Record<string, string>).DateEnd).toBe(ymd(new Date(now.getTime() + 30 * 86_400_000)));
    expect((out.summary as { recordCount: number }).recordCount).toBe(fetched);
    const text = (report.content[0] as { text: string }).text;
    expect(text).toContain('(demo data)');
    expect(text).toContain(`${fetched.toLocaleString('en-US')} records, complete.`);

    const q = (await client.callTool({
      name: 'query_report',
      arguments: { resultId: out.resultId, groupBy: ['Account'], aggregates: [{ fn: 'count' }], limit: 1000 },
    })) as CallToolResult;
    expect(q.isError).toBeFalsy();
    const groups = q.structuredContent as {
      matched: number;
      groups: Array<{ key: { Account: string }; count: number }>;
    };
    expect(groups.matched).toBe(fetched);
    expect(groups.groups.reduce((n, g) => n + g.count, 0)).toBe(fetched);
    const records = (await readAllRecords(client, String(out.resourceUri))) as Array<{ Account: string }>;
    expect(records.length).toBe(fetched);
    for (const g of groups.groups) expect(g.count).toBe(records.filter((r) => r.Account === g.key.Account).length);

    // Closing the client ends stdin; the server exits by itself, before the SDK's SIGTERM
    // fallback (2 s) would be needed.
    const t0 = Date.now();
    await client.close();
    const closeMs = Date.now() - t0;
    expect(await until(() => !alive(pid), 3_000)).toBe(true);
    expect(closeMs).toBeLessThan(2_000);
    expect(stderr).toContain('demo mode');
    expect(stderr).toContain('shutting down (stdin closed)');
  });
});

// ---------- raw JSON-RPC on the process's pipes ----------

interface Raw {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the message whose id is `id`. */
  response(id: number, ms?: number): Promise<Record<string, unknown>>;
  send(message: Record<string, unknown>): void;
  exit(ms?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function start(args: string[], extraEnv: Record<string, string>): Raw {
  const child = spawn(process.execPath, [SERVER, ...args], { env: env(extraEnv), stdio: ['pipe', 'pipe', 'pipe'] });
  pids.add(child.pid!);
  let out = '';
  let err = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')));
  child.stderr.on('data', (c: Buffer) => (err += c.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const messages = (): Array<Record<string, unknown>> =>
    out.split('\n').flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return []; // a partial line, or not JSON (expectOnlyJsonRpc reports those)
      }
    });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    async response(id, ms = 10_000) {
      let found: Record<string, unknown> | undefined;
      const ok = await until(() => !!(found = messages().find((m) => m?.id === id)), ms);
      if (!ok)
        throw new Error(`no response ${id} within ${ms} ms; stdout: ${out.slice(-500)} stderr: ${err.slice(-500)}`);
      return found!;
    },
    send(message) {
      child.stdin.write(`${JSON.stringify(message)}\n`);
    },
    async exit(ms = 20_000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`process ${child.pid} still running after ${ms} ms; stderr: ${err.slice(-500)}`)),
          ms,
        );
      });
      try {
        return await Promise.race([exited, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: LATEST_PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'raw-e2e', version: '1.0.0' },
  },
};

/** Every stdout line is one JSON-RPC 2.0 message, and nothing else is written there. */
function expectOnlyJsonRpc(stdout: string): Array<Record<string, unknown>> {
  expect(stdout.endsWith('\n')).toBe(true);
  const lines = stdout.slice(0, -1).split('\n');
  return lines.map((line) => {
    let msg: Record<string, unknown>;
    try {
      msg = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`stdout line is not JSON: ${line.slice(0, 200)}`);
    }
    expect(msg.jsonrpc, line.slice(0, 200)).toBe('2.0');
    expect('result' in msg || 'error' in msg || typeof msg.method === 'string', line.slice(0, 200)).toBe(true);
    return msg;
  });
}

describe('the built server on raw stdio pipes', () => {
  it('answers JSON-RPC lines with JSON-RPC lines only, and exits 0 when stdin closes', async () => {
    const p = start(['--demo'], { REPORTS_DEMO: 'true' });
    p.send(initialize);
    const init = (await p.response(1)).result as {
      protocolVersion: string;
      serverInfo: { name: string };
      instructions: string;
    };
    expect(init.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(init.serverInfo.name).toBe('travel-reports-mcp');
    expect(init.instructions).toMatch(/synthetic/);
    p.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    p.send({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    p.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {
        name: 'ticket_coupons_by_status_code',
        arguments: { DateStart: 'today-60', DateEnd: 'today', CouponCodeGroup: 'ALL', DateTracker: 'I' },
      },
    });
    p.send({
      jsonrpc: '2.0',
      id: 4,
      method: 'tools/call',
      params: { name: 'query_report', arguments: { resultId: 'r_unknown' } },
    });

    const list = (await p.response(2)).result as { tools: Array<{ name: string }> };
    expect(list.tools.map((t) => t.name)).toEqual(TOOLS);
    const call = (await p.response(3)).result as CallToolResult;
    expect(call.isError).toBeFalsy();
    const sc = call.structuredContent as {
      source: string;
      complete: boolean;
      fetchedRecords: number;
      totalRecords: number;
    };
    expect(sc.source).toBe('demo');
    expect(sc.complete).toBe(true);
    expect(sc.fetchedRecords).toBeGreaterThan(0);
    expect(sc.fetchedRecords).toBe(sc.totalRecords);
    const missing = (await p.response(4)).result as CallToolResult;
    expect(missing.isError).toBe(true);
    expect((missing.content[0] as { text: string }).text).toContain("No result 'r_unknown' is held");

    p.child.stdin.end();
    expect(await p.exit()).toEqual({ code: 0, signal: null });
    const messages = expectOnlyJsonRpc(p.stdout());
    // One response per request (calls may finish in any order), no duplicates.
    expect(
      messages
        .filter((m) => 'id' in m)
        .map((m) => Number(m.id))
        .sort(),
    ).toEqual([1, 2, 3, 4]);
    // Logs go to stderr, never stdout.
    expect(p.stderr()).toContain('ready on stdio (demo)');
  });

  it('exits 0 on SIGTERM', async () => {
    const p = start(['--demo'], { REPORTS_DEMO: 'true' });
    p.send(initialize);
    await p.response(1);
    p.child.kill('SIGTERM');
    expect(await p.exit()).toEqual({ code: 0, signal: null });
    expectOnlyJsonRpc(p.stdout());
    expect(p.stderr()).toContain('shutting down (SIGTERM)');
  });

  it('a bad configuration stops start-up: non-zero exit, one stderr line naming the variable, nothing on stdout', async () => {
    const p = start(['--demo'], { REPORTS_DEMO: 'true', REPORTS_PAGE_SIZE: 'abc' });
    const { code, signal } = await p.exit();
    expect(signal).toBeNull();
    expect(code).not.toBe(0);
    expect(p.stdout()).toBe('');
    const lines = p
      .stderr()
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(lines.length, p.stderr()).toBe(1);
    expect(lines[0]).toContain('REPORTS_PAGE_SIZE');
    expect(lines[0]).toContain("'abc'");
  });
});
