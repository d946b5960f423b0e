/**
 * resources/read of a result that is unknown or gone answers JSON-RPC -32002 (resource not
 * found, CONTRACT section 5) with the store's words: which of the two, and how to get it
 * again; a page past the last or not a number answers -32602 (invalid params). Never -32603.
 */
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type InProcess, startInProcess } from '../helpers/mcp.js';

let s: InProcess;
beforeAll(async () => {
  s = await startInProcess();
});
afterAll(async () => {
  await s?.close();
});

async function readError(uri: string): Promise<{ code: number; message: string; data: unknown }> {
  try {
    await s.client.readResource({ uri });
  } catch (err) {
    expect(err).toBeInstanceOf(McpError);
    const e = err as McpError;
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error(`${uri} was read`);
}

const UNKNOWN =
  "No result 'r_doesNotExist' is held: it is not a resultId this server issued, or it was issued before the " +
  'server restarted. Run the report again for a new resultId.';

describe('resources/read errors', () => {
  test.each(['reports://results/r_doesNotExist', 'reports://results/r_doesNotExist.csv?page=2'])(
    'an unknown result (%s): -32002 with the same words as the tools',
    async (uri) => {
      expect(await readError(uri)).toEqual({ code: -32002, message: `MCP error -32002: ${UNKNOWN}`, data: { uri } });
    },
  );

  test('an expired result: -32002 saying it expired and which report to run again', async () => {
    const r = await s.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261103' });
    const { resourceUri, resultId } = r.structuredContent as { resourceUri: string; resultId: string };
    const store = s.rt.store as unknown as { now: () => number };
    const realNow = store.now;
    store.now = () => realNow() + 61 * 60_000; // the store's clock is the edge moved here
    try {
      expect(await readError(resourceUri)).toEqual({
        code: -32002,
        message:
          `MCP error -32002: No result '${resultId}' is held: it expired, unused for 60 minutes ` +
          '(REPORTS_RESULTS_TTL_MINUTES). Run air_segments_by_date again for a new resultId.',
        data: { uri: resourceUri },
      });
    } finally {
      store.now = realNow;
    }
  });

  test('a page past the last, or not a number: -32602 naming the page', async () => {
    const r = await s.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261103' });
    const { resourceUri } = r.structuredContent as { resourceUri: string };
    const past = await readError(`${resourceUri}?page=9`);
    expect(past.code).toBe(-32602);
    expect(past.message).toBe(`MCP error -32602: page: 9 is past the last page of '${resourceUri}', which has 1 page`);
    const bad = await readError(`${resourceUri}.csv?page=x`);
    expect(bad.code).toBe(-32602);
    expect(bad.message).toBe(
      "MCP error -32602: page: 'x' is not a page number; use ?page=2 and on, or no page for the first",
    );
  });
});
