/**
 * Case 1. Paging 20,000 records in 40 pages of 500, concurrency 4: at 50 ms a request, our
 * wall time against the hand-written concurrent pass-through (and the sequential one); at
 * 0 ms, our CPU per record against the hand-written client's (measured first, alone) and
 * JSON.parse's per record of the same bodies.
 */
import type { Agent } from 'undici';
import { startOurs } from '../ours.js';
import { passThroughAgent, passThroughReport, rawText } from '../pass-through.js';
import { cpuMs, median, type Row, row } from '../stats.js';
import { baseUrl, type CaseInput, type CaseOutput, expectComplete } from './context.js';

export const PAGING = { variant: 1, total: 20_000, pageSize: 500, latencyMs: 50, concurrency: 4 };
const CPU_REPEATS = 3;

export async function pagingCase(input: CaseInput): Promise<CaseOutput> {
  const { variant, total, pageSize, latencyMs, concurrency } = PAGING;
  const env = {
    REPORTS_PAGE_SIZE: String(pageSize),
    REPORTS_CONCURRENCY: String(concurrency),
    REPORTS_MAX_RECORDS: String(total),
  };
  const slowUrl = baseUrl(input.origin, latencyMs, variant, total);
  const fastUrl = baseUrl(input.origin, 0, variant, total);
  const agent = passThroughAgent(concurrency);
  const bodies = await rawBodies(agent, fastUrl, total, pageSize);
  const opts = { pageSize, concurrency };
  // The hand-written client's CPU first, in this process before our server holds anything:
  // measured after, it paid for collecting the heap our held results had grown (3.6-8.8 us
  // a record in one run, against 3.6-4.3 alone).
  for (let i = 0; i < 2; i++) await passThroughReport(agent, fastUrl, opts);
  const handCpu: number[] = [];
  for (let run = 0; run < input.runs; run++)
    handCpu.push(await cpuPerRecord(total, () => passThroughReport(agent, fastUrl, opts)));
  const slow = await startOurs(slowUrl, env);
  const fast = await startOurs(fastUrl, env);
  try {
    // Warm-up: JIT, connections.
    for (let i = 0; i < 2; i++) expectComplete(await fast.report(), total);
    expectComplete(await slow.report(), total);
    const ratio: number[] = [];
    const oursMs: number[] = [];
    const handMs: number[] = [];
    const seqMs: number[] = [];
    const oursCpu: number[] = [];
    const parseCpu: number[] = [];
    const cpuRatio: number[] = [];
    const cpuHandRatio: number[] = [];
    const handMedian = median(handCpu);
    for (let run = 0; run < input.runs; run++) {
      let t = performance.now();
      if ((await passThroughReport(agent, slowUrl, opts)) !== total) throw new Error('pass-through: short');
      const hand = performance.now() - t;
      t = performance.now();
      expectComplete(await slow.report(), total);
      const ours = performance.now() - t;
      t = performance.now();
      await passThroughReport(agent, slowUrl, { pageSize, concurrency: 1 });
      seqMs.push(performance.now() - t);
      handMs.push(hand);
      oursMs.push(ours);
      ratio.push(ours / hand);

      const ourUs = await cpuPerRecord(total, async () => expectComplete(await fast.report(), total));
      oursCpu.push(ourUs);
      cpuHandRatio.push(ourUs / handMedian);
      const c = process.cpuUsage();
      for (let i = 0; i < CPU_REPEATS; i++) for (const b of bodies) JSON.parse(b);
      const parseUs = (cpuMs(c) * 1000) / (total * CPU_REPEATS);
      parseCpu.push(parseUs);
      cpuRatio.push(ourUs / parseUs);
    }
    const c1 = '1 paging 20k/40 pages';
    const rows: Row[] = [
      row(c1, `ours, ${latencyMs} ms latency`, 'ms', oursMs),
      row(c1, 'hand-written pass-through, concurrency 4', 'ms', handMs),
      row(c1, 'hand-written pass-through, sequential', 'ms', seqMs),
      row(c1, 'ours / hand-written concurrent', 'x', ratio, 1.1),
      row(c1, 'ours CPU per record, 0 ms', 'us', oursCpu),
      row(c1, 'pass-through CPU per record, 0 ms', 'us', handCpu),
      row(c1, 'JSON.parse per record', 'us', parseCpu),
      row(c1, 'ours CPU / JSON.parse, per record', 'x', cpuRatio),
      // Each of our runs against the median of the hand-written client's.
      row(c1, 'ours CPU / hand-written, per record', 'x', cpuHandRatio, 2),
    ];
    return { rows };
  } finally {
    await slow.close();
    await fast.close();
    await agent.close();
  }
}

/** Pause after a timed stretch, inside it: the collector's threads finish what that
 *  stretch left them, and it is counted there, not in the next one. */
const SETTLE_MS = 250;

/**
 * Process CPU (every thread: the collector's too) per record of CPU_REPEATS reports: one
 * report is ~0.2 s of CPU, and a single major GC falling inside or outside it moved
 * one-report samples by +-30%.
 */
async function cpuPerRecord(total: number, report: () => Promise<unknown>): Promise<number> {
  const c = process.cpuUsage();
  for (let i = 0; i < CPU_REPEATS; i++) await report();
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  return (cpuMs(c) * 1000) / (total * CPU_REPEATS);
}

/** The page bodies as text, for timing JSON.parse alone. */
async function rawBodies(agent: Agent, url: string, total: number, pageSize: number): Promise<string[]> {
  const out: string[] = [];
  for (let o = 0; o < total; o += pageSize)
    out.push(await rawText(agent, `${url}/AirSegmentsByDate?Offset=${o}&Limit=${pageSize}`));
  return out;
}
