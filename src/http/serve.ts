/**
 * Streamable HTTP at /mcp (`--http [HOST:]PORT`) for both protocol versions on one endpoint,
 * with one server instance per request or session over the shared runtime (upstream client,
 * concurrency limit, result store):
 * - 2026-07-28 requests (the `_meta` envelope, server/discover): the SDK's handler
 *   (createMcpHandler), stateless;
 * - a 2025-11-25 `initialize` opens a session (Mcp-Session-Id), as that protocol has it, and
 *   the session's requests go to it;
 * - a 2025-11-25 request without a session is answered on its own (the SDK's stateless
 *   fallback): claude.ai's connectors initialize before almost every call and echo no
 *   session id.
 * Every request is checked here first, in this order, before any tool is reached: Host and
 * Origin (403), bearer token (401 with WWW-Authenticate), body (JSON-RPC parse error), then a
 * session (used only by the identity that opened it). Results belong to the person, never to
 * a session: any request of theirs, in either version, to any replica, reaches them.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import {
  type AuthInfo,
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  type JSONRPCMessage,
  legacyStatelessFallback,
  type McpServer,
  type McpServerFactory,
} from '@modelcontextprotocol/server';
import type { Logger } from '../log.js';
import type { ServerOptions } from '../server/create-server.js';
import { refuseTooDeep } from '../server/inbound.js';
import { RunningRequests } from '../server/running-requests.js';
import { authenticate, type Identity, type IdentitySource, LOCAL_IDENTITY } from './identity.js';
import { foreignRequest, isLoopback } from './origin.js';

export const MCP_PATH = '/mcp';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
/** The most a POST body may be: the SDK handler's own default bound. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A session nobody used for this long is closed (clients that vanish without DELETE). */
const IDLE_SESSION_MS = 15 * 60 * 1000;
/** Most sessions open at once, the oldest closed first: clients that initialize before every
 *  call never come back to theirs. */
const MAX_SESSIONS = 1_000;

export interface HttpOptions {
  host: string;
  port: number;
  /** Empty: no authentication (allowed on loopback only; index.ts refuses otherwise). */
  sources: readonly IdentitySource[];
  /** A new MCP server instance answering one request or session of this identity. */
  serverFor(identity: Identity, options: ServerOptions): McpServer;
  /** Ends every running call with a 'cancelled' answer (the grace period is over). */
  cancelRunningCalls(): void;
  /** OAuth protected resource metadata (RFC 9728) when an authorization server is known. */
  resourceMetadata?(resource: string): Record<string, unknown>;
  log: Logger;
}

export interface HttpService {
  /** http://host:port/mcp as bound (port 0 resolved). */
  url: string;
  /** Stops taking requests, lets in-flight calls finish for up to graceMs, then cancels them. */
  close(graceMs: number): Promise<void>;
}

interface Session {
  transport: NodeStreamableHTTPServerTransport;
  server: McpServer;
  identity: Identity;
  lastUsed: number;
}

/** How an identity rides to the SDK's factory: the handlers pass `authInfo` through as it is. */
interface CallerAuth extends AuthInfo {
  extra: { identity: Identity };
}

export async function serveHttp(opts: HttpOptions): Promise<HttpService> {
  const loopbackOnly = isLoopback(opts.host);
  const sessions = new Map<string, Session>();
  // 2025-11-25 cancels may arrive in a request of their own, on another instance (running-requests.ts).
  const running = new RunningRequests();
  const legacyOptions = (identity: Identity): ServerOptions => ({
    routing: { owner: identity.owner, requests: running },
  });
  const factory: McpServerFactory = ({ era, authInfo }) => {
    const identity = (authInfo as CallerAuth | undefined)?.extra.identity ?? LOCAL_IDENTITY;
    return opts.serverFor(identity, era === 'legacy' ? legacyOptions(identity) : {});
  };
  const onerror = (err: Error) => opts.log(`HTTP: ${err.message}`);
  const modern = createMcpHandler(factory, { legacy: 'reject', onerror, maxRequestBodySize: MAX_BODY_BYTES });
  const answerModern = toNodeHandler(modern, { maxRequestBodySize: MAX_BODY_BYTES });
  const answerStateless = toNodeHandler(
    { fetch: legacyStatelessFallback(factory, onerror, { maxRequestBodySize: MAX_BODY_BYTES }) },
    { maxRequestBodySize: MAX_BODY_BYTES },
  );
  let inFlight = 0;
  let draining = false;

  const openSession = async (identity: Identity, req: IncomingMessage, res: ServerResponse, body: unknown) => {
    const server = opts.serverFor(identity, legacyOptions(identity));
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server, identity, lastUsed: Date.now() });
        // Map order is opening order; closing a session's server removes it (onclose below).
        const oldest = sessions.size > MAX_SESSIONS ? sessions.values().next().value : undefined;
        void oldest?.server.close().catch(() => {});
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = (req.url ?? '/').split('?')[0];
    const refusedBy = foreignRequest(req, loopbackOnly);
    if (refusedBy) return plain(res, 403, `Forbidden: ${refusedBy}.`);
    if (opts.resourceMetadata && (path === RESOURCE_METADATA_PATH || path === RESOURCE_METADATA_PATH + MCP_PATH)) {
      if (req.method !== 'GET') return plain(res, 405, 'Method not allowed.');
      return json(res, 200, opts.resourceMetadata(resourceUrl(req)));
    }
    if (path !== MCP_PATH) return plain(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}.`);
    if (draining) return rpcError(res, 503, -32000, 'Server is shutting down; reconnect shortly.');

    let identity: Identity = LOCAL_IDENTITY;
    if (opts.sources.length > 0) {
      const outcome = await authenticate(opts.sources, bearerOf(req));
      if ('refused' in outcome) return unauthorized(req, res, outcome.refused, !!opts.resourceMetadata);
      identity = outcome.identity;
    }

    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJson(req);
      if ('status' in read) return rpcError(res, read.status, read.code, read.message);
      body = read.body;
      // Answered before the SDK's handlers, whose validation of the request walks it recursively.
      const refusal = refuseTooDeep(body as JSONRPCMessage);
      if (refusal) return json(res, 200, refusal);
    }
    // The token itself stays here: the SDK and the tools see only who is calling.
    const auth: CallerAuth = { token: '', clientId: identity.owner, scopes: [], extra: { identity } };
    const authed = Object.assign(req, { auth });
    if (!(await isLegacyRequest(await toWebRequest(req, body), body))) return answerModern(authed, res, body);

    const sessionId = header(req, 'mcp-session-id');
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      // Another identity's session answers exactly like an unknown one.
      if (!session || session.identity.owner !== identity.owner)
        return rpcError(res, 404, -32001, 'Session not found; initialize a new session.', idOf(body));
      session.lastUsed = Date.now();
      return session.transport.handleRequest(authed, res, body);
    }
    if (req.method === 'POST' && isInitializeRequest(body)) return openSession(identity, authed, res, body);
    return answerStateless(authed, res, body);
  };

  const http = createHttpServer((req, res) => {
    // Only POSTs carry calls.
    const counted = req.method === 'POST';
    if (counted) {
      inFlight++;
      res.once('close', () => inFlight--);
    }
    handle(req, res).catch((err) => {
      opts.log(`HTTP ${req.method} ${req.url}: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) rpcError(res, 500, -32603, 'Internal error.');
      else res.end();
    });
  });
  // Idle keep-alive sockets stay open longer than clients keep them (undici: 4 s by default),
  // so a client never sends a request on a socket the server is closing at that moment.
  http.keepAliveTimeout = 60_000;
  // Bounded header time: a slow client cannot hold a socket open for ever (must exceed keepAliveTimeout).
  http.headersTimeout = 65_000;
  http.requestTimeout = 0; // SSE answers and long reports are legitimate long requests.

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(opts.port, opts.host, () => {
      http.off('error', reject);
      resolve();
    });
  });
  const address = http.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}${MCP_PATH}`;

  const sweep = setInterval(() => {
    const cutoff = Date.now() - IDLE_SESSION_MS;
    for (const s of sessions.values()) if (s.lastUsed < cutoff) void s.server.close().catch(() => {});
  }, 60_000);
  sweep.unref();

  return {
    url,
    async close(graceMs: number) {
      draining = true;
      clearInterval(sweep);
      http.close();
      const deadline = Date.now() + graceMs;
      while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      if (inFlight > 0) {
        opts.log(`${inFlight} request(s) still running after ${graceMs} ms; cancelling them`);
        // Cancelled calls answer while their streams are open; a moment for those answers to go out.
        opts.cancelRunningCalls();
        const answered = Date.now() + 1_000;
        while (inFlight > 0 && Date.now() < answered) await new Promise((r) => setTimeout(r, 20));
      }
      // Closing a server aborts its running handlers' signals, which abort their upstream requests.
      await Promise.all([...sessions.values()].map((s) => s.server.close().catch(() => {})));
      await modern.close().catch(() => {});
      http.closeAllConnections();
    },
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function bearerOf(req: IncomingMessage): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '');
  return m?.[1];
}

/** The URL of this MCP endpoint as the client reached it (a proxy says https in X-Forwarded-Proto). */
export function resourceUrl(req: IncomingMessage): string {
  const proto = header(req, 'x-forwarded-proto')?.split(',')[0].trim() === 'https' ? 'https' : 'http';
  return `${proto}://${header(req, 'host')}${MCP_PATH}`;
}

function unauthorized(req: IncomingMessage, res: ServerResponse, why: string, metadata: boolean): void {
  const params = ['realm="travel-reports-mcp"'];
  if (why !== 'no bearer token')
    params.push('error="invalid_token"', `error_description="${why.replace(/["\\]/g, "'")}"`);
  if (metadata) params.push(`resource_metadata="${resourceUrl(req).replace(MCP_PATH, RESOURCE_METADATA_PATH)}"`);
  res.setHeader('WWW-Authenticate', `Bearer ${params.join(', ')}`);
  json(res, 401, { error: 'invalid_token', error_description: `Unauthorized: ${why}.` });
}

async function readJson(
  req: IncomingMessage,
): Promise<{ body: unknown } | { status: number; code: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      return { status: 413, code: -32600, message: `Request body over ${MAX_BODY_BYTES} bytes.` };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    return { body: JSON.parse(text) };
  } catch {
    return { status: 400, code: -32700, message: 'Parse error: the request body is not valid JSON.' };
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body));
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`${text}\n`);
}

/** A JSON-RPC error answered over HTTP, with the request's id when it was readable (null otherwise). */
function rpcError(res: ServerResponse, status: number, code: number, message: string, id: RequestId = null): void {
  json(res, status, { jsonrpc: '2.0', error: { code, message }, id });
}

type RequestId = string | number | null;
/** The id of one JSON-RPC request (a batch or a notification has none to answer with). */
function idOf(body: unknown): RequestId {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}
