/**
 * Case 2. One small call (a 100-record report, one page, 0 ms): what our tools/call adds
 * over one raw signed request of the same page, with the server as its own process over stdio
 * (bench/own-server.ts), as a desktop host runs it. Each run alternates the two CALLS times
 * and takes the median of the differences.
 *
 * Beside it, the floor (bench/floor-server.ts): a minimal SDK server that makes the same raw
 * request and answers with a copy of our answer, under our tool's schemas. What it adds over
 * the raw request is the part of our overhead that any server answering so pays (the
 * protocol both ways, two pipes, the client's check of the answer against the output schema);
 * ours over it is our own work. The floor is alternated with the raw request on its own, after
 * ours, so the figure of record is measured as before.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { FloorInput } from '../floor-server.js';
import { REPORT_TOOL } from '../ours.js';
import { type OwnServer, startOwnServer } from '../own-server.js';
import { passThroughAgent, rawRequest } from '../pass-through.js';
import { median, row, timed } from '../stats.js';
import { baseUrl, type CaseInput, type CaseOutput, expectComplete } from './context.js';

export const SMALL = { variant: 2, total: 100, pageSize: 500 };
const CALLS = 40;
const FLOOR_SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'floor-server.js');

interface Floor {
  call(): Promise<unknown>;
  close(): Promise<void>;
}

/** The floor server, answering as `ours` answered its last bench report. */
async function startFloor(ours: OwnServer, pageUrl: string): Promise<Floor> {
  const { tools } = await ours.client.listTools();
  const tool = tools.find((t) => t.name === REPORT_TOOL);
  if (!tool) throw new Error(`floor: our tools/list has no ${REPORT_TOOL}`);
  const input: FloorInput = { tool, result: await ours.report(), pageUrl, records: SMALL.total };
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-floor-'));
  const file = path.join(dir, 'floor.json');
  await writeFile(file, JSON.stringify(input));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FLOOR_SERVER, file],
    env: { PATH: process.env.PATH ?? '' },
    stderr: 'inherit',
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(transport);
  await client.listTools();
  const pid = transport.pid;
  return {
    call: () => client.callTool({ name: REPORT_TOOL, arguments: {} }),
    close: async () => {
      await client.close();
      try {
        if (pid !== null) process.kill(pid);
      } catch {
        // already gone: closing the client ended it
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** CALLS pairs of `raw` then `call`: the medians of each and of their differences. */
async function alternate(
  raw: () => Promise<unknown>,
  call: () => Promise<unknown>,
): Promise<{ overhead: number; ms: number; rawMs: number }> {
  const diffs: number[] = [];
  const ms: number[] = [];
  const rawMs: number[] = [];
  for (let i = 0; i < CALLS; i++) {
    const rawOne = await timed(raw);
    const one = await timed(call);
    diffs.push(one - rawOne);
    ms.push(one);
    rawMs.push(rawOne);
  }
  return { overhead: median(diffs), ms: median(ms), rawMs: median(rawMs) };
}

export async function smallCallCase(input: CaseInput): Promise<CaseOutput> {
  const url = baseUrl(input.origin, 0, SMALL.variant, SMALL.total);
  const ours = await startOwnServer(url, { REPORTS_PAGE_SIZE: String(SMALL.pageSize) });
  const agent = passThroughAgent(1);
  const pageUrl = `${url}/AirSegmentsByDate?DateStart=20260101&DateEnd=20261231&Offset=0&Limit=${SMALL.pageSize}`;
  const raw = async () => {
    if ((await rawRequest(agent, pageUrl)).records.length !== SMALL.total) throw new Error('raw: short page');
  };
  const report = async () => expectComplete(await ours.report(), SMALL.total);
  let floor: Floor | undefined;
  try {
    floor = await startFloor(ours, pageUrl);
    for (let i = 0; i < 30; i++) {
      await report();
      await raw();
      await floor.call();
    }
    const overhead: number[] = [];
    const oursMs: number[] = [];
    const rawMs: number[] = [];
    const floorMs: number[] = [];
    const floorOverhead: number[] = [];
    for (let run = 0; run < input.runs; run++) {
      // Ours against the raw request, then the floor against it, each alternated on its own: a
      // third call in the same alternation (the floor's) moved ours by a millisecond.
      const ourRun = await alternate(raw, report);
      const floorRun = await alternate(raw, floor.call);
      overhead.push(ourRun.overhead);
      oursMs.push(ourRun.ms);
      rawMs.push(ourRun.rawMs);
      floorMs.push(floorRun.ms);
      floorOverhead.push(floorRun.overhead);
    }
    const oursOverFloor = overhead.map((o, i) => o - floorOverhead[i]);
    const c = '2 small call (100 records, server over stdio)';
    return {
      rows: [
        row(c, 'ours p50', 'ms', oursMs),
        row(c, 'raw signed request p50', 'ms', rawMs),
        row(c, 'overhead p50 (ours - raw)', 'ms', overhead, 2),
        row(c, 'floor: minimal SDK server, same request and answer, p50', 'ms', floorMs),
        row(c, 'floor overhead p50 (floor - raw)', 'ms', floorOverhead),
        row(c, 'ours over the floor (overhead - floor overhead)', 'ms', oursOverFloor),
      ],
    };
  } finally {
    await floor?.close();
    await ours.close();
    await agent.close();
  }
}
