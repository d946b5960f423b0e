/**
 * Repeated report calls (CONTRACT section 12): identical calls in flight share one fetch,
 * counted in requests at the sandbox against what one call alone makes; an identical call
 * within a minute answers from the held result, saying so and how old it is; `fresh: true`
 * fetches again; a caller that cancels leaves the others their answer. Through a real MCP
 * client, the sandbox over loopback HTTP with a little latency so that calls overlap.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';

const PAGE_SIZE = 50;
const AIR = { DateStart: '20261001', DateEnd: '20261130' };

let s: InProcess;
beforeAll(async () => {
  s = await startInProcess({ env: { REPORTS_PAGE_SIZE: String(PAGE_SIZE) }, sandbox: { latencyMs: 20 } });
});
afterAll(async () => {
  await s?.close();
});

type Out = { resultId: string; notes: string[]; fetchedRecords: number };
function out(r: CallToolResult): Out {
  expect(r.isError, textOf(r)).toBeFalsy();
  return r.structuredContent as unknown as Out;
}

/** Requests the sandbox answered for AirSegmentsByDate since the last reset. */
function airRequests(): number {
  return s.rt.sandbox!.requests.filter((q) => q.transaction === 'AirSegmentsByDate').length;
}

/** What one call alone makes: a fresh fetch of the same report (shown otherwise, so that its
 *  result does not answer the calls that follow). */
async function oneFetch(args: Record<string, unknown>): Promise<{ requests: number; records: number }> {
  s.rt.sandbox!.resetStats();
  const r = out(await s.call('air_segments_by_date', { ...args, rowLimit: 99, fresh: true }));
  return { requests: airRequests(), records: r.fetchedRecords };
}

describe('a repeated call joins the running one', () => {
  it('two identical concurrent calls make one fetch: its requests, one resultId, both answered', async () => {
    const alone = await oneFetch({ ...AIR, rowLimit: 3 });
    expect(alone.requests).toBeGreaterThan(3);
    s.rt.sandbox!.resetStats();
    const [a, b] = (await Promise.all([1, 2].map(() => s.call('air_segments_by_date', { ...AIR, rowLimit: 3 })))).map(
      out,
    );
    expect(airRequests()).toBe(alone.requests);
    expect(a.resultId).toBe(b.resultId);
    expect(a.fetchedRecords).toBe(alone.records);
    expect(b.notes.join(' ')).toMatch(/An identical call was already fetching this report|completed \d+ s ago/);
  });

  it('ten identical concurrent calls make one fetch', async () => {
    const args = { ...AIR, rowLimit: 4, fields: ['RecordLocator'] };
    const alone = await oneFetch(args);
    s.rt.sandbox!.resetStats();
    const answers = (await Promise.all(Array.from({ length: 10 }, () => s.call('air_segments_by_date', args)))).map(
      out,
    );
    expect(airRequests()).toBe(alone.requests);
    expect(new Set(answers.map((a) => a.resultId)).size).toBe(1);
    expect(answers.every((a) => a.fetchedRecords === alone.records)).toBe(true);
    expect(
      answers.filter((a) => a.notes.some((n) => n.startsWith('An identical call was already fetching'))),
    ).toHaveLength(9);
  });

  it('an identical call after one completed answers from its result, saying how old; fresh: true fetches again', async () => {
    const args = { ...AIR, rowLimit: 5 };
    const first = out(await s.call('air_segments_by_date', args));
    s.rt.sandbox!.resetStats();
    const again = await s.call('air_segments_by_date', args);
    expect(airRequests()).toBe(0);
    expect(out(again).resultId).toBe(first.resultId);
    const note = out(again).notes.find((n) => n.startsWith('Answered from the result of an identical call'));
    expect(note).toMatch(
      new RegExp(`completed \\d+ s ago \\(${first.resultId}\\), without fetching again; add fresh: true`),
    );
    expect(textOf(again)).toContain(note!);

    // Other controls are another call; fresh: true fetches anew.
    const other = out(await s.call('air_segments_by_date', { ...args, rowLimit: 6 }));
    expect(other.resultId).not.toBe(first.resultId);
    s.rt.sandbox!.resetStats();
    const fresh = out(await s.call('air_segments_by_date', { ...args, fresh: true }));
    expect(fresh.resultId).not.toBe(first.resultId);
    expect(airRequests()).toBeGreaterThan(3);
    expect(fresh.notes.join(' ')).not.toContain('identical call');
  });

  it('a caller that cancels leaves the others their answer', async () => {
    const args = { ...AIR, rowLimit: 7 };
    const cancel = new AbortController();
    const first = s.client.callTool({ name: 'air_segments_by_date', arguments: args }, undefined, {
      signal: cancel.signal,
    });
    const second = s.call('air_segments_by_date', args);
    // Cancelled once the fetch has begun.
    while (airRequests() === 0) await new Promise((r) => setImmediate(r));
    cancel.abort();
    await expect(first).rejects.toThrow();
    const answer = out(await second);
    expect(answer.fetchedRecords).toBeGreaterThan(3 * PAGE_SIZE);
  });

  it('refuses a fresh that is not a boolean, naming it', async () => {
    const r = await s.call('air_segments_by_date', { ...AIR, fresh: 'yes' });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("fresh: 'yes' is not true or false; use true to fetch again");
  });
});
