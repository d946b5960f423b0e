/**
 * An outside judge: the MCP Inspector CLI (1.0.x) starts the built server in demo mode over
 * stdio, lists its tools and calls a report tool; the test reads the JSON it prints.
 * The Inspector reads its own package.json by a path relative to the working directory, so it
 * runs from test/ (whose parent has a package.json).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { TOOL_NAMES } from '../../src/server/create-server.js';
import { BUILT_SERVER as SERVER } from '../helpers/built-server.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const INSPECTOR = path.join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector-cli', 'build', 'index.js');

async function inspector(...args: string[]): Promise<Record<string, unknown>> {
  const { stdout } = await run(
    process.execPath,
    [INSPECTOR, 'node', SERVER, '--demo', '--results-dir', 'off', ...args],
    {
      cwd: path.join(ROOT, 'test'),
      timeout: 60_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe('MCP Inspector CLI against the built server (demo mode)', () => {
  it('tools/list prints every tool, each with plain input and output schemas', async () => {
    const { tools } = (await inspector('--method', 'tools/list')) as {
      tools: { name: string; inputSchema: object; outputSchema?: object }[];
    };
    expect(tools.map((t) => t.name)).toEqual([...TOOL_NAMES]);
    for (const t of tools) {
      expect(JSON.stringify(t.inputSchema), t.name).not.toContain('$schema');
      expect(t.outputSchema, t.name).toBeDefined();
    }
  }, 60_000);

  it('tools/call of a report tool prints its text and structuredContent', async () => {
    const result = (await inspector(
      '--method',
      'tools/call',
      '--tool-name',
      'car_segment_counts_per_account_by_vendor',
      '--tool-arg',
      'DateStart=today-30',
      'DateEnd=today',
      'VendorCode=ZE',
    )) as {
      content: { type: string; text?: string; uri?: string }[];
      structuredContent: { source: string; fetchedRecords: number; totalRecords: number; resourceUri: string };
      isError?: boolean;
    };
    expect(result.isError).toBeFalsy();
    const firstLine = result.content[0].text!.split('\n')[0];
    process.stderr.write(`inspector: ${firstLine}\n`);
    const m =
      /^car_segment_counts_per_account_by_vendor \(demo data\) DateStart=\d{8} DateEnd=\d{8} VendorCode=ZE: (\d+) records, complete\.$/.exec(
        firstLine,
      );
    expect(m, firstLine).not.toBeNull();
    const sc = result.structuredContent;
    expect(sc.source).toBe('demo');
    expect(sc.fetchedRecords).toBe(Number(m![1]));
    expect(sc.totalRecords).toBe(sc.fetchedRecords);
    expect(result.content.find((c) => c.type === 'resource_link')?.uri).toBe(sc.resourceUri);
  }, 60_000);
});
