/** One line of the bench table: a figure over the runs, and its target when it has one. */
export interface Row {
  case: string;
  figure: string;
  unit: string;
  runs: number;
  min: number;
  median: number;
  max: number;
  /** The median must be at most this (or at least, when `atLeast`). */
  target?: number;
  atLeast?: true;
  met?: boolean;
}

export function median(values: readonly number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

export function row(
  c: string,
  figure: string,
  unit: string,
  values: readonly number[],
  target?: number,
  atLeast?: true,
): Row {
  if (!values.length) throw new Error(`${c} ${figure}: no samples`);
  const m = median(values);
  return {
    case: c,
    figure,
    unit,
    runs: values.length,
    min: Math.min(...values),
    median: m,
    max: Math.max(...values),
    ...(target === undefined ? {} : { target, met: atLeast ? m >= target : m <= target }),
    ...(atLeast ? { atLeast } : {}),
  };
}

/** Milliseconds `f` takes. */
export async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

/** Number formatting for the table: 3 significant digits, thousands separated. */
export function fmt(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 });
}

export function cpuMs(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

/** Pause before a timed stretch (outside it) and after it (inside it): the collector's and
 *  the compiler's threads finish what the work before left them, which is not counted, and
 *  what the timed stretch left them, which is. */
const SETTLE_MS = 250;

/**
 * Process CPU (every thread: the collector's too) per record over `repeats` reports of
 * `total` records: one report is ~0.2 s of CPU, and a single major GC falling inside or
 * outside it moved one-report samples by +-30%.
 */
export async function cpuPerRecord(
  total: number,
  repeats: number,
  report: () => Promise<unknown>,
  /** The CPU clock, ms: this process's by default; another process's (own-server.ts). */
  clock: () => number = () => cpuMs({ user: 0, system: 0 }),
): Promise<number> {
  await settle();
  const c = clock();
  for (let i = 0; i < repeats; i++) await report();
  await settle();
  return ((clock() - c) * 1000) / (total * repeats);
}

function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}
