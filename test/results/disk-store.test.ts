/**
 * The disk side of held results (src/results/disk-store.ts) with real files in a temporary
 * folder and a clock of the test's own: results expire on disk with their TTL (at start-up and
 * while running), the folder stays within its budget (every key's files counted, the least
 * recently used deleted first), two first uses of a kept result read it once, and a result
 * that left memory before its copy was written is listed and read back, not lost. A copy
 * waits for tool calls to be quiet (at most WRITE_WITHIN_MS), and a flush writes it at once.
 */
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { openFolderKey } from '../../src/results/disk/folder-key.js';
import { DiskStore, WRITE_WITHIN_MS } from '../../src/results/disk-store.js';
import { type NewResult, ResultStore } from '../../src/results/store.js';

const folders: string[] = [];
afterAll(async () => {
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

async function tempRoot(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'disk-store-'));
  folders.push(dir);
  return dir;
}

function result(n: number, seed: number): NewResult {
  // Distinct values, so compression does not make every result the same few bytes.
  const records = Array.from({ length: n }, (_, i) => ({
    Id: seed * 100_000 + i,
    Locator: (seed * 7919 + i * 104_729).toString(36).toUpperCase(),
    Fare: ((i * 37 + seed) % 1000) + 0.25,
  }));
  return {
    owner: 'local',
    report: 'air_segments_by_date',
    source: 'live',
    query: { DateStart: '20261101' },
    sentQuery: { DateStart: '20261101' },
    totalRecords: n,
    complete: true,
    notes: [],
    records,
    held: [{ offset: 0, count: n }],
  };
}

interface Opened {
  store: DiskStore;
  logs: string[];
}

const MINUTE = 60_000;

function opener(root: string, clock: { t: number }, maxBytes = 1 << 30, secret = 'key-one', memoryBytes?: number) {
  return async (): Promise<Opened> => {
    const logs: string[] = [];
    const now = () => clock.t;
    const memory = new ResultStore({ ttlMs: 10 * MINUTE, now, ...(memoryBytes ? { maxBytes: memoryBytes } : {}) });
    const key = await openFolderKey(root, { secret, context: 'test' });
    const settings = { version: '1', REPORTS_OWNING_COMPANY_CODES: [], REPORTS_REDACT_PII: false };
    const store = new DiskStore({ memory, root, key, maxBytes, log: (l) => logs.push(l), now, settings });
    await store.ready;
    return { store, logs };
  };
}

async function keptStems(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(root, { withFileTypes: true, recursive: true }))
    if (e.isFile() && e.name.endsWith('.meta')) out.push(e.name.slice(0, -5));
  return out.sort();
}
const stem = (id: string) => Buffer.from(id.slice(2), 'base64url').toString('hex');

describe('results kept on disk', () => {
  it('expire with their TTL: deleted at start-up, and while running, saying so when asked for', async () => {
    const root = await tempRoot();
    const clock = { t: Date.parse('2026-11-15T12:00:00Z') };
    const open = opener(root, clock);
    const a = await open();
    const old = await a.store.put(result(50, 1));
    clock.t += 5 * MINUTE;
    const recent = await a.store.put(result(50, 2));
    await a.store.close();
    expect(await keptStems(root)).toEqual([stem(old.id), stem(recent.id)].sort());

    // Restarted 6 minutes later: the first is 11 minutes unused (TTL 10), the second 6.
    clock.t += 6 * MINUTE;
    const b = await open();
    await b.store.flush();
    expect(await keptStems(root)).toEqual([stem(recent.id)]);
    await expect(b.store.get(old.id)).rejects.toThrow(/it expired, unused for 10 minutes/);
    expect((await b.store.get(recent.id)).records).toEqual(result(50, 2).records);
    expect((await b.store.list()).map((r) => r.id)).toEqual([recent.id]);

    // Used at 11 minutes, so it expires at 21, while this server runs.
    clock.t += 9 * MINUTE;
    expect(await b.store.list()).toHaveLength(1);
    clock.t += 2 * MINUTE;
    expect(await b.store.list()).toEqual([]);
    await b.store.flush();
    expect(await keptStems(root)).toEqual([]);
    await b.store.close();
  });

  it('keep the folder within its budget, every key counted, the least recently used deleted first', async () => {
    const root = await tempRoot();
    const clock = { t: Date.parse('2026-11-15T12:00:00Z') };
    // One result's size on disk, measured, and a budget for three of them.
    const probe = await opener(await tempRoot(), clock)();
    await probe.store.put(result(2_000, 9));
    await probe.store.close();
    const one = probe.store.keptBytes;
    expect(one).toBeGreaterThan(10_000);
    const budget = Math.floor(one * 3.5);

    // Another key's result, used first of all.
    const other = await opener(root, clock, budget, 'key-two')();
    const foreign = await other.store.put(result(2_000, 10));
    await other.store.close();
    clock.t += 1000;

    const s = await opener(root, clock, budget)();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.t += 1000;
      ids.push((await s.store.put(result(2_000, i))).id);
      await s.store.flush();
    }
    // Four results do not fit: the other key's, least recently used, went.
    expect(await keptStems(root)).toEqual(ids.map(stem).sort());
    expect(await keptStems(root)).not.toContain(stem(foreign.id));
    // The first is used again; the next result makes the second, now least recently used, go.
    clock.t += 1000;
    await s.store.get(ids[0]);
    clock.t += 1000;
    ids.push((await s.store.put(result(2_000, 3))).id);
    await s.store.flush();
    expect(await keptStems(root)).toEqual([ids[0], ids[2], ids[3]].map(stem).sort());
    expect(s.logs.some((l) => l.includes(`kept result ${ids[1]}`) && l.includes('REPORTS_RESULTS_DISK_MB'))).toBe(true);
    let total = 0;
    for (const e of await readdir(root, { withFileTypes: true, recursive: true }))
      if (e.isFile() && /\.(meta|data)$/.test(e.name)) total += (await stat(join(e.parentPath, e.name))).size;
    expect(total).toBeLessThanOrEqual(budget);

    // Held in memory still, it answers; a restarted server finds what the disk kept.
    expect((await s.store.get(ids[1])).records).toHaveLength(2_000);
    await s.store.close();
    const again = await opener(root, clock, budget)();
    expect((await again.store.list()).map((r) => r.id).sort()).toEqual([ids[0], ids[2], ids[3]].sort());

    // A result larger than the whole budget is held in memory only.
    const big = await again.store.put(result(10_000, 20));
    await again.store.flush();
    expect(await keptStems(root)).not.toContain(stem(big.id));
    expect(again.logs.some((l) => l.includes(`result ${big.id} is larger than REPORTS_RESULTS_DISK_MB`))).toBe(true);
    expect((await again.store.get(big.id)).records).toHaveLength(10_000);
    await again.store.close();
  });

  it("count the folder again within a minute of another process's writes, not after each of their own", async () => {
    const root = await tempRoot();
    const clock = { t: Date.parse('2026-11-15T12:00:00Z') };
    const probe = await opener(await tempRoot(), clock)();
    await probe.store.put(result(2_000, 9));
    await probe.store.close();
    const budget = Math.floor(probe.store.keptBytes * 3.5);
    const folderBytes = async () => {
      let total = 0;
      for (const e of await readdir(root, { withFileTypes: true, recursive: true }))
        if (e.isFile() && /\.(meta|data)$/.test(e.name)) total += (await stat(join(e.parentPath, e.name))).size;
      return total;
    };

    const a = await opener(root, clock, budget)();
    const first = await a.store.put(result(2_000, 1));
    await a.store.flush();
    // Another key's server writes two while this one runs: three in the folder, within the budget.
    const b = await opener(root, clock, budget, 'key-two')();
    for (const seed of [2, 3]) {
      clock.t += 1000;
      await b.store.put(result(2_000, seed));
      await b.store.flush();
    }
    await b.store.close();
    // This server's count (one result) plus its own second write fits: it does not count the
    // folder again, which now holds four, over the budget for the moment.
    clock.t += 1000;
    await a.store.put(result(2_000, 4));
    await a.store.flush();
    expect(await folderBytes()).toBeGreaterThan(budget);
    // A minute on, its next write counts the folder and deletes the least recently used.
    clock.t += 61_000;
    await a.store.put(result(2_000, 5));
    await a.store.flush();
    expect(await folderBytes()).toBeLessThanOrEqual(budget);
    expect(await keptStems(root)).not.toContain(stem(first.id));
    await a.store.close();
  });

  it('reads a kept result once for two first uses; its table numbers are not given again', async () => {
    const root = await tempRoot();
    const clock = { t: Date.parse('2026-11-15T12:00:00Z') };
    const a = await opener(root, clock)();
    const first = await a.store.put(result(3_000, 1));
    await a.store.close();
    const b = await opener(root, clock)();
    const [x, y] = await Promise.all([b.store.get(first.id), b.store.get(first.id)]);
    expect(x).toBe(y);
    expect(x.records).toEqual(result(3_000, 1).records);
    expect(x.table).toBe(first.table);
    const second = await b.store.put(result(10, 2));
    expect(second.table).toBe('air_segments_by_date_2');
    await b.store.close();
  });

  it('a leftover of a failed write is removed once it is old', async () => {
    const root = await tempRoot();
    const clock = { t: Date.now() + 2 * 60 * MINUTE };
    const a = await opener(root, clock)();
    await a.store.close();
    const folder = (await readdir(root, { withFileTypes: true })).find((e) => e.isDirectory())!;
    const leftover = join(root, folder.name, 'abc.data.0a1b2c.tmp');
    await writeFile(leftover, 'half');
    const b = await opener(root, clock)();
    await b.store.close();
    await expect(stat(leftover)).rejects.toThrow(/ENOENT/);
  });

  it('lists and reads back a result that left memory before its copy was written', async () => {
    const root = await tempRoot();
    const clock = { t: Date.parse('2026-11-15T12:00:00Z') };
    // Memory for about one of them: holding the second drops the first at once, in the same
    // turn, while the first's copy is still queued behind the call's answer.
    const a = await opener(root, clock, 1 << 30, 'key-one', 400_000)();
    const first = await a.store.put(result(3_000, 1));
    const second = await a.store.put(result(3_000, 2));
    const listed = await a.store.list();
    expect(listed.map((r) => r.id).sort()).toEqual([first.id, second.id].sort());
    expect(listed.find((r) => r.id === first.id)?.totalRecords).toBe(3_000);
    expect((await a.store.get(first.id)).records).toEqual(result(3_000, 1).records);
    await a.store.close();
  });

  it('writes a copy once calls are quiet, within WRITE_WITHIN_MS, and at once when flushed', async () => {
    const root = await tempRoot();
    const waits: number[] = [];
    let quietNow = () => {};
    const quiet = (withinMs: number) => {
      waits.push(withinMs);
      return new Promise<void>((resolve) => {
        quietNow = resolve;
      });
    };
    const memory = new ResultStore({ ttlMs: 10 * MINUTE });
    const key = await openFolderKey(root, { secret: 'key-one', context: 'test' });
    const settings = { version: '1', REPORTS_OWNING_COMPANY_CODES: [], REPORTS_REDACT_PII: false };
    const store = new DiskStore({ memory, root, key, maxBytes: 1 << 30, log: () => {}, settings, quiet });
    await store.ready;
    const first = await store.put(result(100, 1));
    await sleep(50);
    expect(await keptStems(root)).toEqual([]);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThan(WRITE_WITHIN_MS - 100);
    expect(waits[0]).toBeLessThanOrEqual(WRITE_WITHIN_MS);
    quietNow();
    for (let i = 0; i < 100 && !(await keptStems(root)).length; i++) await sleep(10);
    expect(await keptStems(root)).toEqual([stem(first.id)]);
    // The next one waits in its turn; a flush (get of a result not in memory, list, a stop) does not.
    const second = await store.put(result(100, 2));
    await sleep(50);
    expect(waits).toHaveLength(2);
    expect(await keptStems(root)).toEqual([stem(first.id)]);
    await store.flush();
    expect(await keptStems(root)).toEqual([stem(first.id), stem(second.id)].sort());
    await store.close();
  });
});
