/**
 * "ResponseReport.Item is one <record>": a page with one record answers Item as that object,
 * a page with several as a list; the client normalises both to a list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { UpstreamClient } from '../../src/upstream/client.js';
import { Limiter } from '../../src/upstream/limiter.js';
import { fetchReport } from '../../src/upstream/paging.js';
import { decodeDates } from '../../src/upstream/service-date.js';
import { call, query } from './helpers.js';

describe('Item forms', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ dataNow: new Date('2026-11-15T00:00:00Z') });
  });
  afterAll(() => sb.close());

  const params = { DateStart: '20261101', DateEnd: '20261130' };

  it('one record: Item is the object; several: a list', async () => {
    const one = (await call(sb, `/AirSegmentsByDate${query({ ...params, Offset: '0', Limit: '1' })}`)).json();
    expect(Array.isArray((one.ResponseReport as { Item: unknown }).Item)).toBe(false);
    expect((one.ResponseReport as unknown as { Item: { RecordLocator: string } }).Item.RecordLocator).toBe(
      (sb.report('AirSegmentsByDate', params)[0] as { RecordLocator: string }).RecordLocator,
    );
    const three = (await call(sb, `/AirSegmentsByDate${query({ ...params, Offset: '0', Limit: '3' })}`)).json();
    expect((three.ResponseReport as { Item: unknown[] }).Item).toHaveLength(3);
  });

  it('the client pages through one-record pages to the same records', async () => {
    const client = new UpstreamClient({
      baseUrl: sb.url,
      username: sb.username,
      key: sb.key,
      timeoutMs: 5_000,
      limiter: new Limiter(4),
    });
    try {
      const expected = sb
        .report('AirSegmentsByDate', params)
        .slice(0, 7)
        .map((r) => decodeDates(r));
      const out = await fetchReport(client, {
        path: '/AirSegmentsByDate',
        query: params,
        envelope: 'item',
        pageSize: 1,
        maxRecords: 7,
        budgetMs: 10_000,
      });
      expect(out.pages.flatMap((p) => p.records)).toEqual(expected);
      expect(out.pages).toHaveLength(7);
    } finally {
      await client.close();
    }
  });
});
