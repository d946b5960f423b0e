/**
 * Issue 31 end to end: with REPORTS_REDACT_PII, people named in five scripts (the issue's own
 * José María Álvarez Quintero and Siobhán, then generated Latin with accents and particles,
 * Greek, Cyrillic, CJK and Arabic names) and phones as eighteen countries write them, in known,
 * unknown and nested fields, prose and lists, never reach the client by any channel: the text,
 * structuredContent, query_report rows and groups, resource JSON and CSV pages, exported CSV
 * and XLSX files, and sql_query over the result's table and its child tables. Identifiers
 * beside look-alike dates, times and amounts come back exactly as the service sent them.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type HostileUpstream, page, startHostileUpstream } from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';
import { textOf } from '../helpers/mcp.js';
import { readAllCsv, readAllRecords } from '../helpers/resources.js';
import { type Rec, valuesOf } from './pii-generated.js';
import {
  type LookAlikes,
  lookAlikeFields,
  lookAlikesArb,
  lookAlikeText,
  phoneArb,
  phonePlaceArb,
  proseArb,
  type ScriptPerson,
  scriptLeaks,
  scriptPersonArb,
  statedArb,
} from './pii-scripts.js';

const SEED = 31_003;
const CASES = 30;

// The issue's own examples first: the same people spelled with accents and the GDS way.
const FIXED_PEOPLE: ScriptPerson[] = [
  { script: 'latin', given: 'José María', surname: 'Álvarez Quintero' },
  { script: 'latin', given: 'Siobhán', surname: 'Ní Bhriain' },
];
const FIXED_PHONES = ['0171 2345678', '+34 612 34 56 78', '(01) 555 0199', '61412555019', '0049301234567'];
const FIXED_IDS: LookAlikes = {
  ticket: '0812345678901',
  dashedTicket: '125-1234567890',
  locator: 'QXJ7KP',
  serviceRef: 20_345_678,
  pcc: '1A2B',
  amount: '1234567.89',
  euro: 'EUR 12 345 678',
};
const fixedRecords: Rec[] = [
  {
    BookingId: 1,
    ...lookAlikeFields(FIXED_IDS),
    Passengers: [
      { Seq: 1, FirstName: 'José María MR', LastName: 'Álvarez Quintero' },
      { Seq: 2, FirstName: 'Siobhán MS', LastName: 'Ní Bhriain' },
    ],
    Status: 'OK',
  },
  {
    BookingId: 2,
    ...lookAlikeFields(FIXED_IDS),
    PaxName: 'ALVAREZ QUINTERO/JOSE MARIA MR',
    ContactNumbers: FIXED_PHONES.slice(0, 3).join(', '),
    Notepad: [
      { Seq: 1, Remark: `pax mobile ${FIXED_PHONES[3]} wife ${FIXED_PHONES[4]}` },
      { Seq: 2, Remark: 'SIOBHAN asked alvarez quintero for the window; jose maria paid' },
    ],
    Status: 'OK',
  },
];

const generated = fc.sample(
  fc.record({
    person: scriptPersonArb,
    stated: statedArb,
    prose: proseArb,
    phone: phoneArb,
    place: phonePlaceArb,
    ids: lookAlikesArb,
  }),
  { numRuns: CASES, seed: SEED },
);
const records: Rec[] = [
  ...fixedRecords,
  ...generated.flatMap((g, i) => [
    { BookingId: 100 + i, ...lookAlikeFields(g.ids), ...g.stated.at(g.person), Status: 'OK' },
    { BookingId: 200 + i, ...lookAlikeFields(g.ids), ...g.prose.at(g.person), Status: 'OK' },
    { BookingId: 300 + i, ...lookAlikeFields(g.ids), ...g.place.at(g.phone.phone), Status: 'OK' },
  ]),
];
const people = [...FIXED_PEOPLE, ...generated.map((g) => g.person)];
const phones = [...FIXED_PHONES, ...generated.map((g) => g.phone.phone)];
const allIds = [FIXED_IDS, ...generated.map((g) => g.ids)];

let upstream: HostileUpstream;
let live: LiveServer;
let exportDir: string;
let outputs: Record<string, string[]>;
let heldRows: Rec[];

async function sqlAll(table: string): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += 25) {
    const r = await live.call('sql_query', { sql: `SELECT * FROM "${table}" LIMIT 25 OFFSET ${offset}` });
    expect(r.isError, textOf(r).slice(0, 400)).toBeFalsy();
    const sc = r.structuredContent as { rows: Rec[]; truncated: boolean };
    expect(sc.truncated).toBe(false);
    out.push(textOf(r), ...valuesOf(sc));
    if (sc.rows.length < 25) return out;
  }
}

beforeAll(async () => {
  exportDir = mkdtempSync(join(tmpdir(), 'pii-scripts-'));
  upstream = await startHostileUpstream(() => ({ body: page(records, { total: null }) }));
  live = await startLive(upstream.url, { REPORTS_REDACT_PII: 'true', REPORTS_EXPORT_DIR: exportDir });
  const result = await live.call('find_bookings', { parameters: { Status: 'OK' }, rowLimit: 1000 });
  expect(result.isError, textOf(result).slice(0, 400)).toBeFalsy();
  const sc = result.structuredContent as { resultId: string; resourceUri: string; table: string };
  const rows = await live.call('query_report', { resultId: sc.resultId, limit: 1000 });
  const groups = await live.call('query_report', {
    resultId: sc.resultId,
    groupBy: ['PaxName', 'ContactNumbers'],
    aggregates: [{ fn: 'count' }],
  });
  const unnested = await live.call('query_report', { resultId: sc.resultId, unnest: 'Passengers', limit: 1000 });
  const json = await readAllRecords(live.client, sc.resourceUri);
  const csv = await readAllCsv(live.client, sc.resourceUri);
  const csvFile = await live.call('export_report', { resultId: sc.resultId, format: 'csv' });
  const xlsxFile = await live.call('export_report', { resultId: sc.resultId, format: 'xlsx' });
  const pathOf = (r: typeof csvFile) => (r.structuredContent as { path: string }).path;
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(pathOf(xlsxFile));
  const cells: string[] = [];
  book.worksheets[0].eachRow((row) => {
    row.eachCell((cell) => {
      cells.push(String(cell.value));
    });
  });
  heldRows = json;
  const sql: string[] = [];
  for (const t of ['', '__Passengers', '__Notepad', '__Phones', '__Remarks']) sql.push(...(await sqlAll(sc.table + t)));
  outputs = {
    text: [textOf(result)],
    structuredContent: valuesOf(result.structuredContent),
    query_report: [
      textOf(rows),
      ...valuesOf(rows.structuredContent),
      textOf(groups),
      ...valuesOf(groups.structuredContent),
    ],
    'query_report unnest': [textOf(unnested), ...valuesOf(unnested.structuredContent)],
    'resource JSON': valuesOf(json),
    'resource CSV': [csv],
    'export CSV': [readFileSync(pathOf(csvFile), 'utf8')],
    'export XLSX': cells,
    sql_query: sql,
  };
}, 120_000);

afterAll(async () => {
  await live?.close();
  await upstream?.close();
  rmSync(exportDir, { recursive: true, force: true });
});

test('the planted people and phones really are in what the service sent', () => {
  const count = (keys: string[]) => [...new Set(keys)].map((k) => `${k}=${keys.filter((x) => x === k).length}`);
  console.error(`[pii-scripts-channels] people by script: ${count(people.map((p) => p.script)).join(', ')}`);
  console.error(`[pii-scripts-channels] phones by format: ${count(generated.map((g) => g.phone.format)).join(', ')}`);
  expect(scriptLeaks(valuesOf(records), people, phones).length).toBeGreaterThanOrEqual(people.length + phones.length);
  const scripts = new Set(people.map((p) => p.script));
  expect([...scripts].sort()).toEqual(['arabic', 'cjk', 'cyrillic', 'greek', 'latin']);
});

test(`people in five scripts and phones of many countries: none in any channel`, () => {
  for (const [channel, texts] of Object.entries(outputs)) {
    expect(texts.length, channel).toBeGreaterThan(0);
    expect(scriptLeaks(texts, people, phones), channel).toEqual([]);
  }
  const all = Object.values(outputs).flat().join('\n');
  expect(all).toContain('Traveller-');
  expect(all).toContain('phone-');
});

test('identifiers beside look-alike phones come back exactly as sent', () => {
  for (const r of heldRows) {
    const ids = allIds.find((x) => x.ticket === r.TktNumber);
    expect(ids, `record ${String(r.BookingId)}`).toBeDefined();
    expect({ TktNumber: r.TktNumber, RecordLocator: r.RecordLocator, ServiceRef: r.ServiceRef, PCC: r.PCC }).toEqual({
      TktNumber: ids!.ticket,
      RecordLocator: ids!.locator,
      ServiceRef: ids!.serviceRef,
      PCC: ids!.pcc,
    });
    expect(r.IssueRemark).toBe(lookAlikeText(ids!));
  }
  for (const channel of ['resource CSV', 'export CSV', 'sql_query'])
    expect(outputs[channel].join('\n'), channel).toContain(lookAlikeText(FIXED_IDS));
});

test('the same person spelled with accents and the GDS way gets one mask', () => {
  const first = heldRows.find((r) => r.BookingId === 1)!;
  const second = heldRows.find((r) => r.BookingId === 2)!;
  const [jose] = first.Passengers as Rec[];
  expect(jose.LastName).toMatch(/^Traveller-[0-9a-f]{8}$/);
  // ALVAREZ QUINTERO/JOSE MARIA MR is a whole name; its surname words are the same masks as Álvarez Quintero's.
  const remark = String((second.Notepad as Rec[])[1].Remark);
  expect(remark).toMatch(/^Traveller-[0-9a-f]{8} asked Traveller-[0-9a-f]{8} Traveller-[0-9a-f]{8} for the window;/);
  expect(String(second.PaxName)).toMatch(/^Traveller-[0-9a-f]{8}$/);
  expect(String((second.Notepad as Rec[])[0].Remark)).toMatch(/^pax mobile phone-[0-9a-f]{8} wife phone-[0-9a-f]{8}$/);
});
