/**
 * Case 2. One small call (a 100-record report, one page, 0 ms): what our tools/call adds
 * over one raw signed request of the same page, with the server as its own process over stdio
 * (bench/own-server.ts), as a desktop host runs it. Each run alternates the two CALLS times
 * and takes the median of the differences.
 */
import { startOwnServer } from '../own-server.js';
import { passThroughAgent, rawRequest } from '../pass-through.js';
import { median, row } from '../stats.js';
import { baseUrl, type CaseInput, type CaseOutput, expectComplete } from './context.js';

export const SMALL = { variant: 2, total: 100, pageSize: 500 };
const CALLS = 40;

export async function smallCallCase(input: CaseInput): Promise<CaseOutput> {
  const url = baseUrl(input.origin, 0, SMALL.variant, SMALL.total);
  const ours = await startOwnServer(url, { REPORTS_PAGE_SIZE: String(SMALL.pageSize) });
  const agent = passThroughAgent(1);
  const pageUrl = `${url}/AirSegmentsByDate?DateStart=20260101&DateEnd=20261231&Offset=0&Limit=${SMALL.pageSize}`;
  try {
    for (let i = 0; i < 30; i++) {
      expectComplete(await ours.report(), SMALL.total);
      await rawRequest(agent, pageUrl);
    }
    const overhead: number[] = [];
    const oursMs: number[] = [];
    const rawMs: number[] = [];
    for (let run = 0; run < input.runs; run++) {
      const diffs: number[] = [];
      const o: number[] = [];
      const r: number[] = [];
      for (let i = 0; i < CALLS; i++) {
        let t = performance.now();
        if ((await rawRequest(agent, pageUrl)).records.length !== SMALL.total) throw new Error('raw: short page');
        const raw = performance.now() - t;
        t = performance.now();
        expectComplete(await ours.report(), SMALL.total);
        const ourMs = performance.now() - t;
        diffs.push(ourMs - raw);
        o.push(ourMs);
        r.push(raw);
      }
      overhead.push(median(diffs));
      oursMs.push(median(o));
      rawMs.push(median(r));
    }
    const c = '2 small call (100 records, server over stdio)';
    return {
      rows: [
        row(c, 'ours p50', 'ms', oursMs),
        row(c, 'raw signed request p50', 'ms', rawMs),
        row(c, 'overhead p50 (ours - raw)', 'ms', overhead, 2),
      ],
    };
  } finally {
    await ours.close();
    await agent.close();
  }
}
