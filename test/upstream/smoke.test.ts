import { test, expect } from 'vitest';
import { startPagedService } from '../helpers/paged-service.js';
import { UpstreamClient } from '../../src/upstream/client.js';
import { Limiter } from '../../src/upstream/limiter.js';
import { fetchReport } from '../../src/upstream/paging.js';

test('smoke', async () => {
  const svc = await startPagedService({ total: 10_000, latencyMs: 20 });
  const client = new UpstreamClient({ baseUrl: svc.url, username: 'api-user', key: 'test-secret-key', timeoutMs: 5000, limiter: new Limiter(8) });
  const t0 = Date.now();
  const out = await fetchReport(client, { path: '/X', query: { A: 'x,y' }, envelope: 'collection', pageSize: 500, maxRecords: 50000, budgetMs: 10000 });
  const t1 = Date.now();
  console.error(t1 - t0, out.totalRecords, out.complete, out.notes, svc.maxInFlight, svc.requests.every(r => r.signatureOk));
  expect(out.pages.flatMap(p => p.records).map(r => r.Seq)).toEqual(Array.from({length: 10000}, (_, i) => i));
  await client.close(); await svc.close();
});
