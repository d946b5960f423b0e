/**
 * Both protocol versions on every transport (issue 33): the BUILT server, driven by the SDK v2
 * client speaking 2026-07-28 (server/discover, no session), by the SDK v1 client speaking
 * 2025-11-25 (initialize), and by raw messages for what no client library sends on purpose
 * (discover then initialize on one pipe, an unknown method before initialize, an argument
 * nested too deeply). Over HTTP the server is stateless: a 2025 client's cancel arrives in a
 * request of its own and must still stop the call; a 2026 call whose stream breaks keeps its
 * fetch for the client's repeated call.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
  ResourceNotFoundError,
} from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioTransportV2 } from '@modelcontextprotocol/client/stdio';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/service.js';
import { DEMO_ARGS } from '../helpers/built-server.js';
import {
  answerMessage,
  assertBuilt,
  connectClient,
  killAll,
  MCP_HEADERS,
  serverEnv,
  startLiveHttpServer,
} from '../helpers/http-server.js';
import { closeStdio } from '../helpers/stdio.js';

const MODERN = '2026-07-28';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const AIR = { DateStart: '2026-11-01', DateEnd: '2026-11-14', DateSearchType: 'T' };
/** Four months of travel: 833 records of the sandbox, 42 pages of PAGE records. */
const WIDE = { DateStart: '2026-09-01', DateEnd: '2026-12-31', DateSearchType: 'T' };
const PAGE = 20;
type Out = Record<string, unknown>;
const textOf = (r: { content?: unknown }) =>
  ((r.content ?? []) as Array<{ type: string; text?: string }>)
    .filter((c) => c.type === 'text')
    .map((c) => c.text)
    .join('\n');

/** Every `$schema` key anywhere in a value (the contract forbids them in published schemas). */
function schemaKeys(value: unknown, path = ''): string[] {
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => [
    ...(k === '$schema' ? [path] : []),
    ...schemaKeys(v, `${path}.${k}`),
  ]);
}

beforeAll(assertBuilt);

describe('2026-07-28 over stdio: the SDK v2 client pinned to it', () => {
  let transport: StdioTransportV2;
  let client: ClientV2;
  beforeAll(async () => {
    transport = new StdioTransportV2({
      command: process.execPath,
      args: DEMO_ARGS,
      stderr: 'pipe',
    });
    client = new ClientV2(
      { name: 'sdk-v2-modern', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    await client.connect(transport);
  });
  afterAll(async () => closeStdio(client, transport?.pid ?? undefined));

  it('discovers: 2026-07-28, no list-changed promises, schemas without $schema, the view offered', async () => {
    expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
    const caps = client.getServerCapabilities();
    expect(caps?.tools?.listChanged).toBe(false);
    expect(caps?.resources?.listChanged).toBe(false);
    expect(caps?.prompts?.listChanged).toBe(false);
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(28);
    expect(tools.flatMap((t) => schemaKeys([t.inputSchema, t.outputSchema], t.name))).toEqual([]);
    const air = tools.find((t) => t.name === 'air_segments_by_date')!;
    expect((air._meta as { ui?: { resourceUri?: string } }).ui?.resourceUri).toBe(
      'ui://travel-reports/result-view.html',
    );
  });

  it('calls a report, reads its records, and answers an unknown result as resource-not-found', async () => {
    const r = await client.callTool({ name: 'air_segments_by_date', arguments: AIR });
    expect(r.isError).toBeFalsy();
    const sc = r.structuredContent as { complete: boolean; fetchedRecords: number; resourceUri: string };
    expect(sc.complete).toBe(true);
    const page = JSON.parse(
      ((await client.readResource({ uri: sc.resourceUri })).contents[0] as { text: string }).text,
    ) as {
      records: unknown[];
      pages: number;
    };
    expect(page.pages).toBe(1);
    expect(page.records).toHaveLength(sc.fetchedRecords);

    const unknown = await client.readResource({ uri: 'reports://results/r_gone' }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(ResourceNotFoundError);
    expect((unknown as ResourceNotFoundError).uri).toBe('reports://results/r_gone');
    expect((unknown as Error).message).toContain("No result 'r_gone' is held");
    // A page past the last is the caller's mistake, not a missing resource.
    const past = await client.readResource({ uri: `${sc.resourceUri}?page=9` }).catch((e: unknown) => e);
    expect(past).not.toBeInstanceOf(ResourceNotFoundError);
    expect((past as { code: number }).code).toBe(-32602);
    expect((past as Error).message).toContain('page: 9 is past the last page');
  });

  it('a refusal written by the server itself carries resultType, so the v2 client accepts it', async () => {
    let deep: unknown = 'today';
    for (let i = 0; i < 40; i++) deep = [deep];
    const r = await client.callTool({ name: 'air_segments_by_date', arguments: { ...AIR, DateStart: deep } });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toBe(
      'Invalid argument for air_segments_by_date: DateStart: nested too deeply (more than 32 levels). ' +
        'Nothing was sent to the service; correct the argument and call again.',
    );
  });
});

/** The built server on a raw stdio pipe: write JSON-RPC lines, read answers by id. */
class RawPipe {
  readonly child: ChildProcess;
  private readonly answers = new Map<unknown, (m: Out) => void>();
  readonly unanswered: Out[] = [];
  constructor() {
    this.child = spawn(process.execPath, DEMO_ARGS, {
      env: serverEnv({}),
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const m = JSON.parse(line) as Out;
      const waiter = this.answers.get(m.id);
      if (waiter) waiter(m);
      else this.unanswered.push(m);
    });
  }
  ask(id: number, method: string, params: Out = {}): Promise<Out> {
    const answer = new Promise<Out>((resolve) => this.answers.set(id, resolve));
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    return answer;
  }
  tell(method: string, params: Out = {}): void {
    this.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', method, params })}\n`);
  }
  end(): void {
    this.child.stdin!.end();
    this.child.kill();
  }
}

describe('one stdio pipe, both versions', () => {
  const pipes: RawPipe[] = [];
  afterEach(() => {
    for (const p of pipes.splice(0)) p.end();
  });

  it('server/discover, then initialize on the same pipe (as Claude Code sends them): both answered', async () => {
    const pipe = new RawPipe();
    pipes.push(pipe);
    const discovered = (await pipe.ask(1, 'server/discover', { _meta: ENVELOPE })).result as Out;
    expect(discovered.supportedVersions).toEqual([MODERN]);
    expect(discovered.resultType).toBe('complete');
    const modernList = (await pipe.ask(2, 'tools/list', { _meta: ENVELOPE })).result as { tools: unknown[] };
    expect(modernList.tools).toHaveLength(28);
    // The pipe is now pinned to 2026-07-28; a 2025-11-25 handshake still gets its answer.
    const init = await pipe.ask(3, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    expect(init.error).toBeUndefined();
    expect(init.result).toMatchObject({ protocolVersion: '2025-11-25', serverInfo: { name: 'travel-reports-mcp' } });
    pipe.tell('notifications/initialized');
    const legacyList = (await pipe.ask(4, 'tools/list')).result as { tools: unknown[]; resultType?: string };
    expect(legacyList.tools).toHaveLength(28);
    expect(legacyList.resultType).toBeUndefined();
    // And 2026-07-28 requests still reach their own instance.
    const again = (await pipe.ask(5, 'tools/list', { _meta: ENVELOPE })).result as { resultType: string };
    expect(again.resultType).toBe('complete');
  });

  it('an unknown method before initialize is answered -32601, and the pipe stays open', async () => {
    const pipe = new RawPipe();
    pipes.push(pipe);
    const unknown = await pipe.ask(1, 'nothing/here');
    expect((unknown.error as { code: number }).code).toBe(-32601);
    const init = await pipe.ask(2, 'initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    expect(init.result).toMatchObject({ protocolVersion: '2025-11-25' });
    expect(pipe.child.exitCode).toBeNull();
  });
});

describe('HTTP: both versions on one endpoint, stateless, results bound to the person', () => {
  const sandboxes: Sandbox[] = [];
  afterEach(async () => {
    killAll();
    for (const s of sandboxes.splice(0)) await s.close();
  });

  async function liveServer(latencyMs: number, env: Record<string, string> = {}) {
    const live = await startLiveHttpServer(
      { latencyMs, dataNow: new Date('2026-11-15T00:00:00Z') },
      { REPORTS_PAGE_SIZE: String(PAGE), REPORTS_CONCURRENCY: '2', ...env },
    );
    sandboxes.push(live.sandbox);
    return live;
  }

  async function modernClient(url: string, token?: string): Promise<ClientV2> {
    const client = new ClientV2(
      { name: 'sdk-v2-modern', version: '2.0.0' },
      { versionNegotiation: { mode: { pin: MODERN } } },
    );
    const headers = token ? { Authorization: `Bearer ${token}` } : undefined;
    await client.connect(new HttpTransportV2(new URL(url), { requestInit: { headers } }));
    return client;
  }

  it('a result fetched by a 2026 client is queried and read by the same person on a 2025 client', async () => {
    const token = 'team-token-eras-4c2a';
    const { server } = await liveServer(0, { REPORTS_HTTP_TOKEN: token });
    const modern = await modernClient(server.url, token);
    const legacy = await connectClient(server.url, token);
    try {
      expect(modern.getNegotiatedProtocolVersion()).toBe(MODERN);
      const r = await modern.callTool({ name: 'air_segments_by_date', arguments: AIR });
      const sc = r.structuredContent as { resultId: string; fetchedRecords: number; resourceUri: string };
      expect(sc.fetchedRecords).toBeGreaterThan(0);
      const q = await legacy.call('query_report', { resultId: sc.resultId, aggregates: [{ fn: 'count' }] });
      expect((q.structuredContent as { matched: number }).matched).toBe(sc.fetchedRecords);
      // A 2025-11-25 request without a session reaches an instance that saw no initialize, so no
      // client capabilities (the MCP Apps extension among them): the view is offered all the same.
      const stateless = async (message: Out) => {
        const answer = await fetch(server.url, {
          method: 'POST',
          headers: { ...MCP_HEADERS, Authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 1, ...message }),
        });
        expect(answer.headers.get('mcp-session-id')).toBeNull();
        return (answerMessage(await answer.text()) as { result: Out }).result;
      };
      const { tools } = (await stateless({ method: 'tools/list' })) as { tools: Array<{ name: string; _meta: Out }> };
      const air = tools.find((t) => t.name === 'air_segments_by_date')!;
      const view = (air._meta as { ui: { resourceUri: string } }).ui.resourceUri;
      const page = (await stateless({ method: 'resources/read', params: { uri: view } })) as {
        contents: Array<{ mimeType: string; text: string }>;
      };
      expect(page.contents[0].mimeType).toBe('text/html;profile=mcp-app');
      expect(page.contents[0].text).toMatch(/^<!doctype html>/i);
    } finally {
      await modern.close();
      await legacy.close();
    }
  });

  it("a 2025 call without a session: its cancel, a request of its own, stops the call's upstream requests", async () => {
    const { sandbox, server } = await liveServer(300);
    const pages = Math.ceil(
      sandbox.report('AirSegmentsByDate', { ...WIDE, DateStart: '20260901', DateEnd: '20261231' }).length / PAGE,
    );
    expect(pages).toBe(42);
    // As claude.ai's connectors send them: no Mcp-Session-Id, each message a POST of its own.
    const post = (message: Out) =>
      fetch(server.url, {
        method: 'POST',
        headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', ...message }),
      });
    const call = post({ id: 41, method: 'tools/call', params: { name: 'air_segments_by_date', arguments: WIDE } });
    await until(() => sandbox.requests.length >= 2);
    const cancel = await post({ method: 'notifications/cancelled', params: { requestId: 41, reason: 'user stop' } });
    expect(cancel.status).toBe(202);
    const cancelledAt = Date.now();
    await new Promise((r) => setTimeout(r, 2_000));
    // Requests already in flight may finish; none starts once the cancel has arrived.
    const late = sandbox.requests.filter((q) => q.startedAt > cancelledAt + 500);
    expect(late).toEqual([]);
    expect(sandbox.requests.length).toBeLessThan(10);
    (await call).body?.cancel().catch(() => {});
    // The server answers the next call as before.
    const c = await connectClient(server.url);
    try {
      expect((await c.call('diagnose_connection', {})).isError).toBeFalsy();
    } finally {
      await c.close();
    }
  });

  it('a 2026 call whose stream breaks keeps fetching: the repeated call attaches to it (one fetch)', async () => {
    const { sandbox, server } = await liveServer(150);
    const client = await modernClient(server.url);
    try {
      const broken = new AbortController();
      const first = client.callTool({ name: 'air_segments_by_date', arguments: WIDE }, { signal: broken.signal });
      await until(() => sandbox.requests.length >= 2);
      broken.abort();
      await expect(first).rejects.toThrow();
      const again = await client.callTool({ name: 'air_segments_by_date', arguments: WIDE });
      expect(again.isError).toBeFalsy();
      const sc = again.structuredContent as { complete: boolean; fetchedRecords: number; notes: string[] };
      expect(sc.complete).toBe(true);
      expect(sc.notes.join(' ')).toContain('An identical call was already fetching this report');
      // One fetch: every page was asked for once.
      const offsets = sandbox.requests.map((q) => q.offset);
      expect(new Set(offsets).size).toBe(offsets.length);
      expect(offsets.length).toBe(Math.ceil(sc.fetchedRecords / PAGE));
      expect(sc.fetchedRecords).toBe(833);
    } finally {
      await client.close();
    }
  });
});

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}
