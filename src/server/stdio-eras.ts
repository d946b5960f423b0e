/**
 * MCP over stdio for both protocol versions: the SDK's serveStdio pins a connection to the
 * era its first message opens (`initialize`: 2025-11-25; `server/discover`: 2026-07-28), with
 * one server instance for the connection. Once pinned to 2026-07-28 it answers a later
 * `initialize` with -32022, and Claude Code sends both on one pipe (discover, then the
 * handshake). Such a connection gets a second instance here, a 2025-11-25 one, beside the
 * first: messages carrying the 2026-07-28 envelope go on to serveStdio's instance, the others
 * to it. Both answer on the same stdout; both read and write the same held results.
 */
import type { JSONRPCMessage, McpServer, McpServerFactory, Server, Transport } from '@modelcontextprotocol/server';
import { StdioServerTransport, serveStdio } from '@modelcontextprotocol/server/stdio';
import { isModernRequest } from './inbound.js';

export interface StdioOptions {
  onerror(error: Error): void;
  /** Another pipe than process.stdin and process.stdout (the default). */
  wire?: Transport;
}

export function serveBothEras(factory: McpServerFactory, options: StdioOptions): { close(): Promise<void> } {
  const wire = options.wire ?? new StdioServerTransport();
  let pinnedModern = false;
  let side: { channel: SideChannel; ready: Promise<McpServer | Server> } | undefined;

  const front: Transport = {
    start: async () => {
      wire.onmessage = (message: JSONRPCMessage) => route(message);
      wire.onerror = (error) => front.onerror?.(error);
      wire.onclose = () => {
        void side?.ready.then((s) => s.close()).catch(() => undefined);
        front.onclose?.();
      };
      await wire.start();
    },
    send: (message, sendOptions) => wire.send(message, sendOptions),
    close: () => wire.close(),
  };

  const route = (message: JSONRPCMessage) => {
    const modern = isModernRequest(message);
    if (!modern && (side || (pinnedModern && isRequestOf(message, 'initialize')))) {
      side ??= startSide();
      const { channel, ready } = side;
      ready.then(() => channel.onmessage?.(message)).catch((err) => options.onerror(asError(err)));
      return;
    }
    // serveStdio pins 2026-07-28 with the first such request after server/discover's probe.
    if (modern && 'id' in message && !isRequestOf(message, 'server/discover')) pinnedModern = true;
    front.onmessage?.(message);
  };

  const startSide = () => {
    const channel = new SideChannel(wire);
    const ready = (async () => {
      const server = await factory({ era: 'legacy' });
      await server.connect(channel);
      return server;
    })();
    return { channel, ready };
  };

  return serveStdio(factory, { transport: front, onerror: options.onerror });
}

/** The 2025-11-25 instance's transport: it writes to the same pipe, and is fed by route(). */
class SideChannel implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  constructor(private readonly wire: Transport) {}
  async start(): Promise<void> {}
  send(message: JSONRPCMessage): Promise<void> {
    return this.wire.send(message);
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}

function isRequestOf(message: JSONRPCMessage, method: string): boolean {
  return 'id' in message && (message as { method?: string }).method === method;
}

function asError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
