/**
 * Days held as the walk meets them (paging/record-pass.ts, heldDays): a top-level field whose
 * every value is sent as midnight with no offset is held as YYYY-MM-DD from its first page on;
 * a field that meets any other value, on whichever page and in whichever order the pages
 * arrive, holds its instants in every record, as writing days after the fetch left it; and a
 * summary that profiled pages as they came (the pinned scope cut them) is made again from
 * what the records then hold.
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

type Rec = Record<string, unknown>;
const ARGS = { DateStart: '20261101', DateEnd: '20261130' };
const RECORDS = 24;
/** A day of November 2026 at a time of day (ms), as the service writes it, and as decoded. */
const sent = (day: number, ms = 0) => `/Date(${Date.UTC(2026, 10, day) + ms})/`;
const instant = (day: number, ms = 0) => new Date(Date.UTC(2026, 10, day) + ms).toISOString();
const isoDay = (day: number) => instant(day).slice(0, 10);
const HALF_PAST_TEN = (10 * 60 + 30) * 60_000;

/** The fields whose every value is a day: the server holds them as days, the others as instants. */
const DAY_FIELDS = new Set(['Due', 'Mixed']);

/** Record i, its dates written by `date` (day of November, time of day in ms): Due always a
 *  day; Back a day but in record 21 (the last page); Early an instant in record 0 only; Mixed a
 *  day, but a day written as text in record 13. */
function record(i: number, date: (field: string, day: number, ms?: number) => string): Rec {
  return {
    ServiceRef: i,
    OwningCompanyCode: i % 5 === 1 && i < 12 ? 'TRV9' : 'TRV1',
    Due: date('Due', 1 + (i % 7)),
    Back: i === 21 ? date('Back', 3, HALF_PAST_TEN) : date('Back', 2 + (i % 4)),
    Early: i === 0 ? date('Early', 9, HALF_PAST_TEN) : date('Early', 10 + (i % 3)),
    Mixed: i === 13 ? '2026-11-20' : date('Mixed', 20 + (i % 2)),
    Created: date('Created', 1, i * 61_000 + 1_000),
  };
}

/** Record i as the service sends it. */
const sentRecord = (i: number) => record(i, (_field, day, ms) => sent(day, ms));
/** What the server holds for record i: days where the whole field is days, instants elsewhere. */
const heldRecord = (i: number) =>
  record(i, (field, day, ms) => (DAY_FIELDS.has(field) ? isoDay(day) : instant(day, ms)));

/** Pages of 4, answered later the earlier they are: the last pages arrive (and are walked) first. */
async function serve(): Promise<HostileUpstream> {
  const records = Array.from({ length: RECORDS }, (_, i) => sentRecord(i));
  return startHostileUpstream(async (req) => {
    await new Promise((resolve) => setTimeout(resolve, req.offset === 0 ? 0 : 5 * (RECORDS - req.offset)));
    return { body: window(records, req, true) };
  });
}

interface Answer {
  resultId: string;
  resourceUri: string;
  fetchedRecords: number;
  notes: string[];
  summary: { fields: Record<string, Rec> };
}

/** The records held, in the service's order, with only the fields sent (not the derived ones). */
async function held(answer: Answer): Promise<Rec[]> {
  const records = await readAllRecords(live!.client, answer.resourceUri);
  return records.map((r) => Object.fromEntries(Object.keys(sentRecord(0)).map((k) => [k, r[k]])));
}

describe('days held as they are walked', () => {
  test('a field of days throughout is days; one meeting another value on any page keeps its instants', async () => {
    upstream = await serve();
    live = await startLive(upstream.url, { REPORTS_PAGE_SIZE: '4' });
    const result = await live.call('air_segments_by_date', ARGS);
    expect(result.isError, textOf(result).slice(0, 300)).toBeFalsy();
    const answer = result.structuredContent as unknown as Answer;
    expect(answer.fetchedRecords).toBe(RECORDS);
    expect(await held(answer)).toEqual(Array.from({ length: RECORDS }, (_, i) => heldRecord(i)));
    // Due was held as days by the walk; Mixed is written as days after the fetch (its text).
    expect(answer.notes).toContain(
      'Days without a time of day are written YYYY-MM-DD (the service sent midnight with no offset in every value): Due, Mixed.',
    );
    const { fields } = answer.summary;
    expect(fields.Due).toMatchObject({ kind: 'date', distinct: 7, min: '2026-11-01', max: '2026-11-07' });
    expect(fields.Back).toMatchObject({
      kind: 'date',
      distinct: 5,
      min: '2026-11-02T00:00:00.000Z',
      max: '2026-11-05T00:00:00.000Z',
    });
    expect(fields.Early).toMatchObject({
      distinct: 4,
      min: '2026-11-09T10:30:00.000Z',
      max: '2026-11-12T00:00:00.000Z',
    });
    expect(fields.Mixed).toMatchObject({ kind: 'date', distinct: 3, min: '2026-11-20', max: '2026-11-21' });
    // The same records again: grouped by what they hold.
    const q = await live.call('query_report', {
      resultId: answer.resultId,
      groupBy: ['Back'],
      aggregates: [{ fn: 'count' }],
    });
    expect((q.structuredContent as { groups: unknown[] }).groups).toEqual([
      { key: { Back: '2026-11-02T00:00:00.000Z' }, count: 6 },
      { key: { Back: '2026-11-04T00:00:00.000Z' }, count: 6 },
      { key: { Back: '2026-11-05T00:00:00.000Z' }, count: 6 },
      { key: { Back: '2026-11-03T00:00:00.000Z' }, count: 5 },
      { key: { Back: '2026-11-03T10:30:00.000Z' }, count: 1 },
    ]);
  });

  test('pages the pinned scope cut are profiled from the instants their records hold again', async () => {
    upstream = await serve();
    live = await startLive(upstream.url, { REPORTS_PAGE_SIZE: '4', REPORTS_OWNING_COMPANY_CODES: 'TRV1' });
    const result = await live.call('air_segments_by_date', ARGS);
    expect(result.isError, textOf(result).slice(0, 300)).toBeFalsy();
    const answer = result.structuredContent as unknown as Answer;
    const kept = Array.from({ length: RECORDS }, (_, i) => heldRecord(i)).filter((r) => r.OwningCompanyCode === 'TRV1');
    expect(answer.fetchedRecords).toBe(kept.length);
    expect(await held(answer)).toEqual(kept);
    const backs = new Set(kept.map((r) => r.Back));
    // Profiled as the cut pages came, Back counted its days and, later, its instants apart.
    expect(answer.summary.fields.Back).toMatchObject({
      kind: 'date',
      nulls: 0,
      distinct: backs.size,
      min: '2026-11-02T00:00:00.000Z',
      max: '2026-11-05T00:00:00.000Z',
    });
    expect(answer.summary.fields.Due).toMatchObject({ kind: 'date', min: '2026-11-01', max: '2026-11-07' });
  });
});
