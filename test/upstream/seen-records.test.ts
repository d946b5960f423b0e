import { expect, it } from 'vitest';
import { SeenRecords } from '../../src/upstream/paging/seen-records.js';

it('remembers the page offset of every fingerprint, through growth, 0 and 2^53 - 1 included', () => {
  const seen = new SeenRecords();
  const ids = [0, 1, 2 ** 53 - 1, ...Array.from({ length: 100_000 }, (_, i) => i * 0x100000 + 7)];
  // One assertion over all of them: 100,003 calls of expect() took over 30 s on a busy machine.
  const firsts = ids.map((id, i) => seen.getOrSet(id, i));
  expect(firsts.findIndex((v) => v !== undefined)).toBe(-1);
  // Asked again (from another page), each answers the offset it was first seen at.
  const answers = ids.map((id) => seen.getOrSet(id, -1));
  expect(answers).toEqual(ids.map((_, i) => i));
  // Fingerprints sharing their low 32 bits are told apart.
  expect(seen.getOrSet(7 + 2 ** 40, 5)).toBe(undefined);
  expect(seen.getOrSet(7 + 2 ** 40, 6)).toBe(5);
  // These ids share their low 32 bits 24 at a time (real fingerprints are mixed there), so
  // the table probes long runs: seconds alone, more on a busy machine.
}, 120_000);

it('grows from the smallest table as from the default one', () => {
  const small = new SeenRecords(1);
  const ids = Array.from({ length: 5_000 }, (_, i) => i * 0x100000 + 3);
  expect(ids.map((id, i) => small.getOrSet(id, i)).every((v) => v === undefined)).toBe(true);
  expect(ids.map((id) => small.getOrSet(id, -1))).toEqual(ids.map((_, i) => i));
});
