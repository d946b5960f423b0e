/**
 * resources/read of a result that is unknown or gone answers resource not found (-32602 with
 * `data.uri`: SDK v2 answers it so for every client, as 2026-07-28 has it) with the store's words: which of the two, and how to get it
 * again; a page past the last or not a number answers -32602 (invalid params). Never -32603.
 * Issue 31: one not-found path for every URI (any scheme, the view's, a result's with any
 * page) and every prompt, in our words, the code never printed inside the message (the
 * client adds "MCP error <code>: " once); a malformed URI is -32602.
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

async function errorOf(call: Promise<unknown>): Promise<{ code: number; message: string; data: unknown }> {
  try {
    await call;
  } catch (err) {
    expect(err).toBeInstanceOf(McpError);
    const e = err as McpError;
    // The client writes the code once before the server's words; the server never writes it.
    expect(e.message.replace(`MCP error ${e.code}: `, '')).not.toMatch(/MCP error|-326\d\d|-3200\d/);
    return { code: e.code, message: e.message, data: e.data };
  }
  throw new Error('the request succeeded');
}
const readError = (uri: string) => errorOf(s.client.readResource({ uri }));

const UNKNOWN =
  "No result 'r_doesNotExist' is held: it is not a resultId this server issued, or it was issued before the " +
  'server restarted. Run the report again for a new resultId.';

describe('resources/read errors', () => {
  test.each(['reports://results/r_doesNotExist', 'reports://results/r_doesNotExist.csv?page=2'])(
    'an unknown result (%s): not found (-32602, data.uri) with the same words as the tools',
    async (uri) => {
      expect(await readError(uri)).toEqual({ code: -32602, message: `MCP error -32602: ${UNKNOWN}`, data: { uri } });
    },
  );

  test('an expired result: not found saying it expired and which report to run again', async () => {
    const r = await s.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261103' });
    const { resourceUri, resultId } = r.structuredContent as { resourceUri: string; resultId: string };
    const store = s.rt.store as unknown as { now: () => number };
    const realNow = store.now;
    store.now = () => realNow() + 61 * 60_000; // the store's clock is the edge moved here
    try {
      expect(await readError(resourceUri)).toEqual({
        code: -32602,
        message:
          `MCP error -32602: No result '${resultId}' is held: it expired, unused for 60 minutes ` +
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

const NO_RESOURCE = (uri: string) =>
  `MCP error -32602: No resource '${uri}' on this server. Read the resourceUri a report tool answered with ` +
  '(reports://results/{resultId}, .csv for CSV pages), or one that resources/list gives.';

describe('one not-found path for every resource URI and prompt (issue 31)', () => {
  test.each([
    'nope://x',
    'ui://travel-reports/nope.html',
    'reports://results/',
    'reports://other/r_1',
    'https://example.com/x',
  ])('an unknown URI (%s): not found with data.uri and our words', async (uri) => {
    expect(await readError(uri)).toEqual({ code: -32602, message: NO_RESOURCE(uri), data: { uri } });
  });

  test('the view and a held result are still read', async () => {
    const { resources } = await s.client.listResources();
    const view = resources.find((r) => r.uri.startsWith('ui://'))!;
    const read = await s.client.readResource({ uri: view.uri });
    expect(read.contents[0].uri).toBe(view.uri);
  });

  test.each([
    ['reports://results/r_nope?page=0'],
    ['reports://results/r_nope.csv?page=x'],
    ['reports://results/r_nope?page=999999999'],
  ])('an unknown result with any page (%s) is not found, not a page error', async (uri) => {
    const e = await readError(uri);
    expect(e.code).toBe(-32602);
    expect(e.message).toBe(`MCP error -32602: ${UNKNOWN.replace('r_doesNotExist', 'r_nope')}`);
    expect(e.data).toEqual({ uri });
  });

  test.each(['not a uri', '', 'reports//results'])(
    'a malformed URI (%j): -32602 naming it, not -32603',
    async (uri) => {
      expect(await readError(uri)).toEqual({
        code: -32602,
        message:
          `MCP error -32602: uri: '${uri}' is not a URI; read a resourceUri a tool answered with ` +
          '(reports://results/{resultId}), or one that resources/list gives',
        data: { uri, expected: 'a URI' },
      });
    },
  );

  test('an unknown prompt: -32602 naming it and the prompts there are, with data.name', async () => {
    const { prompts } = await s.client.listPrompts();
    expect(await errorOf(s.client.getPrompt({ name: 'nope' }))).toEqual({
      code: -32602,
      message:
        `MCP error -32602: No prompt 'nope' on this server; its prompts are ${prompts.map((p) => p.name).join(', ')} ` +
        '(prompts/list gives their arguments)',
      data: { name: 'nope' },
    });
  });

  test('a prompt missing an argument: -32602 naming it, what was received and what is expected', async () => {
    expect(await errorOf(s.client.getPrompt({ name: 'traveller_tracking', arguments: {} }))).toEqual({
      code: -32602,
      message:
        'MCP error -32602: Prompt traveller_tracking cannot start: destination: missing; expected Airport, city ' +
        'or country code, e.g. SIN or SG',
      data: { name: 'traveller_tracking' },
    });
    const ok = await s.client.getPrompt({ name: 'traveller_tracking', arguments: { destination: 'SIN' } });
    expect((ok.messages[0].content as { text: string }).text).toContain('travellers_at with place "SIN"');
  });
});
