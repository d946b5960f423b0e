/**
 * `npm run bench` (CONTRACT.md section 9): our server against a loopback upstream serving
 * pre-serialised pages, every figure a ratio within one run against a hand-written
 * pass-through client. Each case runs in its own process; memory runs and the scale curve's
 * runs each get a fresh one.
 * Memory, call overhead, paging, throughput, cold start and the scale curve run the built
 * server as its own process over stdio (bench/own-server.ts; `npm run bench` builds first).
 * Prints min/median/max of BENCH_RUNS runs (default 7; memory 5; scale 3) and writes
 * bench/results.json with the Node version, CPU count and commit.
 * BENCH_CASES=paging,memory runs only some (paging, small-call, cold-start, memory,
 * throughput, tokens, sql, scale); BENCH_SCALE=1000000 runs one size of the scale curve.
 */
import { execFileSync, fork } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { coldStartCase } from './cases/cold-start.js';
import type { CaseInput, CaseOutput } from './cases/context.js';
import { type BudgetRun, MB, MEMORY, type PeakRun } from './cases/memory.js';
import { PAGING } from './cases/paging.js';
import { type SizeRun, scaleCase } from './cases/scale.js';
import { SMALL } from './cases/small-call.js';
import { THROUGHPUT } from './cases/throughput.js';
import { TOKENS } from './cases/tokens.js';
import { fmt, type Row, row } from './stats.js';
import { type PageSet, startBenchUpstream } from './upstream.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '..', '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const MEMORY_RUNS = Number(process.env.BENCH_MEMORY_RUNS ?? 5);
const SCALE_RUNS = Number(process.env.BENCH_SCALE_RUNS ?? 3);
const ALL = ['paging', 'small-call', 'cold-start', 'memory', 'throughput', 'tokens', 'sql', 'scale'];
const selected = new Set(process.env.BENCH_CASES ? process.env.BENCH_CASES.split(',') : ALL);

/** Runs a case in a fresh process; its stderr (our server's log) is counted, not shown. A
 *  case that asks for the upstream's bytes sent (the scale runs) is answered from here. */
function inWorker<T>(name: string, input: CaseInput): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(here, 'worker.js'), [name, JSON.stringify(input)], {
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
      execArgv: process.env.BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [],
    });
    let tail = '';
    child.stderr?.on('data', (d: Buffer) => {
      tail = (tail + d.toString()).slice(-4000);
    });
    let answer: { output?: T; error?: string } | undefined;
    child.on('message', (m: { output?: T; error?: string; ask?: 'sent' }) => {
      if (m.ask === 'sent') void upstream.sent().then((sent) => child.send({ sent }));
      else answer = m;
    });
    child.on('exit', (code) => {
      if (answer?.output !== undefined) resolve(answer.output);
      else reject(new Error(`case ${name} failed (exit ${code}): ${answer?.error ?? ''}\n${tail}`));
    });
  });
}

function commit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: repo, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' }).trim();
    return dirty ? `${sha} (with uncommitted changes)` : sha;
  } catch {
    return 'unknown';
  }
}

const started = performance.now();
// The machine may be shared: its load goes with the figures.
const loadAtStart = os.loadavg().map((l) => l.toFixed(2));
const upstream = await startBenchUpstream();
const rows: Row[] = [];
const details: Record<string, unknown> = {};
try {
  const sets: PageSet[] = [];
  if (selected.has('paging')) sets.push({ variant: PAGING.variant, total: PAGING.total, pageSize: PAGING.pageSize });
  if (selected.has('small-call')) sets.push({ ...SMALL });
  if (selected.has('throughput'))
    sets.push({ variant: THROUGHPUT.variant, total: THROUGHPUT.total, pageSize: THROUGHPUT.pageSize });
  if (selected.has('tokens')) sets.push({ ...TOKENS });
  if (selected.has('memory'))
    for (const variant of [MEMORY.peakVariant, ...MEMORY.budgetVariants])
      sets.push({ variant, total: MEMORY.total, pageSize: MEMORY.pageSize });
  const rawBytes = sets.length ? (await upstream.prepare(sets)).bytes : {};
  const input: CaseInput = { origin: upstream.origin, runs: RUNS, rawBytes };
  const note = (name: string) =>
    process.stderr.write(`bench: ${name} (${((performance.now() - started) / 1000).toFixed(0)} s)\n`);

  for (const name of ['paging', 'small-call', 'throughput', 'tokens', 'sql']) {
    if (!selected.has(name)) continue;
    note(name);
    const out = await inWorker<CaseOutput>(name, input);
    rows.push(...out.rows);
    if (out.details) details[name] = out.details;
  }
  if (selected.has('cold-start')) {
    note('cold-start');
    rows.push(...(await coldStartCase(upstream.origin, RUNS)).rows);
  }
  if (selected.has('memory')) {
    note('memory');
    const peaks: PeakRun[] = [];
    const budgets: BudgetRun[] = [];
    for (let run = 0; run < MEMORY_RUNS; run++) {
      peaks.push(await inWorker<PeakRun>('memory-peak', input));
      budgets.push(await inWorker<BudgetRun>('memory-budget', input));
    }
    const c = '4 memory 100k records';
    rows.push(
      row(
        c,
        'raw JSON served',
        'MB',
        peaks.map((p) => p.rawBytes / MB),
      ),
      row(
        c,
        'peak RSS growth, one report',
        'MB',
        peaks.map((p) => p.growthBytes / MB),
      ),
      row(
        c,
        'peak RSS growth / raw JSON',
        'x',
        peaks.map((p) => p.growthBytes / p.rawBytes),
        1.6, // issue 34: at most 1.6 at 100,000 records
      ),
      row(
        c,
        'held memory per result (budget measure) / raw JSON',
        'x',
        peaks.map((p) => p.heldBytes / p.rawBytes),
        1,
      ),
      row(
        c,
        `RSS growth after six reports (budget ${MEMORY.budgetMb} MB)`,
        'MB',
        budgets.map((b) => (b.endRss - b.startRss) / MB),
      ),
      row(
        c,
        'RSS growth after six / budget',
        'x',
        budgets.map((b) => (b.endRss - b.startRss) / MB / MEMORY.budgetMb),
        1.2,
      ),
      row(
        c,
        'peak RSS growth during six reports',
        'MB',
        budgets.map((b) => (b.peakRss - b.startRss) / MB),
      ),
      row(
        c,
        'results answering query_report exactly (held or read back from disk)',
        'count',
        budgets.map((b) => b.held),
        4,
        true,
      ),
    );
    details.memory = { budgets };
  }
  if (selected.has('scale')) {
    note('scale');
    const out = await scaleCase(
      upstream,
      SCALE_RUNS,
      (s) => process.stderr.write(`bench: ${s}\n`),
      (total, json) => inWorker<SizeRun>('scale-run', { ...input, scale: { total, json } }),
    );
    rows.push(...out.rows);
    details.scale = out.details;
  }
} finally {
  upstream.stop();
}

const load = () => os.loadavg().map((l) => l.toFixed(2));
const table = [
  '| case | figure | unit | runs | min | median | max | target (median) | met |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.case} | ${r.figure} | ${r.unit} | ${r.runs} | ${fmt(r.min)} | ${fmt(r.median)} | ${fmt(r.max)} | ` +
      `${r.target === undefined ? '' : `${r.atLeast ? '>=' : '<='} ${fmt(r.target)}`} | ${r.met === undefined ? '' : r.met ? 'yes' : 'NO'} |`,
  ),
].join('\n');
const seconds = (performance.now() - started) / 1000;
process.stdout.write(
  `${table}\n\nbench took ${seconds.toFixed(0)} s on ${os.cpus().length} CPUs, Node ${process.version}; ` +
    `load average (1, 5, 15 min) at start ${loadAtStart.join(', ')}, at end ${load().join(', ')}\n`,
);
// A copy of dist run from elsewhere (an A/B of two builds) writes beside that copy: the folder
// may not exist there, and a whole run's figures must not be lost at its last step.
await mkdir(path.join(repo, 'bench'), { recursive: true });
await writeFile(
  path.join(repo, 'bench', 'results.json'),
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      node: process.version,
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model,
      loadAverage: { start: loadAtStart, end: load() },
      commit: commit(),
      runs: RUNS,
      memoryRuns: MEMORY_RUNS,
      scaleRuns: SCALE_RUNS,
      seconds: Math.round(seconds),
      rows,
      details,
    },
    null,
    2,
  )}\n`,
);
// The undici agents and child pipes of the cases may keep the loop alive a while; the work is done.
process.exit(0);
