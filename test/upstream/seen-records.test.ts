import { expect, it } from 'vitest';
import { SeenRecords } from '../../src/upstream/paging/seen-records.js';

it('remembers the page offset of every fingerprint, through growth, 0 and 2^53 - 1 included', () => {
  const seen = new SeenRecords();
  // Low 32 bits spread as a fingerprint's are (its second hash: fingerprint.ts), each shared by
  // 24 ids that differ above them. (Ids whose low bits were alike put all 100,000 in one probe
  // run: 30-45 s of a CPU in every test run, testing nothing more.)
  const spread = (i: number) => Math.imul(i, 0x9e3779b1) >>> 0;
  const ids = [
    0,
    1,
    7,
    2 ** 53 - 1,
    ...Array.from({ length: 100_000 }, (_, i) => (i % 24) * 2 ** 32 + spread(Math.floor(i / 24) + 1)),
  ];
  expect(new Set(ids).size).toBe(ids.length);
  // One assertion over all of them: 100,004 calls of expect() took over 30 s on a busy machine.
  const firsts = ids.map((id, i) => seen.getOrSet(id, i));
  expect(firsts.findIndex((v) => v !== undefined)).toBe(-1);
  // Asked again (from another page), each answers the offset it was first seen at.
  const answers = ids.map((id) => seen.getOrSet(id, -1));
  expect(answers).toEqual(ids.map((_, i) => i));
  // Fingerprints sharing their low 32 bits (with 7) are told apart.
  expect(seen.getOrSet(7 + 2 ** 40, 5)).toBe(undefined);
  expect(seen.getOrSet(7 + 2 ** 40, 6)).toBe(5);
});

it('grows from the smallest table as from the default one', () => {
  const small = new SeenRecords(1);
  const ids = Array.from({ length: 5_000 }, (_, i) => i * 0x100000 + 3);
  expect(ids.map((id, i) => small.getOrSet(id, i)).every((v) => v === undefined)).toBe(true);
  expect(ids.map((id) => small.getOrSet(id, -1))).toEqual(ids.map((_, i) => i));
});
