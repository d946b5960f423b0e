import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../src/upstream/paging/fingerprint.js';
import { RecordPass } from '../../src/upstream/paging/record-pass.js';
import { type FieldTally, FieldValues, firstCodes, RESERVE_MAX } from '../../src/upstream/paging/value-counts.js';
import { Compactor, compactRecords, objectBytes, stringBytes } from '../../src/upstream/record-memory.js';

/** A tally as plain lists (its counts are a typed array, perhaps a view of the field's). */
const plain = (t: FieldTally) => ({ values: [...t.values], counts: [...t.counts] });

describe('heap bytes of held records', () => {
  it('counts strings, numbers, objects and lists as V8 lays them out', () => {
    expect([stringBytes(0, false), stringBytes(1, false), stringBytes(8, false), stringBytes(9, false)]).toEqual([
      16, 24, 24, 32,
    ]);
    expect(stringBytes(5, true)).toBe(32); // two bytes a character
    expect([objectBytes(3, true), objectBytes(3, false), objectBytes(10, false), objectBytes(20, false)]).toEqual([
      48,
      56,
      24 + 32 + 16 + 48,
      24 + 32 + 16 + 8 * (7 + 3 * 32),
    ]);
    const c = new Compactor(true);
    c.value({ A: 'x'.repeat(50), B: 7, C: 1.5, D: [true, null, 'é'], E: 'Ω' });
    // object of 5: 64; 50 chars: 72; 1.5: 16; list of 3: 72; 'é' (Latin-1): 24; 'Ω': 24.
    expect(c.bytes).toBe(64 + 72 + 16 + 72 + 24 + 24);
  });

  it('shares a repeated short string among records and counts it once', () => {
    const records = [0, 1, 2].map((i) => JSON.parse(`{"Account":"ACME${'0'.repeat(2)}","N":${i}}`));
    expect(records[0].Account).toBe('ACME00');
    // 3 objects of two properties built as literals-by-parse, counted as built one by one
    // (56 each), and 'ACME00' once (24); small integers hold nothing of their own.
    expect(compactRecords(records)).toBe(3 * 56 + 24);
    const long = [0, 1].map(() => ({ Remark: 'y'.repeat(41) }));
    expect(compactRecords(long)).toBe(2 * 56 + 2 * 64); // over 40 characters: not shared
  });

  it('empties its table when it holds 65,536 strings: a string shared before is then held again', () => {
    const c = new Compactor();
    const [a, b] = JSON.parse('["ACME00","ACME00"]') as string[];
    c.share(a);
    expect(c.share(b)).toBe(a); // held once
    expect(c.bytes).toBe(24);
    for (let i = 0; i < 65_535; i++) c.share(`v${i}`); // 2 to 6 characters: 24 bytes each
    expect(c.share(b)).toBe(a);
    c.share('x'); // the 65,537th: the table is emptied first
    expect(c.share(b)).toBe(b); // held and counted anew
    expect(c.bytes).toBe(24 + 65_535 * 24 + 24 + 24);
  });
});

describe('the one walk of an accepted record', () => {
  it('counts a text at two bytes a character only when one is beyond Latin-1', () => {
    const pass = new RecordPass(true);
    // Top-level texts of 11 characters (not interned), each met once: Latin-1 ('é' is one
    // byte), wide at either end or in the middle (even and odd positions), and a date.
    const record = JSON.parse(
      '{"A":"Zürich-Genè","B":"Ωmega-travel","C":"travel-Ωmeg","D":"trav-Ω-elle","E":"/Date(0)/"}',
    );
    pass.beginPage();
    pass.record(record);
    const latin1 = stringBytes(11, false);
    const wide = stringBytes(11, true);
    const date = stringBytes('1970-01-01T00:00:00.000Z'.length, false);
    expect(latin1).toBe(32);
    expect(wide).toBe(40);
    expect(pass.memory.bytes).toBe(objectBytes(5, true) + latin1 + 3 * wide + date);
  });

  it('decodes dates, bounds depth, and gives the fingerprint of the record as sent', () => {
    let deep: unknown = { End: 1 };
    for (let i = 0; i < 40; i++) deep = { In: deep };
    const sent = {
      When: '/Date(1459781734000-0500)/',
      None: '/Date(-62135596800000-0000)/',
      Bad: '/Date(99999999999999999999)/',
      Deep: deep,
      List: [{ At: '/Date(0)/' }],
    };
    const asSent = JSON.parse(JSON.stringify(sent));
    const pass = new RecordPass();
    const record = JSON.parse(JSON.stringify(sent));
    const id = pass.record(record);
    expect(record.When).toBe('2016-04-04T09:55:34.000-05:00');
    expect(record.None).toBe(null);
    expect(record.Bad).toBe('/Date(99999999999999999999)/');
    expect(record.List).toEqual([{ At: '1970-01-01T00:00:00.000Z' }]);
    expect([pass.undecoded, pass.firstUndecoded, pass.tooDeep]).toEqual([1, '/Date(99999999999999999999)/', 1]);
    // Nested 32 levels deep (the record itself is level 0), the rest is kept as its JSON text.
    let v = record.Deep;
    for (let i = 0; i < 30; i++) v = v.In;
    let cut = deep as { In: unknown };
    for (let i = 0; i < 31; i++) cut = cut.In as { In: unknown };
    expect(v.In).toBe(JSON.stringify(cut));
    // The fingerprint is the record's as sent (depth bounded, dates not yet decoded).
    let bounded = asSent.Deep;
    for (let i = 0; i < 30; i++) bounded = bounded.In;
    bounded.In = JSON.stringify(bounded.In);
    expect(id).toBe(fingerprint(asSent));
    expect(pass.record(JSON.parse(JSON.stringify(sent)))).toBe(id);
  });

  it('fingerprints records whose fields change places from record to record as fingerprint() does', () => {
    const pass = new RecordPass();
    const sent = [
      '{"A":"x","B":1}',
      '{"B":1,"A":"x"}',
      '{"A":"x","C":1}',
      '{"A":"x","B":1,"C":[{"A":2}]}',
      '{"A":"x"}',
    ];
    for (const text of [...sent, ...sent]) expect(pass.record(JSON.parse(text))).toBe(fingerprint(JSON.parse(text)));
    expect(pass.record(JSON.parse(sent[0]))).not.toBe(pass.record(JSON.parse(sent[1])));
  });

  it('holds each distinct value of a field once and, when counting, counts every occurrence', () => {
    const pass = new RecordPass(true);
    // Id: 1,500 distinct values, each twice; Cat: one value throughout; Bad: an undecodable date.
    for (let i = 0; i < 3000; i++)
      pass.record(JSON.parse(`{"Id":"id${String(i % 1500).padStart(4, '0')}","Cat":"AAA","Bad":"/Date(x)/"}`));
    expect(pass.memory.bytes).toBe(
      3000 * objectBytes(3, true) + 1500 * stringBytes(6, false) + stringBytes(3, false) + stringBytes(9, false),
    );
    const [id, cat, bad] = pass.values.fields.map((f) => pass.values.tally(f));
    expect(id.values.slice(0, 3)).toEqual(['id0000', 'id0001', 'id0002']);
    expect([id.values.length, new Set(id.counts)]).toEqual([1500, new Set([2])]);
    expect(plain(cat)).toEqual({ values: ['AAA'], counts: [3000] });
    expect(plain(bad)).toEqual({ values: ['/Date(x)/'], counts: [3000] });
    // Every occurrence of a date kept as sent is noted, not only the first.
    expect([pass.undecoded, pass.firstUndecoded]).toEqual([3000, '/Date(x)/']);
  });

  it('takes back the counts of a page whose records were replaced', () => {
    const pass = new RecordPass(true);
    const page = (texts: string[]) => {
      pass.beginPage();
      for (const t of texts) pass.record(JSON.parse(t));
    };
    page(['{"A":"x","B":1}', '{"A":"y","B":true}']);
    page(['{"A":"x","B":1}', '{"A":"z","B":2,"C":[1]}']);
    expect(pass.values.pageHasNested).toBe(true);
    pass.values.uncountPage();
    const [a, b] = pass.values.fields.map((f) => pass.values.tally(f));
    expect(plain(a)).toEqual({ values: ['x', 'y'], counts: [1, 1] });
    expect(plain(b)).toEqual({ values: [1, true], counts: [1, 1] });
  });

  it('merges two date texts of one instant into one value', () => {
    const pass = new RecordPass(true);
    for (const t of ['/Date(0)/', '/Date(0+0000)/', '/Date(0-0000)/', '1970-01-01T00:00:00.000Z', '/Date(1000)/'])
      pass.record({ At: t });
    expect(plain(pass.values.tally(pass.values.fields[0]))).toEqual({
      values: ['1970-01-01T00:00:00.000Z', '1970-01-01T00:00:01.000Z'],
      counts: [4, 1],
    });
  });

  it('bounds the values it holds for sharing when not counting', () => {
    const shared = new RecordPass();
    const counting = new RecordPass(true);
    for (const pass of [shared, counting]) for (let i = 0; i <= 65_536; i++) pass.record({ Id: `k${i}` });
    const before = [shared.memory.bytes, counting.memory.bytes];
    for (const pass of [shared, counting]) pass.record({ Id: 'k0' });
    // Not counting, the table was emptied at 65,536 values: k0 is held (and measured) again.
    expect(shared.memory.bytes - before[0]).toBe(objectBytes(1, true) + stringBytes(2, false));
    expect(counting.memory.bytes - before[1]).toBe(objectBytes(1, true));
  });
});

describe("a field's table of values", () => {
  it('is first sized for the first page, within 16 and 128 values', () => {
    expect([0, 1, 16, 17, 100, 128, 129, 500].map(firstCodes)).toEqual([16, 16, 16, 32, 128, 128, 128, 128]);
  });

  it('keeps every value, code and count when room is reserved for a whole fetch', () => {
    const f = new FieldValues('F', 0, 16);
    const hashOf = (i: number) => Math.imul(i, 0x2c1b3c6d);
    for (let i = 0; i < 100; i++) {
      const code = f.add(`v${i}`, `v${i}`, hashOf(i));
      f.counts[code] += i + 1;
      expect(f.find(`v${i + 1}`, hashOf(i + 1))).toBe(-1);
    }
    f.reserve(50_000);
    for (let i = 0; i < 100; i++) expect([f.find(`v${i}`, hashOf(i)), f.counts[i]]).toEqual([i, i + 1]);
    for (let i = 100; i < 5000; i++) {
      expect(f.find(`v${i}`, hashOf(i))).toBe(-1);
      expect(f.add(`v${i}`, `v${i}`, hashOf(i))).toBe(i);
    }
    expect([f.find('v0', hashOf(0)), f.find('v4999', hashOf(4999)), f.counts[99]]).toEqual([0, 4999, 100]);
  });

  it('counts a fetch alike whether it expects its records or not (a field unique on page one reserves)', () => {
    const walk = (expected: number | undefined) => {
      const pass = new RecordPass(true);
      for (let page = 0; page < 6; page++) {
        pass.beginPage(500, expected);
        for (let i = 0; i < 500; i++) {
          const n = page * 500 + i;
          pass.record({ Id: `id${n}`, Cat: `c${n % 7}`, Amount: n % 1000 });
        }
      }
      pass.finish();
      return pass.values.fields.map((f) => plain(pass.values.tally(f)));
    };
    const reserved = walk(3000);
    expect(reserved).toEqual(walk(undefined));
    expect(reserved[0].values.length).toBe(3000);
    expect(reserved[1].counts).toEqual([429, 429, 429, 429, 428, 428, 428]);
  });

  it('gives no table more room than RESERVE_MAX values, whatever the service says will come', () => {
    const before = process.memoryUsage().arrayBuffers;
    const pass = new RecordPass(true);
    for (let page = 0; page < 2; page++) {
      // TotalRecords may say ten million; five fields hold a new value in every record.
      pass.beginPage(1000, 10_000_000);
      for (let i = 0; i < 1000; i++) {
        const n = page * 1000 + i;
        pass.record({ A: `a${n}`, B: `b${n}`, C: `c${n}`, D: `d${n}`, E: `e${n}` });
      }
    }
    // Five tables of RESERVE_MAX values are 6.5 MB; room for ten million each was 1.5 GB.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(16 * 1024 * 1024);
    expect(RESERVE_MAX).toBe(65_536);
    expect(pass.values.fields.map((f) => pass.values.tally(f).values.length)).toEqual([2000, 2000, 2000, 2000, 2000]);
  });

  it.each([16, 128])(
    'tells apart values that share a hash, and finds every value again after growing (first %i)',
    (codes) => {
      const f = new FieldValues('F', 0, codes);
      const put = (v: unknown, hash: number) => {
        const code = f.find(v, hash);
        return code >= 0 ? code : f.add(v, v, hash);
      };
      // Three values under one hash, then enough others to grow the table several times.
      expect(['a', 'b', 'c'].map((v) => put(v, 7))).toEqual([0, 1, 2]);
      for (let i = 0; i < 5000; i++) expect(put(`v${i}`, i * 7919)).toBe(3 + i);
      expect(
        ['a', 'b', 'c', 'v0', 'v4999'].map((v) => f.find(v, v.length === 1 ? 7 : Number(v.slice(1)) * 7919)),
      ).toEqual([0, 1, 2, 3, 5002]);
      expect(f.find('d', 7)).toBe(-1);
      expect(f.find(7, 7)).toBe(-1);
    },
  );

  it('counts each of 60 fields apart when their first tables are cut from shared buffers (three of them)', () => {
    // A fetch's fields' first tables share buffers of 24 fields' tables each: 60 fields of
    // 128 first codes take three. Field k holds values v0 to vk, null in some records; a
    // table overlapping another's would count or find the other's values.
    const pass = new RecordPass(true);
    pass.beginPage(200, 200);
    for (let round = 0; round < 2; round++)
      for (let i = 0; i < 100; i++) {
        const r: Record<string, unknown> = {};
        for (let k = 0; k < 60; k++) r[`F${k}`] = i % (k + 1) <= (i * 7) % (k + 1) ? `v${i % (k + 1)}` : null;
        pass.record(r);
      }
    pass.finish();
    expect(pass.values.fields.length).toBe(60);
    pass.values.fields.forEach((f, k) => {
      const expected = new Map<string, number>();
      for (let round = 0; round < 2; round++)
        for (let i = 0; i < 100; i++)
          if (i % (k + 1) <= (i * 7) % (k + 1))
            expected.set(`v${i % (k + 1)}`, (expected.get(`v${i % (k + 1)}`) ?? 0) + 1);
      const t = pass.values.tally(f);
      expect(new Map(t.values.map((v, j) => [v as string, t.counts[j]])), f.name).toEqual(expected);
    });
  });
});
