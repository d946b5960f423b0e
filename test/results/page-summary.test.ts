import { describe, expect, it } from 'vitest';
import { PageSummary } from '../../src/results/page-summary.js';
import { summarize } from '../../src/results/summarize.js';
import { generateCoupons } from './fixtures.js';

describe('PageSummary (the summary built page by page as pages arrive)', () => {
  // Heterogeneous records: a field first seen late, a mixed-type field, a text field, so field
  // order, merged counts and the text sample all depend on record order.
  const records = generateCoupons(2_000).map((r, i) => ({
    ...r,
    ...(i >= 1_500 ? { LateField: i % 3 } : {}),
    Mixed: i % 2 ? String(i % 5) : i % 5,
    Remarks: `remark number ${i} with enough words to be free text rather than a category of any kind`,
  }));
  const pages = Array.from({ length: 8 }, (_, k) => ({
    offset: k * 250,
    records: records.slice(k * 250, k * 250 + 250),
  }));

  it('equals summarize() over all records, whatever order the pages arrive in', () => {
    const expected = summarize(records);
    for (const order of [
      [0, 1, 2, 3, 4, 5, 6, 7],
      [7, 6, 5, 4, 3, 2, 1, 0],
      [3, 0, 6, 1, 7, 2, 5, 4],
    ]) {
      const s = new PageSummary();
      for (const k of order) s.page(pages[k].offset, pages[k].records);
      const got = s.finish(records);
      expect(got).toEqual(expected);
      expect(JSON.stringify(got)).toBe(JSON.stringify(expected));
    }
    expect(expected.fields.LateField).toBeDefined();
    expect(expected.fields.Remarks.kind).toBe('text');
  });

  it('counts pages after a gap (a failed page) too, in offset order', () => {
    const kept = pages.filter((_, k) => k !== 2);
    const held = kept.flatMap((p) => p.records);
    const s = new PageSummary();
    for (const p of [...kept].reverse()) s.page(p.offset, p.records);
    const summary = s.finish(held);
    expect(summary.recordCount).toBe(1_750);
    expect(JSON.stringify(summary)).toBe(JSON.stringify(summarize(held)));
  });
});
