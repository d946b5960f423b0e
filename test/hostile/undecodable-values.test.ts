/**
 * Item 5 of the hostile-data issue: one bad value never loses the report. A date beyond what a
 * date can hold (/Date(8640000000000001)/) stays as the service sent it, with a note, on the
 * first page and on later ones (so continue_report can fetch them); a record nested 5,000
 * levels deep is kept, its deep part as JSON text, with a note.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type HostileUpstream, startHostileUpstream, window } from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';
import { textOf } from '../helpers/mcp.js';
import { readAllRecords } from '../helpers/resources.js';

let upstream: HostileUpstream | undefined;
let live: LiveServer | undefined;
afterEach(async () => {
  await live?.close();
  await upstream?.close();
  live = upstream = undefined;
});
const ARGS = { DateStart: '20261101', DateEnd: '20261110' };

describe('values that cannot be decoded are kept, never fatal', () => {
  test.each([0, 3])('/Date(8640000000000001)/ in record %i (page 0 and a later page)', async (at) => {
    const records = Array.from({ length: 6 }, (_, i) => ({
      ServiceRef: i,
      DepartureDate: i === at ? '/Date(8640000000000001)/' : '/Date(1459781734000-0500)/',
    }));
    upstream = await startHostileUpstream((req) => ({ body: window(records, req, true) }));
    live = await startLive(upstream.url, { REPORTS_PAGE_SIZE: '2' });
    const result = await live.call('air_segments_by_date', ARGS);
    expect(result.isError, textOf(result)).toBeFalsy();
    const sc = result.structuredContent as { resourceUri: string; fetchedRecords: number; notes: string[] };
    expect(sc.fetchedRecords).toBe(6);
    expect(sc.notes, JSON.stringify(sc.notes)).toContain(
      "1 date value could not be decoded (e.g. '/Date(8640000000000001)/') and is kept as the service sent it.",
    );
    const held = await readAllRecords(live.client, sc.resourceUri);
    expect(held[at].DepartureDate).toBe('/Date(8640000000000001)/');
    expect(held[(at + 1) % 6].DepartureDate).toBe('2016-04-04T09:55:34.000-05:00');
  });

  test('a record nested 5,000 levels: kept, its deep part as JSON text, with a note', async () => {
    // Written as text: serialising 5,000 levels would itself need a deep stack.
    const detail = `${'{"Level":'.repeat(5_000)}"bottom"${'}'.repeat(5_000)}`;
    const body = `{"ResponseMetadata":{"Success":true,"PagingMetadata":{"Offset":"0","Limit":"500","TotalRecords":2,"ResponseRecords":2}},"ResponseReport":{"Item":[{"ServiceRef":1,"Account":"ACME","Detail":${detail}},{"ServiceRef":2,"Account":"ACME"}]}}`;
    upstream = await startHostileUpstream(() => ({ body }));
    live = await startLive(upstream.url);
    const result = await live.call('air_segments_by_date', ARGS);
    expect(result.isError, textOf(result).slice(0, 300)).toBeFalsy();
    const sc = result.structuredContent as {
      resultId: string;
      resourceUri: string;
      fetchedRecords: number;
      notes: string[];
    };
    expect(sc.fetchedRecords).toBe(2);
    expect(sc.notes).toContain('1 value nested deeper than 32 levels is kept as its JSON text.');
    const q = await live.call('query_report', {
      resultId: sc.resultId,
      groupBy: ['Account'],
      aggregates: [{ fn: 'count' }],
    });
    expect((q.structuredContent as { groups: unknown[] }).groups).toEqual([{ key: { Account: 'ACME' }, count: 2 }]);
    const held = await readAllRecords(live.client, sc.resourceUri);
    let v = held[0].Detail as Record<string, unknown>;
    for (let i = 0; i < 30; i++) v = v.Level as Record<string, unknown>;
    expect(typeof v.Level).toBe('string');
    expect(String(v.Level).startsWith('{"Level":{"Level":')).toBe(true);
  });
});
