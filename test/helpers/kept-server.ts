/**
 * A server as `travel-reports-mcp` starts it on stdio (results kept on disk in `dir`), in
 * process, against a live service (the sandbox over loopback HTTP), with a real MCP client
 * over an in-memory transport: for the suites that stop and start servers on one folder.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../../src/config.js';
import { createServer } from '../../src/server/create-server.js';
import { createRuntime, type Runtime } from '../../src/server/runtime.js';

export interface KeptServer {
  rt: Runtime;
  client: Client;
  logs: string[];
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export interface KeptServerOptions {
  url: string;
  username: string;
  key: string;
  now: Date;
  /** REPORTS_RESULTS_DIR; exports go beside it. */
  dir: string;
  env?: Record<string, string>;
}

export async function startKeptServer(o: KeptServerOptions): Promise<KeptServer> {
  const { config } = loadConfig({
    REPORTS_BASE_URL: o.url,
    REPORTS_API_USERNAME: o.username,
    REPORTS_API_KEY: o.key,
    REPORTS_TIMEZONE: 'UTC',
    REPORTS_PAGE_SIZE: '100',
    REPORTS_RESULTS_DIR: o.dir,
    REPORTS_EXPORT_DIR: join(o.dir, '..', 'exports'),
    ...o.env,
  });
  const logs: string[] = [];
  const rt = await createRuntime(config, { log: (l) => logs.push(l), now: () => o.now, keepOnDisk: true });
  const server = createServer(rt);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'kept-server-test', version: '1.0.0' });
  await Promise.all([server.connect(b), client.connect(a)]);
  return {
    rt,
    client,
    logs,
    call: async (name, args) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      await server.close();
      await rt.close();
    },
  };
}
