/**
 * Result handles through a real MCP client (in-process server in demo mode, sandbox over HTTP
 * on loopback): the text ceiling, eviction under a memory budget, continue_report after a cap
 * and after a time budget, query_report against the sandbox's own records, and PII masking.
 * Every expected value is computed here, directly from sandbox.report(...).
 */

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTransaction } from '../../src/catalog/transactions.js';
import { leftOutNote, STRUCTURED_ROWS_CHAR_LIMIT } from '../../src/presentation/row-budget.js';
import type { ResultStore } from '../../src/results/store.js';
import { travellerNames } from '../../src/results/traveller-names.js';
import { isStandingNote, withDays } from '../helpers/days.js';
import { otherNotes } from '../helpers/derived.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllCsv, readAllRecords } from '../helpers/resources.js';

type Rec = Record<string, unknown>;

const COUPONS = 'TicketCouponsByStatusCode';
const couponQuery = (DateStart: string, DateEnd: string, DateTracker = 'I') => ({
  DateStart,
  DateEnd,
  CouponCodeGroup: 'ALL',
  DateTracker,
});
const ALL_COUPONS = couponQuery('20200101', '20301231');

// ---------- independent readings of the contract ----------

const MIN_VALUE_MS = -62135596800000;

/** `/Date(ms±hhmm)/` -> { ms, offset minutes }, else undefined. */
function serviceDate(value: unknown): { ms: number; offsetMin: number } | undefined {
  const m = typeof value === 'string' ? /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/.exec(value) : null;
  if (!m) return undefined;
  const off = m[2] ?? '+0000';
  const sign = off[0] === '-' ? -1 : 1;
  return { ms: Number(m[1]), offsetMin: sign * (Number(off.slice(1, 3)) * 60 + Number(off.slice(3, 5))) };
}

/** docs/upstream.md, Dates: ISO 8601 keeping the offset, no offset -> Z, MinValue -> null. */
function decodeAll(value: unknown): unknown {
  const d = serviceDate(value);
  if (d) {
    if (d.ms <= MIN_VALUE_MS) return null;
    const wall = new Date(d.ms + d.offsetMin * 60_000).toISOString().slice(0, 23);
    if (d.offsetMin === 0) return `${wall}Z`;
    const abs = Math.abs(d.offsetMin);
    return `${wall}${d.offsetMin < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  }
  if (Array.isArray(value)) return value.map(decodeAll);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, decodeAll(v)]));
  return value;
}

/** The calendar day a record writes (in its own offset), and the UTC day of the same instant. */
function localDay(value: unknown): string {
  const d = serviceDate(value)!;
  return new Date(d.ms + d.offsetMin * 60_000).toISOString().slice(0, 10);
}
function utcDay(value: unknown): string {
  return new Date(serviceDate(value)!.ms).toISOString().slice(0, 10);
}
function instant(value: unknown): number {
  return serviceDate(value)!.ms;
}

async function readJson(s: InProcess, uri: string): Promise<Rec[]> {
  return (await readAllRecords(s.client, uri)) as Rec[];
}

function sc(result: CallToolResult): Rec {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Rec;
}

const couponKey = (r: Rec) => `${r.TktNumber}/${r.CouponSequenceNbr}`;

// ---------- the text ceiling ----------

describe('the text ceiling (100,000 characters) on a 100,000-record result', () => {
  let s: InProcess;
  let id: string;
  const N = 100_000;
  const ACCOUNTS = ['ACME', 'GLOBEX', 'INITECH', 'UMBRELLA', 'STARK'];

  beforeAll(async () => {
    s = await startInProcess();
    // Synthetic records held directly in the store: generating 100,000 real ones takes the
    // sandbox ~10 s, and the ceiling is the renderer's business, not the fetch's.
    const records: Rec[] = [];
    for (let i = 0; i < N; i++) {
      records.push({
        RecordLocator: `L${String(i).padStart(6, '0')}`,
        Account: ACCOUNTS[i % ACCOUNTS.length],
        Passengers: `TRAVELLER${i % 997}/PAX MR`,
        DepartureDate: new Date(Date.UTC(2026, 0, 1) + (i % 365) * 86_400_000).toISOString(),
        CarrierCode: ['BA', 'LH', 'AF', 'KL'][i % 4],
        BoardPoint: ['LHR', 'FRA', 'CDG', 'AMS', 'JFK'][i % 5],
        OffPoint: ['SIN', 'HKG', 'NRT', 'SYD'][i % 4],
        SegmentStatus: i % 10 === 0 ? 'UN' : 'HK',
        FlightNbr: String(100 + (i % 900)),
        Remark: `Long free text remark number ${i} `.repeat(6),
      });
    }
    id = (
      await s.rt.results.put({
        report: 'air_segments_by_date',
        source: 'demo',
        query: { DateStart: '20260101', DateEnd: '20261231' },
        sentQuery: { DateStart: '20260101', DateEnd: '20261231' },
        totalRecords: N,
        complete: true,
        notes: [],
        records,
        held: [{ offset: 0, count: N }],
      })
    ).id;
  });

  afterAll(async () => {
    await s?.close();
  });

  it('continue_report on a complete result with rowLimit 100000: text within the ceiling, says how many rows were left out', async () => {
    const before = s.rt.sandbox!.requests.length;
    const r = await s.call('continue_report', { resultId: id, rowLimit: 100_000 });
    const out = sc(r);
    const text = textOf(r);
    console.error(
      `[results-handles] ceiling: continue_report rowLimit 100000 on ${N} records -> text ${text.length} chars`,
    );
    expect(text.length).toBeLessThanOrEqual(100_000);
    expect(text.length).toBeGreaterThan(90_000); // filled, not cut short
    const m = /([\d,]+) of the 100,000 requested rows were left out to keep this text under 25,000 tokens/.exec(text);
    expect(m, text.slice(-600)).not.toBeNull();
    const leftOut = Number(m![1].replace(/,/g, ''));
    const shown = N - leftOut;
    expect(shown).toBeGreaterThan(100);
    // The rows the text shows are exactly the first `shown` records; structuredContent has the
    // first of them, whole, within its own budget, and says how many it left out.
    const rows = out.rows as Rec[];
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThan(shown);
    expect(JSON.stringify(rows).length).toBeLessThanOrEqual(STRUCTURED_ROWS_CHAR_LIMIT);
    expect(rows.map((x) => x.RecordLocator)).toEqual(
      Array.from({ length: rows.length }, (_, k) => `L${String(k).padStart(6, '0')}`),
    );
    // RecordLocator is one of the report's columns (the catalog puts it last).
    expect(text.split('\n').filter((l) => /^\| .*\| L\d{6} \|/.test(l)).length).toBe(shown);
    expect(text).toContain(`query_report {"resultId":"${id}","offset":${shown}}`);
    expect((out.notes as string[]).filter((note) => !isStandingNote(note))).toEqual([
      'This result was already complete; nothing was fetched.',
      leftOutNote(shown - rows.length, rows.length, 'shown in the text'),
    ]);
    expect(out.complete).toBe(true);
    expect(out.fetchedRecords).toBe(N);
    expect((out.summary as Rec).recordCount).toBe(N);
    expect(s.rt.sandbox!.requests.length).toBe(before); // nothing fetched
  });

  it('query_report with limit 1000 and wide rows: text and structured rows within their ceilings, paged on', async () => {
    const fields = [
      'RecordLocator',
      'Account',
      'Passengers',
      'DepartureDate',
      'BoardPoint',
      'OffPoint',
      'Remark',
      'FlightNbr',
    ];
    const r = await s.call('query_report', {
      resultId: id,
      where: [{ field: 'Account', op: 'eq', value: 'acme' }],
      fields,
      limit: 1000,
    });
    const out = sc(r);
    const text = textOf(r);
    expect(text.length).toBeLessThanOrEqual(100_000);
    expect(out.matched).toBe(N / ACCOUNTS.length);
    const rows = out.rows as Rec[];
    // Wide rows: fewer than 1000 fit in the structured budget; nextOffset continues after them.
    expect(rows.length).toBeLessThan(1000);
    expect(JSON.stringify(rows).length).toBeLessThanOrEqual(STRUCTURED_ROWS_CHAR_LIMIT);
    expect(out.nextOffset).toBe(rows.length);
    expect(rows.map((x) => x.RecordLocator)).toEqual(
      Array.from({ length: rows.length }, (_, k) => `L${String(k * 5).padStart(6, '0')}`),
    );
    expect(otherNotes(out.notes).filter((note) => !isStandingNote(note))).toEqual([
      leftOutNote(1000 - rows.length, rows.length, 'asked for'),
    ]);
    // The text shows the same rows and points at the same next offset.
    expect(text.split('\n').filter((l) => /^\| L\d{6} \|/.test(l)).length).toBe(rows.length);
    expect(text).toContain(`"offset":${rows.length}`);
  });
});

// ---------- eviction ----------

describe('eviction under REPORTS_RESULTS_MAX_MB=1', () => {
  let s: InProcess;

  beforeAll(async () => {
    // The budget counts the results' own measures (test/results/store-memory.test.ts checks
    // them against the heap they occupy).
    s = await startInProcess({ env: { REPORTS_RESULTS_MAX_MB: '1' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  const run = async (from: string, to: string) => {
    const out = sc(await s.call('ticket_coupons_by_status_code', couponQuery(from, to)));
    expect(out.complete).toBe(true);
    return { id: String(out.resultId), count: Number(out.fetchedRecords) };
  };
  const bytesOf = (id: string) => (s.rt.store as ResultStore).list().find((r) => r.id === id)?.bytes ?? 0;
  const MAX = 1024 * 1024;

  it('drops the least recently used result; its id then gives not_found with what to do', async () => {
    const a = await run('20260101', '20260301');
    const b = await run('20260302', '20260430');
    const [ba, bb] = [bytesOf(a.id), bytesOf(b.id)];
    expect(ba + bb).toBeLessThanOrEqual(MAX); // two fit
    const c = await run('20260501', '20260629');
    // A was the oldest and untouched: it is gone; B and C remain.
    expect(
      (s.rt.store as ResultStore)
        .list()
        .map((r) => r.id)
        .sort(),
    ).toEqual([b.id, c.id].sort());
    expect(ba + bb + bytesOf(c.id)).toBeGreaterThan(MAX);
    expect(
      s.logs.some((l) =>
        l.includes(`result ${a.id} (ticket_coupons_by_status_code, ${a.count} records) evicted: budget`),
      ),
    ).toBe(true);

    for (const [tool, args] of [
      ['query_report', { resultId: a.id }],
      ['continue_report', { resultId: a.id }],
    ] as const) {
      const gone = await s.call(tool, args);
      expect(gone.isError).toBe(true);
      const text = textOf(gone);
      expect(text).toBe(
        `${tool} failed (not_found): No result '${a.id}' is held: it was dropped to keep held results within ` +
          'REPORTS_RESULTS_MAX_MB (1 MB), the least recently used first. Run ticket_coupons_by_status_code again ' +
          'for a new resultId.',
      );
    }
    await expect(s.client.readResource({ uri: `reports://results/${a.id}` })).rejects.toThrow(a.id);

    // The newest still answers, over all its records.
    const q = sc(await s.call('query_report', { resultId: c.id, aggregates: [{ fn: 'count' }] }));
    expect(q.matched).toBe(c.count);
    expect((await readJson(s, `reports://results/${c.id}`)).length).toBe(c.count);

    // Least recently USED, not oldest: touch B, add D -> C goes, B stays.
    sc(await s.call('query_report', { resultId: b.id, limit: 1 }));
    const d = await run('20260201', '20260228');
    expect(bytesOf(b.id) + bytesOf(d.id)).toBeLessThanOrEqual(MAX);
    expect(
      (s.rt.store as ResultStore)
        .list()
        .map((r) => r.id)
        .sort(),
    ).toEqual([b.id, d.id].sort());
    expect((await s.call('query_report', { resultId: c.id })).isError).toBe(true);
    expect(sc(await s.call('query_report', { resultId: b.id, limit: 1 })).matched).toBe(b.count);
    expect((s.rt.store as ResultStore).bytes).toBeLessThanOrEqual(MAX);
  });
});

// ---------- continue_report ----------

describe('continue_report after a maxRecords cap', () => {
  let s: InProcess;
  beforeAll(async () => {
    s = await startInProcess({ env: { REPORTS_PAGE_SIZE: '500' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('fetches only the missing records into the same resultId', async () => {
    const sb = s.rt.sandbox!;
    const raw = sb.report(COUPONS, ALL_COUPONS) as Rec[];
    const total = raw.length;
    expect(total).toBeGreaterThan(2_000);

    sb.resetStats();
    const first = sc(await s.call('ticket_coupons_by_status_code', { ...ALL_COUPONS, maxRecords: 1200 }));
    expect(first.complete).toBe(false);
    expect(first.fetchedRecords).toBe(1200);
    expect(first.totalRecords).toBe(total);
    // Wide coupon records may leave a row of the default view out of structuredContent: said so.
    const rowsLeftOut = (note: string) => note.startsWith('structuredContent.rows holds the first ');
    expect(otherNotes(first.notes).filter((note) => !rowsLeftOut(note))).toEqual([
      `Fetched 1200 of ${total} records: the cap of 1200 records per call (maxRecords / REPORTS_MAX_RECORDS) was reached. continue_report fetches the remaining ${total - 1200}; or narrow the filters.`,
    ]);
    const firstRanges = sb.requests
      .filter((q) => q.transaction === COUPONS)
      .map((q) => [q.offset, q.offset + q.limit] as const);
    // Limit is the page size on every page; the last page's records past the cap are dropped.
    expect(firstRanges.sort((x, y) => x[0] - y[0])).toEqual([
      [0, 500],
      [500, 1000],
      [1000, 1500],
    ]);
    const firstKept = [[0, 1200] as const];

    sb.resetStats();
    const next = await s.call('continue_report', { resultId: first.resultId });
    const second = sc(next);
    expect(second.resultId).toBe(first.resultId);
    expect(second.complete).toBe(true);
    expect(otherNotes(second.notes).filter((note) => !rowsLeftOut(note))).toEqual([]);
    expect(second.fetchedRecords).toBe(total);
    expect(textOf(next)).toContain(`${total.toLocaleString('en-US')} records, complete.`);

    const secondRanges = sb.requests
      .filter((q) => q.transaction === COUPONS)
      .map((q) => [q.offset, Math.min(total, q.offset + q.limit)] as const);
    // No record index the first call kept is asked for again.
    for (const [from, to] of secondRanges) {
      for (const [f0, t0] of firstKept) expect(from < t0 && f0 < to, `${from}-${to} overlaps ${f0}-${t0}`).toBe(false);
    }
    expect(secondRanges.reduce((n, [f, t]) => n + (t - f), 0)).toBe(total - 1200);

    const held = await readJson(s, String(second.resourceUri));
    expect(held).toEqual(withDays(raw.map(decodeAll) as Rec[]));
    expect(new Set(held.map(couponKey)).size).toBe(total);

    // Already complete: nothing more is fetched.
    sb.resetStats();
    const again = sc(await s.call('continue_report', { resultId: first.resultId }));
    expect(otherNotes(again.notes).filter((note) => !rowsLeftOut(note))).toEqual([
      'This result was already complete; nothing was fetched.',
    ]);
    expect(sb.requests.length).toBe(0);
  });
});

describe('continue_report after the time budget ran out', () => {
  let s: InProcess;
  beforeAll(async () => {
    // Every page takes >= 400 ms and 4 run at once: page 0 by ~400 ms, four more by ~800 ms,
    // the rest not before 1,200 ms, past the 1,150 ms budget (deterministic: latency is a
    // floor). Each call's first page must come within the budget, or the call fails: 750 ms
    // to spare (550 with 300 and 850 ms, which a loaded machine used up).
    s = await startInProcess({
      env: { REPORTS_PAGE_SIZE: '100', REPORTS_CALL_BUDGET_MS: '1150', REPORTS_CONCURRENCY: '4' },
      sandbox: { latencyMs: 400 },
    });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('returns what it has, marked incomplete with a note; continue_report makes progress without duplicates', async () => {
    const q = couponQuery('20260101', '20260331');
    const raw = s.rt.sandbox!.report(COUPONS, q) as Rec[];
    const total = raw.length;
    expect(total).toBeGreaterThan(500);

    const r = await s.call('ticket_coupons_by_status_code', q);
    let out = sc(r);
    expect(out.complete).toBe(false);
    expect(out.totalRecords).toBe(total);
    const fetched0 = Number(out.fetchedRecords);
    expect(fetched0).toBeGreaterThanOrEqual(100);
    expect(fetched0).toBeLessThan(total);
    const notes = out.notes as string[];
    expect(
      notes.some(
        (n) =>
          n.includes('The time budget of 1150 ms (REPORTS_CALL_BUDGET_MS) ran out') &&
          n.includes('continue_report fetches them'),
      ),
    ).toBe(true);
    expect(textOf(r)).toContain('INCOMPLETE');
    expect(textOf(r)).toContain(`continue_report {"resultId":"${out.resultId}"}`);

    const id = out.resultId;
    let fetched = fetched0;
    for (let i = 0; i < 6 && !out.complete; i++) {
      out = sc(await s.call('continue_report', { resultId: id }));
      expect(out.resultId).toBe(id);
      expect(Number(out.fetchedRecords)).toBeGreaterThan(fetched);
      fetched = Number(out.fetchedRecords);
      const held = await readJson(s, String(out.resourceUri));
      expect(held.length).toBe(fetched);
      expect(new Set(held.map(couponKey)).size).toBe(fetched); // nothing twice
    }
    expect(out.complete).toBe(true);
    expect(otherNotes(out.notes).filter((note) => !isStandingNote(note))).toEqual([]);
    expect(await readJson(s, String(out.resourceUri))).toEqual(withDays(raw.map(decodeAll) as Rec[]));
  });
});

// ---------- query_report against the sandbox's own records ----------

describe('query_report compared with the same computation on the sandbox records', () => {
  let s: InProcess;
  let raw: Rec[];
  let id: string;

  beforeAll(async () => {
    s = await startInProcess();
    raw = s.rt.sandbox!.report(COUPONS, ALL_COUPONS) as Rec[];
    const out = sc(await s.call('ticket_coupons_by_status_code', ALL_COUPONS));
    expect(out.complete).toBe(true);
    expect(out.fetchedRecords).toBe(raw.length);
    id = String(out.resultId);
  });
  afterAll(async () => {
    await s?.close();
  });

  const query = async (args: Rec) => {
    const r = await s.call('query_report', { resultId: id, ...args });
    return sc(r) as {
      matched: number;
      offset: number;
      limit: number;
      nextOffset: number | null;
      rows?: Rec[];
      groups?: Rec[];
      groupCount?: number;
    };
  };
  const matchedBy = async (where: Rec[]) => (await query({ where, limit: 1 })).matched;
  const count = (pred: (r: Rec) => boolean) => raw.filter(pred).length;

  it('date filters: a YYYY-MM-DD / YYYYMMDD value is the calendar day the record writes; a full ISO value is an instant', async () => {
    // A coupon issued at +08:00 before 08:00 local: its own day is one after its UTC day, so
    // the two readings of "before day D" differ on it.
    const pivot = raw.find(
      (r) => localDay(r.VndIssueDt) !== utcDay(r.VndIssueDt) && String(r.VndIssueDt).includes('+'),
    )!;
    expect(pivot).toBeDefined();
    const day = localDay(pivot.VndIssueDt);
    const expectedLt = count((r) => localDay(r.VndIssueDt) < day);
    expect(expectedLt).not.toBe(count((r) => utcDay(r.VndIssueDt) < day)); // the test can tell them apart
    expect(await matchedBy([{ field: 'VndIssueDt', op: 'lt', value: day }])).toBe(expectedLt);
    expect(await matchedBy([{ field: 'VndIssueDt', op: 'lt', value: day.replace(/-/g, '') }])).toBe(expectedLt);
    expect(await matchedBy([{ field: 'VndIssueDt', op: 'gte', value: day }])).toBe(raw.length - expectedLt);
    expect(await matchedBy([{ field: 'VndIssueDt', op: 'eq', value: day }])).toBe(
      count((r) => localDay(r.VndIssueDt) === day),
    );

    // A range [2026-03-01, 2026-04-01) in days, and the same bounds as instants.
    const inDays = count((r) => localDay(r.VndIssueDt) >= '2026-03-01' && localDay(r.VndIssueDt) < '2026-04-01');
    expect(
      await matchedBy([
        { field: 'VndIssueDt', op: 'gte', value: '2026-03-01' },
        { field: 'VndIssueDt', op: 'lt', value: '20260401' },
      ]),
    ).toBe(inDays);
    const from = Date.parse('2026-03-01T00:00:00Z');
    const to = Date.parse('2026-04-01T06:30:00+08:00');
    const inInstants = count((r) => instant(r.VndIssueDt) >= from && instant(r.VndIssueDt) < to);
    expect(inInstants).toBeGreaterThan(0);
    expect(inInstants).not.toBe(inDays);
    expect(
      await matchedBy([
        { field: 'VndIssueDt', op: 'gte', value: '2026-03-01T00:00:00Z' },
        { field: 'VndIssueDt', op: 'lt', value: '2026-04-01T06:30:00+08:00' },
      ]),
    ).toBe(inInstants);
    // The pivot's exact instant, written in another zone, is found by eq and excluded by gt.
    const at = new Date(instant(pivot.VndIssueDt)).toISOString();
    expect(
      await matchedBy([
        { field: 'VndIssueDt', op: 'gte', value: at },
        { field: 'VndIssueDt', op: 'lte', value: at },
      ]),
    ).toBe(count((r) => instant(r.VndIssueDt) === instant(pivot.VndIssueDt)));
  });

  it('in, contains, startsWith, exists and numeric comparisons', async () => {
    expect(await matchedBy([{ field: 'Account', op: 'in', value: ['acme', 'WAYNE', 'nobody'] }])).toBe(
      count((r) => r.Account === 'ACME' || r.Account === 'WAYNE'),
    );
    expect(await matchedBy([{ field: 'CouponSequenceNbr', op: 'in', value: [2, '3'] }])).toBe(
      count((r) => ['2', '3'].includes(String(r.CouponSequenceNbr))),
    );
    expect(await matchedBy([{ field: 'FareBasis', op: 'contains', value: 'flex' }])).toBe(
      count((r) => String(r.FareBasis).toLowerCase().includes('flex')),
    );
    expect(await matchedBy([{ field: 'Passenger', op: 'contains', value: 'smith/' }])).toBe(
      count((r) => String(r.Passenger).toLowerCase().includes('smith/')),
    );
    expect(await matchedBy([{ field: 'BoardPoint', op: 'startsWith', value: 's' }])).toBe(
      count((r) => String(r.BoardPoint).startsWith('S')),
    );
    const withTax5 = count((r) => r.Tax5Code !== undefined && r.Tax5Code !== '');
    expect(withTax5).toBeGreaterThan(0);
    expect(withTax5).toBeLessThan(raw.length);
    expect(await matchedBy([{ field: 'Tax5Code', op: 'exists', value: true }])).toBe(withTax5);
    expect(await matchedBy([{ field: 'Tax5Code', op: 'exists', value: false }])).toBe(raw.length - withTax5);
    expect(await matchedBy([{ field: 'ExchangedForTicket', op: 'exists', value: true }])).toBe(
      count((r) => !!r.ExchangedForTicket),
    );
    expect(await matchedBy([{ field: 'FOPFare', op: 'gt', value: 1000 }])).toBe(count((r) => Number(r.FOPFare) > 1000));
    expect(await matchedBy([{ field: 'FOPFare', op: 'lte', value: '250.5' }])).toBe(
      count((r) => Number(r.FOPFare) <= 250.5),
    );
    expect(await matchedBy([{ field: 'FlightCouponStatus', op: 'ne', value: 'used' }])).toBe(
      count((r) => r.FlightCouponStatus !== 'USED'),
    );
    // Combined: all must hold.
    expect(
      await matchedBy([
        { field: 'Account', op: 'eq', value: 'wayne' },
        { field: 'FlightCouponStatus', op: 'in', value: ['OPEN', 'EXCH'] },
        { field: 'FOPFare', op: 'gte', value: 500 },
      ]),
    ).toBe(
      count(
        (r) =>
          r.Account === 'WAYNE' && ['OPEN', 'EXCH'].includes(String(r.FlightCouponStatus)) && Number(r.FOPFare) >= 500,
      ),
    );
    // Through a list of objects: any item.
    const cf = String((raw[0].CustomFields as Rec[])[0].FieldValue);
    expect(await matchedBy([{ field: 'CustomFields.FieldValue', op: 'eq', value: cf.toLowerCase() }])).toBe(
      count((r) => (r.CustomFields as Rec[]).some((f) => String(f.FieldValue).toLowerCase() === cf.toLowerCase())),
    );
  });

  it('orderBy with fields, and offset/limit/nextOffset paging through every match', async () => {
    const idx = raw.map((r, i) => ({ r, i }));
    const byFare = idx
      .filter(({ r }) => r.Account === 'WAYNE')
      .sort((a, b) => Number(b.r.FOPFare) - Number(a.r.FOPFare) || a.i - b.i)
      .map(({ r }) => ({ TktNumber: r.TktNumber, CouponSequenceNbr: r.CouponSequenceNbr, FOPFare: r.FOPFare }));
    expect(byFare.length).toBeGreaterThan(150);
    const pages: Rec[] = [];
    let offset: number | null = 0;
    let calls = 0;
    while (offset !== null) {
      const out = await query({
        where: [{ field: 'Account', op: 'eq', value: 'Wayne' }],
        orderBy: [{ field: 'FOPFare', direction: 'desc' }],
        fields: ['TktNumber', 'CouponSequenceNbr', 'FOPFare'],
        offset,
        limit: 50,
      });
      expect(out.matched).toBe(byFare.length);
      expect(out.offset).toBe(offset);
      expect(out.limit).toBe(50);
      pages.push(...out.rows!);
      offset = out.nextOffset;
      expect(offset).toBe(pages.length < byFare.length ? pages.length : null);
      calls++;
    }
    expect(calls).toBe(Math.ceil(byFare.length / 50));
    expect(pages).toEqual(byFare);

    // Two keys: Account asc, then issue instant desc; the first 200 rows.
    const two = idx
      .sort(
        (a, b) =>
          (a.r.Account === b.r.Account ? 0 : String(a.r.Account) < String(b.r.Account) ? -1 : 1) ||
          instant(b.r.VndIssueDt) - instant(a.r.VndIssueDt) ||
          a.i - b.i,
      )
      .slice(0, 200)
      .map(({ r }) => ({ Account: r.Account, TktNumber: r.TktNumber, VndIssueDt: decodeAll(r.VndIssueDt) }));
    const out = await query({
      orderBy: [{ field: 'Account' }, { field: 'VndIssueDt', direction: 'desc' }],
      fields: ['Account', 'TktNumber', 'VndIssueDt'],
      limit: 200,
    });
    expect(out.rows).toEqual(two);
    expect(out.nextOffset).toBe(200);
  });

  it('groups: per-month counts and sums over a date filter', async () => {
    const where = [{ field: 'VndIssueDt', op: 'gte', value: '2026-06-01' }];
    const out = await query({
      where,
      groupBy: ['VndIssueDt:month', 'FlightCouponStatus'],
      aggregates: [
        { fn: 'sum', field: 'TotalTax' },
        { fn: 'max', field: 'FOPFare' },
      ],
      limit: 1000,
    });
    const expected = new Map<string, { count: number; cents: number; max: number; tickets: Set<unknown> }>();
    for (const r of raw) {
      if (localDay(r.VndIssueDt) < '2026-06-01') continue;
      const k = `${localDay(r.VndIssueDt).slice(0, 7)}|${r.FlightCouponStatus}`;
      const g = expected.get(k) ?? { count: 0, cents: 0, max: -Infinity, tickets: new Set() };
      g.count++;
      // A ticket's taxes repeat on each of its coupons: a group counts them once per ticket.
      if (!g.tickets.has(r.TktNumber)) g.cents += Math.round(Number(r.TotalTax) * 100);
      g.tickets.add(r.TktNumber);
      g.max = Math.max(g.max, Number(r.FOPFare));
      expected.set(k, g);
    }
    expect(out.groupCount).toBe(expected.size);
    expect(out.matched).toBe([...expected.values()].reduce((n, g) => n + g.count, 0));
    for (const g of out.groups!) {
      const key = g.key as Rec;
      const want = expected.get(`${key['VndIssueDt:month']}|${key.FlightCouponStatus}`)!;
      expect(want).toBeDefined();
      expect(g.count).toBe(want.count);
      expect(Math.abs(Number(g.sum_TotalTax) - want.cents / 100)).toBeLessThanOrEqual(0.01);
      expect(g.max_FOPFare).toBe(want.max);
    }
  });

  it('dot paths into nested records: pnr_segments Summary.RecordLocator and segment lists', async () => {
    const locators = [...new Set(raw.slice(0, 40).map((r) => String(r.RecordLocator)))].slice(0, 3);
    for (const loc of locators) {
      const nested = s.rt.sandbox!.report('PNRSegments', { RecordLocator: loc }) as Rec[];
      expect(nested.length).toBe(1);
      const rec = nested[0] as {
        Summary: { RecordLocator: string; Tickets: Array<{ TktNumber: string }> };
        Segments: { AirSegments: Array<{ BoardPoint: string }> };
      };
      const out = sc(await s.call('pnr_segments', { RecordLocator: loc }));
      const pid = out.resultId;
      const q = async (args: Rec) =>
        sc(await s.call('query_report', { resultId: pid, ...args })) as { matched: number; rows: Rec[] };
      expect(
        (await q({ where: [{ field: 'Summary.RecordLocator', op: 'eq', value: loc.toLowerCase() }] })).matched,
      ).toBe(1);
      expect((await q({ where: [{ field: 'Summary.RecordLocator', op: 'ne', value: loc }] })).matched).toBe(0);
      const board = rec.Segments.AirSegments[rec.Segments.AirSegments.length - 1]?.BoardPoint;
      if (board)
        expect(
          (await q({ where: [{ field: 'Segments.AirSegments.BoardPoint', op: 'eq', value: board }] })).matched,
        ).toBe(1);
      expect((await q({ where: [{ field: 'Segments.AirSegments.BoardPoint', op: 'eq', value: 'ZZZ' }] })).matched).toBe(
        0,
      );
      const rows = (await q({ fields: ['Summary.RecordLocator', 'summary.tickets.tktnumber'] })).rows;
      expect(rows).toEqual([
        {
          'Summary.RecordLocator': rec.Summary.RecordLocator,
          'Summary.Tickets.TktNumber': rec.Summary.Tickets.map((t) => t.TktNumber),
        },
      ]);
    }

    // Many nested records: passenger_locations_by_routing, any itinerary item / any passenger.
    const params = { DateStart: '20261101', DateEnd: '20261130' };
    const locs = s.rt.sandbox!.report('PassengerLocationsByRouting', params) as Array<
      Rec & { Itinerary: Rec[]; PassengerInfo: Rec[] }
    >;
    const out = sc(await s.call('passenger_locations_by_routing', params));
    expect(out.fetchedRecords).toBe(locs.length);
    const pid = out.resultId;
    const matched = async (where: Rec[]) =>
      (sc(await s.call('query_report', { resultId: pid, where, limit: 1 })) as { matched: number }).matched;
    expect(await matched([{ field: 'Itinerary.SegmentType', op: 'eq', value: 'htl' }])).toBe(
      locs.filter((r) => r.Itinerary.some((i) => i.SegmentType === 'HTL')).length,
    );
    const names = [...new Set(locs.slice(0, 10).map((r) => String(r.PassengerInfo[0].LastName)))];
    expect(await matched([{ field: 'PassengerInfo.LastName', op: 'in', value: names }])).toBe(
      locs.filter((r) => r.PassengerInfo.some((p) => names.includes(String(p.LastName)))).length,
    );
    expect(await matched([{ field: 'Itinerary.StartDate', op: 'gte', value: '2026-11-20' }])).toBe(
      locs.filter((r) => r.Itinerary.some((i) => typeof i.StartDate === 'string' && i.StartDate >= '2026-11-20'))
        .length,
    );
  });

  it('a report call with fields: structuredContent rows carry the same columns the text shows', async () => {
    const r = await s.call('ticket_coupons_by_status_code', {
      ...ALL_COUPONS,
      fields: ['account', 'FOPFare', 'CustomFields.FieldName'],
      rowLimit: 3,
    });
    const out = sc(r);
    expect(out.rows).toEqual(
      raw.slice(0, 3).map((x) => ({
        Account: x.Account,
        FOPFare: x.FOPFare,
        'CustomFields.FieldName': (x.CustomFields as Rec[]).map((f) => f.FieldName),
      })),
    );
    const text = textOf(r);
    expect(text).toContain('(columns: Account, FOPFare, CustomFields.FieldName)');
    expect(text).toContain(
      `${raw[0].Account} | ${raw[0].FOPFare} | ${(raw[0].CustomFields as Rec[]).map((f) => f.FieldName).join(', ')}`,
    );
  });

  it('an unknown field is an invalid argument naming it, and a nearby field', async () => {
    const r = await s.call('query_report', { resultId: id, where: [{ field: 'Acount', op: 'eq', value: 'ACME' }] });
    expect(r.isError).toBe(true);
    expect(textOf(r)).toContain("'Acount'");
    expect(textOf(r)).toContain('Account');
  });
});

// ---------- PII ----------

const NAME_FIELD = /^(passenger|passengers|paxlist|primarypax|firstname|lastname|bookedinname|paxsurname)$/i;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+/g;
const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'MSTR', 'DR', 'PROF']);

interface Pii {
  /** Names as the service writes them (SMITH/JOHN MR) and their plain forms (SMITH/JOHN, JOHN SMITH). */
  names: Set<string>;
  surnames: Set<string>;
  emails: Set<string>;
  /** Digits only. */
  phones: Set<string>;
}

/** The travellers' names, e-mails and phone numbers in the sandbox's own records. */
function collectPii(records: unknown[]): Pii {
  const pii: Pii = { names: new Set(), surnames: new Set(), emails: new Set(), phones: new Set() };
  // key: the field holding v (list items inherit their list's); parent: the field whose object holds it.
  const walk = (v: unknown, key: string, parent: string): void => {
    if (typeof v === 'string') {
      if (NAME_FIELD.test(key) && v.trim() && !/^firstname$/i.test(key)) {
        if (/^lastname$/i.test(key)) pii.surnames.add(v.trim());
        for (const one of v.split(/\s*[,;]\s*/)) {
          const [last, first] = one.split('/');
          if (first === undefined) continue;
          const given = first
            .split(/\s+/)
            .filter((w) => w && !TITLES.has(w.toUpperCase()))
            .join(' ');
          pii.names.add(one.trim());
          pii.names.add(`${last}/${given}`);
          pii.names.add(`${given} ${last}`);
          pii.surnames.add(last.trim());
        }
      }
      for (const e of v.match(EMAIL) ?? []) pii.emails.add(e);
      if (/^(phonenbr|ctcm|mobile|phone|phonenumber)$/i.test(key) || (parent === 'Phones' && key === 'Number')) {
        const digits = v.replace(/\D/g, '');
        if (digits.length >= 8) pii.phones.add(digits);
      }
      return;
    }
    if (Array.isArray(v)) {
      for (const x of v) walk(x, key, parent);
      return;
    }
    if (v !== null && typeof v === 'object') {
      const o = v as Rec;
      // Booking passengers: { FirstName: 'JOHN MR', LastName: 'SMITH' }.
      if (typeof o.FirstName === 'string' && typeof o.LastName === 'string')
        walk(`${o.LastName}/${o.FirstName}`, 'Passenger', key);
      for (const [k, x] of Object.entries(o)) walk(x, k, key);
    }
  };
  for (const r of records) walk(r, '', '');
  return pii;
}

/**
 * Agency staff, companies and hotels are not travellers, but the sandbox draws their names
 * from the same pools ('Arjun Watson' the consultant, WATSON/ARJUN the traveller): those
 * full names and words are left out of the check, which stays exact for everything else.
 */
function notTravellers(records: Rec[]): { names: Set<string>; words: Set<string> } {
  const names = new Set<string>();
  const words = new Set<string>();
  for (const r of records) {
    for (const k of ['OwningConsultant', 'Consultant', 'CompanyName', 'HotelsNames']) {
      const v = String(r[k] ?? '').toUpperCase();
      if (!v) continue;
      names.add(v);
      for (const w of v.split(/[^A-Z]+/)) if (w) words.add(w);
    }
  }
  return { names, words };
}

const escapeRegex = (x: string) => x.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** A finder of every traveller name, surname, e-mail and phone number in a text (one regex
 *  pass per kind: the outputs run to megabytes). */
function leakFinder(pii: Pii, staff: { names: Set<string>; words: Set<string> }): (text: string) => string[] {
  const names = [...pii.names].map((n) => n.toUpperCase()).filter((n) => !staff.names.has(n));
  const surnames = [...pii.surnames].map((n) => n.toUpperCase()).filter((n) => n.length >= 3 && !staff.words.has(n));
  const byLength = (a: string, b: string) => b.length - a.length;
  const nameRe = new RegExp(names.sort(byLength).map(escapeRegex).join('|'), 'g');
  const surnameRe = new RegExp(
    `(?<![A-Z0-9])(?:${surnames.sort(byLength).map(escapeRegex).join('|')})(?![A-Z0-9])`,
    'g',
  );
  const emails = [...pii.emails].map((e) => e.toLowerCase());
  const emailRe = emails.length ? new RegExp(emails.sort(byLength).map(escapeRegex).join('|'), 'g') : null;
  const phoneRe = pii.phones.size ? new RegExp([...pii.phones].sort(byLength).join('|'), 'g') : null;
  return (text) => {
    const upper = text.toUpperCase();
    const found = new Set<string>();
    for (const m of upper.match(nameRe) ?? []) found.add(`name ${m}`);
    for (const m of upper.match(surnameRe) ?? []) found.add(`surname ${m}`);
    for (const m of (emailRe && text.toLowerCase().match(emailRe)) ?? []) found.add(`email ${m}`);
    for (const m of (phoneRe && text.replace(/[ ().+-]/g, '').match(phoneRe)) ?? []) found.add(`phone ${m}`);
    return [...found];
  };
}

describe('REPORTS_REDACT_PII=true: no traveller name, e-mail or phone in anything returned', () => {
  let s: InProcess;
  beforeAll(async () => {
    s = await startInProcess({ env: { REPORTS_REDACT_PII: 'true' } });
  });
  afterAll(async () => {
    await s?.close();
  });

  const CASES: Array<{
    tool: string;
    transaction: string;
    args: Record<string, unknown>;
    upstream: Record<string, string>;
    groupField: string;
    contacts: boolean;
  }> = [
    {
      tool: 'passenger_locations_by_routing',
      transaction: 'PassengerLocationsByRouting',
      args: { DateStart: '20261101', DateEnd: '20261130' },
      upstream: { DateStart: '20261101', DateEnd: '20261130' },
      groupField: 'PaxList',
      contacts: true,
    },
    {
      tool: 'air_segments_by_date',
      transaction: 'AirSegmentsByDate',
      args: { DateStart: '20261001', DateEnd: '20261130' },
      upstream: { DateStart: '20261001', DateEnd: '20261130' },
      groupField: 'Passengers',
      contacts: false,
    },
    {
      tool: 'ticket_coupons_by_status_code',
      transaction: COUPONS,
      args: couponQuery('20260601', '20261231'),
      upstream: couponQuery('20260601', '20261231'),
      groupField: 'Passenger',
      contacts: false,
    },
    {
      tool: 'booking_details',
      transaction: 'BookingDetails',
      args: { OwningCompanyCode: ['TRV2'], LoadOptions: ['All'] },
      upstream: { OwningCompanyCode: 'TRV2', LoadOptions: 'All' },
      groupField: 'CTCE',
      contacts: true,
    },
  ];

  it('one traveller, one mask across results; a name in the query is masked in the echo and still sent for continue_report', async () => {
    const sb = s.rt.sandbox!;
    const all = sb.report(COUPONS, ALL_COUPONS) as Rec[];
    const perSurname = new Map<string, number>();
    for (const r of all) {
      const last = String(r.Passenger).split('/')[0];
      perSurname.set(last, (perSurname.get(last) ?? 0) + 1);
    }
    const staff = notTravellers(all).words;
    const [surname] = [...perSurname]
      .filter(([last, n]) => n >= 5 && n <= 60 && !staff.has(last))
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    const raw = sb.report(COUPONS, { ...ALL_COUPONS, PaxSurname: surname }) as Rec[];
    expect(raw.length).toBeGreaterThanOrEqual(5);
    expect(raw.every((r) => String(r.Passenger).startsWith(`${surname}/`))).toBe(true);

    const first = await s.call('ticket_coupons_by_status_code', { ...ALL_COUPONS, PaxSurname: surname, maxRecords: 2 });
    const out = sc(first);
    expect(out.complete).toBe(false);
    expect(out.fetchedRecords).toBe(2);
    const echoed = (out.query as Record<string, string>).PaxSurname;
    expect(echoed).toMatch(/^Traveller-[0-9a-f]{8}$/);
    const surnameRe = new RegExp(`(?<![A-Z0-9])${surname}(?![A-Z0-9])`, 'i');
    expect(surnameRe.test(textOf(first))).toBe(false);
    expect(surnameRe.test(JSON.stringify(first.structuredContent))).toBe(false);
    sb.resetStats();
    const done = sc(await s.call('continue_report', { resultId: out.resultId }));
    expect(done.complete).toBe(true);
    expect(done.fetchedRecords).toBe(raw.length);
    // The real surname went upstream again (the masked one would have matched nothing).
    const resent = sb.requests.filter((q) => q.transaction === COUPONS);
    expect(resent.length).toBeGreaterThan(0);
    expect(resent.every((q) => q.query.PaxSurname === surname)).toBe(true);
    expect(surnameRe.test(JSON.stringify(done))).toBe(false);
    const coupons = await readJson(s, String(done.resourceUri));
    expect(coupons.map(couponKey)).toEqual(raw.map(couponKey));

    // The same traveller in another report masks to the same text.
    const airRaw = sb.report('AirSegmentsByDate', { DateStart: '20200101', DateEnd: '20301231' }) as Rec[];
    const air = await readJson(
      s,
      String(sc(await s.call('air_segments_by_date', { DateStart: '20200101', DateEnd: '20301231' })).resourceUri),
    );
    expect(air.length).toBe(airRaw.length);
    let joined = 0;
    raw.forEach((c, i) => {
      airRaw.forEach((a, j) => {
        if (a.RecordLocator !== c.RecordLocator || a.Passengers !== c.Passenger) return;
        expect(air[j].Passengers).toBe(coupons[i].Passenger);
        joined++;
      });
    });
    expect(joined).toBeGreaterThan(0);
    // ...and different travellers to different texts.
    expect(new Set(air.map((a) => a.Passengers)).size).toBe(new Set(airRaw.map((a) => a.Passengers)).size);
  });

  for (const c of CASES) {
    it(`${c.tool}: text, structuredContent, query_report, JSON and CSV resources are clean; masks are consistent`, async () => {
      const raw = s.rt.sandbox!.report(c.transaction, c.upstream) as Rec[];
      expect(raw.length).toBeGreaterThan(20);
      const pii = collectPii(raw);
      expect(pii.names.size).toBeGreaterThan(10);
      if (c.contacts) {
        expect(pii.emails.size).toBeGreaterThan(10);
        expect(pii.phones.size).toBeGreaterThan(10);
      }
      const find = leakFinder(pii, notTravellers(raw));
      // The check itself finds what it looks for in unmasked output.
      const unmasked = find(JSON.stringify(raw));
      // (BookingDetails writes names only as FirstName/LastName pairs: its surnames are the check.)
      const kinds = [
        ...(c.transaction === 'BookingDetails' ? [] : ['name']),
        'surname',
        ...(c.contacts ? ['email', 'phone'] : []),
      ];
      for (const kind of kinds) {
        expect(unmasked.filter((l) => l.startsWith(`${kind} `)).length, kind).toBeGreaterThan(5);
      }

      const result = await s.call(c.tool, { ...c.args, rowLimit: 200 });
      const out = sc(result);
      expect(out.fetchedRecords).toBe(raw.length);
      const id = String(out.resultId);
      const held = await readJson(s, String(out.resourceUri));
      const csv = { text: await readAllCsv(s.client, String(out.resourceUri)) };
      const fields = Object.keys(held[0]);
      const grouped = await s.call('query_report', {
        resultId: id,
        groupBy: [c.groupField],
        aggregates: [{ fn: 'count' }],
        limit: 1000,
      });
      const rows = await s.call('query_report', { resultId: id, fields, limit: 1000 });

      const outputs: Record<string, string> = {
        text: textOf(result),
        structuredContent: JSON.stringify(result.structuredContent),
        resourceJson: JSON.stringify(held),
        resourceCsv: csv.text,
        groupedText: textOf(grouped),
        groupedStructured: JSON.stringify(grouped.structuredContent),
        rowsText: textOf(rows),
        rowsStructured: JSON.stringify(rows.structuredContent),
      };
      for (const [where, text] of Object.entries(outputs)) {
        expect(find(text).slice(0, 10), where).toEqual([]);
        expect(text.match(EMAIL) ?? [], where).toEqual([]);
      }

      // Same person, same mask: record by record, raw value <-> masked value is one-to-one,
      // so grouping the masked records gives the unmasked counts. A list of travellers
      // (catalog travellerLists) is grouped a traveller at a time, each masked on its own.
      const perTraveller = findTransaction(c.tool)?.answer.meaning?.travellerLists?.includes(c.groupField) ?? false;
      const valuesOf = (v: unknown) =>
        perTraveller ? [...new Set(travellerNames(String(v ?? '')))] : [String(v ?? '')];
      const toMask = new Map<string, string>();
      const toRaw = new Map<string, string>();
      held.forEach((h, i) => {
        const sent = valuesOf(raw[i][c.groupField]);
        const masked = valuesOf(h[c.groupField]);
        expect(masked.length).toBe(sent.length);
        sent.forEach((from, j) => {
          const to = masked[j];
          if (!from) return;
          expect(to).not.toBe(from);
          expect(toMask.get(from) ?? to).toBe(to);
          expect(toRaw.get(to) ?? from).toBe(from);
          toMask.set(from, to);
          toRaw.set(to, from);
        });
      });
      const rawCounts = new Map<string, number>();
      for (const r of raw)
        for (const v of valuesOf(r[c.groupField])) if (v) rawCounts.set(v, (rawCounts.get(v) ?? 0) + 1);
      // The lists do name several at once: the test can tell a traveller from a list.
      if (perTraveller) expect(raw.some((r) => valuesOf(r[c.groupField]).length > 1)).toBe(true);
      const groups = sc(grouped).groups as Array<{ key: Rec; count: number }>;
      expect(groups.filter((g) => g.key[c.groupField] !== null).length).toBe(rawCounts.size);
      for (const g of groups) {
        if (g.key[c.groupField] === null) continue;
        expect(g.count).toBe(rawCounts.get(toRaw.get(String(g.key[c.groupField]))!));
      }
    });
  }
});
