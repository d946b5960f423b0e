import { describe, expect, it } from 'vitest';
import { findTransaction } from '../../src/catalog/transactions.js';
import { inHouseNote, LOOKBACK_DAYS, nightsWindow } from '../../src/results/nights-window.js';

const meaning = findTransaction('hotel_segments')?.answer.meaning?.nightsInWindow;
if (!meaning) throw new Error('hotel_segments declares no nightsInWindow');
const day = (iso: string) => Date.parse(iso) / 86_400_000;

describe('the window NightsInWindow counts in', () => {
  it('is the query window when it selects stays by arrival date, sent or by default', () => {
    const window = { from: day('2026-10-01'), to: day('2026-10-31') };
    expect(nightsWindow(meaning, { DateStart: '20261001', DateEnd: '20261031' })).toEqual(window);
    expect(nightsWindow(meaning, { DateStart: '20261001', DateEnd: '20261031', DateSearchType: 'A' })).toEqual(window);
  });

  it('is none for a window of booking or segment creation dates, or without both dates', () => {
    for (const basis of ['C', 'S'])
      expect(nightsWindow(meaning, { DateStart: '20261001', DateEnd: '20261031', DateSearchType: basis })).toBe(
        undefined,
      );
    expect(nightsWindow(meaning, { DateStart: '20261001' })).toBe(undefined);
    expect(inHouseNote(meaning, { DateStart: '20261001', DateEnd: '20261031', DateSearchType: 'C' })).toBe(undefined);
  });

  it('names the stays it leaves out and the fetch that takes them in, across a year end', () => {
    const note = inHouseNote(meaning, { DateStart: '20260105', DateEnd: '20261231' }) ?? '';
    expect(LOOKBACK_DAYS).toBe(30);
    expect(note).toContain('stays already in-house on 20260105 are not here');
    expect(note).toContain('fetch from DateStart=20251206 (30 days before)');
    expect(note).toContain("julianday(MIN(substr(DepartureDate,1,10), '2027-01-01'))");
    expect(note).toContain("julianday(MAX(substr(ArrivalDate,1,10), '2026-01-05'))");
    expect(note.length).toBeLessThanOrEqual(400);
  });
});
