/**
 * Days as dates (src/results/day-dates.ts): only a field whose every value is midnight with no
 * offset becomes YYYY-MM-DD, at the top level and inside lists and objects; the summary's
 * earliest and latest follow; records held from an earlier call (already days) count as days.
 */
import { describe, expect, it } from 'vitest';
import { writeDaysAsDates } from '../../src/results/day-dates.js';
import { summarize } from '../../src/results/summarize.js';

type Rec = Record<string, unknown>;
const day = (d: string) => `${d}T00:00:00.000Z`;

describe('writeDaysAsDates', () => {
  it('writes all-midnight fields as days, keeps a field with one time of day whole', () => {
    const records: Rec[] = [
      {
        Due: day('2026-11-09'),
        At: day('2026-11-09'),
        Off: '2026-11-09T00:00:00.000+08:00',
        Dues: [{ D: day('2026-11-10') }],
      },
      {
        Due: day('2026-11-12'),
        At: '2026-11-12T00:00:01.000Z',
        Off: null,
        Dues: [{ D: day('2026-11-11') }, { D: null }],
      },
      { Due: null, At: null, Off: null, Dues: [] },
    ];
    const summary = summarize(records);
    const days = writeDaysAsDates(records, summary);
    expect(days.sort()).toEqual(['Due', 'Dues.D']);
    expect(records.map((r) => r.Due)).toEqual(['2026-11-09', '2026-11-12', null]);
    expect(records.map((r) => r.At)).toEqual([day('2026-11-09'), '2026-11-12T00:00:01.000Z', null]);
    expect(records[0].Off).toBe('2026-11-09T00:00:00.000+08:00');
    expect((records[1].Dues as Rec[]).map((x) => x.D)).toEqual(['2026-11-11', null]);
    expect(summary.fields.Due).toMatchObject({ kind: 'date', min: '2026-11-09', max: '2026-11-12' });
    expect(summary.fields.At).toMatchObject({ min: day('2026-11-09') });
  });

  it('a field of days held from an earlier call and new midnight values is still days', () => {
    const records: Rec[] = [{ Due: '2026-11-09' }, { Due: day('2026-11-10') }];
    expect(writeDaysAsDates(records, summarize(records))).toEqual(['Due']);
    expect(records.map((r) => r.Due)).toEqual(['2026-11-09', '2026-11-10']);
  });

  it('a text, a number or no value at all leaves a field as it is', () => {
    const records: Rec[] = [
      { Due: day('2026-11-09'), N: 5 },
      { Due: 'soon', N: 6 },
    ];
    expect(writeDaysAsDates(records, summarize(records))).toEqual([]);
    expect(records[0].Due).toBe(day('2026-11-09'));
    expect(writeDaysAsDates([], undefined)).toEqual([]);
  });
});
