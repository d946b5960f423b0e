/**
 * A fresh machine passes `npm test` (issue 18): with chromium and redis-server missing from
 * PATH, the suites that need them are skipped and the run prints one line per program naming
 * it and the command that installs it; with CI set the same run fails with those words.
 * Checked by running vitest itself on two of those suites with a PATH holding only node.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOnPath, missingLine } from '../helpers/system-programs.js';

const VITEST = join(process.cwd(), 'node_modules', 'vitest', 'vitest.mjs');
const SUITES = ['test/upstream/shared-limiter.test.ts', 'test/browser/result-view.test.ts'];
const CHROMIUM_LINE =
  'skipped test/browser (the result view in a browser): chromium is not installed (apt-get install -y chromium)';
const REDIS_LINE =
  'skipped the Redis suites (shared results, shared limiter, replicas): redis-server is not installed ' +
  '(apt-get install -y redis-server)';

let bin: string;
beforeAll(() => {
  bin = mkdtempSync(join(tmpdir(), 'path-without-programs-'));
  symlinkSync(process.execPath, join(bin, 'node'));
});
afterAll(() => rmSync(bin, { recursive: true, force: true }));

/** vitest on SUITES with PATH = only node; `env` adds to a copy of this process's environment without CI. */
function runWithoutPrograms(env: Record<string, string> = {}) {
  const base: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && k !== 'CI' && !k.startsWith('VITEST')) base[k] = v;
  const r = spawnSync(process.execPath, [VITEST, 'run', ...SUITES], {
    env: { ...base, PATH: bin, NO_COLOR: '1', ...env },
    encoding: 'utf8',
    timeout: 120_000,
    killSignal: 'SIGKILL',
  });
  return { status: r.status, out: `${r.stdout}\n${r.stderr}` };
}

describe('system programs', () => {
  it('findOnPath finds node where it is and nothing in an empty PATH', () => {
    expect(findOnPath('node', bin)).toBe(join(bin, 'node'));
    expect(findOnPath('redis-server', bin)).toBeUndefined();
    expect(findOnPath('node', '')).toBeUndefined();
  });

  it('without them: the suites are skipped, one line each names the program and its install command', () => {
    const { status, out } = runWithoutPrograms();
    expect(out.split('\n').filter((l) => l.startsWith('skipped '))).toEqual([CHROMIUM_LINE, REDIS_LINE]);
    expect(missingLine('chromium', false)).toBe(CHROMIUM_LINE);
    expect(out).toMatch(/Test Files +2 skipped \(2\)/);
    expect(status).toBe(0);
  });

  it('with CI set: the run fails, naming each missing program and its install command', () => {
    const { status, out } = runWithoutPrograms({ CI: 'true' });
    expect(out).toContain(
      'chromium is not installed and CI is set, so test/browser (the result view in a browser) cannot be skipped: ' +
        'apt-get install -y chromium',
    );
    expect(out).toContain(
      'redis-server is not installed and CI is set, so the Redis suites (shared results, shared limiter, replicas) ' +
        'cannot be skipped: apt-get install -y redis-server',
    );
    expect(status).toBe(1);
  });
});
