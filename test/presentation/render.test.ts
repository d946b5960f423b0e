import { describe, expect, it } from 'vitest';
import { ReportsError } from '../../src/errors.js';
import { renderQuery } from '../../src/presentation/query-text.js';
import { type ResultView, renderResult, renderResultParts } from '../../src/presentation/report-text.js';
import { estimateTokens, TEXT_CHAR_LIMIT } from '../../src/presentation/text-fit.js';
import { runQuery } from '../../src/results/query.js';
import { summarize } from '../../src/results/summarize.js';
import { coupons, generateCoupons, type Rec } from '../results/fixtures.js';

function view(records: Rec[], extra: Partial<ResultView> = {}): ResultView {
  return {
    report: 'ticket_coupons_by_status_code',
    source: 'demo',
    query: { DateStart: '20261101', DateEnd: '20261130', CouponCodeGroup: 'OPEN', DateTracker: 'T' },
    totalRecords: records.length,
    fetchedRecords: records.length,
    complete: true,
    notes: [],
    resultId: 'r_AAAABBBBCCCCDDDD',
    table: 'ticket_coupons_by_status_code_1',
    resourceUri: 'travel-reports://results/r_AAAABBBBCCCCDDDD',
    summary: summarize(records),
    records,
    ...extra,
  };
}

/** The table's data lines: after the header line, up to the first blank or prose line. */
function dataLines(text: string, header: string): string[] {
  const lines = text.split('\n');
  const start = lines.indexOf(header);
  expect(start).toBeGreaterThan(0);
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith('| ')) break;
    out.push(line);
  }
  return out;
}

/** The cells of a table line: '| a | b |' -> ['a', 'b']. */
function cells(line: string): string[] {
  expect(line.startsWith('| ') && line.endsWith(' |')).toBe(true);
  return line.slice(2, -2).split(' | ');
}

/** The table header: the line after '… rows (columns: …):'. */
function tableHeader(text: string): string {
  const lines = text.split('\n');
  return lines[lines.findIndex((l) => /\(columns: .*\):$/.test(l)) + 1];
}

const big = generateCoupons(100_000);
const bigView = view(big);

describe('renderResult', () => {
  const records = coupons();

  it('quotes a top value that holds a comma or a quote, or ends in a number, so its count reads apart', () => {
    const records: Rec[] = [
      ...Array.from({ length: 3 }, () => ({ Address: '297 Orchard Road, Chicago US', Phone: '+1 3096 7424' })),
      ...Array.from({ length: 2 }, () => ({ Address: 'Gate "B"', Phone: '+44 20 7946' })),
      { Address: 'Main Street', Phone: 'none' },
    ];
    const lines = renderResult(view(records, { report: 'hotel_segments' })).split('\n');
    expect(lines).toContain(
      '- Address: 3 distinct; top "297 Orchard Road, Chicago US" 3, "Gate \\"B\\"" 2, Main Street 1',
    );
    expect(lines).toContain('- Phone: 3 distinct; top "+1 3096 7424" 3, "+44 20 7946" 2, none 1');
  });

  it('states what was asked, how many and that it is complete, then the summary facts', () => {
    const text = renderResult(view(records));
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'ticket_coupons_by_status_code (demo data) DateStart=20261101 DateEnd=20261130 CouponCodeGroup=OPEN DateTracker=T: 12 records, complete.',
    );
    expect(lines).toContain('- Account: 4 distinct; top ACME 5, GLOBEX 4, INITECH 2, UMBRELLA 1');
    expect(lines).toContain('- FOPFare: sum 4,061.54; 0.99 to 1,500.00 (currency not stated by the service)');
    expect(lines).toContain('- FlightDate: 2026-10-31T12:00:00Z → 2026-11-30T22:00:00Z');
    expect(lines).toContain('- VndIssueDt: 2026-10-10T12:00:00Z → 2026-10-20T12:00:00Z; 1 empty');
    expect(lines).toContain('- IsVip: false 10, true 2');
    // All 12 records are listed as rows, so an all-unique field gets no summary line...
    expect(lines.some((l) => l.startsWith('- TktNumber:'))).toBe(false);
    // ...but it does when the rows show only some of them.
    expect(renderResult(view(records), { rowLimit: 5 }).split('\n')).toContain('- TktNumber: 12 distinct (all unique)');
    expect(lines).toContain('- Passengers: list, 0–1 items per record, 11 items in all; 1 empty');
    expect(lines).toContain('Empty in every record: ExchangedForTicket, Tax5Amt');
    expect(text).not.toContain('continue_report');
    expect(text).toContain('query_report {"resultId":"r_AAAABBBBCCCCDDDD"');
    expect(text).toContain('Next, per account: query_report {"resultId":"r_AAAABBBBCCCCDDDD","groupBy":["Account"]}');
    expect(text).toContain('All records as JSON: travel-reports://results/r_AAAABBBBCCCCDDDD');
  });

  it('shows the first rows as a pipe table of informative columns', () => {
    const text = renderResult(view(records));
    // The catalog's columns for this report, those the records have, in its order.
    const header = '| Passenger | Account | TktNumber | Carrier | FlightDate | RecordLocator |';
    expect(text).toContain(`All 12 rows (columns: ${cells(header).join(', ')}):`);
    const rows = dataLines(text, header);
    expect(rows).toHaveLength(12);
    expect(rows[0]).toBe('| SMITH/JOHN MR | ACME | 0011234567890 | AA | 2026-11-01T23:30:00-05:00 | K1AAAA |');
    expect(rows[4]).toBe('|  | ACME | 0011234567894 | BA | 2026-11-30T22:00:00Z | K5EEEE |');
  });

  it('honours rowLimit and fields (dot paths, lists), and rejects unknown fields', () => {
    const text = renderResult(view(records), {
      rowLimit: 3,
      fields: ['RecordLocator', 'summary.createdBy', 'TicketNumbers'],
    });
    expect(text).toContain('First 3 of 12 rows (columns: RecordLocator, Summary.CreatedBy, TicketNumbers):');
    expect(dataLines(text, '| RecordLocator | Summary.CreatedBy | TicketNumbers |')).toEqual([
      '| K1AAAA | AGENT | 0011234567890, 0011234567890X |',
      '| K2BBBB | WEB | 0011234567891 |',
      '| K3CCCC | AGENT | 0011234567892 |',
    ]);
    expect(() => renderResult(view(records), { fields: ['Nope'] })).toThrow(ReportsError);
    expect(() => renderResult(view(records), { fields: ['Nope'] })).toThrow(/fields: 'Nope' is not a field/);
  });

  it('says why a result is incomplete and what to call next', () => {
    const text = renderResult(
      view(records, { totalRecords: 80, fetchedRecords: 12, complete: false, notes: ['Stopped at maxRecords 12.'] }),
    );
    expect(text.split('\n')[0]).toMatch(/: 12 of 80 records fetched, INCOMPLETE \(see notes\)\.$/);
    expect(text).toContain('Note: Stopped at maxRecords 12.');
    expect(text).toContain('continue_report {"resultId":"r_AAAABBBBCCCCDDDD"} fetches the 68 records still missing.');
  });

  it('renders an empty result', () => {
    const text = renderResult(view([]));
    expect(text).toContain(': 0 records, complete.');
    expect(text).toContain('No records match these parameters at the service.');
    expect(text).not.toContain('Next');
  });

  it('stays compact by default for 50,000 realistic records', () => {
    const text = renderResult(view(big.slice(0, 50_000)));
    expect(text.length).toBeLessThan(16_000);
    expect(estimateTokens(text)).toBeLessThan(4_000);
    expect(text).toContain('50,000 records, complete.');
    expect(text).toContain('First 20 of 50,000 rows');
    expect(dataLines(text, tableHeader(text))).toHaveLength(20);
  });

  it('never exceeds 25,000 tokens, cuts on row boundaries and says how many rows were left out', () => {
    const text = renderResult(bigView, { rowLimit: 100_000 });
    expect(text.length).toBeLessThanOrEqual(TEXT_CHAR_LIMIT);
    expect(estimateTokens(text)).toBeLessThanOrEqual(25_000);
    const header = tableHeader(text);
    const rows = dataLines(text, header);
    const cols = cells(header).length;
    for (const row of rows) expect(cells(row)).toHaveLength(cols);
    const m = /(\d[\d,]*) of the 100,000 requested rows were left out/.exec(text);
    expect(m).not.toBeNull();
    expect(Number(m![1].replace(/,/g, '')) + rows.length).toBe(100_000);
    expect(text).toContain(`"offset":${rows.length}}`);
    expect(rows.length).toBeGreaterThan(500);
    expect(renderResultParts(bigView, { rowLimit: 100_000 })).toEqual({ text, rowsShown: rows.length });
    // Wide rows: every field as a column.
    const wide = renderResult(bigView, { rowLimit: 100_000, fields: Object.keys(big[0]) });
    expect(wide.length).toBeLessThanOrEqual(TEXT_CHAR_LIMIT);
    expect(wide).toMatch(/of the 100,000 requested rows were left out/);
  });

  it('estimateTokens is characters / 4, rounded up', () => {
    expect([estimateTokens(''), estimateTokens('abcd'), estimateTokens('abcde')]).toEqual([0, 1, 2]);
  });
});

describe('renderQuery', () => {
  const records = coupons();

  it('renders groups with their aggregates', () => {
    const args = { groupBy: ['Account'], aggregates: [{ fn: 'sum' as const, field: 'FOPFare' }], limit: 3 };
    const text = renderQuery(runQuery(records, args), {
      resultId: 'r_x',
      report: 'ticket_coupons_by_status_code',
      heldRecords: 12,
      args,
    });
    expect(text.split('\n')).toEqual([
      'query_report on r_x (ticket_coupons_by_status_code): 12 of 12 held records match (no filter).',
      '4 groups by Account, showing 1–3 of 4:',
      // FOPFare's currency is not in these records: the words stand beside every total.
      '| Account | count | sum_FOPFare | currency_FOPFare |',
      '| ACME | 5 | 1612.1 | currency not stated by the service |',
      '| GLOBEX | 4 | 866.44 | currency not stated by the service |',
      '| INITECH | 2 | 1575 | currency not stated by the service |',
      'More: query_report with the same arguments and "offset":3.',
    ]);
  });

  it('renders filtered rows and the filter', () => {
    const args = {
      where: [{ field: 'Account', op: 'eq' as const, value: 'INITECH' }],
      fields: ['RecordLocator', 'FOPFare'],
    };
    const text = renderQuery(runQuery(records, args), { resultId: 'r_x', heldRecords: 12, args, resourceUri: 'u://x' });
    expect(text.split('\n')).toEqual([
      'query_report on r_x: 2 of 12 held records match Account eq "INITECH".',
      'Rows (columns: RecordLocator, FOPFare):',
      '| RecordLocator | FOPFare |',
      '| KAJJJJ | 1500.00 |',
      '| KBKKKK | 75.00 |',
      'All records as JSON: u://x',
    ]);
  });

  it('keeps a 1,000-row page under the ceiling and gives the offset to continue from', () => {
    const rows = big.slice(0, 5000).map((r) => ({ ...r, Note: 'n'.repeat(200) }));
    const args = { offset: 2000, limit: 1000, fields: [...Object.keys(rows[0])] };
    const out = runQuery(rows, args);
    expect(out.rows).toHaveLength(1000);
    const text = renderQuery(out, { resultId: 'r_x', args });
    expect(text.length).toBeLessThanOrEqual(TEXT_CHAR_LIMIT);
    const m = /(\d[\d,]*) of the 1,000 rows on this page were left out/.exec(text);
    expect(m).not.toBeNull();
    const shown = 1000 - Number(m![1].replace(/,/g, ''));
    expect(text).toContain(`"offset":${2000 + shown}.`);
    const header = tableHeader(text);
    expect(dataLines(text, header)).toHaveLength(shown);
  });
});

describe('lists written under a row', () => {
  it('a record with very long lists still shows its row, its first items and how many lines were left out', () => {
    const remarks = Array.from({ length: 400 }, (_, i) => ({
      Remark: `REMARK ${i} ${'x'.repeat(90)}`,
      SequenceNbr: i,
    }));
    const lists = { Passengers: remarks, Itinerary: remarks, Notepads: remarks, VendorRemarks: remarks };
    const record = { RecordLocator: 'LONG01', Account: 'ACME', ...lists };
    const text = renderResult({
      ...view([record]),
      report: 'booking_details',
      query: { RecordLocator: 'LONG01' },
      summary: summarize([record]),
    });
    const lines = text.split('\n');
    expect(lines).toContain('| LONG01 | ACME |');
    expect(lines).toContain('  ↳ Passengers of LONG01: 400 items');
    expect(lines).toContain('  | Remark | SequenceNbr |');
    // A long value of an item keeps enough of itself to be read.
    expect(lines).toContain(`  | REMARK 0 ${'x'.repeat(90)} | 0 |`);
    // 30 items of a list at most, then the count of the rest...
    expect(lines).toContain('  ↳ … 370 more items of Passengers');
    expect(text).toMatch(/ {2}↳ … \d+ more lines of this record's lists: query_report with unnest reads them all/);
    expect(text.length).toBeLessThan(16_000);
  });
});
