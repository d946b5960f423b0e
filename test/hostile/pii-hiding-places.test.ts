/**
 * Issue 18 end to end: with REPORTS_REDACT_PII, generated people and phones planted where no
 * field list looks (an unpublished report's Traveller.First / Traveller.Last, flat and whole
 * person keys, SURNAME/GIVEN and titled names in fields of unknown name, prose naming them
 * again in any case and possessive, announced phones such as `mobile=4402079460958`, phone
 * fields such as ContactPhone) never reach the client: not in the text, structuredContent,
 * query_report rows and groups, JSON and CSV resource pages, nor the exported CSV and XLSX
 * files. Identifiers come back exactly as the service sent them.
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
import {
  idFields,
  idsArb,
  leaks,
  personArb,
  phoneArb,
  phonePlaceArb,
  proseArb,
  type Rec,
  statedArb,
  valuesOf,
} from './pii-generated.js';

const SEED = 18_003;
const CASES = 40;

// The issue's own examples first, then generated people and phones.
const FIXED = {
  person: { given: 'Gwendolyn', surname: 'Quixworth' },
  phone: '4402079460958',
};
const fixedRecords: Rec[] = [
  { BookingId: 1, Traveller: { First: 'Gwendolyn', Last: 'Quixworth' }, Status: 'OK' },
  { BookingId: 2, Notes: "rebooked gwendolyn quixworth after a call; quixworth's bags", Status: 'OK' },
  { BookingId: 3, LogText: `sync ok mobile=${FIXED.phone} done`, ContactPhone: '+44 20 7946 0958', Status: 'OK' },
];

const generated = fc.sample(
  fc.record({
    person: personArb,
    stated: statedArb,
    prose: proseArb,
    phone: phoneArb,
    place: phonePlaceArb,
    ids: idsArb,
  }),
  { numRuns: CASES, seed: SEED },
);
const records: Rec[] = [
  ...fixedRecords,
  ...generated.flatMap((g, i) => [
    { BookingId: 100 + i, ...idFields(g.ids), ...g.prose(g.person), Status: 'OK' },
    { BookingId: 200 + i, ...idFields(g.ids), ...g.stated.at(g.person), Status: 'OK' },
    { BookingId: 300 + i, ...idFields(g.ids), ...g.place.at(g.phone), Status: 'OK' },
  ]),
];
const people = [FIXED.person, ...generated.map((g) => g.person)];
const phones = [FIXED.phone, '+44 20 7946 0958', ...generated.map((g) => g.phone)];

let upstream: HostileUpstream;
let live: LiveServer;
let exportDir: string;
let outputs: string[];
let exportedRows: Rec[];

beforeAll(async () => {
  exportDir = mkdtempSync(join(tmpdir(), 'pii-export-'));
  upstream = await startHostileUpstream(() => ({ body: page(records, { total: null }) }));
  live = await startLive(upstream.url, { REPORTS_REDACT_PII: 'true', REPORTS_EXPORT_DIR: exportDir });
  const result = await live.call('find_bookings', { parameters: { Status: 'OK' }, rowLimit: 1000 });
  expect(result.isError, textOf(result).slice(0, 400)).toBeFalsy();
  const sc = result.structuredContent as { resultId: string; resourceUri: string };
  const rows = await live.call('query_report', { resultId: sc.resultId, limit: 1000 });
  const groups = await live.call('query_report', {
    resultId: sc.resultId,
    groupBy: ['Traveller.First', 'Notes'],
    aggregates: [{ fn: 'count' }],
  });
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
  exportedRows = (rows.structuredContent as { rows: Rec[] }).rows;
  outputs = [
    textOf(result),
    ...valuesOf(result.structuredContent),
    textOf(rows),
    ...valuesOf(rows.structuredContent),
    textOf(groups),
    ...valuesOf(groups.structuredContent),
    ...valuesOf(json),
    csv,
    readFileSync(pathOf(csvFile), 'utf8'),
    ...cells,
  ];
}, 60_000);

afterAll(async () => {
  await live?.close();
  await upstream?.close();
  rmSync(exportDir, { recursive: true, force: true });
});

test('the planted data really is in what the service sent', () => {
  expect(leaks(valuesOf(records), people, phones).length).toBe(people.length * 2 + phones.length);
});

test(`${people.length} people and ${phones.length} phones in hiding places: none in any output`, () => {
  expect(outputs.length).toBeGreaterThan(records.length * 5);
  expect(leaks(outputs, people, phones)).toEqual([]);
  expect(outputs.join('\n')).toContain('Traveller-');
  expect(outputs.join('\n')).toContain('phone-');
});

test('identifiers come back exactly as sent: ticket numbers, locators, ServiceRefs, PCCs, account codes', () => {
  const byId = new Map(exportedRows.map((r) => [r.BookingId, r]));
  for (const r of records.filter((x) => 'TktNumber' in x)) {
    const got = byId.get(r.BookingId) as Rec;
    for (const k of ['TktNumber', 'RecordLocator', 'ServiceRef', 'PseudoCityCode', 'PCC', 'AccountCode', 'Account'])
      expect(got[k], `${k} of ${r.BookingId}`).toBe(r[k]);
    expect(got.IssueNote).toBe(r.IssueNote);
  }
  expect(byId.get(1)).toEqual({
    BookingId: 1,
    Traveller: { First: expect.stringMatching(/^Traveller-/), Last: expect.stringMatching(/^Traveller-/) },
    Status: 'OK',
  });
});
