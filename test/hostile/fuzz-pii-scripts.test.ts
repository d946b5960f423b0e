/**
 * Property-based suite of issue 31: masking in every script. People named in Latin with accents
 * and particles, Greek, Cyrillic, CJK and Arabic, stated in known fields, a GDS name, unknown
 * fields under a person and nested lists, then named again in prose in any case, with or
 * without accents; phones written as eighteen countries write them, in lists of contact
 * numbers, phone lists and fields, remarks and unknown fields. None comes out unmasked, and
 * identifiers beside look-alike dates, times and amounts come out exactly as they went in.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createRedactor } from '../../src/results/pii.js';
import { type Rec, valuesOf } from './pii-generated.js';
import {
  type LookAlikes,
  lookAlikeFields,
  lookAlikesArb,
  phoneArb,
  phonePlaceArb,
  proseArb,
  type ScriptPerson,
  scriptLeaks,
  scriptPersonArb,
  statedArb,
} from './pii-scripts.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
const SEED = 31_001;

const caseArb = fc.record({
  people: fc.array(fc.record({ person: scriptPersonArb, stated: statedArb, prose: proseArb }), {
    minLength: 1,
    maxLength: 3,
  }),
  phones: fc.array(fc.record({ phone: phoneArb, place: phonePlaceArb }), { minLength: 1, maxLength: 3 }),
  ids: lookAlikesArb,
  proseFirst: fc.boolean(),
});

function idsChanged(out: Rec[], ids: LookAlikes): string[] {
  const want = lookAlikeFields(ids);
  const wrong: string[] = [];
  for (const r of out) for (const [k, v] of Object.entries(want)) if (r[k] !== v) wrong.push(`${k}: ${String(r[k])}`);
  return wrong;
}

const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);

test(`${RUNS} people in five scripts and phones of eighteen formats, beside look-alike identifiers`, () => {
  const scripts = new Map<string, number>();
  const formats = new Map<string, number>();
  const places = new Map<string, number>();
  const out = fc.check(
    fc.property(caseArb, ({ people, phones, ids, proseFirst }) => {
      const redact = createRedactor(true, { key: Buffer.alloc(32, 3) });
      const stated = people.map((p) => ({ ...lookAlikeFields(ids), ...p.stated.at(p.person) }));
      const prose = people.map((p) => ({ ...lookAlikeFields(ids), ...p.prose.at(p.person) }));
      const phoned = phones.map((p) => ({ ...lookAlikeFields(ids), ...p.place.at(p.phone.phone) }));
      const records = proseFirst ? [...prose, ...phoned, ...stated] : [...stated, ...prose, ...phoned];
      for (const p of people) {
        count(scripts, p.person.script);
        count(places, p.stated.place);
        count(places, `prose ${p.prose.spelling}`);
      }
      for (const p of phones) {
        count(formats, p.phone.format);
        count(places, p.place.place);
      }
      const masked = redact.records(records);
      const quoted = redact.text(`The service said: ${JSON.stringify(records)}`);
      const who: ScriptPerson[] = people.map((p) => p.person);
      const found = scriptLeaks(
        [...valuesOf(masked), quoted],
        who,
        phones.map((p) => p.phone.phone),
      );
      const wrong = idsChanged(masked, ids);
      if (found.length || wrong.length)
        throw new Error(`unmasked ${found.join(', ')}; ids changed ${wrong.join(', ')} in ${JSON.stringify(masked)}`);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  const line = (m: Map<string, number>) => [...m].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, n]) => `${k}=${n}`);
  console.error(`[fuzz-pii-scripts] ${out.numRuns} cases (seed ${SEED})`);
  console.error(`[fuzz-pii-scripts] scripts: ${line(scripts).join(', ')}`);
  console.error(`[fuzz-pii-scripts] phone formats: ${line(formats).join(', ')}`);
  console.error(`[fuzz-pii-scripts] places: ${line(places).join(', ')}`);
  expect(
    out.failed,
    `${String(out.errorInstance).slice(0, 2_000)}\n${(fc.defaultReportMessage(out) ?? '').slice(0, 1_500)}`,
  ).toBe(false);
  expect(out.numRuns).toBe(RUNS);
  expect([...scripts.keys()].sort()).toEqual(['arabic', 'cjk', 'cyrillic', 'greek', 'latin']);
  expect(formats.size).toBe(18);
}, 120_000);
