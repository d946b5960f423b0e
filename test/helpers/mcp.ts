import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { SandboxOptions } from '../../src/sandbox/service.js';
import { createServer } from '../../src/server/create-server.js';
import { createRuntime, type Runtime } from '../../src/server/runtime.js';
import { CheckedClient } from './checked-client.js';

export interface InProcess {
  client: Client;
  rt: Runtime;
  logs: string[];
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/**
 * The server in demo mode, driven through a real SDK Client over an in-memory transport
 * pair; every tool result's structuredContent is checked against the tool's published
 * outputSchema with Ajv 2020-12 (CheckedClient). `env` overrides configuration as the environment would (REPORTS_PAGE_SIZE, ...).
 */
export async function startInProcess(
  opts: { env?: Record<string, string>; sandbox?: SandboxOptions; now?: () => Date } = {},
): Promise<InProcess> {
  const config: Config = loadConfig({ REPORTS_DEMO: 'true', REPORTS_TIMEZONE: 'UTC', ...opts.env }).config;
  const logs: string[] = [];
  const rt = await createRuntime(config, {
    log: (l) => logs.push(l),
    sandbox: { dataNow: new Date('2026-11-15T00:00:00Z'), ...opts.sandbox },
    now: opts.now,
  });
  return connectInProcess(rt, logs, new CheckedClient({ name: 'test-client', version: '1.0.0' }));
}

/**
 * `rt`'s server and `client` connected over an in-memory transport pair; `watch` is given the
 * server's side of the pair before it connects (to record what the server writes). Closing
 * closes the client, the server and the runtime.
 */
export async function connectInProcess(
  rt: Runtime,
  logs: string[],
  client: Client,
  watch?: (serverTransport: InMemoryTransport) => void,
): Promise<InProcess> {
  const server = createServer(rt);
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  watch?.(serverTransport);
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    rt,
    logs,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
      await rt.close();
    },
  };
}

export function textOf(result: CallToolResult): string {
  return result.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');
}
