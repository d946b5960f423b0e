/**
 * A server as `travel-reports-mcp` starts it on stdio (results kept on disk in `dir`), in
 * process, against a live service (the sandbox over loopback HTTP), with a real MCP client
 * over an in-memory transport: for the suites that stop and start servers on one folder.
 */
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { loadConfig } from '../../src/config.js';
import { createRuntime } from '../../src/server/runtime.js';
import { connectInProcess, type InProcess } from './mcp.js';

export type KeptServer = InProcess;

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
  return connectInProcess(rt, logs, new Client({ name: 'kept-server-test', version: '1.0.0' }));
}
