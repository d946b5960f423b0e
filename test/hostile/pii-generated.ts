/**
 * Generated people, phones and identifiers in places no field list names (issue 18): the
 * arbitraries and the leak check shared by the property suite (fuzz-pii-fields.test.ts) and the
 * end-to-end one (pii-hiding-places.test.ts).
 */
import fc from 'fast-check';

export type Rec = Record<string, unknown>;

/** Words of the generated text that are not names (a generated name equal to one is dropped). */
const FILLER = ['rebooked', 'after', 'a', 'call', 'seat', 'asked', 'for', 'window', 'paid', 'by', 'card', 'and', 'on'];
const TITLE_WORDS = ['MR', 'MRS', 'MS', 'DR', 'MISS', 'MSTR', 'PROF', 'SIR', 'VIP', 'CHD', 'INF', 'ADT'];
/** Words of the identifiers' note (idFields): a traveller named Ön would mask `on` too, by design. */
const NOTE_WORDS = ['ticket', 'on', 'ref'];
const NOT_NAMES = new Set([...FILLER, ...NOTE_WORDS].map((w) => folded(w)).concat(TITLE_WORDS));

/** A name as masking compares it: Ön and ON are one name (docs/architecture.md, "Masking"). */
export function folded(w: string): string {
  return w
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toUpperCase();
}

const LOWER = 'abcdefghijklmnopqrstuvwxyzéöüñł';
const word = fc
  .array(fc.constantFrom(...LOWER), { minLength: 2, maxLength: 9 })
  .map((cs) => cs.join(''))
  .filter((w) => !NOT_NAMES.has(folded(w)));
const capital = (w: string) => w[0].toUpperCase() + w.slice(1);
export const personArb = fc.record({ given: word.map(capital), surname: word.map(capital) });
export type Person = { given: string; surname: string };

/** The spellings a name takes in prose: as stated, lower, upper, with a possessive. */
const spelling = fc.constantFrom(
  (w: string) => w,
  (w: string) => w.toLowerCase(),
  (w: string) => w.toUpperCase(),
  (w: string) => `${w}'s`,
  (w: string) => `${w.toLowerCase()}’s`,
);

const PERSON_WORDS = [
  'Traveller',
  'Traveler',
  'Pax',
  'Passenger',
  'Guest',
  'LeadGuest',
  'CardHolder',
  'Contact',
  'User',
];
const FIRST_KEYS = ['First', 'Given', 'FirstName', 'GivenName', 'Forename', 'first_name'];
const LAST_KEYS = ['Last', 'Family', 'Surname', 'LastName', 'FamilyName', 'last_name'];

/** A field name no list holds: letters and digits the service never used. */
const unknownKey = fc
  .array(fc.constantFrom(...'QXZKVWJqxzkvwj0123456789'), { minLength: 3, maxLength: 8 })
  .map((cs) => `F${cs.join('')}`);

/**
 * Where a person is stated in a record (so masking can learn them): nested under a person key,
 * flat with a person word and a name part, a whole value under a person key, SURNAME/GIVEN or
 * a titled name in a field of unknown name, a name-shaped value inside a person object.
 */
export const statedArb = fc.oneof(
  fc
    .tuple(fc.constantFrom(...PERSON_WORDS), fc.constantFrom(...FIRST_KEYS), fc.constantFrom(...LAST_KEYS))
    .map(([p, f, l]) => ({ kind: 'nested', at: (x: Person): Rec => ({ [p]: { [f]: x.given, [l]: x.surname } }) })),
  fc
    .tuple(fc.constantFrom(...PERSON_WORDS), fc.constantFrom('First', 'Given'), fc.constantFrom('Last', 'Surname'))
    .map(([p, f, l]) => ({
      kind: 'flat',
      at: (x: Person): Rec => ({ [`${p}${f}Name`]: x.given, [`${p}${l}`]: x.surname }),
    })),
  fc.constantFrom('BookedIn', 'LeadPassenger', 'CardHolder', 'Booker', 'PrimaryTraveller').map((k) => ({
    kind: 'whole',
    at: (x: Person): Rec => ({ [k]: `${x.given} ${x.surname}` }),
  })),
  unknownKey.map((k) => ({
    kind: 'gds',
    at: (x: Person): Rec => ({ [k]: `seat for ${x.surname.toUpperCase()}/${x.given.toUpperCase()} MRS` }),
  })),
  unknownKey.map((k) => ({
    kind: 'titled',
    at: (x: Person): Rec => ({ [k]: `spoke to Mrs ${x.given} ${x.surname}` }),
  })),
  fc.constantFrom('Traveller', 'Guest', 'Contact').map((p) => ({
    kind: 'shape',
    at: (x: Person): Rec => ({ [p]: { Info: `${x.given} ${x.surname}`, Title: 'MRS' } }),
  })),
);

/** Phone numbers as people write them. */
export const phoneArb = fc
  .tuple(fc.integer({ min: 10_000_000, max: 99_999_999 }), fc.nat({ max: 7 }))
  .map(([n, style]) => {
    const d = String(n);
    return [
      `44207${d}`, // digits only, international without '+'
      `+44 20 ${d.slice(0, 4)} ${d.slice(4)}`,
      `(02) ${d.slice(0, 4)} ${d.slice(4)}`,
      `04${d}`,
      `+61${d}1`,
      `020.${d.slice(0, 4)}.${d.slice(4)}`,
      `0${d.slice(0, 3)}-${d.slice(3)}`,
      `1${d}`, // nine bare digits
    ][style];
  });
const announcer = fc.constantFrom('mobile=', 'tel:', 'call ', 'sms: ', 'whatsapp ', 'fax ', 'contact on ', 'Ph: ');
const phoneKey = fc.constantFrom('ContactPhone', 'HomeTel', 'MobileNo', 'WhatsApp', 'FaxNumber', 'GuestMobile');

/** A phone in the record: announced in free text of an unknown field, or in a field whose name says so. */
export const phonePlaceArb = fc.oneof(
  fc
    .tuple(unknownKey, announcer)
    .map(([k, a]) => ({ kind: 'announced', at: (p: string): Rec => ({ [k]: `pax asked, ${a}${p} ok` }) })),
  phoneKey.map((k) => ({ kind: 'phone field', at: (p: string): Rec => ({ [k]: p }) })),
);

/** Identifiers the masking must never touch, in their fields and inside free text. */
export const idsArb = fc
  .record({
    ticket: fc.integer({ min: 100_000_000, max: 999_999_999 }).map((n) => `0814${n}`),
    locator: fc.array(fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'), { minLength: 6, maxLength: 6 }),
    serviceRef: fc.integer({ min: 1_000_000, max: 99_999_999 }),
    pcc: fc.array(fc.constantFrom(...'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789'), { minLength: 4, maxLength: 4 }),
    account: fc.integer({ min: 100, max: 999 }).map((n) => `ACC${n}`),
  })
  .map((r) => ({ ...r, locator: r.locator.join(''), pcc: r.pcc.join('') }));
export type Ids = { ticket: string; locator: string; serviceRef: number; pcc: string; account: string };

export function idFields(ids: Ids): Rec {
  return {
    TktNumber: ids.ticket,
    RecordLocator: ids.locator,
    ServiceRef: ids.serviceRef,
    PseudoCityCode: ids.pcc,
    PCC: ids.pcc,
    AccountCode: ids.account,
    Account: ids.account,
    IssueNote: `ticket ${ids.ticket} on ${ids.locator} ref ${ids.serviceRef}`,
  };
}

/** Prose naming the person again, in a field of unknown name, spelled some other way. */
export const proseArb = fc.tuple(unknownKey, spelling, spelling).map(
  ([k, s1, s2]) =>
    (x: Person): Rec => ({ [k]: `rebooked ${s1(x.given)} ${s2(x.surname)} after a call` }),
);

const LETTERS_OR_DIGITS = /[\p{L}\p{N}]/u;
/** Every string value of a JSON text (keys left out: generated field names are not data). */
export function valuesOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) valuesOf(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) valuesOf(v, out);
  return out;
}

/** A name word found as a whole word (any case), or a phone's digits in a run of phone characters. */
export function leaks(texts: readonly string[], people: readonly Person[], phones: readonly string[]): string[] {
  const found: string[] = [];
  const text = texts.join('\n');
  const lower = text.toLowerCase();
  for (const p of people)
    for (const w of [p.given, p.surname]) {
      const lw = w.toLowerCase();
      for (let at = lower.indexOf(lw); at >= 0; at = lower.indexOf(lw, at + 1)) {
        const before = lower[at - 1] ?? ' ';
        const after = lower[at + lw.length] ?? ' ';
        if (!LETTERS_OR_DIGITS.test(before) && !LETTERS_OR_DIGITS.test(after)) {
          found.push(w);
          break;
        }
      }
    }
  const runs = (text.match(/[\d ().+\-/]{7,}/g) ?? []).map((r) => r.replace(/\D/g, ''));
  for (const ph of phones) {
    const digits = ph.replace(/\D/g, '');
    if (text.includes(ph) || runs.some((r) => r.includes(digits))) found.push(ph);
  }
  return found;
}
