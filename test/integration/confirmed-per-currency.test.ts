/**
 * A sum per currency over segments not all confirmed (results/summarize.ts, sumConfirmedApart):
 * "FareAmount: NZD 82,750.88" read as the fares of travel counted cancelled and waitlisted
 * segments too. Each currency's sum over the confirmed segments now leads, every state's in
 * brackets, as a sum in one currency already did. Through a real SDK client to the server
 * against a service on 127.0.0.1 answering air segments in three currencies; the expected
 * sums are worked out here from the records sent and the GDS codes they carry.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, test } from 'vitest';
import { startHostileUpstream, window } from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';
import { textOf } from '../helpers/mcp.js';

type Rec = Record<string, unknown>;

/** HK and TK hold the seat; HX, UN cancelled and HL waitlisted do not. */
const STATUSES = ['HK', 'HX', 'TK', 'HL', 'HK', 'UN', 'HK'];
const CONFIRMED = new Set(['HK', 'TK']);
/** Currencies by record, and the minor units each has (ISO 4217). */
const CURRENCIES = ['NZD', 'USD', 'JPY', 'NZD', 'USD'];
const DIGITS: Record<string, number> = { NZD: 2, USD: 2, JPY: 0, AUD: 2 };

/** Air segment i: its fare in its currency's minor units; tax only on a confirmed segment. */
function segment(i: number): Rec {
  const status = STATUSES[i % STATUSES.length];
  const currency = CURRENCIES[i % CURRENCIES.length];
  const minor = 10 ** DIGITS[currency];
  return {
    RecordLocator: `LOC${String(i).padStart(3, '0')}`,
    SegmentStatus: status,
    FareAmount: (41_000 + i * 1_237 + (i % 3)) / minor,
    FareCurrency: currency,
    TaxAmount: CONFIRMED.has(status) ? (900 + i * 11) / 100 : null,
    CurrencyCode: 'AUD',
  };
}

const RECORDS = Array.from({ length: 40 }, (_, i) => segment(i));

/** Sum in minor units per currency of the records `keep` keeps. */
function minorSums(keep: (r: Rec) => boolean): Map<string, number> {
  const out = new Map<string, number>();
  for (const r of RECORDS.filter(keep)) {
    const currency = String(r.FareCurrency);
    const minor = Math.round(Number(r.FareAmount) * 10 ** DIGITS[currency]);
    out.set(currency, (out.get(currency) ?? 0) + minor);
  }
  return out;
}

/** An amount in minor units as the text writes it: its currency's decimals, thousands marked. */
function written(minor: number, currency: string): string {
  const d = DIGITS[currency];
  return (minor / 10 ** d).toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
}

interface Answer {
  summary: { fields: Record<string, Rec> };
}

describe('sums per currency over segments not all confirmed', () => {
  test("each currency's confirmed sum leads, every state's beside it, as a sum in one currency's does", async () => {
    // One fetch: the service and the server end before the answer is read.
    const upstream = await startHostileUpstream(async (req) => ({ body: window(RECORDS, req) }));
    let live: LiveServer | undefined;
    let result: CallToolResult;
    try {
      live = await startLive(upstream.url, { REPORTS_PAGE_SIZE: '15' });
      result = await live.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261130' });
    } finally {
      await live?.close();
      await upstream.close();
    }
    expect(result.isError, textOf(result).slice(0, 300)).toBeFalsy();
    const { fields } = (result.structuredContent as unknown as Answer).summary;

    const every = minorSums(() => true);
    const confirmed = minorSums((r) => CONFIRMED.has(String(r.SegmentStatus)));
    const notConfirmed = RECORDS.filter((r) => !CONFIRMED.has(String(r.SegmentStatus))).length;
    // Records per currency: NZD and USD 16 each, JPY 8; ties by currency.
    const order = ['NZD', 'USD', 'JPY'];
    const fare = fields.FareAmount.sumByCurrency as {
      field: string;
      notConfirmed: number;
      sums: Array<{ currency: string; sum: number; confirmedSum: number }>;
    };
    expect(fare.field).toBe('FareCurrency');
    expect(fare.notConfirmed).toBe(notConfirmed);
    expect(fare.sums.map((s) => s.currency)).toEqual(order);
    for (const s of fare.sums) {
      const d = DIGITS[s.currency];
      expect([Math.round(s.confirmedSum * 10 ** d), Math.round(s.sum * 10 ** d)], s.currency).toEqual([
        confirmed.get(s.currency),
        every.get(s.currency),
      ]);
      expect(confirmed.get(s.currency)).toBeLessThan(every.get(s.currency) as number);
    }
    const items = order.map(
      (c) => `${c} ${written(confirmed.get(c) as number, c)} (${written(every.get(c) as number, c)})`,
    );
    expect(textOf(result)).toContain(
      '- FareAmount: confirmed sum per FareCurrency, never added across currencies (in brackets where it ' +
        `differs: over every state, ${notConfirmed} not confirmed): ${items.join(', ')}\n`,
    );

    // Tax is carried by confirmed segments only, in one currency: the two sums are equal, and say so.
    const tax = written(
      RECORDS.reduce((n, r) => n + Math.round(Number(r.TaxAmount ?? 0) * 100), 0),
      'AUD',
    );
    expect(textOf(result)).toContain(
      `- TaxAmount: sum ${tax} AUD confirmed (${tax} AUD over every state, ${notConfirmed} not confirmed); `,
    );
  });
});
