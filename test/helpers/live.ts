import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../../src/config.js';
import { createRuntime, type Runtime } from '../../src/server/runtime.js';
import { HOSTILE_KEY, HOSTILE_USERNAME } from './hostile-upstream.js';
import { connectInProcess } from './mcp.js';

export interface LiveServer {
  client: Client;
  rt: Runtime;
  logs: string[];
  /** Every JSON-RPC message the server wrote, serialised as a stdio transport would. */
  sent: string[];
  /** Bytes of the largest message the server wrote (UTF-8, newline excluded). */
  largestMessage(): number;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * The server in live mode against `baseUrl` (an adversarial upstream on 127.0.0.1), driven
 * through a real SDK Client over an in-memory transport pair. Every message the server sends
 * is recorded serialised, so tests measure what a stdio client would have to read.
 */
export async function startLive(
  baseUrl: string,
  env: Record<string, string> = {},
  now: () => Date = () => new Date('2026-11-15T12:00:00Z'),
): Promise<LiveServer> {
  const { config } = loadConfig({
    REPORTS_BASE_URL: baseUrl,
    REPORTS_API_USERNAME: HOSTILE_USERNAME,
    REPORTS_API_KEY: HOSTILE_KEY,
    REPORTS_TIMEZONE: 'UTC',
    REPORTS_TIMEOUT_MS: '5000',
    ...env,
  });
  const logs: string[] = [];
  const rt = await createRuntime(config, { log: (l) => logs.push(l), now });
  const sent: string[] = [];
  const connected = await connectInProcess(
    rt,
    logs,
    new Client({ name: 'hostile-test-client', version: '1.0.0' }),
    (serverTransport) => {
      const send = serverTransport.send.bind(serverTransport);
      serverTransport.send = async (message: JSONRPCMessage, options) => {
        sent.push(JSON.stringify(message));
        return send(message, options);
      };
    },
  );
  return { ...connected, sent, largestMessage: () => Math.max(0, ...sent.map((m) => Buffer.byteLength(m))) };
}
