/**
 * Property-based suite of issue 18: masking that generalises. Generated people are stated in
 * places no field list names (nested person keys, flat person-and-name keys, whole values,
 * SURNAME/GIVEN and titled names in fields of unknown name, name-shaped values inside a person)
 * and named again in prose of unknown fields in any case, possessives included; generated
 * phones are announced in free text (`mobile=4402079460958`) or sit in fields whose names say
 * so (ContactPhone). None comes out unmasked, and identifiers (ticket numbers, record
 * locators, ServiceRefs, PCCs, account codes) come out exactly as they went in.
 */
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createRedactor } from '../../src/results/pii.js';
import {
  type Ids,
  idFields,
  idsArb,
  leaks,
  type Person,
  personArb,
  phoneArb,
  phonePlaceArb,
  proseArb,
  type Rec,
  statedArb,
  valuesOf,
} from './pii-generated.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
const SEED = 18_002;

const caseArb = fc.record({
  people: fc.array(fc.record({ person: personArb, stated: statedArb, prose: proseArb }), {
    minLength: 1,
    maxLength: 3,
  }),
  phones: fc.array(fc.record({ phone: phoneArb, place: phonePlaceArb }), { maxLength: 2 }),
  ids: idsArb,
  /** Prose before the statement (the name is learnt later in the result) or after it. */
  proseFirst: fc.boolean(),
});

/** The ids as they must come out. */
function idsIntact(out: Rec[], ids: Ids): string[] {
  const wrong: string[] = [];
  const want = idFields(ids);
  for (const r of out) for (const [k, v] of Object.entries(want)) if (r[k] !== v) wrong.push(`${k}: ${String(r[k])}`);
  return wrong;
}

test(`${RUNS} generated people, phones and identifiers in fields no list names`, () => {
  const kinds = new Map<string, number>();
  const out = fc.check(
    fc.property(caseArb, ({ people, phones, ids, proseFirst }) => {
      const redact = createRedactor(true, { key: Buffer.alloc(32, 2) });
      const stated: Rec[] = people.map((p) => ({ ...idFields(ids), ...p.stated.at(p.person) }));
      const prose: Rec[] = people.map((p) => ({ ...idFields(ids), ...p.prose(p.person) }));
      const phoned: Rec[] = phones.map((p) => ({ ...idFields(ids), ...p.place.at(p.phone) }));
      const records = proseFirst ? [...prose, ...phoned, ...stated] : [...stated, ...prose, ...phoned];
      for (const p of people) kinds.set(p.stated.kind, (kinds.get(p.stated.kind) ?? 0) + 1);
      for (const p of phones) kinds.set(p.place.kind, (kinds.get(p.place.kind) ?? 0) + 1);
      const masked = redact.records(records);
      // The service quoting the records in an error message, field by field.
      const quoted = records.flatMap((r) => Object.entries(r).map(([k, v]) => `${k}: ${JSON.stringify(v)}`));
      const message = redact.text(`The service said: ${quoted.join('; ')}`);
      const who: Person[] = people.map((p) => p.person);
      const found = leaks(
        [...valuesOf(masked), message],
        who,
        phones.map((p) => p.phone),
      );
      const wrong = idsIntact(masked, ids);
      // A plain check per case (expect() per case costs more than the masking itself).
      if (found.length || wrong.length)
        throw new Error(`unmasked ${found.join(', ')}; ids changed ${wrong.join(', ')} in ${JSON.stringify(masked)}`);
    }),
    { numRuns: RUNS, seed: SEED },
  );
  console.error(`[fuzz-pii-fields] ${out.numRuns} cases (seed ${SEED}); hiding places: ${[...kinds].join(' ')}`);
  expect(
    out.failed,
    `${String(out.errorInstance).slice(0, 2_000)}\n${(fc.defaultReportMessage(out) ?? '').slice(0, 1_500)}`,
  ).toBe(false);
  expect(out.numRuns).toBe(RUNS);
  expect([...kinds.keys()].sort()).toEqual(
    ['announced', 'flat', 'gds', 'nested', 'phone field', 'shape', 'titled', 'whole'].sort(),
  );
}, 60_000);
