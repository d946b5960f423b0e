import { describe, expect, it } from 'vitest';
import { jsonStringBytes } from '../../src/results/cut.js';
import { escapedBytes } from '../../src/results/json-size.js';
import { jsonPages, PAGE_TEXT_BYTES } from '../../src/results/pages.js';

/** A deterministic source of awkward characters: quotes, backslashes, controls, surrogates. */
const PIECES = ['"', '\\', '\n', '\u0001', '\u001f', '\ud800', '\udfff', '😀', '\u2028', 'é', 'Zürich', 'a"b\\c', '/'];

function awkwardText(seed: number): string {
  let s = '';
  for (let i = 0; i < 12; i++) s += PIECES[(seed * 7 + i * 13) % PIECES.length];
  return s;
}

describe('resource pages: a record measured with one JSON.stringify', () => {
  it('escapedBytes equals the bytes of the JSON text written as a JSON string, for awkward texts', () => {
    for (let seed = 0; seed < 200; seed++) {
      const record = { [awkwardText(seed + 1)]: awkwardText(seed), n: seed, list: [awkwardText(seed * 3), null] };
      const json = JSON.stringify(record);
      expect(escapedBytes(json)).toBe(jsonStringBytes(json));
    }
  });

  it('splits into pages whose text written as a JSON string stays within the page budget, in order', () => {
    const records = Array.from({ length: 4_000 }, (_, i) => ({ Id: i, Name: `${awkwardText(i)} ${'x'.repeat(400)}` }));
    const pages = jsonPages(records);
    expect(pages.length).toBeGreaterThan(1);
    expect(pages.flat().map((r) => r.Id)).toEqual(records.map((r) => r.Id));
    for (const page of pages) expect(jsonStringBytes(JSON.stringify(page))).toBeLessThanOrEqual(PAGE_TEXT_BYTES);
  });

  it('cuts a record too large for a page alone so that it fits', () => {
    const huge = { Id: 1, Remarks: 'q"'.repeat(700_000) };
    const [page] = jsonPages([huge]);
    expect(page).toHaveLength(1);
    expect(String(page[0].Remarks).length).toBeLessThan(1_400_000);
    expect(jsonStringBytes(JSON.stringify(page))).toBeLessThanOrEqual(PAGE_TEXT_BYTES);
  });
});
