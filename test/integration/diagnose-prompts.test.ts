/**
 * diagnose_connection (demo mode, and with the server's clock 10 minutes ahead of the
 * service's), the four prompts, and the result resources (JSON and CSV) through a real
 * SDK Client.
 */

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseCsv } from '../helpers/csv-parse.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';
import { readAllRecords } from '../helpers/resources.js';

interface Check {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
}
interface Diagnosis {
  verdict: 'ok' | 'problem';
  source: 'live' | 'demo';
  checks: Check[];
}

const CLOCK_FIX =
  'Correct the system clock (enable NTP time sync): each request carries its time and is refused when the clocks disagree by minutes.';

let s: InProcess;
beforeAll(async () => {
  s = await startInProcess();
});
afterAll(async () => {
  await s?.close();
});

function diagnosis(result: CallToolResult): Diagnosis {
  expect(result.isError, textOf(result)).toBeFalsy();
  return result.structuredContent as unknown as Diagnosis;
}

describe('diagnose_connection', () => {
  test('demo mode: verdict ok with the mode, settings, reach, clock and signed-request checks; no key', async () => {
    const before = s.rt.sandbox!.requests.length;
    const result = await s.call('diagnose_connection', {});
    const d = diagnosis(result);
    expect(d.verdict).toBe('ok');
    expect(d.source).toBe('demo');
    expect(d.checks.map((c) => [c.check, c.ok])).toEqual([
      ['mode', true],
      ['settings', true],
      ['reach the service', true],
      ['clock', true],
      ['signed request', true],
    ]);
    const byName = Object.fromEntries(d.checks.map((c) => [c.check, c]));
    expect(byName.mode.detail).toBe(
      'demo mode: the embedded sandbox answers with synthetic data, signed and paged like the real service.',
    );
    expect(byName.settings.detail).toContain('time zone UTC; page size 500; concurrency 4; max records 50000');
    // The gap is measured on a shared, loaded machine: its size is not asserted, only the verdict.
    expect(byName.clock.detail).toMatch(/^agrees with the service's \(within \d+ s\)$/);
    expect(byName['signed request'].detail).toMatch(
      /^accepted; \/AppUsersActivity answered with \d+ records for today$/,
    );
    // One signed request, really sent and accepted.
    const sent = s.rt.sandbox!.requests.slice(before);
    expect(sent.map((r) => [r.path, r.status])).toEqual([['/AppUsersActivity', 200]]);

    const text = textOf(result);
    expect(text.split('\n')[0]).toBe('Connection OK (demo mode: synthetic data from the embedded sandbox).');
    expect(text).toContain('✓ signed request: accepted;');
    expect(text).not.toContain(s.rt.sandbox!.key);
    expect(JSON.stringify(result)).not.toContain(s.rt.sandbox!.key);
  });

  test("the server's clock 10 minutes ahead: the service refuses; verdict problem, the clock check says ahead of, with a fix", async () => {
    const skewed = await startInProcess({ now: () => new Date(Date.now() + 600_000) });
    try {
      const result = await skewed.call('diagnose_connection', {});
      const d = diagnosis(result);
      expect(d.verdict).toBe('problem');
      const clock = d.checks.find((c) => c.check === 'clock')!;
      expect(clock.ok).toBe(false);
      expect(clock.detail).toMatch(
        /^the local clock is (?:9 min 59 s|10 min [01] s) ahead of the service's \(its Date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT\)$/,
      );
      expect(clock.fix).toBe(CLOCK_FIX);
      const signed = d.checks.find((c) => c.check === 'signed request')!;
      expect(signed.ok).toBe(false);
      expect(signed.detail).toContain('(HTTP 401)');
      expect(signed.detail).toContain(
        'RequestExpired: X-SERVICE-API-DATE is more than 5 minutes ahead of the service clock',
      );
      expect(skewed.rt.sandbox!.requests.map((r) => r.status)).toEqual([401]);

      const text = textOf(result);
      expect(text.split('\n')[0]).toBe('Connection problem: clock, signed request.');
      expect(text).toContain(`\n  fix: ${CLOCK_FIX}`);
      expect(text).not.toContain(skewed.rt.sandbox!.key);

      // A report call on that server fails the same way and says to correct the clock.
      const report = await skewed.call('air_segments_by_date', { DateStart: 'today-1', DateEnd: 'today' });
      expect(report.isError).toBe(true);
      expect(textOf(report)).toMatch(
        /^air_segments_by_date failed \(auth\): The service refused the credentials for \/AirSegmentsByDate \(HTTP 401\)\. .*ahead of the service's .*correct the system clock\./,
      );
      expect(textOf(report)).not.toContain(skewed.rt.sandbox!.key);
    } finally {
      await skewed.close();
    }
  });
});

describe('prompts', () => {
  test('prompts/list has the four prompts with their arguments', async () => {
    const { prompts } = await s.client.listPrompts();
    expect(prompts.map((p) => [p.name, p.arguments?.map((a) => [a.name, a.required])])).toEqual([
      [
        'open_unused_tickets_review',
        [
          ['dateStart', false],
          ['dateEnd', false],
          ['account', false],
        ],
      ],
      [
        'traveller_tracking',
        [
          ['destination', true],
          ['dateStart', false],
          ['dateEnd', false],
        ],
      ],
      [
        'problematic_segments_for_pcc',
        [
          ['pcc', true],
          ['days', false],
        ],
      ],
      [
        'hotel_attachment',
        [
          ['dateStart', true],
          ['dateEnd', true],
          ['account', false],
        ],
      ],
    ]);
    for (const p of prompts) {
      expect(p.description!.length).toBeGreaterThan(20);
      for (const a of p.arguments ?? []) expect(a.description!.length, `${p.name}.${a.name}`).toBeGreaterThan(5);
    }
  });

  const cases: Array<[string, Record<string, string>, string[], string[]]> = [
    [
      'open_unused_tickets_review',
      { dateStart: 'today-30', dateEnd: 'today+60', account: 'ACME' },
      ['ticket_coupons_by_status_code', 'query_report', 'continue_report'],
      [
        'DateStart "today-30"',
        'DateEnd "today+60"',
        'Account "ACME"',
        'for account ACME',
        'CouponCodeGroup "OPEN"',
        'DateTracker "E"',
      ],
    ],
    [
      'traveller_tracking',
      { destination: 'SIN', dateStart: '20261201', dateEnd: '20261207' },
      ['travellers_at', 'query_report'],
      [
        'in, arriving at or leaving SIN between 20261201 and 20261207',
        'place "SIN"',
        'from "20261201"',
        'to "20261207"',
      ],
    ],
    [
      'problematic_segments_for_pcc',
      { pcc: '1ABC', days: '21' },
      ['problematic_segments', 'query_report'],
      [
        'PCC 1ABC',
        'next 21 days',
        'OwningAgencyLocationID "1ABC"',
        'DepartureDateStart "today"',
        'DepartureDateEnd "today+21"',
      ],
    ],
    [
      'hotel_attachment',
      { dateStart: 'today-30', dateEnd: 'today', account: 'HOOLI' },
      ['hotel_segment_counts_per_location', 'hotel_segments', 'air_segments_by_date', 'query_report'],
      ['between today-30 and today for HOOLI', 'DateStart "today-30"', 'DateEnd "today"', 'Account "HOOLI"'],
    ],
  ];

  let tools: Set<string> | undefined;
  test.each(cases)(
    'getPrompt %s: a user message naming the tools and the argument values',
    async (name, args, toolsNamed, phrases) => {
      const prompt = await s.client.getPrompt({ name, arguments: args });
      expect(prompt.messages).toHaveLength(1);
      const [message] = prompt.messages;
      expect(message.role).toBe('user');
      expect(message.content.type).toBe('text');
      const text = (message.content as { text: string }).text;
      tools ??= new Set((await s.client.listTools()).tools.map((t) => t.name));
      for (const tool of toolsNamed) {
        expect(tools.has(tool), `${tool} is a tool`).toBe(true);
        expect(text).toContain(tool);
      }
      for (const phrase of phrases) expect(text).toContain(phrase);
    },
  );

  test('defaults fill the optional arguments; a missing required one is refused', async () => {
    const prompt = await s.client.getPrompt({ name: 'problematic_segments_for_pcc', arguments: { pcc: '2DEF' } });
    expect((prompt.messages[0].content as { text: string }).text).toContain('DepartureDateEnd "today+14"');
    await expect(s.client.getPrompt({ name: 'traveller_tracking', arguments: {} })).rejects.toThrow(/destination/);
  });
});

describe('result resources', () => {
  let air: { resultId: string; resourceUri: string; fetchedRecords: number };
  let coupons: { resultId: string; resourceUri: string; fetchedRecords: number };

  beforeAll(async () => {
    const a = await s.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261114' });
    const c = await s.call('ticket_coupons_by_status_code', {
      DateStart: '20261001',
      DateEnd: '20261114',
      CouponCodeGroup: 'ALL',
      DateTracker: 'I',
    });
    expect(a.isError, textOf(a)).toBeFalsy();
    expect(c.isError, textOf(c)).toBeFalsy();
    air = a.structuredContent as typeof air;
    coupons = c.structuredContent as typeof coupons;
    expect(air.fetchedRecords).toBeGreaterThan(20);
    expect(coupons.fetchedRecords).toBeGreaterThan(20);
  });

  test('resources/list lists the held results, latest first', async () => {
    const { resources } = await s.client.listResources();
    const mine = resources.filter((r) => r.uri === air.resourceUri || r.uri === coupons.resourceUri);
    expect(mine.map((r) => [r.uri, r.name, r.mimeType])).toEqual([
      [coupons.resourceUri, `ticket_coupons_by_status_code ${coupons.resultId}`, 'application/json'],
      [air.resourceUri, `air_segments_by_date ${air.resultId}`, 'application/json'],
    ]);
    expect(mine[1].description).toMatch(
      new RegExp(`^${air.fetchedRecords} records of air_segments_by_date, fetched \\d{4}-\\d{2}-\\d{2}T`),
    );
  });

  test.each(['air', 'coupons'] as const)(
    "%s: the .csv resource has the JSON records' header and one row per record, cell by cell",
    async (which) => {
      const held = which === 'air' ? air : coupons;
      const records = await readAllRecords(s.client, held.resourceUri);
      expect(records).toHaveLength(held.fetchedRecords);

      const csv = await s.client.readResource({ uri: `${held.resourceUri}.csv` });
      expect(csv.contents[0]).toMatchObject({ uri: `${held.resourceUri}.csv`, mimeType: 'text/csv' });
      const rows = parseCsv((csv.contents[0] as { text: string }).text);
      const header = [...new Set(records.flatMap((r) => Object.keys(r)))];
      expect(rows[0]).toEqual(header);
      expect(rows).toHaveLength(records.length + 1);
      const cell = (v: unknown) =>
        v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
      records.forEach((r, i) => expect(rows[i + 1]).toEqual(header.map((h) => cell(r[h]))));
    },
  );

  test('an unknown result is not readable', async () => {
    await expect(s.client.readResource({ uri: 'reports://results/r_doesNotExist' })).rejects.toThrow(
      /No result 'r_doesNotExist' is held/,
    );
    await expect(s.client.readResource({ uri: 'reports://results/r_doesNotExist.csv' })).rejects.toThrow(
      /No result 'r_doesNotExist' is held/,
    );
  });
});
