import { it } from 'vitest';
import { startInProcess } from '../helpers/mcp.js';

it('explore', async () => {
  const out: string[] = [];
  const s = await startInProcess({ sandbox: { latencyMs: 300 }, env: { REPORTS_PAGE_SIZE: '10' } });
  const sb = s.rt.sandbox!;
  out.push('expected total ' + sb.report('AirSegmentsByDate', { DateStart: '20261101', DateEnd: '20261130' }).length);
  for (const delay of [150, 500]) {
    sb.resetStats();
    const ac = new AbortController();
    const t0 = Date.now();
    const p = s.client.callTool({ name: 'air_segments_by_date', arguments: { DateStart: '20261101', DateEnd: '20261130' } }, undefined, { signal: ac.signal });
    setTimeout(() => ac.abort(), delay);
    let err: unknown;
    try { await p; } catch (e) { err = e; }
    const t1 = Date.now() - t0;
    const n1 = sb.requests.length;
    await new Promise((r) => setTimeout(r, 800));
    out.push(`delay ${delay}: rejected after ${t1} ms with ${String(err)}; requests at reject ${n1}, later ${sb.requests.length}; ${JSON.stringify(sb.requests.map((r) => [r.offset, r.status, r.startedAt - t0, r.endedAt - t0]))}`);
  }
  await s.close();
  const { writeFileSync } = await import('node:fs');
  writeFileSync('/tmp/explore/out.txt', out.join('\n\n'));
});
