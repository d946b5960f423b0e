/**
 * Work that waits until tool calls are quiet (src/server/quiet.ts): it runs at once when no
 * call has run for QUIET_MS, QUIET_MS after the last call ends otherwise (a call starting
 * meanwhile starts the wait again), and at its deadline while calls keep running.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, test } from 'vitest';
import { QUIET_MS, whenQuiet, whileCalling } from '../../src/server/quiet.js';

/** When `p` resolved (performance.now()), or undefined while it has not. */
function settled(p: Promise<void>): { at: number | undefined } {
  const state: { at: number | undefined } = { at: undefined };
  void p.then(() => {
    state.at = performance.now();
  });
  return state;
}

const call = (ms: number) =>
  whileCalling(async () => {
    await sleep(ms);
    return performance.now();
  });

test('with no call for QUIET_MS, work runs at once', async () => {
  await sleep(QUIET_MS);
  const asked = performance.now();
  await whenQuiet();
  expect(performance.now() - asked).toBeLessThan(QUIET_MS / 2);
});

test('work waits while a call runs, then QUIET_MS after it ends', async () => {
  const ending = call(QUIET_MS);
  const waiting = settled(whenQuiet());
  const ended = await ending;
  expect(waiting.at).toBeUndefined();
  await sleep(QUIET_MS + 100);
  expect(waiting.at).toBeDefined();
  expect((waiting.at as number) - ended).toBeGreaterThanOrEqual(QUIET_MS - 1);
});

test('a call starting while work waits for quiet starts the wait again', async () => {
  await call(10);
  const waiting = settled(whenQuiet());
  await sleep(QUIET_MS / 2);
  const ended = await call(QUIET_MS / 2);
  await sleep(QUIET_MS / 2);
  // QUIET_MS after the first call, but the second ended only QUIET_MS / 2 ago.
  expect(waiting.at).toBeUndefined();
  await sleep(QUIET_MS);
  expect((waiting.at as number) - ended).toBeGreaterThanOrEqual(QUIET_MS - 1);
});

test('work with a deadline runs at it while calls keep running', async () => {
  const running = call(4 * QUIET_MS);
  const asked = performance.now();
  await whenQuiet(QUIET_MS / 2);
  const waited = performance.now() - asked;
  expect(waited).toBeGreaterThanOrEqual(QUIET_MS / 2 - 1);
  expect(waited).toBeLessThan(2 * QUIET_MS);
  await running;
});
