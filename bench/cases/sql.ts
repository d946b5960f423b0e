/**
 * sql_query's engine (src/sql/) over 100,000 held air segments, in its own process: the
 * time to build a result's tables on first use, the bytes they occupy per record, a
 * group-by and a 100k x 20k join (median ms), and the same group-by by query_report's
 * engine (src/results/query.ts) on the same records, to decide whether one engine could
 * serve both. Records: the sandbox's air segments (realistic accounts, travellers,
 * carriers, dates), each made distinct (own ServiceRef, RecordLocator family, day).
 */

import { runQuery } from '../../src/results/query.js';
import { sharedDataset } from '../../src/sandbox/data.js';
import { airSegmentByDate } from '../../src/sandbox/records.js';
import { SqlEngine, type TableSource } from '../../src/sql/engine.js';
import { decodeDates } from '../../src/upstream/service-date.js';
import { row } from '../stats.js';
import type { CaseInput, CaseOutput } from './context.js';

export const SQL_BENCH = { records: 100_000, joined: 20_000 };

type Rec = Record<string, unknown>;

function airSegments(total: number): Rec[] {
  const base = sharedDataset({ seed: 42, size: 2000, dataNow: new Date('2026-11-15T00:00:00Z') }).airSegments.map(
    (s) => decodeDates(airSegmentByDate(s)) as Rec,
  );
  const out: Rec[] = [];
  for (let i = 0; i < total; i++) {
    const r = base[i % base.length];
    const round = Math.floor(i / base.length);
    out.push({ ...r, ServiceRef: String(10_000_000 + i), RecordLocator: `${r.RecordLocator}${round}` });
  }
  return out;
}

const ms = (start: number) => performance.now() - start;

export async function sqlCase(input: CaseInput): Promise<CaseOutput> {
  const records = airSegments(SQL_BENCH.records);
  const tickets = records
    .slice(0, SQL_BENCH.joined)
    .map((r, i) => ({ TktNumber: String(1_000_000_000 + i), RecordLocator: r.RecordLocator, Account: r.Account }));
  const build: number[] = [];
  const bytesPerRecord: number[] = [];
  const rssPerRecord: number[] = [];
  const groupBy: number[] = [];
  const join: number[] = [];
  const jsGroupBy: number[] = [];
  const limits = { maxRows: 100_000, maxChars: 64_000_000 };
  for (let run = 0; run < input.runs; run++) {
    let bytes = 0;
    const engine = new SqlEngine({ timeoutMs: 600_000, onTableBytes: (id, b) => (bytes += id === 'a' ? b : 0) });
    const a: TableSource = { id: 'a', table: 'air_1', updatedAt: 1, records: async () => records };
    const b: TableSource = { id: 'b', table: 'tickets_2', updatedAt: 1, records: async () => tickets };
    const held = new Set(['a', 'b']);
    try {
      await engine.query('bench', [], held, 'SELECT 1', limits); // the worker and SQLite started
      const rss = process.memoryUsage.rss();
      let t = performance.now();
      await engine.query('bench', [a], held, 'SELECT 1', limits);
      build.push(ms(t));
      // The worker's WASM memory and the copies made while building, as the process sees them.
      rssPerRecord.push((process.memoryUsage.rss() - rss) / SQL_BENCH.records);
      bytesPerRecord.push(bytes / SQL_BENCH.records);
      await engine.query('bench', [b], held, 'SELECT 1', limits);
      t = performance.now();
      const grouped = await engine.query(
        'bench',
        [a],
        held,
        'SELECT CarrierCode, COUNT(*) AS n, COUNT(DISTINCT Passengers) AS travellers FROM air_1 GROUP BY CarrierCode',
        limits,
      );
      groupBy.push(ms(t));
      t = performance.now();
      const joined = await engine.query(
        'bench',
        [a, b],
        held,
        'SELECT a.Account, COUNT(*) AS n FROM air_1 a JOIN tickets_2 t ON t.RecordLocator = a.RecordLocator GROUP BY 1',
        limits,
      );
      join.push(ms(t));
      if (grouped.rows.length < 5 || joined.rows.length < 5) throw new Error('sql bench: unexpected answer');
    } finally {
      await engine.close();
    }
    const t = performance.now();
    runQuery(records, {
      groupBy: ['CarrierCode'],
      aggregates: [{ fn: 'count' }, { fn: 'countDistinct', field: 'Passengers' }],
    });
    jsGroupBy.push(ms(t));
  }
  const c = '7 sql_query 100k held records';
  return {
    rows: [
      row(c, 'build tables on first use (100k records)', 'ms', build),
      row(c, 'engine table bytes per held record', 'bytes', bytesPerRecord),
      row(c, 'process RSS growth per held record while building', 'bytes', rssPerRecord),
      row(c, 'group-by CarrierCode, count, count distinct', 'ms', groupBy),
      row(c, `join 100k x ${SQL_BENCH.joined / 1000}k on RecordLocator, grouped`, 'ms', join),
      row(c, 'same group-by by query_report (JS engine)', 'ms', jsGroupBy),
    ],
  };
}
