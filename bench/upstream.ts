import { type ChildProcess, fork } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PageSet } from './upstream-process.js';

export { BENCH_KEY, BENCH_USERNAME, type PageSet } from './upstream-process.js';

const here = path.dirname(fileURLToPath(import.meta.url));

/** The bench upstream's child process, as seen from the process that started it. */
export interface PreparedBytes {
  bytes: Record<string, number>;
  gzipBytes: Record<string, number>;
}

export interface BenchUpstream {
  origin: string;
  /** Base URL of one case: latency per request, which report, how many records. */
  baseUrl(c: { latencyMs: number; variant: number; total: number }): string;
  /** Serialises (and gzips) the pages of these reports now, so no timed request pays for it.
   *  Returns the bytes of JSON served for each set, keyed `variant/total`, and gzipped. */
  prepare(sets: PageSet[]): Promise<PreparedBytes>;
  /** Lets the pages of these reports go. */
  drop(sets: PageSet[]): void;
  /** Body bytes sent and requests answered by encoding since the last call. */
  sent(): Promise<Record<string, { bytes: number; requests: number }>>;
  stop(): void;
}

export async function startBenchUpstream(): Promise<BenchUpstream> {
  const child: ChildProcess = fork(path.join(here, 'upstream-process.js'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const next = <T>(pick: (m: Record<string, unknown>) => T | undefined): Promise<T> =>
    new Promise((resolve, reject) => {
      const onMessage = (m: Record<string, unknown>) => {
        const v = pick(m);
        if (v === undefined) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(v);
      };
      const onExit = (code: number | null) => reject(new Error(`the bench upstream exited (${code})`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  const origin = await next((m) => (typeof m.url === 'string' ? m.url : undefined));
  return {
    origin,
    baseUrl: (c) => `${origin}/${c.latencyMs}/${c.variant}/${c.total}`,
    async prepare(sets) {
      const done = next((m) => m.prepared as PreparedBytes | undefined);
      child.send({ prepare: sets });
      return done;
    },
    drop: (sets) => child.send({ drop: sets }),
    async sent() {
      const done = next((m) => (m.stats as { sent: Record<string, { bytes: number; requests: number }> })?.sent);
      child.send({ stats: true });
      return done;
    },
    stop: () => {
      if (child.pid !== undefined && child.exitCode === null) child.kill('SIGTERM');
    },
  };
}
