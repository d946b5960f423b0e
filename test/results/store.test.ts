import { describe, expect, it } from 'vitest';
import { ReportsError } from '../../src/errors.js';
import { type EvictionReason, type NewResult, ResultStore } from '../../src/results/store.js';
import { Compactor, compactRecords, listBytes } from '../../src/upstream/record-memory.js';
import { coupons } from './fixtures.js';

/** A result whose records are about `kb` kilobytes of JSON. */
function result(report: string, kb: number): NewResult {
  const records = Array.from({ length: kb }, (_, i) => ({ Id: i, Text: 'x'.repeat(1000) }));
  return {
    owner: 'local',
    report,
    source: 'demo',
    query: { DateStart: '20261101' },
    sentQuery: { DateStart: '20261101' },
    totalRecords: kb,
    complete: true,
    notes: [],
    records,
    held: [{ offset: 0, count: records.length }],
  };
}

const MB = 1024 * 1024;

/** A summary's heap bytes, counted as the store counts them. */
function summaryBytesOf(r: { summary?: unknown }): number {
  const c = new Compactor();
  c.value(structuredClone(r.summary));
  return c.bytes;
}

function setup(options: { maxBytes?: number; ttlMs?: number } = {}) {
  let clock = 1_000_000;
  const evicted: { id: string; reason: EvictionReason }[] = [];
  const store = new ResultStore({
    ...options,
    now: () => clock,
    onEvict: (r, reason) => evicted.push({ id: r.id, reason }),
  });
  return { store, evicted, advance: (ms: number) => (clock += ms), now: () => clock };
}

function notFound(fn: () => unknown): ReportsError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ReportsError);
    expect((e as ReportsError).kind).toBe('not_found');
    return e as ReportsError;
  }
  throw new Error('expected not_found');
}

describe('ResultStore', () => {
  it('keeps a result under an unguessable id, with its summary and size', () => {
    const { store, now } = setup();
    const a = store.put({ ...result('ticket_coupons_by_status_code', 0), records: coupons(), totalRecords: 12 });
    const b = store.put(result('x', 1));
    expect(a.id).toMatch(/^r_[A-Za-z0-9_-]{16}$/);
    expect(a.id).not.toBe(b.id);
    expect(store.get(a.id)).toBe(a);
    expect([a.createdAt, a.updatedAt]).toEqual([now(), now()]);
    expect(a.summary?.recordCount).toBe(12);
    expect(a.summary?.fields.Account.distinct).toBe(4);
    // Its records' heap bytes (the same records measured again) and its summary's.
    expect(a.bytes - compactRecords(coupons()) - listBytes(12)).toBe(summaryBytesOf(a));
  });

  it('counts each result as its records hold them, and the measure falls by what an evicted one held', () => {
    const { store } = setup({ maxBytes: 10 * MB });
    const a = store.put(result('a', 3)); // 3 records of a 1,000-character text each
    // 3 x (an object of two properties built as a literal: 24 + 4 x 8; a text: 16 + 1,000),
    // a list of three (48 + 3 x 8), and the summary.
    const own = 3 * (56 + 1016) + 72;
    expect(a.bytes - own).toBe(summaryBytesOf(a));
    const b = store.put(result('b', 5));
    expect(store.bytes).toBe(a.bytes + b.bytes);
    expect(store.delete(a.id)).toBe(true);
    expect(store.bytes).toBe(b.bytes);
  });

  it('counts bytes held for a result elsewhere (its SQL tables) and tells their holder when it goes', () => {
    const { store, evicted } = setup({ maxBytes: 20_000 });
    const told: string[] = [];
    store.onDropped(({ id }, reason) => told.push(`${id} ${reason}`));
    const a = store.put(result('a', 3));
    const b = store.put(result('b', 3));
    store.setExternalBytes(a.id, 5000);
    expect(store.bytes).toBe(a.bytes + b.bytes + 5000);
    expect(store.bytesOf(a.id)).toBe(a.bytes + 5000);
    store.setExternalBytes(a.id, 4000); // a new figure replaces the old
    expect(store.bytes).toBe(a.bytes + b.bytes + 4000);
    // Tables too big for the budget with both: the least recently used other result goes.
    store.setExternalBytes(b.id, 12_000);
    expect(evicted).toEqual([{ id: a.id, reason: 'budget' }]);
    expect(store.bytes).toBe(b.bytes + 12_000);
    // New records make the tables stale: they stop counting and their holder is told.
    store.update(b.id, { records: result('b', 2).records });
    expect(store.bytes).toBe(store.get(b.id).bytes);
    store.delete(b.id);
    expect(store.bytes).toBe(0);
    expect(told).toEqual([`${a.id} budget`, `${b.id} replaced`, `${b.id} deleted`]);
    store.setExternalBytes(b.id, 1000); // gone: ignored
    expect(store.bytes).toBe(0);
  });

  it('evicts the least recently used first when over the byte budget; get() refreshes recency', () => {
    // Room for three results of 3 records: their measure, whatever the summary's share is.
    const { store, evicted } = setup({ maxBytes: 3 * setup().store.put(result('probe', 3)).bytes });
    const a = store.put(result('a', 3));
    const b = store.put(result('b', 3));
    const c = store.put(result('c', 3));
    expect(store.size).toBe(3);
    store.get(a.id); // a is now the most recently used; b is the oldest
    const d = store.put(result('d', 3));
    expect(evicted.map((e) => [e.id, e.reason])).toEqual([[b.id, 'budget']]);
    expect(
      store
        .list()
        .map((r) => r.report)
        .sort(),
    ).toEqual(['a', 'c', 'd']);
    notFound(() => store.get(b.id));
    store.put(result('e', 6)); // needs two slots: c, then a (d is more recent than a)
    expect(evicted.map((e) => e.id)).toEqual([b.id, c.id, a.id]);
    expect(store.get(d.id).report).toBe('d');
    expect(store.bytes).toBeLessThanOrEqual(store.maxBytes);
  });

  it('keeps a single result bigger than the whole budget, alone', () => {
    const { store, evicted } = setup({ maxBytes: 2000 });
    const small = store.put(result('small', 1));
    const huge = store.put(result('huge', 10));
    expect(store.get(huge.id).records).toHaveLength(10);
    expect(store.size).toBe(1);
    expect(evicted.map((e) => [e.id, e.reason])).toEqual([[small.id, 'budget']]);
  });

  it('expires results a TTL after their last use, with a message that says what to do', () => {
    const { store, evicted, advance } = setup({ ttlMs: 60 * 60 * 1000 });
    const a = store.put(result('a', 1));
    const b = store.put(result('b', 1));
    advance(59 * 60 * 1000);
    store.get(a.id); // used: a lives another hour
    advance(2 * 60 * 1000);
    expect(store.get(a.id).report).toBe('a');
    const e = notFound(() => store.get(b.id));
    expect(e.message).toBe(
      `No result '${b.id}' is held: it expired, unused for 60 minutes (REPORTS_RESULTS_TTL_MINUTES). ` +
        'Run b again for a new resultId.',
    );
    expect(notFound(() => store.get('r_neverIssuedHere')).message).toBe(
      "No result 'r_neverIssuedHere' is held: it is not a resultId this server issued, or it was issued before " +
        'the server restarted. Run the report again for a new resultId.',
    );
    expect(evicted).toEqual([{ id: b.id, reason: 'expired' }]);
    advance(60 * 60 * 1000 + 1);
    expect(store.list()).toEqual([]);
  });

  it('expires every result past its TTL, however many, and none used since (update() is a use)', () => {
    const { store, evicted, advance } = setup({ ttlMs: 60 * 60 * 1000 });
    const old = Array.from({ length: 5 }, (_, i) => store.put(result(`old${i}`, 1)));
    advance(30 * 60 * 1000);
    const recent = store.put(result('recent', 1));
    advance(29 * 60 * 1000);
    store.update(old[2].id, { complete: false });
    advance(2 * 60 * 1000);
    expect(store.list().map((r) => r.report)).toEqual(['old2', 'recent']);
    expect(evicted.map((e) => e.id)).toEqual([old[0].id, old[1].id, old[3].id, old[4].id]);
    expect(store.get(recent.id).report).toBe('recent');
  });

  it('gives every result its own id, past the random bytes drawn at once', () => {
    const { store } = setup();
    const ids = Array.from({ length: 600 }, () => store.put(result('x', 1)).id);
    expect(new Set(ids).size).toBe(600);
    for (const id of ids) expect(id).toMatch(/^r_[A-Za-z0-9_-]{16}$/);
  });

  it('update() replaces fields, recomputes size and summary, and counts against the budget', () => {
    const { store, advance, now } = setup();
    const r = store.put({ ...result('coupons', 0), records: coupons().slice(0, 5), complete: false, totalRecords: 12 });
    expect(r.summary?.recordCount).toBe(5);
    advance(1000);
    const u = store.update(r.id, { records: coupons(), complete: true, held: [{ offset: 0, count: 12 }] });
    expect([u.id, u.createdAt, u.updatedAt]).toEqual([r.id, r.createdAt, now()]);
    expect(u.summary?.recordCount).toBe(12);
    expect(u.summary?.fields.FOPFare.sum).toBe(4061.54);
    expect(u.bytes - compactRecords(coupons()) - listBytes(12)).toBe(summaryBytesOf(u));
    expect(store.bytes).toBe(u.bytes);
    expect(store.get(r.id)).toBe(u);
    const notes = store.update(r.id, { notes: ['n'] });
    expect(notes.summary).toBe(u.summary);
    notFound(() => store.update('r_missing', { notes: [] }));
  });

  it('lists most recent first and deletes', () => {
    const { store, advance } = setup();
    const a = store.put(result('a', 1));
    advance(10);
    const b = store.put(result('b', 1));
    advance(10);
    store.update(a.id, { notes: ['later'] });
    expect(store.list().map((r) => r.id)).toEqual([a.id, b.id]);
    expect(store.delete(a.id)).toBe(true);
    expect(store.delete(a.id)).toBe(false);
    expect(store.list().map((r) => r.id)).toEqual([b.id]);
    expect(store.bytes).toBe(b.bytes);
  });
});
