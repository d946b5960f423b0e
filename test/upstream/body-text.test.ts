import { describe, expect, it } from 'vitest';
import { readBody } from '../../src/upstream/body-text.js';

/** `bytes` split into chunks at every `cut`, as a response body streams them. */
async function* chunks(bytes: number[], cuts: number[]): AsyncIterable<Uint8Array> {
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield Uint8Array.from(bytes.slice(at, cut));
    at = cut;
  }
}

/** What the WHATWG decoder makes of the same bytes in one piece: the text expected. */
function decoded(bytes: number[]): string {
  return new TextDecoder().decode(Uint8Array.from(bytes));
}

describe('a response body as text', () => {
  const samples: Array<[string, number[]]> = [
    ['ASCII', [...Buffer.from('{"A":"x"}')]],
    ['characters of 2, 3 and 4 bytes', [...Buffer.from('café ✈ 東京 😀')]],
    ['a leading byte order mark', [0xef, 0xbb, 0xbf, ...Buffer.from('{"A":1}')]],
    ['invalid and cut-short sequences', [0x61, 0xff, 0x62, 0xe2, 0x82, 0x61, 0xc3, 0x28, 0xed, 0xa0, 0x80, 0xe2, 0x82]],
  ];
  for (const [name, bytes] of samples) {
    it(`decodes ${name} as TextDecoder does, however the chunks split it`, async () => {
      for (let cut = 0; cut <= bytes.length; cut++) {
        expect(await readBody(chunks(bytes, [cut]))).toBe(decoded(bytes));
        expect(await readBody(chunks(bytes, [cut, Math.min(bytes.length, cut + 1)]))).toBe(decoded(bytes));
      }
    });
  }

  it('keeps a byte order mark that is not at the start', async () => {
    expect(await readBody(chunks([0x61, 0xef, 0xbb, 0xbf], [2]))).toBe('a\ufeff');
  });
});
