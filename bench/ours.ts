/**
 * Our server, the real code path, in this process: config parsed from an environment as
 * the CLI does, the runtime (upstream client, store, stderr logger) and createServer,
 * driven by a real SDK Client over an in-memory transport pair.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { loadConfig } from '../src/config.js';
import { createServer } from '../src/server/create-server.js';
import { createRuntime, type Runtime } from '../src/server/runtime.js';
import { BENCH_KEY, BENCH_USERNAME } from './upstream.js';

export interface Ours {
  client: Client;
  /** The server's runtime: its store of held results, for the figures of what it holds. */
  rt: Runtime;
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  report(args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

export const REPORT_TOOL = 'air_segments_by_date';
export const REPORT_ARGS = { DateStart: '20260101', DateEnd: '20261231' };

export async function startOurs(baseUrl: string, env: Record<string, string> = {}): Promise<Ours> {
  const { config } = loadConfig({
    REPORTS_BASE_URL: baseUrl,
    REPORTS_API_USERNAME: BENCH_USERNAME,
    REPORTS_API_KEY: BENCH_KEY,
    REPORTS_TIMEZONE: 'UTC',
    ...env,
  });
  const rt = await createRuntime(config);
  const server = createServer(rt);
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = (await client.callTool({ name, arguments: args }, undefined, {
      timeout: 600_000,
    })) as CallToolResult;
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content).slice(0, 500)}`);
    return result;
  };
  return {
    client,
    rt,
    call,
    // fresh: a call identical to one answered within 60 s is answered from its held result
    // (server/joined-calls.ts); every measured call must fetch.
    report: (args = {}) => call(REPORT_TOOL, { ...REPORT_ARGS, fresh: true, ...args }),
    close: async () => {
      await client.close();
      await server.close();
      await rt.close();
    },
  };
}
