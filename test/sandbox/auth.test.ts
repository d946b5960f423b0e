import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { rfc1123, signRequest } from '../../src/upstream/sign.js';
import { call } from './helpers.js';

let sb: Sandbox;
const PATH = '/AirSegmentsByDate?DateStart=20261101&DateEnd=20261107&Limit=5';

beforeAll(async () => {
  sb = await startSandbox({ username: 'agency-api', key: 'k3y-for-tests-only', size: 300 });
});
afterAll(async () => {
  await sb.close();
});

function expectRefused(res: { status: number; json: () => unknown }, code: string, message: RegExp): void {
  expect(res.status).toBe(401);
  const env = res.json() as {
    ResponseMetadata: { Success: boolean };
    ResponseError: Record<string, string>;
    ResponseReport?: unknown;
  };
  expect(env.ResponseMetadata.Success).toBe(false);
  expect(env.ResponseReport).toBeUndefined();
  expect(env.ResponseError.ErrorCode).toBe(code);
  expect(env.ResponseError.StatusCode).toBe('401');
  expect(env.ResponseError.Message).toMatch(message);
}

describe('sandbox authentication', () => {
  it('accepts a correctly signed request', async () => {
    const res = await call(sb, PATH);
    expect(res.status).toBe(200);
    const env = res.json();
    expect(env.ResponseMetadata.Success).toBe(true);
    expect(env.ResponseMetadata.PagingMetadata?.ResponseRecords).toBe(5);
    expect(sb.username).toBe('agency-api');
  });

  it('accepts a signature made by hand from the documented recipe', async () => {
    const url = `${sb.url}${PATH}`;
    const date = new Date().toUTCString();
    const signature = signRequest('GET', url, 'application/json', date, 'k3y-for-tests-only');
    const res = await fetch(url, {
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-SERVICE-API-USERNAME': 'agency-api',
        'X-SERVICE-API-DATE': date,
        'X-SERVICE-API-SIGNATURE': signature,
      },
    });
    expect(res.status).toBe(200);
  });

  it('refuses the wrong key', async () => {
    const res = await call(sb, PATH, { key: 'not-the-key' });
    expectRefused(res, 'Unauthorized', /Invalid signature/);
    // The answer never reveals the signature it expected.
    const expected = signRequest('GET', `${sb.url}${PATH}`, 'application/json', rfc1123(new Date()), sb.key);
    expect(res.text).not.toContain(expected);
    expect(res.text).not.toContain(sb.key);
  });

  it('refuses a query tampered with after signing', async () => {
    const res = await call(sb, PATH.replace('20261107', '20261130'), { signUrl: `${sb.url}${PATH}` });
    expectRefused(res, 'Unauthorized', /Invalid signature/);
  });

  it('refuses a signature over another method or content type', async () => {
    const url = `${sb.url}${PATH}`;
    const date = rfc1123(new Date());
    const wrongMethod = await call(sb, PATH, {
      headers: { 'X-SERVICE-API-SIGNATURE': signRequest('POST', url, 'application/json', date, sb.key) },
      date: new Date(date),
    });
    expectRefused(wrongMethod, 'Unauthorized', /Invalid signature/);
    const wrongType = await call(sb, PATH, { headers: { 'CONTENT-TYPE': 'text/csv' } });
    expectRefused(wrongType, 'Unauthorized', /Invalid signature/);
  });

  it('refuses a CONTENT-TYPE the spec does not list, even when signed with it', async () => {
    const url = `${sb.url}${PATH}`;
    const date = rfc1123(new Date());
    const res = await call(sb, PATH, {
      headers: {
        'CONTENT-TYPE': 'text/plain',
        'X-SERVICE-API-SIGNATURE': signRequest('GET', url, 'text/plain', date, sb.key),
      },
      date: new Date(date),
    });
    expectRefused(res, 'Unauthorized', /^CONTENT-TYPE 'text\/plain' is not accepted$/);
  });

  it('refuses a date more than five minutes off, either way', async () => {
    const stale = await call(sb, PATH, { date: new Date(Date.now() - 6 * 60_000) });
    expectRefused(stale, 'RequestExpired', /more than 5 minutes behind/);
    const ahead = await call(sb, PATH, { date: new Date(Date.now() + 6 * 60_000) });
    expectRefused(ahead, 'RequestExpired', /more than 5 minutes ahead/);
    const within = await call(sb, PATH, { date: new Date(Date.now() - 4 * 60_000) });
    expect(within.status).toBe(200);
  });

  it('refuses an unparseable date', async () => {
    const res = await call(sb, PATH, { headers: { 'X-SERVICE-API-DATE': '2026-11-22T01:16:28Z' } });
    expectRefused(res, 'Unauthorized', /not an RFC 1123 UTC date/);
  });

  it.each(['X-SERVICE-API-USERNAME', 'X-SERVICE-API-DATE', 'CONTENT-TYPE', 'X-SERVICE-API-SIGNATURE'])(
    'refuses a request without %s',
    async (header) => {
      const res = await call(sb, PATH, { headers: { [header]: undefined } });
      expectRefused(res, 'Unauthorized', new RegExp(`Missing authentication header: ${header}`));
    },
  );

  it('refuses an unknown username', async () => {
    const res = await call(sb, PATH, { username: 'someone-else' });
    expectRefused(res, 'Unauthorized', /Unknown API username/);
  });

  it('uses its own clock for the window', async () => {
    const fixed = new Date('2026-11-15T12:00:00Z');
    const clocked = await startSandbox({ now: () => fixed, size: 50 });
    try {
      expect((await call(clocked, PATH, { date: fixed })).status).toBe(200);
      expectRefused(await call(clocked, PATH), 'RequestExpired', /5 minutes/);
    } finally {
      await clocked.close();
    }
  });

  it('requires Accept: application/json on A-marked transactions when JSON is answered', async () => {
    const none = await call(sb, PATH, { headers: { Accept: undefined } });
    expect(none.status).toBe(406);
    expect(none.json().ResponseError?.ErrorCode).toBe('NotAcceptable');
    expect(none.json().ResponseError?.Message).toMatch(/Accept: application\/json/);
    const xml = await call(sb, PATH, { headers: { Accept: 'application/xml' } });
    expect(xml.json().ResponseError?.ErrorCode).toBe('NotAcceptable');
    // Not A-marked: any Accept is fine.
    const hotels = await call(sb, '/HotelSegments?Limit=1', { headers: { Accept: undefined } });
    expect(hotels.status).toBe(200);
    expect(hotels.json().ResponseMetadata.Success).toBe(true);
  });

  it('answers unknown paths with 404 and other verbs with 405, as envelopes', async () => {
    const missing = await call(sb, '/NoSuchReport');
    expect(missing.status).toBe(404);
    expect(missing.json().ResponseError?.ErrorCode).toBe('NotFound');
    const del = await call(sb, '/HotelSegments', { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(del.headers.get('allow')).toBe('GET');
    expect(del.json().ResponseMetadata.Success).toBe(false);
    const post = await call(sb, '/HotelSegments', { method: 'POST', body: {} });
    expect(post.status).toBe(405);
    const postAllowed = await call(sb, '/PartnerForwardingLogs', { method: 'PUT', body: {} });
    expect(postAllowed.headers.get('allow')).toBe('GET, POST');
  });

  it('never crashes on garbage', async () => {
    const url = `${sb.url}/HotelSegments`;
    const res = await fetch(url, {
      headers: { 'X-SERVICE-API-SIGNATURE': '%%%', 'X-SERVICE-API-DATE': '\u0000' },
    }).catch(() => null);
    expect(res === null || res.status === 401).toBe(true);
    const bad = await call(sb, '/PartnerForwardingLogs', { method: 'POST', body: '{not json' });
    expect(bad.status).toBe(400);
    expect(bad.json().ResponseError?.ErrorCode).toBe('SerializationException');
    expect((await call(sb, PATH)).status).toBe(200);
  });
});
