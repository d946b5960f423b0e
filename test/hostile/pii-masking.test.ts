/**
 * Item 3 of the hostile-data issue: with REPORTS_REDACT_PII, masking works from what a result
 * contains. Traveller names seen anywhere in a result are masked wherever they appear (short
 * ones too), GDS-written names in free text of records without a name field, e-mails in any
 * script and phones without separators by pattern, fields of unpublished reports (also as
 * query_report group keys), and service error messages.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type HostileUpstream, page, startHostileUpstream, window } from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';
import { textOf } from '../helpers/mcp.js';
import { readAllCsv, readAllRecords } from '../helpers/resources.js';

let upstream: HostileUpstream | undefined;
let live: LiveServer | undefined;
afterEach(async () => {
  await live?.close();
  await upstream?.close();
  live = upstream = undefined;
});

const SECRETS = [
  'QUIXWORTH',
  'GWENDOLYN',
  'NG',
  'WU',
  'LI',
  'ZEBEDEE',
  'OYELARAN',
  '0412555020',
  'josé.müller@exämple.de',
  'gwen@example.com',
];

/** Every secret found as a whole word (names) or a substring (the rest) in `text`. */
function leaks(text: string): string[] {
  return SECRETS.filter((s) =>
    /^[A-Z]+$/.test(s) ? new RegExp(`(?<![\\p{L}])${s}(?![\\p{L}])`, 'u').test(text) : text.includes(s),
  );
}

/** Everything a client can see of a held result: the call, rows, groups, JSON and CSV pages. */
async function everything(l: LiveServer, tool: string, args: Record<string, unknown>, groupBy: string[]) {
  const result = await l.call(tool, args);
  expect(result.isError, textOf(result).slice(0, 400)).toBeFalsy();
  const sc = result.structuredContent as { resultId: string; resourceUri: string };
  const rows = await l.call('query_report', { resultId: sc.resultId, limit: 100 });
  const groups = await l.call('query_report', { resultId: sc.resultId, groupBy, aggregates: [{ fn: 'count' }] });
  const json = await readAllRecords(l.client, sc.resourceUri);
  const csv = await readAllCsv(l.client, sc.resourceUri);
  return [JSON.stringify(result), JSON.stringify(rows), JSON.stringify(groups), JSON.stringify(json), csv].join('\n');
}

describe('PII masking from what the result contains', () => {
  test('names in free text of records with no name field, written SURNAME/GIVEN', async () => {
    const records = [
      {
        LogCheckId: 1,
        RecordLocator: 'ABC123',
        LogMessage: 'Submission failed for passenger QUIXWORTH/GWENDOLYN',
        RawResponse: '<Error pax="QUIXWORTH/GWENDOLYN MRS">Duplicate name</Error>',
        EventType: 'SUBMIT',
        Account: 'ACME',
      },
      { LogCheckId: 2, RecordLocator: 'DEF456', LogMessage: 'Routing LHR/JFK refused', Account: 'ACME' },
    ];
    upstream = await startHostileUpstream((req) => ({ body: window(records, req) }));
    live = await startLive(upstream.url, { REPORTS_REDACT_PII: 'true' });
    const out = await everything(live, 'check_failed_submissions', {}, ['Account']);
    expect(leaks(out)).toEqual([]);
    expect(out).toContain('Traveller-');
    expect(out).toContain('Routing LHR/JFK refused'); // airport pairs are not names
  });

  test('short names (NG, WU, LI) from a name field, masked in remarks, notepads, itineraries and custom fields', async () => {
    const records = [
      {
        ServiceRef: 1,
        RecordLocator: 'GHI789',
        Passenger: 'NG/WU MR',
        HotelNotepad: 'Call NG before check-in; WU paid by card 0412555020',
        ItineraryFormatted: 'HTL SYD 12NOV NG/WU + LI',
        CustomFields: [
          { FieldName: 'Traveller', FieldValue: 'LI' },
          { FieldName: 'Contact', FieldValue: 'josé.müller@exämple.de' },
        ],
        ServiceInformation: 'Guest LI arrives late',
        CityCode: 'SYD',
        Account: 'ACME',
      },
      { ServiceRef: 2, RecordLocator: 'JKL012', Passenger: 'LI/ZEBEDEE MS', HotelNotepad: 'none', Account: 'GLOBEX' },
    ];
    upstream = await startHostileUpstream((req) => ({ body: window(records, req, true) }));
    live = await startLive(upstream.url, { REPORTS_REDACT_PII: 'true' });
    const out = await everything(live, 'hotel_segments', {}, ['Passenger']);
    expect(leaks(out)).toEqual([]);
    expect(out).toContain('SYD');
  });

  test('fields of an unpublished report (Surname, GivenName, PaxFirstName) are masked, also as group keys', async () => {
    const records = [
      { BookingId: 7, Surname: 'OYELARAN', GivenName: 'ZEBEDEE', PaxFirstName: 'GWENDOLYN', Status: 'OK' },
      { BookingId: 8, Surname: 'QUIXWORTH', GivenName: 'LI', PaxFirstName: 'NG', Status: 'OK' },
    ];
    upstream = await startHostileUpstream(() => ({ body: page(records, { total: null }) }));
    live = await startLive(upstream.url, { REPORTS_REDACT_PII: 'true' });
    const out = await everything(live, 'find_bookings', { parameters: { Status: 'OK' } }, ['Surname', 'GivenName']);
    expect(leaks(out)).toEqual([]);
    expect(out).toContain('"Status":"OK"');
  });

  test('a service error message quoting a traveller, an e-mail and a phone is masked', async () => {
    upstream = await startHostileUpstream(() => ({
      body: {
        ResponseMetadata: { Success: false },
        ResponseError: {
          ErrorCode: 'NotFound',
          Message: 'No booking for QUIXWORTH/GWENDOLYN (gwen@example.com, 0412555020)',
        },
      },
    }));
    live = await startLive(upstream.url, { REPORTS_REDACT_PII: 'true' });
    const result = await live.call('check_failed_submissions', {});
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('No booking for Traveller-');
    expect(leaks(JSON.stringify(result))).toEqual([]);
  });
});
