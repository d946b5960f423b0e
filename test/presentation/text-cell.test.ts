import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { oneLine } from '../../src/errors.js';
import { textCell } from '../../src/presentation/text-fit.js';
import { formatNumber } from '../../src/results/values.js';

/** The two replaces oneLine makes, applied to every text (no fast path). */
function oneLineAlways(text: string): string {
  return (
    text
      // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, '')
      .replace(/[\r\n\u2028\u2029\u0085\t]+/g, ' ')
  );
}

/** textCell of a text, every replace made (truncate's marker as values.ts writes it). */
function cellAlways(value: string, width: number): string {
  const text = oneLineAlways(value.replace(/\s+/g, ' ').replace(/\|/g, '/'));
  if (text.length <= width) return text;
  const marker = `…[cut: ${formatNumber(text.length)} characters in all]`;
  return `${text.slice(0, Math.max(8, width - marker.length))}${marker}`;
}

// Texts mixing what the fast paths skip for (controls, breaks, '|', runs of spaces, non-ASCII).
const piece = fc.constantFrom(
  'a',
  'Z',
  ' ',
  '  ',
  '|',
  '\t',
  '\n',
  '\r\n',
  '\u0085',
  '\u2028',
  '\u0007',
  'é',
  '\u00a0',
  '~',
);
const text = fc.oneof(
  fc.string(),
  fc.array(piece, { maxLength: 30 }).map((p) => p.join('')),
);

describe('table cells and one-line texts', () => {
  it('oneLine answers what its two replaces would, for any text', () => {
    fc.assert(
      fc.property(text, (t) => oneLine(t) === oneLineAlways(t)),
      { numRuns: 3_000 },
    );
  });

  it('textCell answers what its replaces would, at any width', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 60 }), (t, width) => textCell(t, width) === cellAlways(t, width)),
      { numRuns: 3_000 },
    );
    expect(textCell('A | B  C\tD', 40)).toBe('A / B C D');
    expect(textCell('x'.repeat(50), 40)).toBe(`${'x'.repeat(12)}…[cut: 50 characters in all]`);
  });
});
