import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { buildUrl, pageQuery } from '../../src/upstream/request.js';
import { rfc1123, signedHeaders, signRequest } from '../../src/upstream/sign.js';
import { client, KEY, service, USERNAME } from './harness.js';

const FIXED = new Date(Date.UTC(2026, 10, 22, 1, 16, 28));
const URL_SENT =
  'https://reports.example.com/api/CarSegmentsByDate?DateStart=20260101&Account=ACME,GLOBEX&Offset=0&Limit=500';

/** The signature rule written out independently of src: base64(HMAC-SHA256(key, METHOD+URL+CT+DATE)). */
function hmac(key: string, message: string): string {
  return createHmac('sha256', key).update(message, 'utf8').digest('base64');
}

describe('signer', () => {
  test('X-SERVICE-API-DATE is RFC 1123 UTC', () => {
    expect(rfc1123(FIXED)).toBe('Sun, 22 Nov 2026 01:16:28 GMT');
    expect(rfc1123(new Date(Date.UTC(2026, 2, 1, 4, 5, 6, 999)))).toBe('Sun, 01 Mar 2026 04:05:06 GMT');
  });

  test('fixed-clock test vector, computed independently', () => {
    const message = `GET${URL_SENT}application/jsonSun, 22 Nov 2026 01:16:28 GMT`;
    const independent = hmac('test-secret-key', message);
    // Also computed outside Node: printf '%s' "$message" | openssl dgst -sha256 -hmac test-secret-key -binary | base64
    expect(independent).toBe('pmG7FrrjRVa8RgNvihky75aTHIFOcgj1UOoas3j+KUg=');
    expect(signRequest('GET', URL_SENT, 'application/json', 'Sun, 22 Nov 2026 01:16:28 GMT', 'test-secret-key')).toBe(
      independent,
    );
    // The method is upper-cased; any other part changes the signature.
    expect(signRequest('get', URL_SENT, 'application/json', 'Sun, 22 Nov 2026 01:16:28 GMT', 'test-secret-key')).toBe(
      independent,
    );
    expect(
      signRequest(
        'GET',
        URL_SENT.replace('Limit=500', 'Limit=501'),
        'application/json',
        'Sun, 22 Nov 2026 01:16:28 GMT',
        'test-secret-key',
      ),
    ).not.toBe(independent);
    expect(
      signRequest('GET', URL_SENT, 'application/json', 'Sun, 22 Nov 2026 01:16:29 GMT', 'test-secret-key'),
    ).not.toBe(independent);
    expect(signRequest('GET', URL_SENT, 'application/json', 'Sun, 22 Nov 2026 01:16:28 GMT', 'other-key')).not.toBe(
      independent,
    );
  });

  test('signedHeaders: the four headers plus Accept, signed over the date it sends', () => {
    const headers = signedHeaders({
      method: 'GET',
      url: URL_SENT,
      username: 'api-user',
      key: 'test-secret-key',
      now: FIXED,
    });
    expect(headers).toEqual({
      Accept: 'application/json',
      'CONTENT-TYPE': 'application/json',
      'X-SERVICE-API-USERNAME': 'api-user',
      'X-SERVICE-API-DATE': 'Sun, 22 Nov 2026 01:16:28 GMT',
      'X-SERVICE-API-SIGNATURE': 'pmG7FrrjRVa8RgNvihky75aTHIFOcgj1UOoas3j+KUg=',
    });
  });

  test('the signed URL is byte for byte the URL on the request line', async () => {
    const svc = await service({ total: 3 });
    const c = client(`${svc.url}/api/v1/`, { now: () => FIXED });
    const query = {
      Consultant: 'Anne Marie Smith',
      Account: 'ACME,GLOBEX,Initech',
      UserName: 'agent@example.com',
      PaxSurname: "O'Brien",
      CityName: 'Zürich',
      Remark: 'a+b=c&d #1 100% (ok)!*~',
      AllFutureDate: 'true',
    };
    const page = await c.getPage({
      path: '/QcCommentsForConsultant',
      query,
      offset: 0,
      limit: 10,
      envelope: 'collection',
    });
    expect(page.records).toHaveLength(3);
    expect(svc.requests).toHaveLength(1);
    const seen = svc.requests[0];

    const built = buildUrl(`${svc.url}/api/v1/`, '/QcCommentsForConsultant', pageQuery(query, 0, 10));
    expect(seen.url).toBe(built);
    expect(seen.url).toBe(
      `${svc.url}/api/v1/QcCommentsForConsultant?Consultant=Anne%20Marie%20Smith&Account=ACME,GLOBEX,Initech` +
        '&UserName=agent%40example.com&PaxSurname=O%27Brien&CityName=Z%C3%BCrich' +
        '&Remark=a%2Bb%3Dc%26d%20%231%20100%25%20(ok)!*~&AllFutureDate=true&Offset=0&Limit=10',
    );
    // The values survive the trip unchanged.
    const got = Object.fromEntries(new URL(seen.url).searchParams);
    expect(got).toEqual({ ...query, Offset: '0', Limit: '10' });

    // The signature header is the independent HMAC of exactly the request-line URL.
    expect(seen.headers['x-service-api-date']).toBe('Sun, 22 Nov 2026 01:16:28 GMT');
    expect(seen.headers['x-service-api-username']).toBe(USERNAME);
    expect(seen.headers['content-type']).toBe('application/json');
    expect(seen.headers.accept).toBe('application/json');
    expect(seen.headers['x-service-api-signature']).toBe(
      hmac(KEY, `GET${seen.url}application/jsonSun, 22 Nov 2026 01:16:28 GMT`),
    );
    expect(seen.signatureOk).toBe(true);
  });
});
