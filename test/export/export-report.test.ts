/**
 * export_report through a real SDK Client (in-process server in demo mode, sandbox over
 * loopback HTTP): the files are read back (XLSX with exceljs, CSV with an independent parser)
 * and compared cell by cell with what query_report answers for the same filter and columns.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../helpers/csv-parse.js';
import { completeResult } from '../helpers/held-result.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';

type Rec = Record<string, unknown>;

const COUPONS = {
  DateStart: '20261101',
  DateEnd: '20270131',
  CouponCodeGroup: 'OPEN',
  DateTracker: 'E',
  rowLimit: 3,
} as const;

let root: string;
let s: InProcess;
let exportDir: string;
let couponsId: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'export-test-'));
  // A folder that does not exist yet, two levels deep: export_report creates it.
  exportDir = join(root, 'not', 'yet');
  s = await startInProcess({ env: { REPORTS_EXPORT_DIR: exportDir } });
  const r = await s.call('ticket_coupons_by_status_code', COUPONS);
  expect(r.isError).toBeFalsy();
  couponsId = (r.structuredContent as { resultId: string }).resultId;
});

afterAll(async () => {
  await s?.close();
  rmSync(root, { recursive: true, force: true });
});

interface Exported {
  resultId: string;
  report: string;
  format: string;
  path: string;
  fileName: string;
  rows: number;
  columns: string[];
  bytes: number;
  complete: boolean;
  notes: string[];
}

async function exported(args: Rec, server = s): Promise<Exported> {
  const r = await server.call('export_report', args);
  if (r.isError) throw new Error(textOf(r));
  return r.structuredContent as unknown as Exported;
}

/** Every row query_report gives for the filter and columns, paging by nextOffset. */
async function queryRows(args: Rec): Promise<{ rows: Rec[]; matched: number }> {
  const rows: Rec[] = [];
  let offset: number | null = 0;
  let matched = 0;
  while (offset !== null) {
    const r = await s.call('query_report', { ...args, offset, limit: 1000 });
    expect(r.isError, textOf(r)).toBeFalsy();
    const out = r.structuredContent as { rows: Rec[]; nextOffset: number | null; matched: number };
    rows.push(...out.rows);
    matched = out.matched;
    offset = out.nextOffset;
  }
  return { rows, matched };
}

/** What a cell must hold for a query_report value: the rules of the issue, written out. */
function expectedCell(column: string, value: unknown): unknown {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    const iso = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})\.(\d{3}))?/.exec(value);
    if (iso) {
      const [, y, mo, d, h = '0', mi = '0', sec = '0', ms = '0'] = iso;
      return new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi, +sec, +ms));
    }
    if (/^-?(0|[1-9]\d*)(\.\d+)?$/.test(value) && !/(id|ref|nbr|number|code|locator|guid|iata|pcc)$/i.test(column))
      return Number(value);
    return value;
  }
  if (typeof value === 'object') return JSON.stringify(value);
  return value;
}

function cellValue(cell: ExcelJS.Cell): unknown {
  const v = cell.value;
  return v === undefined ? null : v;
}

describe('export_report as XLSX', () => {
  it('writes every matching record, typed, equal cell by cell to query_report, with a frozen, filtered header', async () => {
    const where = [{ field: 'FOPFare', op: 'gte', value: 500 }];
    const fields = ['TktNumber', 'Account', 'Passenger', 'FOPFare', 'VndIssueDt', 'CouponSequenceNbr', 'TravAgntID'];
    const out = await exported({ resultId: couponsId, format: 'xlsx', where, fields });
    const { rows, matched } = await queryRows({ resultId: couponsId, where, fields });
    expect(matched).toBeGreaterThan(5);
    expect(out.rows).toBe(matched);
    expect(out.columns).toEqual(fields);
    expect(out.path).toBe(join(exportDir, out.fileName));
    expect(out.fileName).toMatch(/^ticket_coupons_by_status_code-\d{4}-\d{2}-\d{2}\.xlsx$/);
    expect(out.bytes).toBe(statSync(out.path).size);

    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(out.path);
    expect(book.worksheets).toHaveLength(1);
    const sheet = book.worksheets[0];
    expect(sheet.name).toBe('ticket_coupons_by_status_code'.slice(0, 31));
    expect(sheet.getRow(1).values).toEqual([undefined, ...fields]);
    expect(sheet.getRow(1).font?.bold).toBe(true);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(sheet.autoFilter).toBe(`A1:G${matched + 1}`);
    expect(sheet.rowCount).toBe(matched + 1);
    rows.forEach((row, i) => {
      fields.forEach((f, j) => {
        const cell = sheet.getRow(i + 2).getCell(j + 1);
        expect(cellValue(cell), `row ${i + 2} ${f}`).toEqual(expectedCell(f, row[f]));
      });
    });
    // Types as a person sees them: amounts are numbers, issue dates dates, IDs text.
    const first = sheet.getRow(2);
    expect(typeof first.getCell(4).value).toBe('number');
    expect(first.getCell(5).value).toBeInstanceOf(Date);
    expect(first.getCell(5).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(typeof first.getCell(7).value).toBe('string');
  });

  it('exports every top-level field when no fields are given, and never overwrites an earlier file', async () => {
    const a = await exported({ resultId: couponsId, format: 'xlsx' });
    const b = await exported({ resultId: couponsId, format: 'xlsx' });
    expect(b.path).not.toBe(a.path);
    expect(b.fileName).toMatch(/-\d+\.xlsx$/);
    expect(existsSync(a.path) && existsSync(b.path)).toBe(true);
    const { rows } = await queryRows({ resultId: couponsId });
    expect(a.rows).toBe(rows.length);
    const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
    expect(a.columns).toEqual(columns);
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(b.path);
    const sheet = book.worksheets[0];
    rows.forEach((row, i) => {
      columns.forEach((c, j) => {
        expect(cellValue(sheet.getRow(i + 2).getCell(j + 1)), `row ${i + 2} ${c}`).toEqual(expectedCell(c, row[c]));
      });
    });
    // No temporary file is left behind.
    expect(readdirSync(exportDir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });
});

describe('export_report as CSV', () => {
  it('writes UTF-8 with a BOM, RFC 4180, the same values as query_report', async () => {
    const where = [{ field: 'Account', op: 'in', value: ['ACME', 'GLOBEX', 'HOOLI'] }];
    const out = await exported({ resultId: couponsId, format: 'csv', where, name: 'coupons for finance' });
    expect(out.fileName).toMatch(/^coupons for finance-\d{4}-\d{2}-\d{2}\.csv$/);
    const bytes = readFileSync(out.path);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(out.bytes).toBe(bytes.length);
    const text = bytes.toString('utf8').slice(1);
    expect(text.endsWith('\r\n')).toBe(true);
    const [header, ...lines] = parseCsv(text);
    const { rows, matched } = await queryRows({ resultId: couponsId, where });
    expect(matched).toBeGreaterThan(0);
    expect(out.rows).toBe(matched);
    expect(lines).toHaveLength(matched);
    expect(header).toEqual(out.columns);
    rows.forEach((row, i) => {
      header.forEach((c, j) => {
        const v = row[c];
        const want = v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        expect(lines[i][j], `line ${i + 2} ${c}`).toBe(want);
      });
    });
  });

  it('keeps accents and quotes, and defuses text a spreadsheet would run as a formula', async () => {
    const stored = await s.rt.results.put(
      completeResult('qc_comments_for_consultant', [
        { Comment: 'Zoë said "ça va", then left', Amount: -12.5 },
        { Comment: '=HYPERLINK("http://x.test","click")', Amount: '-3.25' },
        { Comment: '@SUM(A1:A2)', Amount: 0 },
      ]),
    );
    const out = await exported({ resultId: stored.id, format: 'csv' });
    const text = readFileSync(out.path, 'utf8');
    expect(text).toBe(
      '\uFEFFComment,Amount\r\n' +
        '"Zoë said ""ça va"", then left",-12.5\r\n' +
        '"\'=HYPERLINK(""http://x.test"",""click"")",-3.25\r\n' +
        "'@SUM(A1:A2),0\r\n",
    );
  });

  it('writes every line in order across many buffers, wide text and a line longer than a buffer', async () => {
    // About 1.2 MB of CSV: the file is written a buffer (256 KB) at a time, a line of 300,000
    // characters on its own between them.
    const records = Array.from({ length: 6_000 }, (_, i) => ({
      Comment: i === 2_500 ? `${'é'.repeat(150_000)}${'x'.repeat(150_000)}` : `Zoë №${i} 東京 ${'ü'.repeat(i % 90)}`,
      Amount: i,
    }));
    const stored = await s.rt.results.put(completeResult('qc_comments_for_consultant', records));
    const out = await exported({ resultId: stored.id, format: 'csv' });
    const want = `\uFEFFComment,Amount\r\n${records.map((r) => `${r.Comment},${r.Amount}\r\n`).join('')}`;
    const bytes = readFileSync(out.path);
    expect(bytes.length).toBe(Buffer.byteLength(want));
    expect(out.bytes).toBe(bytes.length);
    expect(bytes.toString('utf8') === want).toBe(true);
  });
});

describe('export_report refuses bad input clearly and writes nothing outside the folder', () => {
  const refusal = async (args: Rec, server = s): Promise<string> => {
    const r: CallToolResult = await server.call('export_report', args);
    expect(r.isError, JSON.stringify(r.structuredContent)).toBe(true);
    return textOf(r);
  };

  it('an unknown resultId says it is not held and how to get it again', async () => {
    const text = await refusal({ resultId: 'r_doesnotexist', format: 'csv' });
    expect(text).toContain("No result 'r_doesnotexist' is held");
    expect(text).toContain('Run the report again');
  });

  it('an expired resultId says so too', async () => {
    // A server of its own: moving its store's clock expires every result it holds.
    const other = await startInProcess({ env: { REPORTS_EXPORT_DIR: exportDir } });
    try {
      const r = await other.call('ticket_coupons_by_status_code', COUPONS);
      const id = (r.structuredContent as { resultId: string }).resultId;
      // The store's clock is the edge moved here: 61 minutes pass.
      const store = other.rt.store as unknown as { now: () => number };
      const realNow = store.now;
      store.now = () => realNow() + 61 * 60_000;
      const text = await refusal({ resultId: id, format: 'xlsx' }, other);
      expect(text).toContain(
        `No result '${id}' is held: it expired, unused for 60 minutes (REPORTS_RESULTS_TTL_MINUTES). ` +
          'Run ticket_coupons_by_status_code again for a new resultId.',
      );
    } finally {
      await other.close();
    }
  });

  it('a filter or a column on a missing field names it and the fields that exist', async () => {
    const where = await refusal({
      resultId: couponsId,
      format: 'csv',
      where: [{ field: 'FOPFair', op: 'gt', value: 1 }],
    });
    expect(where).toContain("where[0].field: 'FOPFair' is not a field of this result. Did you mean 'FOPFare'");
    const fields = await refusal({ resultId: couponsId, format: 'xlsx', fields: ['Account', 'Acount'] });
    expect(fields).toContain("fields[1]: 'Acount' is not a field of this result");
  });

  it('a name or resultId with ../, separators or control characters is refused', async () => {
    const before = listAll(root);
    expect(await refusal({ resultId: couponsId, format: 'csv', name: '../../escape' })).toContain(
      "Invalid argument for export_report: name: '../../escape' holds a path",
    );
    expect(await refusal({ resultId: couponsId, format: 'csv', name: 'a/b' })).toContain('holds a path');
    expect(await refusal({ resultId: couponsId, format: 'csv', name: 'a\\b' })).toContain('holds a path');
    expect(await refusal({ resultId: couponsId, format: 'csv', name: 'ok\u0007bell' })).toContain(
      'name: \'"ok\\u0007bell"\' holds control characters',
    );
    expect(await refusal({ resultId: couponsId, format: 'csv', name: 'line\nbreak' })).toContain(
      'holds control characters',
    );
    expect(await refusal({ resultId: couponsId, format: 'csv', name: '.hidden' })).toContain('not starting with a dot');
    expect(await refusal({ resultId: '../../etc/passwd', format: 'csv' })).toContain(
      'resultId: \'"../../etc/passwd"\' is not a resultId',
    );
    expect(listAll(root)).toEqual(before);
  });

  it('a missing folder is created; an unwritable one is named in the error', async () => {
    expect(existsSync(exportDir)).toBe(true);
    const blocker = join(root, 'a-file');
    writeFileSync(blocker, 'not a folder');
    const bad = await startInProcess({ env: { REPORTS_EXPORT_DIR: join(blocker, 'exports') } });
    try {
      const r = await bad.call('ticket_coupons_by_status_code', COUPONS);
      const id = (r.structuredContent as { resultId: string }).resultId;
      const text = await refusal({ resultId: id, format: 'xlsx' }, bad);
      expect(text).toContain(`export_report failed (configuration): REPORTS_EXPORT_DIR '${join(blocker, 'exports')}'`);
      expect(text).toContain('cannot be written (ENOTDIR');
      expect(text).toContain('Set REPORTS_EXPORT_DIR (or --export-dir) to a folder');
    } finally {
      await bad.close();
    }
  });

  it('in HTTP mode it is refused with the reason, and nothing is written', async () => {
    const dir = join(root, 'http-exports');
    const http = await startInProcess({ env: { REPORTS_EXPORT_DIR: dir, REPORTS_HTTP: '127.0.0.1:0' } });
    try {
      const r = await http.call('ticket_coupons_by_status_code', COUPONS);
      const id = (r.structuredContent as { resultId: string }).resultId;
      const text = await refusal({ resultId: id, format: 'csv' }, http);
      expect(text).toContain('works only in stdio mode');
      expect(text).toContain(`reports://results/${id}.csv`);
      expect(existsSync(dir)).toBe(false);
    } finally {
      await http.close();
    }
  });
});

describe('export_report with REPORTS_REDACT_PII', () => {
  it('masks traveller names in the file as in the rows', async () => {
    const dir = join(root, 'pii');
    const masked = await startInProcess({ env: { REPORTS_EXPORT_DIR: dir, REPORTS_REDACT_PII: 'true' } });
    try {
      const r = await masked.call('ticket_coupons_by_status_code', COUPONS);
      const id = (r.structuredContent as { resultId: string }).resultId;
      const raw = masked.rt.sandbox!.report('TicketCouponsByStatusCode', {
        DateStart: COUPONS.DateStart,
        DateEnd: COUPONS.DateEnd,
        CouponCodeGroup: COUPONS.CouponCodeGroup,
        DateTracker: COUPONS.DateTracker,
      }) as Rec[];
      const names = [...new Set(raw.map((x) => String(x.Passenger)))];
      expect(names.length).toBeGreaterThan(3);
      for (const format of ['csv', 'xlsx']) {
        const out = await exported({ resultId: id, format }, masked);
        expect(out.rows).toBe(raw.length);
        const content = format === 'csv' ? readFileSync(out.path, 'utf8') : await xlsxText(out.path);
        expect(content).toContain('Traveller-');
        for (const name of names) {
          expect(content, name).not.toContain(name);
          expect(content, name).not.toContain(`${name.split('/')[0]}/`);
        }
      }
    } finally {
      await masked.close();
    }
  });
});

async function xlsxText(path: string): Promise<string> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(path);
  const parts: string[] = [];
  book.worksheets[0].eachRow((row) => {
    parts.push(JSON.stringify(row.values));
  });
  return parts.join('\n');
}

function listAll(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
}

describe('export_report says what the numbers in the file mean, counted over its rows', () => {
  /** The CSV's rows as objects by header. */
  function csvRecords(path: string): Record<string, string>[] {
    const [header, ...lines] = parseCsv(readFileSync(path, 'utf8').slice(1));
    return lines.map((cells) => Object.fromEntries(header.map((c, i) => [c, cells[i]])));
  }

  it('hotel stays: the states and the rate against the cost, as the file holds them', async () => {
    const r = await s.call('hotel_segments', { DateStart: '20261101', DateEnd: '20261130' });
    expect(r.isError, textOf(r)).toBeFalsy();
    const id = (r.structuredContent as { resultId: string }).resultId;
    const out = await exported({ resultId: id, format: 'csv' });
    const rows = csvRecords(out.path);
    expect(rows).toHaveLength(out.rows);
    const confirmed = rows.filter((row) => row.SegmentState === 'confirmed').length;
    const priced = rows.filter((row) => row.EstimatedCost !== '').length;
    // The demo's November holds cancelled stays beside confirmed ones (the case this is for).
    expect(confirmed).toBeGreaterThan(0);
    expect(confirmed).toBeLessThan(rows.length);
    const state = out.notes.find((n) => n.startsWith('In the file: Segment states: '));
    expect(state).toContain(`${confirmed} of ${rows.length} segments confirmed; ${rows.length - confirmed} not:`);
    // How to count travel, said for a spreadsheet (not query_report's `SegmentState eq confirmed`).
    expect(state).toMatch(/\. To count travel, count only the segments whose SegmentState is confirmed\.$/);
    const rate = out.notes.find((n) => n.startsWith('In the file: RateAmount is a rate per night, not a cost'));
    expect(rate).toContain('spend is EstimatedCost, per EstimatedCostCurrency');
    expect(rate).toContain(`(${priced} stays priced`);
    const text = textOf(await s.call('export_report', { resultId: id, format: 'csv' }));
    expect(text).toContain(state);
    expect(text).toContain(rate);

    // Only the confirmed ones, without the columns the notes rest on: the notes say so.
    const narrow = await exported({
      resultId: id,
      format: 'csv',
      where: [{ field: 'SegmentState', op: 'eq', value: 'confirmed' }],
      fields: ['RecordLocator', 'RateAmount'],
    });
    expect(narrow.rows).toBe(confirmed);
    expect(narrow.notes).toContain(`In the file: All ${confirmed} segments are confirmed (SegmentState).`);
    expect(narrow.notes).toContain(
      'The file has no SegmentState or EstimatedCost or EstimatedCostCurrency column, which these notes rest on: ' +
        'export again with them in fields.',
    );
  });

  it('coupons: amounts repeated on every coupon, with the tickets the file holds', async () => {
    const where = [{ field: 'Account', op: 'in', value: ['ACME', 'GLOBEX'] }];
    const out = await exported({ resultId: couponsId, format: 'csv', where });
    const rows = csvRecords(out.path);
    const tickets = new Set(rows.map((row) => row.TktNumber).filter((t) => t !== ''));
    expect(tickets.size).toBeGreaterThan(0);
    expect(out.notes.filter((n) => n.includes('repeated on every coupon'))).toEqual([
      expect.stringMatching(
        new RegExp(
          "^In the file: FOPFare, .* are the ticket's, repeated on every coupon: a sum down the rows counts a " +
            `ticket once per coupon: total each TktNumber once \\(${tickets.size} tickets? in ${rows.length} ` +
            'coupon records?\\)\\.$',
        ),
      ),
    ]);
  });

  it('rows unnested from a list of segments get the notes of those segments, counted from the file', async () => {
    const hotels = await s.call('hotel_segments', { DateStart: '20261101', DateEnd: '20261130' });
    const hotelsId = (hotels.structuredContent as { resultId: string }).resultId;
    const { rows: stays } = await queryRows({
      resultId: hotelsId,
      fields: ['RecordLocator'],
      where: [{ field: 'SegmentState', op: 'eq', value: 'cancelled' }],
    });
    // Bookings holding a cancelled stay, and a few more: their hotel items are not all confirmed.
    const { rows: more } = await queryRows({ resultId: hotelsId, fields: ['RecordLocator'] });
    const locators = [...new Set([...stays, ...more.slice(0, 6)].map((row) => String(row.RecordLocator)))];
    const r = await s.call('pnr_segments', { RecordLocator: locators });
    expect(r.isError, textOf(r)).toBeFalsy();
    const id = (r.structuredContent as { resultId: string }).resultId;

    const out = await exported({ resultId: id, format: 'csv', unnest: 'Segments.HotelSegments' });
    const rows = csvRecords(out.path);
    expect(rows.length).toBe(out.rows);
    const confirmed = rows.filter((row) => row.SegmentState === 'confirmed').length;
    expect(confirmed).toBeLessThan(rows.length);
    const priced = rows.filter((row) => row.EstimatedCost !== '').length;
    const inFile = out.notes.filter((n) => n.startsWith('In the file: '));
    expect(inFile).toHaveLength(2);
    expect(inFile[0]).toMatch(
      new RegExp(
        `^In the file: Segment states: ${confirmed} of ${rows.length} segments confirmed; ${rows.length - confirmed} not: cancelled `,
      ),
    );
    expect(inFile[1]).toMatch(
      new RegExp(
        `^In the file: Rate is a rate per night, not a cost: spend is EstimatedCost, .*\\(${priced} stays? priced`,
      ),
    );
    // Nothing of the bookings' other lists: no car rentals' rates, no air segments' states.
    expect(inFile.join(' ')).not.toContain('rental');

    // The bookings whole: the notes are of every list they hold.
    const whole = await exported({ resultId: id, format: 'csv' });
    expect(whole.notes.some((n) => /^In the file: (Segment states: |All [\d,]+ segments are confirmed)/.test(n))).toBe(
      true,
    );
  });
});
