/**
 * Notes of this server's own words keep them under REPORTS_REDACT_PII: travellers called Max
 * and Min are masked in every record, and the statement NightsInWindow's note gives (MAX(...),
 * MIN(...)) is not, in the report's answer, query_report's and sql_query's.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type HostileUpstream, startHostileUpstream, window } from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';
import { textOf } from '../helpers/mcp.js';

const day = (m: number, d: number) => `/Date(${Date.UTC(2026, m - 1, d)})/`;
const stay = (ref: number, passenger: string, arrive: number, leave: number) => ({
  ServiceRef: ref,
  RecordLocator: `LOC00${ref}`,
  Account: 'ACME',
  Passenger: passenger,
  StatusCode: 'HK',
  ArrivalDate: day(10, arrive),
  DepartureDate: day(10, leave),
  NbrNights: leave - arrive,
  NbrRooms: 1,
  RateAmount: 100,
  CurrencyCode: 'EUR',
  IsCancelled: false,
});
const stays = [stay(1, 'ROY/MAX MR', 5, 8), stay(2, 'KIM/MIN MS', 12, 14)];

const statement =
  "MAX(0, julianday(MIN(substr(DepartureDate,1,10), '2026-11-01')) - " +
  "julianday(MAX(substr(ArrivalDate,1,10), '2026-10-01')))";

let upstream: HostileUpstream;
let live: LiveServer;
beforeAll(async () => {
  upstream = await startHostileUpstream((req) => ({ body: window(stays, req, true) }));
  live = await startLive(upstream.url, { REPORTS_REDACT_PII: 'true' });
});
afterAll(async () => {
  await live?.close();
  await upstream?.close();
});

test('the nights note keeps MAX( and MIN( where travellers called Max and Min are masked', async () => {
  const r = await live.call('hotel_segments', { DateStart: '20261001', DateEnd: '20261031' });
  expect(r.isError, textOf(r)).toBeFalsy();
  const sc = r.structuredContent as { notes: string[]; rows: unknown[]; resultId: string; table: string };
  // The masker learnt both names: no record shows them.
  expect(sc.rows).toHaveLength(2);
  expect(JSON.stringify(sc.rows)).not.toMatch(/\b(max|min|roy|kim)\b/i);
  const note = sc.notes.find((n) => n.startsWith('NightsInWindow counts nights from 20261001 to 20261031'));
  expect(note).toContain(`sum in sql_query over confirmed stays: ${statement}`);
  expect(textOf(r).split('\n')).toContain(`Note: ${note}`);

  const q = await live.call('query_report', {
    resultId: sc.resultId,
    aggregates: [{ fn: 'sum', field: 'NightsInWindow' }],
  });
  const qc = q.structuredContent as { groups: Array<{ sum_NightsInWindow: number }>; notes: string[] };
  expect(qc.groups[0].sum_NightsInWindow).toBe(5);
  expect(qc.notes).toContain(note);

  const s = await live.call('sql_query', { sql: `SELECT SUM(NightsInWindow) AS n FROM ${sc.table}` });
  expect((s.structuredContent as { notes: string[] }).notes).toContain(note);
});
