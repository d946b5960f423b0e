/**
 * The hand-written client's CPU per record, in a process of its own: forked by the paging
 * case (cases/paging.ts) once per run, right before our sample: the two samples are taken
 * seconds apart (a shared machine's speed drifted by a third over minutes here), and the
 * hand client never pays for collecting a heap that our held results grew.
 * argv[2]: { url, total, pageSize, concurrency, repeats } as JSON; answers the figure (us a
 * record) over IPC.
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { passThroughAgent, passThroughReport } from './pass-through.js';
import { cpuPerRecord } from './stats.js';

const WARM_UP_REPORTS = 6;

export interface HandCpuInput {
  url: string;
  total: number;
  pageSize: number;
  concurrency: number;
  repeats: number;
}

/** Runs this file in a fresh process; resolves with its figure. */
export function handCpuPerRecord(input: HandCpuInput): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [JSON.stringify(input)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let figure: number | undefined;
    child.on('message', (m: { us?: number }) => {
      figure = m.us;
    });
    child.on('exit', (code) => {
      if (figure !== undefined) resolve(figure);
      else reject(new Error(`hand-cpu: exited (${code}) without a figure`));
    });
  });
}

async function main(input: HandCpuInput): Promise<void> {
  const agent = passThroughAgent(input.concurrency);
  const opts = { pageSize: input.pageSize, concurrency: input.concurrency };
  try {
    // Warm-up: JIT, connections, the young generation grown to its working size (after two
    // reports, a fresh process's first samples still ran 20-50% above its later ones).
    for (let i = 0; i < WARM_UP_REPORTS; i++) await passThroughReport(agent, input.url, opts);
    const us = await cpuPerRecord(input.total, input.repeats, async () => {
      if ((await passThroughReport(agent, input.url, opts)) !== input.total) throw new Error('hand-cpu: short');
    });
    await agent.close();
    // The IPC channel would keep this process alive: it ends once the figure is sent.
    process.send?.({ us }, () => process.exit(0));
  } catch (err) {
    console.error(err);
    process.exit(1);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main(JSON.parse(process.argv[2]) as HandCpuInput);
