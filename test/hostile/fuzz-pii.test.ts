/**
 * Property-based suite 3 of the hostile-data issue: generated traveller names, e-mails and
 * phone numbers placed in name fields and in generated free text (remarks, log messages, raw
 * responses, custom field values, error messages) never come out unmasked.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createRedactor } from '../../src/results/pii.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
const SEED = 77_001;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZÀÉÖØÜÑŁ';
const nameWord = fc
  .array(fc.constantFrom(...LETTERS), { minLength: 2, maxLength: 10 })
  .map((cs) => cs.join(''))
  .filter((w) => !['MR', 'MRS', 'MS', 'DR', 'MISS', 'MSTR', 'PROF', 'SIR', 'VIP', 'CHD', 'INF', 'ADT'].includes(w));
const person = fc.record({ surname: nameWord, given: nameWord });
const emailLocal = fc
  .array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzéüøß0123456789._-'), { minLength: 1, maxLength: 10 })
  .map((cs) => `x${cs.join('')}`);
const domain = fc
  .array(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzäöü'), { minLength: 2, maxLength: 8 })
  .map((cs) => cs.join(''));
const email = fc
  .tuple(emailLocal, domain, fc.constantFrom('com', 'de', 'com.au', 'рф', 'org'))
  .map(([l, d, t]) => `${l}@${d}.${t}`);
const phone = fc.tuple(fc.integer({ min: 10_000_000, max: 99_999_999 }), fc.nat({ max: 4 })).map(([n, style]) => {
  const d = String(n);
  return [
    `04${d}`, // 0412555020: national, no separators
    `+61 4${d.slice(0, 2)} ${d.slice(2, 5)} ${d.slice(5)}`,
    `(02) ${d.slice(0, 4)}-${d.slice(4)}`,
    `+61${d}1`,
    `+44-20-${d.slice(0, 4)}-${d.slice(4)}`,
  ][style];
});
const filler = fc.constantFrom(
  'call',
  're visa',
  'paid by card',
  'seat 12A',
  'HK1',
  'SYD',
  'asked for',
  '—',
  ';',
  'NOTE',
);

interface Case {
  people: Array<{ surname: string; given: string }>;
  emails: string[];
  phones: string[];
  text: string[];
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    people: fc.array(person, { minLength: 1, maxLength: 3 }),
    emails: fc.array(email, { maxLength: 2 }),
    phones: fc.array(phone, { maxLength: 2 }),
    order: fc.array(fc.tuple(fc.nat(), filler), { minLength: 3, maxLength: 10 }),
  })
  .map(({ people, emails, phones, order }) => {
    const pieces = [...people.flatMap((p) => [p.surname, p.given, `${p.surname}/${p.given}`]), ...emails, ...phones];
    const text = order.map(([i, f]) => `${f} ${pieces[i % pieces.length]}`);
    return { people, emails, phones, text };
  });

const LETTER_RUN = /\p{L}+/gu;

/** What of the case comes out unmasked: a name as a whole word, an e-mail or phone anywhere. */
function leaks(out: string, c: Case): string[] {
  const words = new Set(out.match(LETTER_RUN));
  const found: string[] = [];
  for (const p of c.people) for (const w of [p.surname, p.given]) if (words.has(w)) found.push(w);
  for (const e of c.emails) if (out.includes(e)) found.push(e);
  for (const ph of c.phones) if (out.includes(ph) || out.includes(ph.replace(/\D/g, ''))) found.push(ph);
  return found;
}

test(`${RUNS} generated travellers, e-mails and phones in generated free text never come out unmasked`, () => {
  const out = fc.check(
    fc.property(caseArb, fc.nat({ max: 3 }), (c, where) => {
      const redact = createRedactor(true, { key: Buffer.alloc(32, 1) });
      const [first, ...others] = c.people;
      // The names are in a name field of one record; the free text is spread over the others,
      // in fields of every kind the service has, and over an error message.
      const records = [
        {
          Passenger: `${first.surname}/${first.given} MR`,
          PaxList: others.map((p) => `${p.surname}/${p.given}`).join(', '),
        },
        { LogMessage: c.text.join(' '), RawResponse: `<pax>${c.text[0]}</pax>` },
        { Notepads: [{ Remark: c.text.join('; ') }], CustomFields: [{ FieldName: 'X', FieldValue: c.text.at(-1) }] },
        { Comment: c.text[where % c.text.length], MatchedOn: c.text.join(',') },
      ];
      const masked = JSON.stringify(redact.records(records));
      const message = redact.text(`The service said: ${c.text.join(' ')}`);
      // A plain check per case (expect() per case costs more than the masking itself).
      const found = [...leaks(masked, c), ...leaks(message, c)];
      if (found.length) throw new Error(`unmasked ${found.join(', ')} in ${masked} / ${message}`);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  console.error(`[fuzz-pii] ${out.numRuns} cases (seed ${SEED})`);
  expect(
    out.failed,
    `${String(out.errorInstance).slice(0, 1_500)}\n${(fc.defaultReportMessage(out) ?? '').slice(0, 1_500)}`,
  ).toBe(false);
  expect(out.numRuns).toBe(RUNS);
}, 60_000);
