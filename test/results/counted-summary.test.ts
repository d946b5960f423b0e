/**
 * The summary made from the values the fetch counted as it walked the records (ValueCounts,
 * PageSummary given counted pages) against summarize() over the final records: they must be
 * the same, field order, text samples and merged dates included, whatever order the pages
 * arrive in and whichever pages are replaced or cut after the walk.
 */
import { describe, expect, it } from 'vitest';
import { PageSummary } from '../../src/results/page-summary.js';
import { summarize } from '../../src/results/summarize.js';
import { RecordPass } from '../../src/upstream/paging/record-pass.js';
import { encodeServiceDate } from '../../src/upstream/service-date.js';
import { generateCoupons, rng } from './fixtures.js';

type Rec = Record<string, unknown>;

const stamp = (i: number) => Date.UTC(2026, 0, 1) + (i % 2_500) * 60_000;

/** Coupons with what makes a summary depend on more than counts: see each field's comment. */
function sentRecords(n: number, instants = false): Rec[] {
  const r = rng(11);
  return generateCoupons(n).map((c, i) => {
    const ms = Date.UTC(2026, 0, 1) + Math.floor(r() * 400) * 86_400_000;
    return {
      ...c,
      // Dates as the service writes them, one instant in two forms (merged into one value).
      Issued: i % 3 === 0 ? `/Date(${ms})/` : encodeServiceDate(ms, 0),
      Zoned: encodeServiceDate(ms + i * 1000, 330),
      ...(instants
        ? {
            // An instant per record until 2,500, then again in another form (merged).
            Stamp: i % 3 === 0 ? `/Date(${stamp(i)})/` : encodeServiceDate(stamp(i), 0),
            // Short texts that hardly repeat, past DEFER_MIN distinct: counted at the end;
            // on one page met after that, some dates (decoded all the same).
            Ref: i >= 4_500 && i < 5_000 && i % 2 ? encodeServiceDate(stamp(i), 0) : `R${i % 4_000}`,
          }
        : {}),
      Never: '/Date(-62135596800000-0000)/',
      Broken: i % 7 === 0 ? '/Date(oops)/' : '',
      // Numbers and numeric text in one field (5 and '5' are one value).
      Mixed: i % 2 ? String(i % 5) : i % 5,
      Flag: i % 4 === 0,
      Nights: i % 9 === 0 ? null : (i % 6) + 1,
      // Free text, first written late: the sample is the first in record order.
      Remarks: i < 37 ? '' : `remark ${i} with enough words to be free text rather than a category at all`,
      // An object in some records, a scalar in others, a list in others.
      Meta: i % 5 === 0 ? { Source: `S${i % 3}`, Seats: [i % 2] } : i % 5 === 1 ? `plain ${i % 4}` : [i % 3, 'x'],
      // Fields first met late, or only in records a page drops.
      ...(i >= 700 ? { LateField: i % 3 } : {}),
      ...(i % 97 === 1 ? { OnlyDropped: 'gone' } : {}),
    };
  });
}

interface Case {
  order: number[];
  /** Pages whose records are replaced (copied, as masking does) or cut (as the scope does). */
  replaced?: number[];
  cut?: number[];
  /** Pages never added (failed). */
  missing?: number[];
}

/** Walks pages as the fetch does (record pass, then the page callback) and summarises. */
function summariseAsFetched(sent: Rec[], pageSize: number, c: Case) {
  const pass = new RecordPass(true);
  const summary = new PageSummary();
  const held = new Map<number, Rec[]>();
  for (const k of c.order) {
    if (c.missing?.includes(k)) continue;
    const page = JSON.parse(JSON.stringify(sent.slice(k * pageSize, (k + 1) * pageSize))) as Rec[];
    pass.beginPage();
    for (const r of page) pass.record(r);
    const counted = { nested: pass.values.pageHasNested };
    let kept = page;
    if (c.replaced?.includes(k)) kept = page.map((r) => ({ ...r }));
    if (c.cut?.includes(k)) kept = page.filter((r) => !('OnlyDropped' in r) && Number(r.RN) % 3 !== 0);
    if (kept !== page) pass.values.uncountPage();
    summary.page(k * pageSize, kept, kept === page ? counted : undefined);
    held.set(k, kept);
  }
  const records = [...held.keys()].sort((a, b) => a - b).flatMap((k) => held.get(k) as Rec[]);
  return { got: summary.finish(records, { report: 'tickets_issued_by_number' }, pass.values), records, pass };
}

describe('the summary from counted values', () => {
  const sent = sentRecords(1_000);
  const cases: Array<[string, Case]> = [
    ['pages in order', { order: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }],
    ['pages in reverse', { order: [9, 8, 7, 6, 5, 4, 3, 2, 1, 0] }],
    [
      'pages shuffled, some replaced and some cut',
      { order: [3, 0, 6, 1, 9, 2, 8, 5, 4, 7], replaced: [6, 2], cut: [0, 4, 9] },
    ],
    ['every page cut', { order: [1, 0, 2, 3, 4, 5, 6, 7, 8, 9], cut: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] }],
    ['a failed page, the rest after the gap', { order: [5, 4, 3, 2, 1, 0, 9, 8, 7], missing: [6] }],
  ];
  for (const [name, c] of cases) {
    it(`equals summarize() over the records held: ${name}`, () => {
      const { got, records } = summariseAsFetched(sent, 100, c);
      const expected = summarize(records, { report: 'tickets_issued_by_number' });
      expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
    });
  }

  // Pages in a shuffled order; then some replaced and cut too (their values are then merged
  // with the counted ones by value, which would hide two codes for one value). Ref repeats
  // after 4,000 records: values met before its deferral are met again after it.
  const order = [4, 0, 7, 1, 11, 2, 9, 5, 3, 10, 6, 8];
  for (const c of [{ order }, { order, replaced: [10], cut: [3, 8] }] as Case[]) {
    it(`equals summarize() when fields are counted at the end of the fetch${c.cut ? ', pages cut' : ''}`, () => {
      const { got, records, pass } = summariseAsFetched(sentRecords(6_000, true), 500, c);
      expect(JSON.stringify(got)).toBe(JSON.stringify(summarize(records, { report: 'tickets_issued_by_number' })));
      const deferred = pass.values.fields.filter((f) => f.deferred !== undefined).map((f) => f.name);
      // Numbers and short texts; not texts that sharing holds once (dates, remarks).
      expect(deferred).toEqual(expect.arrayContaining(['RN', 'Ref']));
      for (const shared of ['Issued', 'Zoned', 'Stamp', 'Remarks']) expect(deferred).not.toContain(shared);
      // Each instant in two forms after the first 2,500 records, merged: one value each.
      const instants = new Set(records.map((r) => r.Stamp));
      expect(instants.size).toBe(c.cut ? 2_498 : 2_500);
      expect(got.fields.Stamp.distinct).toBe(instants.size);
      expect(got.fields.Ref.distinct).toBe(new Set(records.map((r) => r.Ref)).size);
      const refs = records.map((r) => String(r.Ref));
      expect(refs.filter((r) => r.startsWith('/Date('))).toEqual([]);
      expect(refs.filter((r) => r.endsWith('Z')).length).toBeGreaterThan(100);
    });
  }

  it('profiles what the records make it profile (so the comparison above covers it)', () => {
    const { got } = summariseAsFetched(sent, 100, cases[2][1]);
    const { fields } = got;
    expect(fields.Issued).toMatchObject({ kind: 'date', nulls: 0 });
    expect(fields.Issued.distinct).toBeLessThanOrEqual(400);
    expect(fields.Remarks.kind).toBe('text');
    expect(fields.Remarks.sample).toMatch(/^remark 37 /);
    expect(fields.Mixed.distinct).toBe(5);
    expect(fields.Flag.kind).toBe('boolean');
    expect(fields['Meta.Source']?.distinct).toBe(3);
    expect(got.emptyFields).toContain('Never');
    // Past the 40 fields profiled, in the order first met.
    expect(got.otherFields?.slice(-2)).toEqual(['OnlyDropped', 'LateField']);
    const all = summariseAsFetched(sent, 100, cases[3][1]).got;
    expect(all.otherFields?.includes('OnlyDropped')).toBe(false);
    expect(all.otherFields?.includes('LateField')).toBe(true);
    expect(fields.FOPFare.sumByCurrency ?? fields.FOPFare.currency ?? fields.FOPFare.currencyNote).toBeDefined();
  });
});
