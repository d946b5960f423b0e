/**
 * An outside judge of both protocol eras: the CLI of MCP Inspector v2 (@modelcontextprotocol/inspector
 * 2.x, built on SDK v2) against the built server in demo mode, over stdio and over HTTP, with
 * `--protocol-era legacy` (2025-11-25: the initialize handshake) and `--protocol-era modern`
 * (2026-07-28: server/discover, stateless). Each lists the tools and calls a report, whose rows
 * are checked against the sandbox's own answer to the same query.
 *
 * The modern era is held to the same checks once test/conformance/enforce-2026-07-28.json says
 * the server speaks 2026-07-28 (issue 33's SDK v2 move). Until then the Inspector may either
 * pass them or refuse the server with today's answer (no server/discover), which is printed.
 *
 * Inspector 2.x needs Node >= 22.19: this Node when it is one, else $NODE22_BIN (.ci/run sets it
 * from .ci/node-binary.sh 22). Without one the suite is skipped with one printed line, or fails
 * when CI is set. The server runs on the Node running the tests.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { TOOL_NAMES } from '../../src/server/create-server.js';
import switches from '../conformance/enforce-2026-07-28.json' with { type: 'json' };
import { BUILT_SERVER } from '../helpers/built-server.js';
import { type HttpServerProcess, killAll, startHttpServer } from '../helpers/http-server.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const INSPECTOR = path.join(
  ROOT,
  'node_modules',
  '@modelcontextprotocol',
  'inspector',
  'clients',
  'launcher',
  'build',
  'index.js',
);
const MODERN_ENFORCED = switches.ENFORCE_2026_07_28 === true;
const TODAYS_MODERN_REFUSAL = /did not offer pinned protocol version 2026-07-28 via server\/discover/;
const REPORT = 'car_segment_counts_per_account_by_vendor';

/** The first of this Node and $NODE22_BIN that is at least 22.19, or ''. */
function inspectorNode(): string {
  const atLeast = (v: string) => {
    const [major, minor] = v.split('.').map(Number);
    return major > 22 || (major === 22 && minor >= 19);
  };
  if (atLeast(process.versions.node)) return process.execPath;
  const candidate = process.env.NODE22_BIN;
  if (!candidate) return '';
  const version = execFileSync(candidate, ['-p', 'process.versions.node'], { encoding: 'utf8' }).trim();
  if (!atLeast(version)) throw new Error(`NODE22_BIN (${candidate}) is Node ${version}; Inspector v2 needs >= 22.19`);
  return candidate;
}

const NODE = inspectorNode();
const MISSING =
  `Inspector v2 (test/ship/inspector-v2.test.ts) needs Node >= 22.19 and this is ${process.version}: ` +
  'set NODE22_BIN=$(.ci/node-binary.sh 22)';
if (!NODE && process.env.CI) throw new Error(`${MISSING} (CI is set, so it cannot be skipped)`);
if (!NODE) console.log(`skipped ${MISSING}`);

type Era = 'legacy' | 'modern';
interface Ran {
  code: number;
  /** The JSON printed on stdout: { result } when the call succeeded. */
  out?: { result: Record<string, unknown> };
  /** The error envelope printed on stderr when it failed ({ error: { message } }). */
  error?: string;
}

let home: string;
let http: HttpServerProcess;
let sandbox: Sandbox;

/** One Inspector CLI run; `target` is the server (a command over stdio, or --server-url). */
function inspector(era: Era, target: string[], method: string[]): Promise<Ran> {
  const args = [INSPECTOR, '--cli', '--format', 'json', '--quiet', '--protocol-era', era, ...method, ...target];
  // Its catalog and stored settings in a folder of the test's own, never the user's ~/.mcp-inspector.
  const env = {
    ...withoutReports(process.env),
    HOME: home,
    MCP_CATALOG_PATH: path.join(home, 'catalog.json'),
    MCP_CLIENT_CONFIG_PATH: path.join(home, 'client.json'),
  };
  return new Promise((resolve) => {
    execFile(NODE, args, { cwd: home, env, timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      const ran: Ran = { code };
      if (code === 0) ran.out = JSON.parse(stdout);
      else ran.error = errorMessage(stderr) ?? `exit ${code}: ${stderr.slice(0, 2000)}`;
      resolve(ran);
    });
  });
}

function errorMessage(stderr: string): string | undefined {
  for (const line of stderr.split('\n').reverse()) {
    try {
      const message = (JSON.parse(line) as { error?: { message?: string } }).error?.message;
      if (message) return message;
    } catch {
      // not the JSON error envelope
    }
  }
  return undefined;
}

function withoutReports(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !k.startsWith('REPORTS_')) out[k] = v;
  return out;
}

const TARGETS: Record<'stdio' | 'http', () => string[]> = {
  // -e: the Inspector passes the server only the environment it is given.
  stdio: () => ['-e', 'REPORTS_TIMEZONE=UTC', process.execPath, BUILT_SERVER, '--demo', '--results-dir', 'off'],
  http: () => ['--server-url', http.url],
};

/** Today's answer to a modern-era run while the switch is off: printed, and the checks skipped. */
function refusedAsToday(era: Era, ran: Ran, transport: string): boolean {
  if (ran.code === 0 || era === 'legacy' || MODERN_ENFORCED) return false;
  expect(ran.error, 'a modern-era refusal other than the known one').toMatch(TODAYS_MODERN_REFUSAL);
  process.stderr.write(`inspector v2 --protocol-era modern over ${transport} (not enforced yet): ${ran.error}\n`);
  return true;
}

describe.skipIf(!NODE)('MCP Inspector v2 CLI against the built server, both protocol eras (demo mode)', () => {
  beforeAll(async () => {
    home = mkdtempSync(path.join(tmpdir(), 'inspector-v2-'));
    http = await startHttpServer();
    // The demo server's own sandbox: the same seed and size, anchored on today as it is.
    sandbox = await startSandbox({ dataNow: new Date() });
  });
  afterAll(async () => {
    killAll();
    await sandbox?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  for (const transport of ['stdio', 'http'] as const) {
    for (const era of ['legacy', 'modern'] as const) {
      it(`--protocol-era ${era} over ${transport}: tools/list prints every tool with plain schemas`, async () => {
        const ran = await inspector(era, TARGETS[transport](), ['--method', 'tools/list']);
        if (refusedAsToday(era, ran, transport)) return;
        expect(ran.error).toBeUndefined();
        const { tools } = ran.out!.result as { tools: { name: string; inputSchema: object; outputSchema?: object }[] };
        expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
        for (const t of tools) {
          expect(JSON.stringify(t.inputSchema), t.name).not.toContain('$schema');
          expect(t.outputSchema, t.name).toBeDefined();
        }
      }, 90_000);

      it(`--protocol-era ${era} over ${transport}: a report call answers the sandbox's rows`, async () => {
        const call = ['--method', 'tools/call', '--tool-name', REPORT];
        const args = ['--tool-arg', 'DateStart=today-30', 'DateEnd=today', 'VendorCode=ZE'];
        const ran = await inspector(era, TARGETS[transport](), [...call, ...args]);
        if (refusedAsToday(era, ran, transport)) return;
        expect(ran.error).toBeUndefined();
        const result = ran.out!.result as {
          content: { type: string; text?: string; uri?: string }[];
          structuredContent: Record<string, unknown> & { query: Record<string, string>; rows: unknown[] };
          isError?: boolean;
        };
        expect(result.isError).toBeFalsy();
        const sc = result.structuredContent;
        const expected = sandbox.report('CarSegmentCountsPerAccountByVendor', sc.query);
        expect(expected.length).toBeGreaterThan(0);
        expect(sc).toMatchObject({ source: 'demo', totalRecords: expected.length, fetchedRecords: expected.length });
        expect(sc.rows).toEqual(expected);
        const headline = result.content[0].text!.split('\n')[0];
        expect(headline).toBe(
          `${REPORT} (demo data) DateStart=${sc.query.DateStart} DateEnd=${sc.query.DateEnd} VendorCode=ZE: ` +
            `${expected.length} records, complete.`,
        );
        expect(result.content.find((c) => c.type === 'resource_link')?.uri).toBe(sc.resourceUri);
      }, 90_000);
    }
  }
});
