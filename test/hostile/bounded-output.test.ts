/**
 * Item 4 of the hostile-data issue: whatever the service sends, no JSON-RPC message the server
 * writes exceeds 1 MB and no text 100,000 characters; long values are cut with a marker giving
 * their length; a held result is read in resource pages of at most 1 MB, JSON and CSV alike.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type HostileUpstream, startHostileUpstream, window } from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';
import { textOf } from '../helpers/mcp.js';
import { readAllCsv, readAllRecords, readPage } from '../helpers/resources.js';

const MB = 1_048_576;
let upstream: HostileUpstream | undefined;
let live: LiveServer | undefined;
afterEach(async () => {
  await live?.close();
  await upstream?.close();
  live = upstream = undefined;
});

function airSegment(i: number): Record<string, unknown> {
  return {
    ServiceRef: 100_000 + i,
    RecordLocator: `L${String(i).padStart(5, '0')}`,
    PNRCreationDate: `/Date(${1_790_000_000_000 + i * 1000}-0000)/`,
    OwningAgencyLocationID: 'SYD1A',
    OwningConsultant: `Consultant ${i % 37}`,
    Account: `ACCOUNT-${i % 113}`,
    Passengers: `TRAVELLER${i}/GIVEN${i} MR`,
    DepartureDate: `/Date(${1_795_000_000_000 + i * 60_000}+1100)/`,
    DepartureTime: '09:30',
    ArrivalDate: `/Date(${1_795_000_000_000 + i * 60_000 + 3_600_000}+1100)/`,
    ArrivalTime: '10:30',
    CarrierCode: 'QF',
    BoardPoint: 'SYD',
    OffPoint: 'MEL',
    FlightNbr: String(400 + (i % 50)),
    BookingCode: 'Y',
    CreatingAgencyIata: '02312345',
    SegmentStatus: 'HK',
  };
}

/** Checks every message the server wrote so far against the limits; returns the largest. */
function checkSent(l: LiveServer): number {
  for (const m of l.sent) {
    expect(Buffer.byteLength(m)).toBeLessThanOrEqual(MB);
    const msg = JSON.parse(m) as { result?: { content?: Array<{ text?: string }>; structuredContent?: unknown } };
    for (const c of msg.result?.content ?? []) expect((c.text ?? '').length).toBeLessThanOrEqual(100_000);
    if (msg.result?.structuredContent !== undefined)
      expect(JSON.stringify(msg.result.structuredContent).length).toBeLessThanOrEqual(100_000);
  }
  return l.largestMessage();
}

describe('every message bounded', () => {
  test('a record with a 12 MB field: the call answers within 1 MB, the value cut with its length everywhere', async () => {
    const big = 'X'.repeat(12_000_000);
    const records = [{ ...airSegment(0), ServiceInformation: big }, airSegment(1), airSegment(2)];
    upstream = await startHostileUpstream((req) => ({ body: window(records, req, true) }));
    live = await startLive(upstream.url);
    const result = await live.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261110' });
    expect(result.isError, textOf(result).slice(0, 500)).toBeFalsy();
    const sc = result.structuredContent as { resourceUri: string; fetchedRecords: number; complete: boolean };
    expect(sc.fetchedRecords).toBe(3);
    expect(JSON.stringify(result)).toContain('…[cut: 12,000,000 characters in all]');

    const page = await readPage(live.client, sc.resourceUri);
    expect(page).toMatchObject({ page: 1, pages: 1, next: null, csv: `${sc.resourceUri}.csv` });
    expect(page.records).toHaveLength(3);
    const info = String(page.records[0].ServiceInformation);
    expect(info.startsWith('XXXX')).toBe(true);
    expect(info.endsWith('…[cut: 12,000,000 characters in all]')).toBe(true);
    expect(page.records[1]).toMatchObject({ RecordLocator: 'L00001', DepartureDate: '2026-11-18T22:07:40.000+11:00' });
    const csv = await readAllCsv(live.client, sc.resourceUri);
    expect(csv).toContain('…[cut: 12,000,000 characters in all]');
    expect(csv.split('\r\n')).toHaveLength(5); // header, 3 records, final line end
    const largest = checkSent(live);
    expect(largest).toBeGreaterThan(100_000);
    console.error(`[bounded-output] 12 MB field: largest message ${largest} bytes`);
  });

  test('20,000 air segments: the JSON and CSV resources come in pages under 1 MB holding every record once', async () => {
    const records = Array.from({ length: 20_000 }, (_, i) => airSegment(i));
    upstream = await startHostileUpstream((req) => ({ body: window(records, req, true) }));
    live = await startLive(upstream.url, { REPORTS_PAGE_SIZE: '5000' });
    const result = await live.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261110' });
    const sc = result.structuredContent as { resourceUri: string; fetchedRecords: number; complete: boolean };
    expect(sc).toMatchObject({ fetchedRecords: 20_000, complete: true });

    const first = await readPage(live.client, sc.resourceUri);
    expect(first.pages).toBeGreaterThan(1);
    const held = await readAllRecords(live.client, sc.resourceUri);
    expect(held.map((r) => r.RecordLocator)).toEqual(records.map((r) => r.RecordLocator));
    expect(held[19_999]).toMatchObject({ ServiceRef: 119_999, Passengers: 'TRAVELLER19999/GIVEN19999 MR' });

    const csv = await readAllCsv(live.client, sc.resourceUri);
    const lines = csv.split('\r\n');
    // The service's columns, then the fields the server derives for air segments.
    const derived = ['SegmentState', 'BoardCity', 'OffCity', 'BoardCountry', 'OffCountry'];
    expect(lines[0]).toBe([...Object.keys(records[0]), ...derived].join(','));
    expect(lines).toHaveLength(20_002);
    expect(lines[20_000].startsWith('119999,L19999,')).toBe(true);

    await expect(live.client.readResource({ uri: `${sc.resourceUri}?page=${first.pages + 1}` })).rejects.toThrow(
      `page: ${first.pages + 1} is past the last page`,
    );
    const largest = checkSent(live);
    console.error(
      `[bounded-output] 20,000 air segments in ${first.pages} JSON pages: largest message ${largest} bytes`,
    );
  });
});
