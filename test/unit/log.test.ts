/**
 * The stderr log (src/log.ts): a line is written after the turn that logged it (so an answer
 * written in that turn is not held up by the pipe's synchronous write), lines keep their order
 * and their redaction, and a process that exits in the same turn still writes every line.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test, vi } from 'vitest';
import { stderrLogger } from '../../src/log.js';

const BUILT_LOG = fileURLToPath(new URL('../../dist/src/log.js', import.meta.url));

afterEach(() => vi.restoreAllMocks());

test('lines are written together after the turn that logged them, in order, secrets redacted', async () => {
  const written: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    written.push(String(chunk));
    return true;
  });
  const log = stderrLogger(['k3y-s3cret']);
  log('first, signed with k3y-s3cret');
  log('second');
  expect(written).toEqual([]);
  await new Promise((resolve) => setImmediate(resolve));
  expect(written).toEqual(['[travel-reports-mcp] first, signed with [redacted]\n[travel-reports-mcp] second\n']);
  log('third');
  await new Promise((resolve) => setImmediate(resolve));
  expect(written).toEqual([
    '[travel-reports-mcp] first, signed with [redacted]\n[travel-reports-mcp] second\n',
    '[travel-reports-mcp] third\n',
  ]);
});

test('a disabled logger writes nothing', async () => {
  const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
  stderrLogger([], false)('not written');
  await new Promise((resolve) => setImmediate(resolve));
  expect(write).not.toHaveBeenCalled();
});

test('a process that exits in the turn it logged still writes its lines (the built module)', () => {
  const script =
    `const { stderrLogger } = await import(${JSON.stringify(BUILT_LOG)});` +
    `const log = stderrLogger(['k3y-s3cret']); log('one k3y-s3cret'); log('two'); process.exit(3);`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(run.status).toBe(3);
  expect(run.stdout).toBe('');
  expect(run.stderr).toBe('[travel-reports-mcp] one [redacted]\n[travel-reports-mcp] two\n');
});
