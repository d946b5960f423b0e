/**
 * Items 1 and 10 of the hostile-data issue: completeness from evidence. Pages that repeat or
 * overlap another page's records (by identity), or whose counts are not what they promise, make
 * the result incomplete with a note, on every page path; a lying TotalRecords (1e9, 1e20) gives
 * a bounded plan and bounded notes and never loses what was fetched; Limit is the same on
 * every page, the last included.
 */
import { afterEach, describe, expect, test } from 'vitest';
import {
  type HostileRequest,
  type HostileUpstream,
  page,
  startHostileUpstream,
  window,
} from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';
import { textOf } from '../helpers/mcp.js';

let upstream: HostileUpstream | undefined;
let live: LiveServer | undefined;
afterEach(async () => {
  await live?.close();
  await upstream?.close();
  live = upstream = undefined;
});

const ARGS = { DateStart: '20261101', DateEnd: '20261110' };
const segment = (i: number) => ({
  ServiceRef: 5000 + i,
  RecordLocator: `R${i}`,
  Account: `A${i % 7}`,
  DepartureDate: `/Date(${1_795_000_000_000 + i * 60_000}-0000)/`,
});
const ALL = Array.from({ length: 250 }, (_, i) => segment(i));

interface Report {
  complete: boolean;
  totalRecords: number | null;
  fetchedRecords: number;
  notes: string[];
  resultId: string;
}

async function run(answer: (req: HostileRequest) => unknown, env: Record<string, string> = {}, args = {}) {
  upstream = await startHostileUpstream((req) => ({ body: answer(req) }));
  live = await startLive(upstream.url, { REPORTS_PAGE_SIZE: '100', ...env });
  const result = await live.call('air_segments_by_date', { ...ARGS, ...args });
  expect(result.isError, textOf(result).slice(0, 400)).toBeFalsy();
  return { sc: result.structuredContent as unknown as Report, text: textOf(result) };
}

describe('repeats and overlaps by record identity', () => {
  test('Offset=100 answering the records of Offset=0 (concurrent path): incomplete, with a note', async () => {
    const { sc, text } = await run((req) => window(ALL, req.offset === 100 ? { ...req, offset: 0 } : req, true));
    expect(sc.complete).toBe(false);
    expect(sc.fetchedRecords).toBe(250);
    expect(sc.notes.join('\n')).toContain(
      '100 records in 1 page repeat records of other pages (the page at Offset 100 repeats records of the page at Offset 0)',
    );
    expect(text).toContain('250 of 250 records fetched, INCOMPLETE (see notes)');
  });

  test('an overlapping last page (Offset=200 answers records 150-199) is incomplete', async () => {
    const { sc } = await run((req) => {
      if (req.offset !== 200) return window(ALL, req, true);
      return page(ALL.slice(150, 200), { total: 250, offset: 200, limit: req.limit, item: true });
    });
    expect(sc.complete).toBe(false);
    expect(sc.notes.join('\n')).toContain('50 records in 1 page repeat records of other pages');
  });

  test('without TotalRecords (sequential path) a page overlapping the previous one is incomplete', async () => {
    const { sc } = await run((req) => {
      const from = req.offset === 100 ? 50 : req.offset;
      return page(ALL.slice(from, from + req.limit), { total: null, item: true });
    });
    expect(sc.complete).toBe(false);
    expect(sc.notes.join('\n')).toContain('repeat records of other pages');
  });

  test('a page whose ResponseRecords differs from the records it carries is incomplete', async () => {
    const { sc } = await run((req) => {
      const body = window(ALL, req, true) as { ResponseMetadata: { PagingMetadata: { ResponseRecords: number } } };
      if (req.offset === 100) body.ResponseMetadata.PagingMetadata.ResponseRecords = 90;
      return body;
    });
    expect(sc.complete).toBe(false);
    expect(sc.notes.join('\n')).toContain('The page at Offset 100 says ResponseRecords 90 but carries 100 records');
  });

  test('identical records inside one page are the service’s own and keep the result complete', async () => {
    const twins = [...ALL.slice(0, 120), ...ALL.slice(0, 130).map((r) => ({ ...r, RecordLocator: 'SAME' }))];
    const { sc } = await run((req) => window(twins, req, true));
    expect(sc).toMatchObject({ complete: true, fetchedRecords: 250 });
  });
});

describe('lying totals and constant Limit', () => {
  test('TotalRecords 1e9 over 250 records: a bounded plan, few short notes, the 250 records kept', async () => {
    const { sc } = await run((req) => {
      const body = window(ALL, req, true) as { ResponseMetadata: { PagingMetadata: { TotalRecords: number } } };
      body.ResponseMetadata.PagingMetadata.TotalRecords = 1e9;
      return body;
    });
    expect(sc).toMatchObject({ complete: false, totalRecords: 1e9, fetchedRecords: 250 });
    expect(upstream!.requests.length).toBeLessThanOrEqual(12);
    expect(sc.notes.length).toBeLessThanOrEqual(6);
    expect(sc.notes.join('\n').length).toBeLessThan(2_000);
    expect(sc.notes.join('\n')).toContain('the service has fewer records than its TotalRecords (1,000,000,000) says');
    // The same count written the same way in every note.
    expect(sc.notes.join('\n')).toContain('came back empty although TotalRecords is 1,000,000,000;');
    expect(sc.notes.join('\n')).not.toContain('1000000000');
  });

  test('TotalRecords 1e20 is not a count: the records are kept, with a note, and the answer validates', async () => {
    const { sc } = await run((req) => {
      const body = window(ALL, req, true) as { ResponseMetadata: { PagingMetadata: { TotalRecords: number } } };
      body.ResponseMetadata.PagingMetadata.TotalRecords = 1e20;
      return body;
    });
    expect(sc.fetchedRecords).toBe(250);
    // The walk read pages until a short one, so the real count is known; the lie is noted.
    expect(sc.totalRecords).toBe(250);
    expect(sc.complete).toBe(false);
    expect(sc.notes.join('\n')).toContain(
      'The service sent TotalRecords 100000000000000000000, which is not a usable count',
    );
  });

  test('Limit is the page size on every page, the last and a capped one included', async () => {
    await run((req) => window(ALL, req, true));
    expect(upstream!.requests.map((r) => [r.offset, r.limit])).toEqual(
      expect.arrayContaining([
        [0, 100],
        [100, 100],
        [200, 100],
      ]),
    );
    expect(upstream!.requests).toHaveLength(3);
    await live!.close();
    await upstream!.close();
    const { sc } = await run((req) => window(ALL, req, true), {}, { maxRecords: 150 });
    expect(upstream!.requests.map((r) => r.limit)).toEqual([100, 100]);
    expect(sc).toMatchObject({ fetchedRecords: 150, complete: false });
  });
});
