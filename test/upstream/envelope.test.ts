import { describe, expect, test } from 'vitest';
import { parseEnvelope } from '../../src/upstream/envelope.js';
import { thrown } from '../helpers/thrown.js';
import { client, PATH, rejection, service } from './harness.js';

const ok = (report: unknown, paging?: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  ResponseMetadata: {
    Success: true,
    HasCache: false,
    HasPaging: !!paging,
    ...(paging ? { PagingMetadata: paging } : {}),
    ...extra,
  },
  ...(report === undefined ? {} : { ResponseReport: report }),
});

describe('envelope', () => {
  test('list report with paging metadata (Offset/Limit strings, counts integers)', () => {
    const page = parseEnvelope(
      ok([{ A: 1 }, { A: 2 }], { Offset: '0', Limit: '2', TotalRecords: 7, ResponseRecords: 2 }),
      'collection',
      PATH,
    );
    expect(page).toEqual({ records: [{ A: 1 }, { A: 2 }], totalRecords: 7, responseRecords: 2, fromCache: false });
  });

  test('counts sent as strings are read; nonsense counts are null', () => {
    expect(parseEnvelope(ok([], { TotalRecords: '12', ResponseRecords: '0' }), 'collection', PATH)).toMatchObject({
      totalRecords: 12,
      responseRecords: 0,
    });
    expect(parseEnvelope(ok([], { TotalRecords: -1, ResponseRecords: 'x' }), 'collection', PATH)).toMatchObject({
      totalRecords: null,
      responseRecords: null,
    });
  });

  test('no PagingMetadata: totals are null; CacheMetadata.IsFromCache is read', () => {
    const page = parseEnvelope(
      ok([{ A: 1 }], undefined, { HasCache: true, CacheMetadata: { IsFromCache: true, CachedAt: '/Date(0)/' } }),
      'collection',
      PATH,
    );
    expect(page).toEqual({ records: [{ A: 1 }], totalRecords: null, responseRecords: null, fromCache: true });
  });

  test('{Item: object} and {Item: [...]} both become a list, whichever kind was expected', () => {
    expect(parseEnvelope(ok({ Item: { A: 1 } }), 'item', PATH).records).toEqual([{ A: 1 }]);
    expect(parseEnvelope(ok({ Item: [{ A: 1 }, { A: 2 }] }), 'item', PATH).records).toEqual([{ A: 1 }, { A: 2 }]);
    expect(parseEnvelope(ok({ Item: { A: 1 } }), 'collection', PATH).records).toEqual([{ A: 1 }]);
    expect(parseEnvelope(ok([{ A: 1 }]), 'item', PATH).records).toEqual([{ A: 1 }]);
    expect(parseEnvelope(ok({ Item: null }), 'item', PATH).records).toEqual([]);
  });

  test('ResponseError absent on success, ResponseReport absent: an empty page', () => {
    const body = ok(undefined);
    expect('ResponseReport' in body || 'ResponseError' in body).toBe(false);
    expect(parseEnvelope(body, 'collection', PATH)).toEqual({
      records: [],
      totalRecords: null,
      responseRecords: null,
      fromCache: false,
    });
  });

  test('Success:false -> upstream error carrying ErrorCode, Message, StatusCode, VerboseMessage', () => {
    const err = thrown(() =>
      parseEnvelope(
        {
          ResponseMetadata: { Success: false, HasCache: false, HasPaging: false },
          ResponseError: {
            ErrorCode: 'InvalidDateRange',
            Message: 'DateEnd is before DateStart',
            StatusCode: '400',
            VerboseMessage: 'DateStart 20260201 is after DateEnd 20260101.',
          },
        },
        'collection',
        PATH,
      ),
    );
    expect(err.kind).toBe('upstream');
    expect(err.retryable).toBe(false);
    expect(err.message).toBe(
      'The service refused the request to /CarSegmentsByDate (InvalidDateRange, status 400): "DateEnd is before DateStart" — "DateStart 20260201 is after DateEnd 20260101.".',
    );
    expect(err.details).toEqual({
      path: PATH,
      errorCode: 'InvalidDateRange',
      upstreamMessage: 'DateEnd is before DateStart',
      statusCode: '400',
      verboseMessage: 'DateStart 20260201 is after DateEnd 20260101.',
    });
  });

  test('Success:false variants: verbose equal to message, no code, nothing at all', () => {
    expect(
      thrown(() =>
        parseEnvelope(
          {
            ResponseMetadata: { Success: false },
            ResponseError: { Message: 'Nope.', VerboseMessage: 'Nope.', StatusCode: '403' },
          },
          'item',
          PATH,
        ),
      ).message,
    ).toBe('The service refused the request to /CarSegmentsByDate (status 403): "Nope.".');
    expect(thrown(() => parseEnvelope({ ResponseMetadata: { Success: false } }, 'item', PATH)).message).toBe(
      'The service refused the request to /CarSegmentsByDate: no message given.',
    );
  });

  test('not the envelope -> malformed_response naming what came', () => {
    expect(thrown(() => parseEnvelope([1, 2], 'collection', PATH)).message).toBe(
      "/CarSegmentsByDate answered JSON that is not the service's envelope (expected an object with ResponseMetadata, got a list).",
    );
    expect(thrown(() => parseEnvelope('hello', 'collection', PATH)).message).toBe(
      "/CarSegmentsByDate answered JSON that is not the service's envelope (expected an object with ResponseMetadata, got string).",
    );
    const noMeta = thrown(() => parseEnvelope({ ResponseReport: [] }, 'collection', PATH));
    expect(noMeta.kind).toBe('malformed_response');
    expect(noMeta.message).toBe(
      '/CarSegmentsByDate answered JSON without ResponseMetadata; this does not look like the reporting service (check REPORTS_BASE_URL).',
    );
    expect(thrown(() => parseEnvelope(ok({ Rows: [] }), 'item', PATH)).message).toBe(
      '/CarSegmentsByDate: ResponseReport is neither a list nor {Item: ...} (expected {Item: ...}).',
    );
    expect(thrown(() => parseEnvelope(ok([{ A: 1 }, 'x']), 'collection', PATH)).message).toBe(
      '/CarSegmentsByDate: record 1 of the page is not an object.',
    );
  });

  test('over HTTP: an {Item: [...]} report pages like a list; Success:false on HTTP 200 is not retried', async () => {
    const svc = await service({ total: 5, envelope: 'item' });
    const c = client(svc.url);
    const page = await c.getPage({ path: PATH, query: {}, offset: 0, limit: 10, envelope: 'item' });
    expect(page.records.map((r) => r.Seq)).toEqual([0, 1, 2, 3, 4]);
    expect(page).toMatchObject({ totalRecords: 5, responseRecords: 5, attempts: 1 });

    const bad = await service({
      total: 5,
      fault: () => ({
        status: 200,
        body: JSON.stringify({
          ResponseMetadata: { Success: false },
          ResponseError: { ErrorCode: 'E1', Message: 'Bad Account', StatusCode: '400' },
        }),
      }),
    });
    const err = await rejection(
      client(bad.url).getPage({ path: PATH, query: {}, offset: 0, limit: 10, envelope: 'collection' }),
    );
    expect(err.kind).toBe('upstream');
    expect(err.message).toBe('The service refused the request to /CarSegmentsByDate (E1, status 400): "Bad Account".');
    expect(bad.requests).toHaveLength(1);
  });
});
