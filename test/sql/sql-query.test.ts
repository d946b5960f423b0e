/**
 * sql_query through a real MCP client (in-process server in demo mode, sandbox over HTTP on
 * loopback): a join across two reports and child tables, each checked against answers
 * computed here from the sandbox's own records; refusals before anything runs; a runaway
 * statement stopped while another call answers; incomplete results flagged; rows that do
 * not fit read back as JSON and CSV resource pages; masking in the tables.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResultStore } from '../../src/results/store.js';
import { parseCsv } from '../helpers/csv-parse.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllCsv, readAllRecords } from '../helpers/resources.js';

type Rec = Record<string, unknown>;

const AIR = { DateStart: '20261101', DateEnd: '20261115' };
const COUPONS = { DateStart: '20200101', DateEnd: '20301231', CouponCodeGroup: 'ALL', DateTracker: 'I' };

function ok(result: CallToolResult): Rec {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as Rec;
}

function refusal(result: CallToolResult): string {
  expect(result.isError).toBe(true);
  return textOf(result);
}

describe('sql_query over two held reports', () => {
  let s: InProcess;
  let air: Rec;
  let coupons: Rec;
  beforeAll(async () => {
    s = await startInProcess({ env: { REPORTS_SQL_TIMEOUT_MS: '4000' } });
    air = ok(await s.call('air_segments_by_date', AIR));
    coupons = ok(await s.call('ticket_coupons_by_status_code', COUPONS));
  }, 60_000);
  afterAll(async () => {
    await s?.close();
  });

  it('names each result table: report name and a number per caller', () => {
    expect(air.table).toBe('air_segments_by_date_1');
    expect(coupons.table).toBe('ticket_coupons_by_status_code_2');
  });

  it('joins them on RecordLocator exactly as the sandbox records do', async () => {
    const sb = s.rt.sandbox!;
    const segments = sb.report('AirSegmentsByDate', AIR) as Rec[];
    const allCoupons = sb.report('TicketCouponsByStatusCode', COUPONS) as Rec[];
    const couponsPerLocator = new Map<string, number>();
    for (const c of allCoupons)
      couponsPerLocator.set(String(c.RecordLocator), (couponsPerLocator.get(String(c.RecordLocator)) ?? 0) + 1);
    const expected = new Map<string, number>();
    for (const a of segments) {
      const n = couponsPerLocator.get(String(a.RecordLocator)) ?? 0;
      if (n > 0) expected.set(String(a.RecordLocator), (expected.get(String(a.RecordLocator)) ?? 0) + n);
    }
    expect(expected.size).toBeGreaterThan(3);

    const out = ok(
      await s.call('sql_query', {
        sql:
          'SELECT a.RecordLocator AS loc, COUNT(*) AS pairs FROM air_segments_by_date_1 a ' +
          'JOIN ticket_coupons_by_status_code_2 c ON c.RecordLocator = a.RecordLocator GROUP BY a.RecordLocator ORDER BY loc',
      }),
    );
    expect(out.columns).toEqual(['loc', 'pairs']);
    expect(out.rows).toEqual(
      [...expected].sort(([x], [y]) => (x < y ? -1 : 1)).map(([loc, pairs]) => ({ loc, pairs })),
    );
    expect(out.rowCount).toBe(expected.size);
    expect(out.truncated).toBe(false);
    expect(out.tables).toEqual([
      { table: 'air_segments_by_date_1', resultId: air.resultId, report: 'air_segments_by_date', complete: true },
      {
        table: 'ticket_coupons_by_status_code_2',
        resultId: coupons.resultId,
        report: 'ticket_coupons_by_status_code',
        complete: true,
      },
    ]);
    expect(out.resourceUri).toBeUndefined();
  });

  it('never adds money across currencies: a sum without its currency column is refused before it runs', async () => {
    const refused = refusal(
      await s.call('sql_query', {
        sql: 'SELECT Account, SUM(CreditValue) AS credit FROM ticket_coupons_by_status_code_2 GROUP BY Account',
      }),
    );
    expect(refused).toContain(
      'sums CreditValue without CreditCurrency: amounts in different currencies are never added or compared. ' +
        "Add CreditCurrency to the SELECT and GROUP BY, or keep one currency with WHERE CreditCurrency = '…'; " +
        'nothing was run',
    );
    // Grouped by the currency, the sums are exact per account and currency.
    const sb = s.rt.sandbox!;
    const expected = new Map<string, number>();
    for (const c of sb.report('TicketCouponsByStatusCode', COUPONS) as Rec[]) {
      if (c.CreditValue === undefined || c.CreditValue === null || c.CreditValue === '') continue;
      const key = `${c.Account}|${c.CreditCurrency}`;
      expected.set(key, (expected.get(key) ?? 0) + Math.round(Number(c.CreditValue) * 100));
    }
    const out = ok(
      await s.call('sql_query', {
        sql:
          'SELECT Account, CreditCurrency, SUM(CreditValue) AS credit FROM ticket_coupons_by_status_code_2 ' +
          'WHERE CreditValue IS NOT NULL GROUP BY Account, CreditCurrency',
      }),
    );
    const got = new Map(
      (out.rows as Rec[]).map((r) => [`${r.Account}|${r.CreditCurrency}`, Math.round(Number(r.credit) * 100)]),
    );
    expect(got).toEqual(expected);
  });

  it('money whose record states no currency is totalled with the words saying so', async () => {
    const out = ok(
      await s.call('sql_query', { sql: 'SELECT SUM(FOPFare) AS fares FROM ticket_coupons_by_status_code_2' }),
    );
    expect(out.notes).toContain('FOPFare: currency not stated by the service, so a total of it may mix currencies.');
  });

  it('keeps dates as ISO 8601 text, numbers as numbers', async () => {
    const out = ok(
      await s.call('sql_query', {
        sql: 'SELECT DepartureDate, typeof(DepartureDate) AS t, _row FROM air_segments_by_date_1 ORDER BY _row LIMIT 2',
      }),
    );
    const rows = (air.rows as Rec[]).slice(0, 2);
    expect(out.rows).toEqual([
      { DepartureDate: rows[0].DepartureDate, t: 'text', _row: 1 },
      { DepartureDate: rows[1].DepartureDate, t: 'text', _row: 2 },
    ]);
  });

  it('makes lists inside records child tables linked by _parent: a PNR air segments per carrier', async () => {
    const sb = s.rt.sandbox!;
    const locator = String((air.rows as Rec[])[0].RecordLocator);
    const pnr = ok(await s.call('pnr_segments', { RecordLocator: locator }));
    expect(pnr.table).toBe('pnr_segments_3');
    const [record] = sb.report('PnrSegments', { RecordLocator: locator }) as Rec[];
    const segments = (record.Segments as { AirSegments: Rec[] }).AirSegments;
    const perCarrier = new Map<string, number>();
    for (const seg of segments)
      perCarrier.set(String(seg.CarrierCode), (perCarrier.get(String(seg.CarrierCode)) ?? 0) + 1);

    const out = ok(
      await s.call('sql_query', {
        sql:
          'SELECT p.Summary_RecordLocator AS loc, s.CarrierCode, COUNT(*) AS n FROM pnr_segments_3 p ' +
          'JOIN pnr_segments_3__Segments_AirSegments s ON s._parent = p._row GROUP BY 1, 2 ORDER BY 2',
      }),
    );
    expect(out.rows).toEqual(
      [...perCarrier]
        .sort(([x], [y]) => (x < y ? -1 : 1))
        .map(([CarrierCode, n]) => ({ loc: locator, CarrierCode, n })),
    );
    const seats = ok(
      await s.call('sql_query', { sql: 'SELECT COUNT(*) AS n FROM pnr_segments_3__Segments_AirSegments_SeatingData' }),
    );
    expect(seats.rows).toEqual([
      { n: segments.reduce((sum, seg) => sum + ((seg.SeatingData as Rec[]) ?? []).length, 0) },
    ]);
  });

  it('refuses writes, attachments, pragmas and two statements before anything runs', async () => {
    const cases: [string, string][] = [
      [
        'DELETE FROM air_segments_by_date_1',
        "sql: 'DELETE FROM air_segments_by_date_1' starts with DELETE, which is not a read; send one SELECT or WITH " +
          'statement (ATTACH, PRAGMA, VACUUM, CREATE, INSERT, UPDATE, DELETE and the like are refused; nothing was run).',
      ],
      ["ATTACH 'x.db' AS x", "sql: 'ATTACH 'x.db' AS x' starts with ATTACH, which is not a read;"],
      ['  /* hi */ PRAGMA query_only = 0', "sql: 'PRAGMA query_only = 0' starts with PRAGMA, which is not a read;"],
      ['VACUUM', "sql: 'VACUUM' starts with VACUUM, which is not a read;"],
      [
        'WITH x AS (SELECT 1) DELETE FROM air_segments_by_date_1',
        "sql: 'WITH x AS (SELECT 1) DELETE FROM air_segments_by_date_1' writes (its compiled program opens a write " +
          'transaction); only reads are allowed: SELECT or WITH ... SELECT (nothing was run).',
      ],
      [
        'SELECT 1; DROP TABLE air_segments_by_date_1',
        "sql: 'SELECT 1; DROP TABLE air_segments_by_date_1' holds more than one statement (or text after the first); " +
          'send exactly one SELECT or WITH statement (nothing was run).',
      ],
      [
        "SELECT load_extension('x')",
        "sql: 'SELECT load_extension('x')' failed in SQLite: no such function: load_extension.",
      ],
    ];
    for (const [sql, message] of cases) {
      expect(refusal(await s.call('sql_query', { sql }))).toContain(`Invalid argument for sql_query: ${message}`);
    }
    const still = ok(await s.call('sql_query', { sql: 'SELECT COUNT(*) AS n FROM air_segments_by_date_1' }));
    expect(still.rows).toEqual([{ n: air.fetchedRecords }]);
  });

  it('answers a failing statement with SQLite message and the caller tables with their columns', async () => {
    const text = refusal(await s.call('sql_query', { sql: 'SELECT Nope FROM air_segments_by_date_1' }));
    expect(text).toContain("sql: 'SELECT Nope FROM air_segments_by_date_1' failed in SQLite: no such column: Nope.");
    expect(text).toContain(
      'air_segments_by_date_1 (_row, ServiceRef, RecordLocator, PNRCreationDate, OwningAgencyLocationID, ' +
        'OwningConsultant, Account, Passengers, DepartureDate,',
    );
    expect(text).toContain('pnr_segments_3__Segments_AirSegments (_row, _parent, AirSegmentNbr,');
  });

  it('stops a runaway statement at REPORTS_SQL_TIMEOUT_MS while another call answers first', async () => {
    let sqlDone = false;
    const runaway = s
      .call('sql_query', {
        sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c',
      })
      .then((r) => {
        sqlDone = true;
        return r;
      });
    const other = ok(
      await s.call('query_report', { resultId: air.resultId, aggregates: [{ fn: 'count' }], groupBy: ['Account'] }),
    );
    expect(sqlDone).toBe(false);
    expect(other.matched).toBe(air.fetchedRecords);
    const stopped = await runaway;
    expect(refusal(stopped)).toBe(
      'sql_query failed (timeout): sql_query: the statement ran longer than REPORTS_SQL_TIMEOUT_MS (4,000 ms) and was ' +
        'stopped. Narrow it (a WHERE on the joined keys, fewer rows before a join, a LIMIT) and call again.',
    );
    // A fresh engine rebuilds the tables it needs.
    const again = ok(await s.call('sql_query', { sql: 'SELECT COUNT(*) AS n FROM air_segments_by_date_1' }));
    expect(again.rows).toEqual([{ n: air.fetchedRecords }]);
  }, 30_000);

  it('holds rows that do not fit and links them as JSON and CSV pages', async () => {
    const result = await s.call('sql_query', {
      sql: "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 3000) SELECT x, printf('%.100c', 'a') AS pad FROM c",
    });
    const out = ok(result);
    expect(out.rowCount).toBe(3000);
    expect(out.truncated).toBe(true);
    const rows = out.rows as Rec[];
    expect(rows.length).toBeLessThan(3000);
    expect(rows[0]).toEqual({ x: 1, pad: 'a'.repeat(100) });
    const uri = String(out.resourceUri);
    expect(result.content.find((c) => c.type === 'resource_link')).toMatchObject({ uri });
    const all = await readAllRecords(s.client, uri);
    expect(all).toEqual(Array.from({ length: 3000 }, (_, i) => ({ x: i + 1, pad: 'a'.repeat(100) })));
    const csv = parseCsv(await readAllCsv(s.client, uri));
    expect(csv[0]).toEqual(['x', 'pad']);
    expect(csv.length).toBe(3001);
    expect(csv[3000]).toEqual(['3000', 'a'.repeat(100)]);
    expect(textOf(result)).toContain(`All rows as JSON: ${uri} (CSV: ${uri}.csv)`);
  });
});

describe('sql_query flags an incomplete result', () => {
  it('says for every result read whether it is complete', async () => {
    const s = await startInProcess();
    try {
      const part = ok(await s.call('air_segments_by_date', { ...AIR, maxRecords: 50 }));
      expect(part.complete).toBe(false);
      const total = Number(part.totalRecords);
      const result = await s.call('sql_query', { sql: 'SELECT COUNT(*) AS n FROM air_segments_by_date_1' });
      const out = ok(result);
      expect(out.rows).toEqual([{ n: 50 }]);
      expect(out.tables).toEqual([
        { table: 'air_segments_by_date_1', resultId: part.resultId, report: 'air_segments_by_date', complete: false },
      ]);
      const line =
        `air_segments_by_date_1 (air_segments_by_date, ${part.resultId}): INCOMPLETE: this covers 50 of ` +
        `${total.toLocaleString('en-US')} records of the report; continue_report {"resultId":"${part.resultId}"} ` +
        `fetches the ${(total - 50).toLocaleString('en-US')} missing. The answer covers only what it holds.`;
      // What is missing first, then what the counts include (the demo's segments are not all confirmed).
      const notes = out.notes as string[];
      expect(notes[0]).toBe(line);
      expect(notes[1]).toMatch(/^air_segments_by_date_1 holds \d+ of 50 segments confirmed; /);
      expect(notes).toHaveLength(2);
      expect(textOf(result)).toContain(`Note: ${line}`);
      expect(textOf(result)).toContain(
        `Tables read: air_segments_by_date_1 (air_segments_by_date, ${part.resultId}, INCOMPLETE).`,
      );
    } finally {
      await s.close();
    }
  }, 30_000);
});

describe('sql_query tables hold masked records', () => {
  it('shows the same masked names as the report, never the sandbox names', async () => {
    const s = await startInProcess({ env: { REPORTS_REDACT_PII: 'true' } });
    try {
      const air = ok(await s.call('air_segments_by_date', AIR));
      const out = ok(
        await s.call('sql_query', { sql: 'SELECT Passengers FROM air_segments_by_date_1 ORDER BY _row LIMIT 5' }),
      );
      expect(out.rows).toEqual((air.rows as Rec[]).slice(0, 5).map((r) => ({ Passengers: r.Passengers })));
      const names = (s.rt.sandbox!.report('AirSegmentsByDate', AIR) as Rec[]).map((r) => String(r.Passengers));
      const all = ok(await s.call('sql_query', { sql: 'SELECT DISTINCT Passengers FROM air_segments_by_date_1' }));
      for (const row of all.rows as Rec[]) expect(names).not.toContain(row.Passengers);
    } finally {
      await s.close();
    }
  }, 30_000);
});

describe('sql_query tables and the results budget', () => {
  it('keeps the tables as TEMP tables: sqlite_temp_master lists the ones built, sqlite_master none', async () => {
    const s = await startInProcess();
    try {
      ok(await s.call('air_segments_by_date', AIR));
      const count = ok(await s.call('sql_query', { sql: 'SELECT COUNT(*) AS n FROM air_segments_by_date_1' }));
      expect((count.rows as Rec[])[0].n).toBe((s.rt.sandbox!.report('AirSegmentsByDate', AIR) as Rec[]).length);
      const temp = ok(
        await s.call('sql_query', { sql: "SELECT name FROM sqlite_temp_master WHERE type = 'table' ORDER BY name" }),
      );
      expect(temp.rows).toEqual([{ name: 'air_segments_by_date_1' }]);
      const main = ok(await s.call('sql_query', { sql: 'SELECT COUNT(*) AS n FROM sqlite_master' }));
      expect(main.rows).toEqual([{ n: 0 }]);
    } finally {
      await s.close();
    }
  }, 30_000);

  it('counts a result table bytes in the store and drops the tables with the result', async () => {
    const s = await startInProcess();
    try {
      const air = ok(await s.call('air_segments_by_date', AIR));
      const store = s.rt.store as ResultStore;
      const before = store.bytes;
      ok(await s.call('sql_query', { sql: 'SELECT COUNT(*) AS n FROM air_segments_by_date_1' }));
      const tableBytes = store.bytes - before;
      // SQLite's pages (4,096 bytes each) that the result's table occupies.
      expect(tableBytes).toBeGreaterThan(0);
      expect(tableBytes % 4096).toBe(0);
      expect(store.delete(String(air.resultId))).toBe(true);
      expect(store.bytes).toBe(0);
      const gone = await s.call('sql_query', { sql: 'SELECT COUNT(*) AS n FROM air_segments_by_date_1' });
      expect(refusal(gone)).toBe(
        "Invalid argument for sql_query: sql: 'SELECT COUNT(*) AS n FROM air_segments_by_date_1' failed in SQLite: " +
          'no such table: air_segments_by_date_1. You hold no results yet: run a report tool first; its answer names ' +
          'its table (`table`). Nothing was sent to the service; correct the argument and call again.',
      );
    } finally {
      await s.close();
    }
  }, 30_000);
});

describe('sql_query answers stay bounded whatever the statement returns', () => {
  it('cuts long names and cells and keeps structuredContent and the text under 100,000 characters', async () => {
    const s = await startInProcess();
    try {
      const name = (i: number) => `column_${String(i).padStart(3, '0')}_${'n'.repeat(64)}`;
      const select = Array.from({ length: 180 }, (_, i) => `x AS ${name(i)}`).join(', ');
      const sql = `WITH v(x) AS (SELECT printf('%.5000c', 'x')) SELECT ${select} FROM v`;
      const result = await s.call('sql_query', { sql });
      const out = ok(result);
      expect(JSON.stringify(out).length).toBeLessThanOrEqual(100_000);
      expect(textOf(result).length).toBeLessThanOrEqual(100_000);
      const shownName = `${name(0).slice(0, 60)}…[cut: 75 characters in all]`;
      expect((out.columns as string[])[0]).toBe(shownName);
      expect(out.rowCount).toBe(1);
      const [first] = out.rows as Rec[];
      expect(String(first[shownName])).toMatch(/^x+…\[cut: 5,000 characters in all\]$/);
      const many = Array.from({ length: 301 }, (_, i) => `${i} AS c${i}`).join(', ');
      expect(refusal(await s.call('sql_query', { sql: `SELECT ${many}` }))).toContain(
        'returns 301 columns; at most 300 can be answered: select fewer.',
      );
    } finally {
      await s.close();
    }
  }, 30_000);
});

describe('sql_query arguments', () => {
  it('names the argument, what was received (cut short) and what is expected', async () => {
    const s = await startInProcess();
    try {
      const long = `SELECT '${'y'.repeat(20_000)}'`;
      const tooLong = await s.call('sql_query', { sql: long });
      expect(tooLong.isError).toBe(true);
      expect(textOf(tooLong)).toContain(
        `sql: '${long.slice(0, 80)}…[cut: 20,009 characters in all]' is not a statement of 1 to 20,000 characters; ` +
          'send one SELECT or WITH statement in SQLite syntax',
      );
      const notText = await s.call('sql_query', { sql: 42 });
      expect(textOf(notText)).toContain(
        'sql: 42 (number) is not a statement of 1 to 20,000 characters; send one SELECT or WITH statement in SQLite syntax',
      );
    } finally {
      await s.close();
    }
  });
});

describe('sql_query cancelled by the client', () => {
  it('stops the statement (its worker goes) so the next statement runs at once', async () => {
    // A timeout far beyond the test's own: only the cancel can free the engine in time.
    const s = await startInProcess({ env: { REPORTS_SQL_TIMEOUT_MS: '600000' } });
    try {
      const air = ok(await s.call('air_segments_by_date', AIR));
      const controller = new AbortController();
      const runaway = s.client
        .callTool(
          {
            name: 'sql_query',
            arguments: {
              sql: 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c',
            },
          },
          undefined,
          { signal: controller.signal },
        )
        .catch((err: Error) => err);
      // The engine is busy with the runaway once a query_report has answered meanwhile.
      ok(await s.call('query_report', { resultId: air.resultId, aggregates: [{ fn: 'count' }] }));
      controller.abort();
      expect(String(await runaway)).toContain('AbortError');
      const next = ok(await s.call('sql_query', { sql: 'SELECT COUNT(*) AS n FROM air_segments_by_date_1' }));
      expect(next.rows).toEqual([{ n: air.fetchedRecords }]);
    } finally {
      await s.close();
    }
  }, 30_000);
});
