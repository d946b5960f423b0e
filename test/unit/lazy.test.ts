import { describe, expect, it } from 'vitest';
import { lazy } from '../../src/server/lazy.js';

describe('lazy', () => {
  it('loads once and answers the same promise after', async () => {
    let loads = 0;
    const get = lazy(async () => ({ n: ++loads }));
    const first = get();
    expect(get()).toBe(first);
    expect(await first).toEqual({ n: 1 });
    expect(await get()).toBe(await first);
    expect(loads).toBe(1);
  });

  it('loads again after a load that failed', async () => {
    let loads = 0;
    const get = lazy(async () => {
      if (++loads === 1) throw new Error('EMFILE: too many open files');
      return 'module';
    });
    await expect(get()).rejects.toThrow('EMFILE');
    expect(await get()).toBe('module');
    expect(await get()).toBe('module');
    expect(loads).toBe(2);
  });
});
