/**
 * A client outside our own SDK line: the MCP TypeScript SDK v2 client
 * (@modelcontextprotocol/client), which checks tool output against its outputSchema in the
 * 2020-12 dialect, drives the built server over stdio: lists tools, calls a report tool,
 * queries the held result and reads its resource.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { DEMO_ARGS } from '../helpers/built-server.js';
import { closeStdio } from '../helpers/stdio.js';

let transport: StdioClientTransport;
let client: Client;
beforeAll(async () => {
  transport = new StdioClientTransport({
    command: process.execPath,
    args: DEMO_ARGS,
    stderr: 'pipe',
  });
  client = new Client({ name: 'sdk-v2-client', version: '2.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await closeStdio(client, transport?.pid ?? undefined);
});

describe('MCP TypeScript SDK v2 client over stdio', () => {
  let resultId: string;
  let resourceUri: string;
  let fetched: number;

  it('initializes and lists every tool with its output schema', async () => {
    expect(client.getServerVersion()).toMatchObject({ name: 'travel-reports-mcp', version: pkg.version });
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain('air_segments_by_date');
    expect(names).toContain('query_report');
    expect(tools.filter((t) => !t.outputSchema).map((t) => t.name)).toEqual([]);
  });

  it('calls a report tool; its structuredContent passes the v2 client output check', async () => {
    const result = await client.callTool({
      name: 'air_segments_by_date',
      arguments: { DateStart: '2026-11-01', DateEnd: '2026-11-14', DateSearchType: 'T' },
    });
    expect(result.isError).toBeFalsy();
    const sc = result.structuredContent as {
      report: string;
      source: string;
      complete: boolean;
      fetchedRecords: number;
      totalRecords: number;
      resultId: string;
      resourceUri: string;
      query: Record<string, string>;
    };
    expect(sc).toMatchObject({ report: 'air_segments_by_date', source: 'demo', complete: true });
    expect(sc.query).toMatchObject({ DateStart: '20261101', DateEnd: '20261114', DateSearchType: 'T' });
    expect(sc.fetchedRecords).toBe(sc.totalRecords);
    expect(sc.fetchedRecords).toBeGreaterThan(0);
    ({ resultId, resourceUri, fetchedRecords: fetched } = sc);
  });

  it('query_report counts the same records the report fetched', async () => {
    const result = await client.callTool({
      name: 'query_report',
      arguments: { resultId, aggregates: [{ fn: 'count' }] },
    });
    expect(result.isError).toBeFalsy();
    const sc = result.structuredContent as { resultId: string; matched: number; groups?: { count: number }[] };
    expect(sc.resultId).toBe(resultId);
    expect(sc.matched).toBe(fetched);
  });

  it("reads the result's resource: every fetched record", async () => {
    const read = await client.readResource({ uri: resourceUri });
    const first = read.contents[0] as { uri: string; mimeType?: string; text: string };
    expect(first.uri).toBe(resourceUri);
    expect(first.mimeType).toBe('application/json');
    // A page object ({resultId, records, page, pages, ...}) or, in older builds, the bare array.
    const body = JSON.parse(first.text) as unknown[] | { records: unknown[]; next: string | null };
    const records = Array.isArray(body) ? body : body.records;
    expect(records).toHaveLength(fetched);
    expect(Array.isArray(body) || body.next === null).toBe(true);
  });
});
