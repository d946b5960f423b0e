/**
 * Reads the sandbox CLI's environment (see src/sandbox/cli.ts) into SandboxOptions; a bad
 * value throws ConfigError naming the variable.
 */
import { FAULT_KINDS, type FaultKind } from './faults.js';
import type { SandboxOptions } from './service.js';

export class ConfigError extends Error {}

function int(name: string, value: string, min: number, max: number): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name}: '${value}' must be a whole number from ${min} to ${max}`);
  }
  return Number(value);
}

export function optionsFromEnv(env: NodeJS.ProcessEnv): SandboxOptions {
  const opts: SandboxOptions = { port: 8787 };
  const set = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const port = set('SANDBOX_PORT');
  if (port !== undefined) opts.port = int('SANDBOX_PORT', port, 0, 65535);
  const host = set('SANDBOX_HOST');
  if (host !== undefined) opts.host = host;
  const seed = set('SANDBOX_SEED');
  if (seed !== undefined) opts.seed = int('SANDBOX_SEED', seed, 0, 2 ** 32 - 1);
  const size = set('SANDBOX_SIZE');
  if (size !== undefined) opts.size = int('SANDBOX_SIZE', size, 1, 1_000_000);
  const dataNow = set('SANDBOX_DATA_NOW');
  if (dataNow !== undefined) {
    const at = /^\d{4}-\d{2}-\d{2}$/.test(dataNow) ? new Date(`${dataNow}T00:00:00Z`) : new Date(Number.NaN);
    if (Number.isNaN(at.getTime())) throw new ConfigError(`SANDBOX_DATA_NOW: '${dataNow}' must be a date YYYY-MM-DD`);
    opts.dataNow = at;
  } else {
    const today = new Date();
    opts.dataNow = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  }
  const latency = set('SANDBOX_LATENCY_MS');
  if (latency !== undefined) {
    const range = /^(\d+)\s*-\s*(\d+)$/.exec(latency);
    if (range) {
      const [min, max] = [Number(range[1]), Number(range[2])];
      if (max < min) throw new ConfigError(`SANDBOX_LATENCY_MS: '${latency}' has its maximum below its minimum`);
      opts.latencyMs = [min, max];
    } else {
      opts.latencyMs = int('SANDBOX_LATENCY_MS', latency, 0, 600_000);
    }
  }
  const rate = set('SANDBOX_FAULT_RATE');
  if (rate !== undefined) {
    const r = Number(rate);
    if (!/^\d*\.?\d+$/.test(rate) || r < 0 || r > 1)
      throw new ConfigError(`SANDBOX_FAULT_RATE: '${rate}' must be a number from 0 to 1`);
    opts.faultRate = r;
  }
  const kinds = set('SANDBOX_FAULT_KINDS');
  if (kinds !== undefined) {
    const list = kinds
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    const bad = list.filter((k) => !(FAULT_KINDS as readonly string[]).includes(k));
    if (bad.length > 0 || list.length === 0) {
      throw new ConfigError(
        `SANDBOX_FAULT_KINDS: '${bad.join(',') || kinds}' is not a fault kind; use any of ${FAULT_KINDS.join(', ')}`,
      );
    }
    opts.faultKinds = list as FaultKind[];
  }
  return opts;
}
