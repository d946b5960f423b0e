/**
 * HTTP mode (`--http`): the BUILT server on a loopback port, driven by the SDK's
 * StreamableHTTPClientTransport and by raw requests for what a client library would never
 * send (foreign Host/Origin, malformed bodies, bad tokens).
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/service.js';
import {
  answerMessage,
  assertBuilt,
  connectClient,
  INITIALIZE,
  killAll,
  MCP_HEADERS,
  rawRequest,
  startHttpServer,
  startLiveHttpServer,
  startRefused,
} from '../helpers/http-server.js';
import { readAllRecords } from '../helpers/resources.js';

const sandboxes: Sandbox[] = [];
afterEach(async () => {
  killAll();
  for (const s of sandboxes.splice(0)) await s.close();
});
beforeAll(assertBuilt);

type Out = Record<string, unknown>;
const structured = (r: CallToolResult) => r.structuredContent as Out;

describe('--http: Streamable HTTP at /mcp', () => {
  it('serves tools, reports, queries and resources to two independent sessions', async () => {
    const server = await startHttpServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const a = await connectClient(server.url);
    const b = await connectClient(server.url);
    try {
      expect(a.transport.sessionId).toBeTruthy();
      expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
      const { tools } = await a.client.listTools();
      expect(tools.map((t) => t.name)).toContain('air_segments_by_date');
      expect(tools.map((t) => t.name)).toContain('query_report');

      const [ra, rb] = await Promise.all([
        a.call('air_segments_by_date', { DateStart: 'today-30', DateEnd: 'today+30' }),
        b.call('car_segments_by_date', { DateStart: 'today-30', DateEnd: 'today+30' }),
      ]);
      expect(ra.isError).toBeFalsy();
      expect(rb.isError).toBeFalsy();
      const out = structured(ra);
      expect(out.report).toBe('air_segments_by_date');
      expect(out.complete).toBe(true);
      const fetched = Number(out.fetchedRecords);
      expect(fetched).toBeGreaterThan(0);
      expect(structured(rb).report).toBe('car_segments_by_date');

      const q = await a.call('query_report', {
        resultId: out.resultId,
        groupBy: ['Account'],
        aggregates: [{ fn: 'count' }],
        limit: 1000,
      });
      const groups = structured(q) as { matched: number; groups: Array<{ key: { Account: string }; count: number }> };
      expect(groups.matched).toBe(fetched);
      const records = (await readAllRecords(a.client, String(out.resourceUri))) as Array<{ Account: string }>;
      expect(records.length).toBe(fetched);
      for (const g of groups.groups) expect(g.count).toBe(records.filter((r) => r.Account === g.key.Account).length);

      // An argument nested 20,000 levels, sent as raw JSON (a client's JSON.stringify overflows
      // long before), is refused by name over HTTP too (server/inbound.ts).
      const deep = `${'['.repeat(20_000)}"today"${']'.repeat(20_000)}`;
      const answer = await rawRequest(server.url, {
        headers: {
          ...MCP_HEADERS,
          'mcp-session-id': b.transport.sessionId ?? '',
          'mcp-protocol-version': '2025-06-18',
        },
        body:
          '{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"air_segments_by_date",' +
          `"arguments":{"DateStart":${deep},"DateEnd":"today"}}}`,
      });
      expect(answerMessage(answer.body)).toEqual({
        jsonrpc: '2.0',
        id: 99,
        result: {
          isError: true,
          content: [
            {
              type: 'text',
              text:
                'Invalid argument for air_segments_by_date: DateStart: nested too deeply (more than 32 levels). ' +
                'Nothing was sent to the service; correct the argument and call again.',
            },
          ],
        },
      });
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('answers a foreign Host or Origin with 403 and lets loopback origins through', async () => {
    const server = await startHttpServer();
    const port = new URL(server.url).port;
    const post = (headers: Record<string, string>) =>
      rawRequest(server.url, { headers: { ...MCP_HEADERS, ...headers }, body: INITIALIZE });

    const rebound = await post({ Host: `evil.example:${port}` });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toContain("Host 'evil.example:");
    const foreign = await post({ Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toContain("Origin 'https://evil.example' is not allowed");
    expect((await post({ Origin: 'null' })).status).toBe(403);

    const local = await post({ Origin: `http://localhost:${port}`, Host: `localhost:${port}` });
    expect(local.status).toBe(200);
    expect(local.headers['mcp-session-id']).toBeTruthy();
    const plain = await post({});
    expect(plain.status).toBe(200);
  });

  it('answers a malformed body with a JSON-RPC parse error, leaving other sessions working; no session is needed', async () => {
    const server = await startHttpServer();
    const a = await connectClient(server.url);
    try {
      for (const body of ['{"jsonrpc": "2.0", "id": 1, "method":', 'not json at all']) {
        const answer = await rawRequest(server.url, { headers: MCP_HEADERS, body });
        expect(answer.status).toBe(400);
        expect(JSON.parse(answer.body)).toEqual({
          jsonrpc: '2.0',
          error: { code: -32700, message: 'Parse error: the request body is not valid JSON.' },
          id: null,
        });
      }
      // JSON but not JSON-RPC, on an existing session: the SDK's own validation answers it, -32600
      // (Invalid Request; SDK v1 answered -32700, Parse error).
      const onSession = await rawRequest(server.url, {
        headers: {
          ...MCP_HEADERS,
          'mcp-session-id': a.transport.sessionId ?? '',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ hello: 'world' }),
      });
      expect(onSession.status).toBe(400);
      expect(JSON.parse(onSession.body).error.code).toBe(-32600);
      // A 2025-11-25 request without a session is answered on its own: claude.ai's connectors
      // initialize before almost every call and echo no session id (issue 33).
      const noSession = await rawRequest(server.url, {
        headers: { ...MCP_HEADERS, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
      });
      expect(noSession.status).toBe(200);
      const listed = answerMessage(noSession.body) as { id: number; result: { tools: { name: string }[] } };
      expect(listed.id).toBe(2);
      expect(listed.result.tools.map((t) => t.name)).toContain('travellers_at');
      const unknownSession = await rawRequest(server.url, {
        headers: { ...MCP_HEADERS, 'mcp-session-id': 'no-such-session' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'call-7', method: 'tools/list' }),
      });
      expect(unknownSession.status).toBe(404);
      expect(JSON.parse(unknownSession.body)).toEqual({
        jsonrpc: '2.0',
        error: { code: -32001, message: 'Session not found; initialize a new session.' },
        id: 'call-7',
      });

      const r = await a.call('diagnose_connection', {});
      expect(r.isError).toBeFalsy();
      const { tools } = await a.client.listTools();
      expect(tools.length).toBeGreaterThan(20);
    } finally {
      await a.close();
    }
  });

  it('with REPORTS_HTTP_TOKEN: a missing or wrong token gets 401 with WWW-Authenticate: Bearer, the right one works', async () => {
    const token = 'team-token-5d1e0c7a9b';
    const server = await startHttpServer({ env: { REPORTS_DEMO: 'true', REPORTS_HTTP_TOKEN: token } });
    const missing = await rawRequest(server.url, { headers: MCP_HEADERS, body: INITIALIZE });
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer realm="travel-reports-mcp"');
    const wrong = await rawRequest(server.url, {
      headers: { ...MCP_HEADERS, Authorization: 'Bearer team-token-5d1e0c7a9c' },
      body: INITIALIZE,
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers['www-authenticate']).toMatch(/^Bearer realm="travel-reports-mcp", error="invalid_token"/);
    expect(wrong.body).not.toContain('team-token');

    await expect(connectClient(server.url)).rejects.toThrow(/401|Unauthorized/);
    await expect(connectClient(server.url, 'nope')).rejects.toThrow(/401|Unauthorized/);
    const ok = await connectClient(server.url, token);
    try {
      const r = await ok.call('hotel_segments', { DateStart: 'today-10', DateEnd: 'today+10' });
      expect(r.isError).toBeFalsy();
      expect(Number(structured(r).fetchedRecords)).toBeGreaterThan(0);
      // A session is bound to the token that opened it.
      const hijack = await rawRequest(server.url, {
        headers: {
          ...MCP_HEADERS,
          'mcp-session-id': ok.transport.sessionId ?? '',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
      });
      expect(hijack.status).toBe(401);
    } finally {
      await ok.close();
    }
    expect(server.stderr()).not.toContain(token);
  });

  it('refuses to bind beyond loopback without an identity source, in one stderr line', async () => {
    const refused = await startRefused(['--http', '0.0.0.0:0'], { REPORTS_DEMO: 'true' });
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/REPORTS_HTTP_TOKEN/);
    expect(lines[0]).toMatch(/REPORTS_HTTP_USERS/);
    expect(lines[0]).toMatch(/REPORTS_OIDC_ISSUER/);
  });
});

describe('--http: SIGTERM', () => {
  async function liveServer(latencyMs: number) {
    const live = await startLiveHttpServer({ latencyMs }, { REPORTS_PAGE_SIZE: '50', REPORTS_CONCURRENCY: '2' });
    sandboxes.push(live.sandbox);
    return live;
  }

  it('lets a running call finish, then exits 0', async () => {
    const { sandbox, server } = await liveServer(200);
    const c = await connectClient(server.url);
    const call = c.call('hotel_segments', { DateStart: 'today-3', DateEnd: 'today+3' });
    await until(() => sandbox.requests.length > 0);
    server.child.kill('SIGTERM');
    const r = await call;
    expect(r.isError).toBeFalsy();
    expect(structured(r).complete).toBe(true);
    expect((await server.exited).code).toBe(0);
    expect(server.stderr()).toContain('shutting down (SIGTERM)');
    expect(sandbox.requests.every((q) => q.status === 200)).toBe(true);
  });

  it('cancels a call that outlasts the grace period with an answer, and aborts its upstream requests', async () => {
    const { sandbox, server } = await liveServer(60_000);
    const c = await connectClient(server.url);
    const call = c.call('air_segments_by_date', { DateStart: 'today-30', DateEnd: 'today+30' });
    await until(() => sandbox.requests.length > 0);
    server.child.kill('SIGTERM');
    const answer = await call;
    expect(answer.isError).toBe(true);
    expect((answer.content[0] as { text: string }).text).toContain(
      'air_segments_by_date failed (cancelled): The server is shutting down, so this call was cancelled',
    );
    expect((await server.exited).code).toBe(0);
    expect(server.stderr()).toMatch(/1 request\(s\) still running after 5000 ms; cancelling them/);
    // Every upstream request ended without an answer: the server went away from it.
    await until(() => sandbox.requests.every((q) => q.endedAt > 0));
    expect(sandbox.requests.length).toBeGreaterThan(0);
    expect(sandbox.requests.every((q) => q.status === 0 && q.endedAt > 0)).toBe(true);
    await c.client.close();
  });
});

async function until(check: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check() && Date.now() < end) await new Promise((r) => setTimeout(r, 25));
}
