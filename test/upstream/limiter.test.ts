import { describe, expect, test } from 'vitest';
import { ReportsError } from '../../src/errors.js';
import { Limiter } from '../../src/upstream/limiter.js';
import { rejection } from './harness.js';

const tick = (ms = 5) => new Promise((r) => setTimeout(r, ms));

function gate() {
  let open!: () => void;
  const p = new Promise<void>((r) => (open = r));
  return { p, open };
}

describe('Limiter', () => {
  test('refuses a limit below 1 or not an integer', () => {
    expect(() => new Limiter(0)).toThrow('Limiter limit must be an integer >= 1, got 0');
    expect(() => new Limiter(1.5)).toThrow(RangeError);
  });

  test('never more than `limit` tasks at once, first come first served, maxActive recorded', async () => {
    const limiter = new Limiter(2);
    const gates = [gate(), gate(), gate(), gate()];
    const started: number[] = [];
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        await g.p;
        return i;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    expect(limiter.inFlight).toBe(2);
    gates[1].open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates[0].open();
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2].open();
    gates[3].open();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
    expect(limiter.maxActive).toBe(2);
    expect(limiter.inFlight).toBe(0);
  });

  test('a failing task releases its slot', async () => {
    const limiter = new Limiter(1);
    await expect(
      limiter.run(async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
    expect(limiter.inFlight).toBe(0);
  });

  test('a task that says it is done gives its slot back before it ends, and only once', async () => {
    const limiter = new Limiter(1);
    const g = gate();
    let second = false;
    const first = limiter.run(async (done) => {
      done();
      done();
      await g.p;
      return 'first';
    });
    const next = limiter.run(async () => {
      second = true;
      return 'second';
    });
    await tick();
    // The first task still runs; its slot went to the second.
    expect(second).toBe(true);
    expect(await next).toBe('second');
    expect(limiter.inFlight).toBe(0);
    const g2 = gate();
    const third = limiter.run(() => g2.p.then(() => 'third'));
    expect(limiter.inFlight).toBe(1);
    // The first ending now gives back nothing more: the third still holds the only slot.
    g.open();
    expect(await first).toBe('first');
    expect(limiter.inFlight).toBe(1);
    let fourth = false;
    const last = limiter.run(async () => {
      fourth = true;
    });
    await tick();
    expect(fourth).toBe(false);
    g2.open();
    expect(await third).toBe('third');
    await last;
    expect(fourth).toBe(true);
    expect(limiter.maxActive).toBe(1);
    expect(limiter.inFlight).toBe(0);
  });

  test('an abort while waiting leaves the queue without running; an aborted signal never starts', async () => {
    const limiter = new Limiter(1);
    const g = gate();
    const holder = limiter.run(() => g.p);
    const controller = new AbortController();
    let ran = false;
    const waiter = limiter.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort();
    const err = await rejection(waiter);
    expect(err).toBeInstanceOf(ReportsError);
    expect(err.kind).toBe('cancelled');
    g.open();
    await holder;
    expect(ran).toBe(false);
    expect(limiter.inFlight).toBe(0);
    expect((await rejection(limiter.run(async () => 1, controller.signal))).kind).toBe('cancelled');
  });
});
