import diagnostics from 'node:diagnostics_channel';
import { describe, expect, test } from 'vitest';
import { Limiter } from '../../src/upstream/limiter.js';
import { gaps, mergeIntervals } from '../../src/upstream/paging/intervals.js';
import { type FetchRequest, fetchReport } from '../../src/upstream/paging.js';
import { client, PATH, range, requestedWindows, seqs, service } from './harness.js';

const req = (over: Partial<FetchRequest> = {}): FetchRequest => ({
  path: PATH,
  query: { DateStart: '20260101', Account: 'ACME,GLOBEX' },
  envelope: 'collection',
  pageSize: 500,
  maxRecords: 50_000,
  budgetMs: 5_000,
  ...over,
});

describe('paging', () => {
  test('all pages, in offset order, dates decoded, each window requested once, signed', async () => {
    const svc = await service({ total: 2345 });
    const out = await fetchReport(client(svc.url), req());
    expect(out).toMatchObject({ totalRecords: 2345, complete: true, notes: [], requests: 5 });
    expect(out.pages.map((p) => p.offset)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(seqs(out)).toEqual(range(0, 2345));
    expect(out.pages[0].records[0]).toEqual({ Seq: 0, When: '2023-11-14T17:13:20.000-05:00' });
    expect(out.pages[4].records[344]).toEqual({ Seq: 2344, When: '2023-11-16T08:17:20.000-05:00' });
    expect(requestedWindows(svc)).toEqual([
      [0, 500],
      [500, 1000],
      [1000, 1500],
      [1500, 2000],
      [2000, 2500],
    ]);
    expect(svc.requests.every((r) => r.signatureOk)).toBe(true);
    expect(svc.requests.every((r) => r.url.includes('?DateStart=20260101&Account=ACME,GLOBEX&Offset='))).toBe(true);
  });

  test('page 0 alone first; the rest only after it answered', async () => {
    const svc = await service({ total: 3000, latencyMs: 10 });
    const out = await fetchReport(client(svc.url), req());
    expect(out.complete).toBe(true);
    const [first, ...rest] = svc.requests;
    expect(first.offset).toBe(0);
    expect(rest).toHaveLength(5);
    for (const r of rest) expect(r.at).toBeGreaterThanOrEqual(first.endedAt!);
  });

  test('the next window is requested before the page before it is walked', async () => {
    // One request at a time: the order of requests and walks is then exact. undici announces
    // each request as it is created, on its diagnostics channel, in this process.
    const svc = await service({ total: 2345 });
    const events: string[] = [];
    const onCreate = (message: unknown) => {
      const { path } = (message as { request: { path: string } }).request;
      events.push(`request ${new URLSearchParams(path.slice(path.indexOf('?'))).get('Offset')}`);
    };
    diagnostics.subscribe('undici:request:create', onCreate);
    try {
      const onPage: FetchRequest['onPage'] = (offset, page) => {
        events.push(`walk ${offset}`);
        return page;
      };
      const out = await fetchReport(client(svc.url, { limiter: new Limiter(1) }), req({ onPage }));
      expect(out.complete).toBe(true);
      expect(seqs(out)).toEqual(range(0, 2345));
    } finally {
      diagnostics.unsubscribe('undici:request:create', onCreate);
    }
    // Page 0 says how many there are; the next window is asked for before page 0 is walked.
    expect(events).toEqual([
      'request 0',
      'request 500',
      'walk 0',
      'request 1000',
      'walk 500',
      'request 1500',
      'walk 1000',
      'request 2000',
      'walk 1500',
      'walk 2000',
    ]);
  });

  test('an Item report pages the same', async () => {
    const svc = await service({ total: 1200, envelope: 'item' });
    const out = await fetchReport(client(svc.url), req({ envelope: 'item' }));
    expect(out).toMatchObject({ totalRecords: 1200, complete: true, notes: [] });
    expect(seqs(out)).toEqual(range(0, 1200));
  });

  test('empty report and a report smaller than one page: one request, complete', async () => {
    const empty = await service({ total: 0 });
    expect(await fetchReport(client(empty.url), req())).toEqual({
      pages: [{ offset: 0, records: [] }],
      totalRecords: 0,
      complete: true,
      notes: [],
      requests: 1,
      heldBytes: 0,
      identities: 0,
      // No record, so none holds a list or object: no field path either.
      flatKeys: [],
    });
    const small = await service({ total: 37 });
    const out = await fetchReport(client(small.url), req());
    expect(out).toMatchObject({ totalRecords: 37, complete: true, notes: [], requests: 1 });
    // Flat records: their keys, in order, are every field path (results/paths.ts).
    expect(out.flatKeys).toEqual(Object.keys(out.pages[0].records[0]));
    expect(seqs(out)).toEqual(range(0, 37));
    expect(small.requests.map((r) => [r.offset, r.limit])).toEqual([[0, 500]]);
  });

  test('stops exactly at maxRecords: 1234 with pages of 500 -> Limit 500 on every page, the extras dropped', async () => {
    const svc = await service({ total: 5000 });
    const out = await fetchReport(client(svc.url), req({ maxRecords: 1234 }));
    expect(seqs(out)).toEqual(range(0, 1234));
    expect(svc.requests.map((r) => [r.offset, r.limit]).sort((a, b) => a[0] - b[0])).toEqual([
      [0, 500],
      [500, 500],
      [1000, 500],
    ]);
    expect(out.complete).toBe(false);
    expect(out.totalRecords).toBe(5000);
    expect(out.notes).toEqual([
      'Fetched 1234 of 5000 records: the cap of 1234 records per call (maxRecords / REPORTS_MAX_RECORDS) was reached. continue_report fetches the remaining 3766; or narrow the filters.',
    ]);
  });

  test('maxRecords smaller than a page: one request with the page size as Limit, the rest dropped', async () => {
    const svc = await service({ total: 5000 });
    const out = await fetchReport(client(svc.url), req({ maxRecords: 20 }));
    expect(svc.requests.map((r) => [r.offset, r.limit])).toEqual([[0, 500]]);
    expect(seqs(out)).toEqual(range(0, 20));
    expect(out.complete).toBe(false);
  });

  test('maxRecords equal to the total is complete', async () => {
    const svc = await service({ total: 1000 });
    const out = await fetchReport(client(svc.url), req({ maxRecords: 1000 }));
    expect(out).toMatchObject({ complete: true, notes: [], totalRecords: 1000 });
    expect(seqs(out)).toEqual(range(0, 1000));
  });

  test('onProgress reports fetched counts against the total to fetch', async () => {
    const svc = await service({ total: 1500 });
    const progress: Array<[number, number]> = [];
    await fetchReport(client(svc.url), req({ onProgress: (f, t) => progress.push([f, t]) }));
    expect(progress).toEqual([
      [500, 1500],
      [1000, 1500],
      [1500, 1500],
    ]);
  });
});

describe('paging inconsistencies: noted, never looped, never duplicated', () => {
  test('a page shorter than promised', async () => {
    const svc = await service({ total: 2000, fault: (r) => (r.offset === 1000 ? { records: 300 } : undefined) });
    const out = await fetchReport(client(svc.url), req());
    expect(out.complete).toBe(false);
    expect(out.totalRecords).toBe(2000);
    expect(out.notes).toEqual([
      'The page at Offset 1000 returned 300 records where 500 were promised; records 1300-1499 are missing.',
    ]);
    expect(seqs(out)).toEqual([...range(0, 1300), ...range(1500, 2000)]);
    expect(requestedWindows(svc)).toEqual([
      [0, 500],
      [500, 1000],
      [1000, 1500],
      [1500, 2000],
    ]);
  });

  test('page 0 shorter than promised: its missing records are not requested again', async () => {
    const svc = await service({ total: 2000, fault: (r) => (r.offset === 0 ? { records: 300 } : undefined) });
    const out = await fetchReport(client(svc.url), req());
    expect(out.complete).toBe(false);
    expect(out.notes).toEqual([
      'The page at Offset 0 returned 300 records where 500 were promised; records 300-499 are missing.',
    ]);
    expect(seqs(out)).toEqual([...range(0, 300), ...range(500, 2000)]);
    expect(requestedWindows(svc)).toEqual([
      [0, 500],
      [500, 1000],
      [1000, 1500],
      [1500, 2000],
    ]);
  });

  test('an empty page early', async () => {
    const svc = await service({ total: 2000, fault: (r) => (r.offset === 500 ? { records: 0 } : undefined) });
    const out = await fetchReport(client(svc.url), req());
    expect(out.complete).toBe(false);
    expect(out.notes).toEqual([
      'The page at Offset 500 came back empty although TotalRecords is 2,000; records 500-999 are missing.',
    ]);
    expect(seqs(out)).toEqual([...range(0, 500), ...range(1000, 2000)]);
    expect(svc.requests).toHaveLength(4);
    requestedWindows(svc);
  });

  test('TotalRecords changing between pages', async () => {
    const svc = await service({ total: 2000, fault: (r) => (r.offset === 1500 ? { total: 2100 } : undefined) });
    const out = await fetchReport(client(svc.url), req());
    expect(out.complete).toBe(false);
    expect(out.totalRecords).toBe(2000);
    expect(out.notes).toEqual([
      'TotalRecords changed from 2000 to 2100 between pages: the data changed while it was read, so records may be missing or repeated; run the report again.',
    ]);
    expect(seqs(out)).toEqual(range(0, 2000));
    expect(svc.requests).toHaveLength(4);
    requestedWindows(svc);
  });

  test('a page longer than Limit: the extra records are dropped, nothing duplicated', async () => {
    const svc = await service({ total: 2000, fault: (r) => (r.offset === 500 ? { extra: 100 } : undefined) });
    const out = await fetchReport(client(svc.url), req());
    expect(out.complete).toBe(false);
    expect(out.notes).toEqual([
      'The page at Offset 500 returned 600 records for Limit 500; the extra 100 were dropped to avoid duplicates.',
    ]);
    expect(seqs(out)).toEqual(range(0, 2000));
    expect(requestedWindows(svc)).toEqual([
      [0, 500],
      [500, 1000],
      [1000, 1500],
      [1500, 2000],
    ]);
  });

  test('page 0 longer than Limit: the next page still starts at its Limit, no gap', async () => {
    const svc = await service({ total: 2000, fault: (r) => (r.offset === 0 ? { extra: 100 } : undefined) });
    const out = await fetchReport(client(svc.url), req());
    expect(out.complete).toBe(false);
    expect(out.notes).toEqual([
      'The page at Offset 0 returned 600 records for Limit 500; the extra 100 were dropped to avoid duplicates.',
    ]);
    expect(seqs(out)).toEqual(range(0, 2000));
    expect(requestedWindows(svc)).toEqual([
      [0, 500],
      [500, 1000],
      [1000, 1500],
      [1500, 2000],
    ]);
  });
});

describe('no PagingMetadata: a sequential walk until a short page', () => {
  test('walks one page at a time and learns the total from the short page', async () => {
    const svc = await service({ total: 1234, noPaging: true, latencyMs: 5 });
    const out = await fetchReport(client(svc.url), req());
    expect(out).toMatchObject({ totalRecords: 1234, complete: true, notes: [], requests: 3 });
    expect(seqs(out)).toEqual(range(0, 1234));
    expect(svc.requests.map((r) => r.offset)).toEqual([0, 500, 1000]);
    expect(svc.maxInFlight).toBe(1);
    for (let i = 1; i < svc.requests.length; i++)
      expect(svc.requests[i].at).toBeGreaterThanOrEqual(svc.requests[i - 1].endedAt!);
  });

  test('a total that is a multiple of the page size ends on an empty page', async () => {
    const svc = await service({ total: 1000, noPaging: true });
    const out = await fetchReport(client(svc.url), req());
    expect(out).toMatchObject({ totalRecords: 1000, complete: true, notes: [] });
    expect(svc.requests.map((r) => [r.offset, r.limit])).toEqual([
      [0, 500],
      [500, 500],
      [1000, 500],
    ]);
  });

  test('stops at maxRecords and says more may exist', async () => {
    const svc = await service({ total: 5000, noPaging: true });
    const out = await fetchReport(client(svc.url), req({ maxRecords: 1100 }));
    expect(svc.requests.map((r) => [r.offset, r.limit])).toEqual([
      [0, 500],
      [500, 500],
      [1000, 500],
    ]);
    expect(seqs(out)).toEqual(range(0, 1100));
    expect(out).toMatchObject({ totalRecords: null, complete: false });
    expect(out.notes).toEqual([
      'The service sent no TotalRecords; 1100 records were fetched, the cap of 1100 was reached and more may exist.',
    ]);
  });

  test('a failed page ends the walk with a note', async () => {
    const svc = await service({
      total: 5000,
      noPaging: true,
      fault: (r) => (r.offset === 1000 ? { status: 500, body: 'oops', contentType: 'text/plain' } : undefined),
    });
    const out = await fetchReport(client(svc.url), req());
    expect(seqs(out)).toEqual(range(0, 1000));
    expect(svc.requests.map((r) => r.offset)).toEqual([0, 500, 1000]);
    expect(out).toMatchObject({ totalRecords: null, complete: false });
    expect(out.notes).toEqual([
      "500 records in 1 page (from Offset 1000) were not fetched: /CarSegmentsByDate answered HTTP 500. The service failed; this is not caused by the request. The body (text/plain) begins: 'oops'. continue_report fetches them.",
    ]);
  });
});

describe('continue (held): only the missing ranges', () => {
  test('after a cap: fetches from where it stopped', async () => {
    const svc = await service({ total: 5000 });
    const out = await fetchReport(
      client(svc.url),
      req({ held: { intervals: [{ offset: 0, count: 1234 }], totalRecords: 5000 } }),
    );
    expect(svc.requests.map((r) => r.offset).sort((a, b) => a - b)).toEqual([
      1234, 1734, 2234, 2734, 3234, 3734, 4234, 4734,
    ]);
    expect(svc.requests[0].offset).toBe(1234);
    expect(requestedWindows(svc).at(-1)).toEqual([4734, 5234]);
    expect(seqs(out)).toEqual(range(1234, 5000));
    expect(out).toMatchObject({ totalRecords: 5000, complete: true, notes: [] });
  });

  test('holes in the middle and at the start are filled; held records a constant Limit brings along are dropped', async () => {
    const svc = await service({ total: 3000 });
    const held = [
      { offset: 500, count: 500 },
      { offset: 1500, count: 700 },
      { offset: 2900, count: 100 },
    ];
    const out = await fetchReport(client(svc.url), req({ held: { intervals: held, totalRecords: 3000 } }));
    expect(requestedWindows(svc)).toEqual([
      [0, 500],
      [1000, 1500],
      [2200, 2700],
      [2700, 3200],
    ]);
    expect(svc.requests[0].offset).toBe(0);
    expect(seqs(out)).toEqual([...range(0, 500), ...range(1000, 1500), ...range(2200, 2900)]);
    expect(out).toMatchObject({ complete: true, notes: [] });
  });

  test('after failed pages: fetches just those pages', async () => {
    const svc = await service({ total: 2000 });
    const held = [
      { offset: 0, count: 1000 },
      { offset: 1500, count: 500 },
    ];
    const out = await fetchReport(client(svc.url), req({ held: { intervals: held, totalRecords: 2000 } }));
    expect(svc.requests.map((r) => [r.offset, r.limit])).toEqual([[1000, 500]]);
    expect(seqs(out)).toEqual(range(1000, 1500));
    expect(out).toMatchObject({ complete: true, notes: [] });
  });

  test('TotalRecords changed since the result was first fetched', async () => {
    const svc = await service({ total: 2600 });
    const out = await fetchReport(
      client(svc.url),
      req({ held: { intervals: [{ offset: 0, count: 1000 }], totalRecords: 2500 } }),
    );
    expect(out.complete).toBe(false);
    expect(out.totalRecords).toBe(2600);
    expect(out.notes).toEqual([
      'TotalRecords changed from 2500 (when the result was first fetched) to 2600: the data changed in between; run the report again for a consistent snapshot.',
    ]);
    expect(requestedWindows(svc)).toEqual([
      [1000, 1500],
      [1500, 2000],
      [2000, 2500],
      [2500, 3000],
    ]);
    expect(seqs(out)).toEqual(range(1000, 2600));
  });

  test('a continue still honours maxRecords', async () => {
    const svc = await service({ total: 5000 });
    const out = await fetchReport(
      client(svc.url),
      req({ maxRecords: 700, held: { intervals: [{ offset: 0, count: 1234 }], totalRecords: 5000 } }),
    );
    expect(svc.requests.map((r) => [r.offset, r.limit]).sort((a, b) => a[0] - b[0])).toEqual([
      [1234, 500],
      [1734, 500],
    ]);
    expect(out.complete).toBe(false);
    expect(out.notes).toEqual([
      'Fetched 1934 of 5000 records: the cap of 700 records per call (maxRecords / REPORTS_MAX_RECORDS) was reached. continue_report fetches the remaining 3066; or narrow the filters.',
    ]);
  });
});

describe('interval helpers', () => {
  test('mergeIntervals sorts, joins overlapping and adjacent runs, drops empty ones', () => {
    expect(
      mergeIntervals([
        { offset: 500, count: 100 },
        { offset: 0, count: 500 },
        { offset: 550, count: 100 },
        { offset: 900, count: 0 },
        { offset: 1000, count: 5 },
      ]),
    ).toEqual([
      { offset: 0, count: 650 },
      { offset: 1000, count: 5 },
    ]);
  });

  test('gaps lists what [0, total) lacks', () => {
    expect(gaps([], 10)).toEqual([{ offset: 0, count: 10 }]);
    expect(
      gaps(
        [
          { offset: 2, count: 3 },
          { offset: 7, count: 10 },
        ],
        10,
      ),
    ).toEqual([
      { offset: 0, count: 2 },
      { offset: 5, count: 2 },
    ]);
    expect(gaps([{ offset: 0, count: 10 }], 10)).toEqual([]);
  });
});

describe('transactions without paging, and services that ignore Offset', () => {
  test('paged: false sends one request without Offset/Limit and takes the answer whole, within the cap', async () => {
    const svc = await service({ total: 1200, noPaging: true });
    const out = await fetchReport(client(svc.url), req({ paged: false, maxRecords: 1000, pageSize: 2000 }));
    expect(svc.requests).toHaveLength(1);
    expect(svc.requests[0].url).not.toMatch(/Offset|Limit/);
    // The test service answers Limit 100 by default without a Limit: 100 records, all of them.
    expect(out).toMatchObject({ totalRecords: 100, complete: true, notes: [] });
    expect(seqs(out)).toEqual(range(0, 100));
  });

  test('a page that repeats the previous one stops the walk instead of collecting copies', async () => {
    const samePage = JSON.stringify({
      ResponseMetadata: { Success: true, HasCache: false, HasPaging: false },
      ResponseReport: range(0, 50).map((Seq) => ({ Seq })),
    });
    const svc = await service({ total: 50, noPaging: true, fault: () => ({ status: 200, body: samePage }) });
    const out = await fetchReport(client(svc.url), req({ pageSize: 50, maxRecords: 1000 }));
    expect(svc.requests.map((r) => r.offset)).toEqual([0, 50]);
    expect(seqs(out)).toEqual(range(0, 50));
    expect(out.complete).toBe(false);
    expect(out.notes).toEqual([
      "The page at Offset 50 repeated the previous page's records: the service seems to ignore Offset, so only the first 50 records were kept.",
    ]);
  });
});
