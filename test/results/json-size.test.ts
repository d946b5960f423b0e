/**
 * A value's JSON measured without writing it (src/results/json-size.ts): escapedJsonBytes is
 * the UTF-8 bytes of JSON.stringify's text written as a JSON string (jsonStringBytes, which
 * writes both), for any JSON value and for what records may hold besides: texts of every
 * code unit (lone surrogates, controls, quotes, backslashes, U+2028, emoji), fields that are
 * undefined, -0 and non-finite numbers, dates and other objects with toJSON.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonStringBytes } from '../../src/results/cut.js';
import { escapedBytes, escapedJsonBytes } from '../../src/results/json-size.js';

/** What the page split counted before: the text written, then measured. */
const byWriting = (value: unknown) => jsonStringBytes(JSON.stringify(value));

describe('escapedJsonBytes', () => {
  it('equals the bytes of the written text for any JSON value, texts of every code unit', () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    const value = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        text,
        fc.double(),
        fc.integer(),
        fc.boolean(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 5 }),
        fc.dictionary(text, tie('value'), { maxKeys: 5 }),
      ),
    })).value;
    fc.assert(
      fc.property(value, (v) => {
        expect(escapedJsonBytes(v)).toBe(byWriting(v));
      }),
      { numRuns: 2_000 },
    );
  });

  it('counts what JSON.stringify leaves out or writes otherwise as it does', () => {
    const record = {
      Id: -0,
      Fare: Number.NaN,
      Tax: Number.POSITIVE_INFINITY,
      Big: 1e21,
      Small: 5e-7,
      Gone: undefined,
      Call: () => 1,
      List: [undefined, () => 1, Symbol('s'), 'NÚÑEZ/JOSÉ MR', '\u2028\u2029', '😀', '\ud800x', 'x\udfff', '\u007f'],
      Booked: new Date(Date.UTC(2026, 10, 30, 9, 15)),
      Nested: { toJSON: () => ({ said: 'a "quoted" \\ text\n' }) },
    };
    expect(escapedJsonBytes(record)).toBe(byWriting(record));
    expect(escapedJsonBytes('plain ASCII text')).toBe(byWriting('plain ASCII text'));
  });

  it('escapedBytes of a written text agrees, and so does the count of the value', () => {
    const record = { 'a"key\\': ['\t', '\u0001', 'é', '"'], n: 12.5 };
    expect(escapedBytes(JSON.stringify(record))).toBe(escapedJsonBytes(record));
  });
});
