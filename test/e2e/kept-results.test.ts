/**
 * The built server over stdio, as a desktop host runs it, stopped and started again with the
 * same configuration (demo mode, a folder of the test's own): a result from before answers
 * query_report, sql_query and its resource pages exactly as it did (CONTRACT section 12).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_SERVER as SERVER } from '../helpers/built-server.js';
import { closeStdio } from '../helpers/stdio.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kept-results-e2e-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function startServer(): Promise<{ client: Client; pid?: number; stderr: () => string }> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('REPORTS_')) env[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, '--demo'],
    env: { ...env, REPORTS_TIMEZONE: 'UTC', REPORTS_RESULTS_DIR: join(dir, 'results') },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
  const client = new Client({ name: 'kept-results-e2e', version: '1.0.0' });
  await client.connect(transport);
  return { client, pid: transport.pid ?? undefined, stderr: () => stderr };
}

const call = async (client: Client, name: string, args: Record<string, unknown>) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult;

describe('the built server keeps its results across a restart', () => {
  it('answers query_report, sql_query and a resource page on a result from before, exactly', async () => {
    const a = await startServer();
    let before: { grouped: CallToolResult; sql: CallToolResult; page: unknown; table: string; id: string };
    try {
      const report = await call(a.client, 'hotel_segments', { DateStart: 'today-30', DateEnd: 'today' });
      expect(report.isError).toBeFalsy();
      const out = report.structuredContent as { resultId: string; table: string; resourceUri: string };
      const grouped = await call(a.client, 'query_report', {
        resultId: out.resultId,
        groupBy: ['Account'],
        aggregates: [{ fn: 'count' }],
      });
      const sql = await call(a.client, 'sql_query', {
        sql: `SELECT Account, COUNT(*) AS n FROM ${out.table} GROUP BY Account ORDER BY n DESC, Account`,
      });
      expect(grouped.isError).toBeFalsy();
      expect(sql.isError).toBeFalsy();
      const page = await a.client.readResource({ uri: out.resourceUri });
      before = { grouped, sql, page, table: out.table, id: out.resultId };
    } finally {
      // Closing stdin is how a host stops it: the server writes what it holds, then exits (the
      // SDK's close waits for the process to end).
      await closeStdio(a.client, undefined);
    }
    const files = (await readdir(join(dir, 'results'), { recursive: true })).filter((f) => f.endsWith('.data'));
    expect(files).toHaveLength(1);

    const b = await startServer();
    try {
      expect(
        await call(b.client, 'query_report', {
          resultId: before.id,
          groupBy: ['Account'],
          aggregates: [{ fn: 'count' }],
        }),
      ).toEqual(before.grouped);
      expect(
        await call(b.client, 'sql_query', {
          sql: `SELECT Account, COUNT(*) AS n FROM ${before.table} GROUP BY Account ORDER BY n DESC, Account`,
        }),
      ).toEqual(before.sql);
      expect(await b.client.readResource({ uri: `reports://results/${before.id}` })).toEqual(before.page);
    } finally {
      await closeStdio(b.client, b.pid);
    }
  });
});
