/**
 * REPORTS_REDACT_PII: traveller names, e-mail addresses and phone numbers masked everywhere in
 * what the server returns. Records are masked before they
 * are stored, so summary, rows, query_report groups, CSV and resources never see them; notes
 * and error messages (which may quote the service) are masked as text.
 *
 * Masking works from what a result contains, not only from field names:
 * - names: every value of a name field (Passenger, PaxList, Surname, GivenName,
 *   PaxFirstName...) is masked, and its words are remembered; those words are then masked
 *   wherever they appear in free text (remarks, notepads, log messages, raw responses,
 *   comments, custom field values), in every record of the result and of later results, and in
 *   error messages, short names (NG, WU, LI) included. Names written the GDS way,
 *   SURNAME/GIVEN, are masked in free text even where the record has no name field.
 * - e-mails (any script) and phone numbers (with or without separators) by pattern, in every
 *   field.
 * Masks are stable within the process (HMAC-SHA256 under a random per-process key): the same
 * name always gives the same mask, so grouping and counting still work, and a mask cannot be
 * turned back into the name without the key.
 */
import { createHmac, randomBytes } from 'node:crypto';

type Rec = Record<string, unknown>;

export interface Redactor {
  /** One value (a record, a query echo) masked with the names known so far and its own. */
  <T>(value: T): T;
  /** A whole result: the names of all its records are learnt first, then every record masked. */
  records(records: readonly Rec[]): Rec[];
  /** A text (a note, an error message, possibly the service's words) masked. */
  text(text: string): string;
  /** Records masked before, masked again with every name known now (name fields kept). */
  remask(records: readonly Rec[]): Rec[];
  /** How many name words have been learnt so far (grows; tells when to remask). */
  learnt(): number;
}

export interface RedactorOptions {
  /** HMAC key; a fresh random one by default (masks are then stable for this process only). */
  key?: Buffer;
}

// Keys compared in lower case. 'number' counts as a phone only inside Phones[].
const NAME_KEYS = new Set([
  'passenger',
  'passengers',
  'paxlist',
  'primarypax',
  'traveller',
  'traveler',
  'travellers',
  'travelers',
  'bookedinname',
  'guest',
  'guestname',
]);
// Surname, GivenName, PaxFirstName, PassengerLastName, TravellerFullName, BookedInName...
// but not TravellerCount, PassengerDataId, TravellerGUID (they do not end in a name word).
const NAME_KEY =
  /^(?:pax|passenger|traveller|traveler|guest|primary)?(?:first|last|given|family|middle|full|sur|maiden)name$|^(?:pax|passenger|traveller|traveler|guest)name$/i;
const EMAIL_KEYS = new Set(['email', 'emailaddress', 'emaillist', 'recipientemail', 'ctce', 'emails']);
const PHONE_KEYS = new Set(['phonenbr', 'phonenumber', 'phone', 'mobile', 'mobilelist', 'mobilenbr', 'ctcm']);
/** Free-text fields: known traveller names and GDS-written names are masked as words there. */
const FREE_TEXT =
  /remark|text|comment|message|notepad|formatted|information|response|details?|data|note|log|value|matched|raw|description|reason|body|subject/i;

const EMAIL = /[\p{L}\p{N}._%+-]+(?:@|\/\/)[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/giu;
const PHONE = /(?<![\w+(])(?:\+|00|\()?\d[\d ().-]{6,}\d(?!\w)/g;
const PHONE_ANY = new RegExp(PHONE.source); // the same, without 'g' (no lastIndex state) for test()
/** SURNAME/GIVEN NAMES [TITLE], as GDS bookings and their logs write a traveller. */
const GDS_NAME = /(?<![\p{L}\p{N}/])(\p{Lu}[\p{Lu}'-]*)\/(\p{Lu}[\p{Lu}'-]*(?: \p{Lu}[\p{Lu}'-]*)*)(?![\p{L}\p{N}/])/gu;
const WORD = /\p{L}[\p{L}'-]*/gu;
const LIST_SPLIT = /\s*[,;|\n]\s*/;
const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'MSTR', 'DR', 'PROF', 'SIR', 'VIP', 'CHD', 'INF', 'ADT']);
const CACHE_LIMIT = 100_000;
/** Names remembered across results; the oldest are forgotten past this. */
const KNOWN_NAMES_LIMIT = 200_000;

type Kind = 'name' | 'email' | 'phone';
const PREFIX: Record<Kind, string> = { name: 'Traveller-', email: 'email-', phone: 'phone-' };

/** What a field holds, from its name. 'number' is a phone only inside Phones[]. */
type Role = Kind | 'phones' | 'number' | 'text' | 'plain';

const roles = new Map<string, Role>();
function roleOf(key: string): Role {
  let role = roles.get(key);
  if (role === undefined) {
    const k = key.toLowerCase();
    role =
      NAME_KEYS.has(k) || NAME_KEY.test(k)
        ? 'name'
        : EMAIL_KEYS.has(k)
          ? 'email'
          : k === 'phones'
            ? 'phones'
            : PHONE_KEYS.has(k)
              ? 'phone'
              : k === 'number'
                ? 'number'
                : FREE_TEXT.test(key)
                  ? 'text'
                  : 'plain';
    if (roles.size > 10_000) roles.clear(); // field names are few; this is only a guard
    roles.set(key, role);
  }
  return role;
}

const IDENTITY = Object.assign(<T>(value: T): T => value, {
  records: (records: readonly Rec[]) => records as Rec[],
  text: (text: string) => text,
  remask: (records: readonly Rec[]) => records as Rec[],
  learnt: () => 0,
});

export function createRedactor(enabled: boolean, options: RedactorOptions = {}): Redactor {
  if (!enabled) return IDENTITY;
  const key = options.key ?? randomBytes(32);
  const cache = new Map<string, string>();
  /** Words of traveller names seen so far, upper case. */
  const known = new Set<string>();
  let learntCount = 0;

  const mask = (kind: Kind, value: string): string => {
    const id = `${kind}:${normalize(kind, value)}`;
    let m = cache.get(id);
    if (m === undefined) {
      m = PREFIX[kind] + createHmac('sha256', key).update(id).digest('hex').slice(0, 8);
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(id, m);
    }
    return m;
  };
  const learn = (name: string): void => {
    for (const w of name.split(/[^\p{L}'-]+/u)) {
      const word = w.replace(/^['-]+|['-]+$/g, '').toUpperCase();
      if (word.length >= 2 && !TITLES.has(word) && !known.has(word)) {
        if (known.size >= KNOWN_NAMES_LIMIT) known.delete(known.values().next().value as string);
        known.add(word);
        learntCount++;
      }
    }
  };
  const maskList = (kind: Kind, value: string): string =>
    value
      .split(LIST_SPLIT)
      .map((part) => (part ? mask(kind, part) : part))
      .join(', ');

  /** E-mails and phones by pattern; in free text also GDS names and known names as words. */
  const maskText = (text: string, free: boolean): string => {
    if (text.length < 2) return text;
    let out = text.includes('@') || text.includes('//') ? text.replace(EMAIL, (e) => mask('email', e)) : text;
    if (out.length >= 9 && PHONE_ANY.test(out))
      out = out.replace(PHONE, (p) => (isPhone(p, free) ? mask('phone', p) : p));
    if (!free) return out;
    if (out.includes('/')) {
      out = out.replace(GDS_NAME, (whole, surname: string, given: string) => {
        if (isPlaceCodes(surname, given)) return whole;
        learn(`${surname} ${given}`);
        return mask('name', whole);
      });
    }
    if (known.size === 0) return out;
    return out.replace(WORD, (w) => (known.has(w.replace(/['-]+$/, '').toUpperCase()) ? mask('name', w) : w));
  };

  /** First pass: the names of a value's name fields (and GDS names in its free text) learnt. */
  const collect = (value: unknown, role: Role, depth: number): void => {
    if (typeof value === 'string') {
      if (role === 'name') learn(value);
      else if (role === 'text' && value.includes('/'))
        for (const m of value.matchAll(GDS_NAME)) if (!isPlaceCodes(m[1], m[2])) learn(`${m[1]} ${m[2]}`);
      return;
    }
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (const v of value) collect(v, role, depth + 1);
      return;
    }
    for (const k in value as Rec) collect((value as Rec)[k], childRole(k, role), depth + 1);
  };

  const walk = (value: unknown, role: Role, depth: number): unknown => {
    if (typeof value === 'string') {
      if (value === '') return value;
      switch (role) {
        case 'name':
          learn(value);
          return maskList('name', value);
        case 'email':
          return maskList('email', value);
        case 'phone':
        case 'phones':
          return maskList('phone', value);
        default:
          return maskText(value, role === 'text');
      }
    }
    if (typeof value === 'number' && (role === 'phone' || role === 'phones')) return mask('phone', String(value));
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((v) => walk(v, role, depth + 1));
    const out: Rec = {};
    for (const k in value as Rec) out[k] = walk((value as Rec)[k], childRole(k, role), depth + 1);
    return out;
  };

  /** Like walk, over values already masked: name, e-mail and phone fields are masks already. */
  const rewalk = (value: unknown, role: Role, depth: number): unknown => {
    if (typeof value === 'string')
      return role === 'text' || role === 'plain' ? maskText(value, role === 'text') : value;
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((v) => rewalk(v, role, depth + 1));
    const out: Rec = {};
    for (const k in value as Rec) out[k] = rewalk((value as Rec)[k], childRole(k, role), depth + 1);
    return out;
  };

  const one = <T>(value: T): T => {
    collect(value, 'plain', 0);
    return walk(value, 'plain', 0) as T;
  };
  return Object.assign(one, {
    records(records: readonly Rec[]): Rec[] {
      for (const r of records) collect(r, 'plain', 0);
      return records.map((r) => walk(r, 'plain', 0) as Rec);
    },
    text: (text: string) => maskText(text, true),
    remask: (records: readonly Rec[]) => records.map((r) => rewalk(r, 'plain', 0) as Rec),
    learnt: () => learntCount,
  });
}

/** Records are bounded in depth where they enter (service-date.ts); this is only a guard. */
const MAX_DEPTH = 64;

function childRole(key: string, parent: Role): Role {
  const r = roleOf(key);
  if (r === 'number') return parent === 'phones' ? 'phone' : 'plain';
  // Inside a name list (Passengers[] of objects) the members say what they are.
  return r;
}

/** Same person, same mask: case, spacing and phone punctuation do not matter. */
function normalize(kind: Kind, value: string): string {
  const v = value.trim();
  if (kind === 'phone') return v.replace(/[^\d+]/g, '').replace(/^00/, '+');
  if (kind === 'email') return v.toLowerCase().replace('//', '@');
  return v.toUpperCase().replace(/\s+/g, ' ');
}

/**
 * A phone-like run of digits, not a date, a ticket number or an amount. A bare run of digits
 * (no '+' and no separators) counts in free text when it is written the national way, with a
 * leading 0 and 9 to 12 digits (0412555020); a 13-digit ticket number never does.
 */
function isPhone(candidate: string, free: boolean): boolean {
  const digits = candidate.replace(/\D/g, '').length;
  if (digits < 9 || digits > 15) return false;
  if (/^\d{4}-\d{2}-\d{2}/.test(candidate)) return false; // '2026-11-01 10:00'
  if (/^[+(]/.test(candidate) || /[ ().-]/.test(candidate)) return true;
  return free && /^0\d{8,11}$/.test(candidate);
}

/** LHR/JFK, SYD/MEL: airport or city pairs, not SURNAME/GIVEN. */
function isPlaceCodes(first: string, second: string): boolean {
  return first.length === 3 && /^\p{Lu}{3}$/u.test(second);
}
