/**
 * REPORTS_REDACT_PII: traveller names, e-mail addresses and phone numbers masked everywhere in
 * a record before it is stored, so summary, rows, query_report, CSV and resources never see
 * them. Masks are stable within the process (HMAC-SHA256 under a random per-process key):
 * the same name always gives the same mask, so grouping and counting still work, and a mask
 * cannot be turned back into the name without the key.
 */
import { createHmac, randomBytes } from 'node:crypto';

export type Redactor = <T>(record: T) => T;

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
  'firstname',
  'lastname',
  'bookedinname',
  'passengername',
  'travellername',
  'travelername',
  'traveller',
  'traveler',
  'paxsurname',
  'paxname',
]);
const EMAIL_KEYS = new Set(['email', 'emailaddress', 'emaillist', 'recipientemail', 'ctce', 'emails']);
const PHONE_KEYS = new Set(['phonenbr', 'phonenumber', 'phone', 'mobile', 'mobilelist', 'mobilenbr', 'ctcm']);
/** Free-text fields, where the record's own traveller names are also masked as words. */
const FREE_TEXT = /remark|text|comment|message|notepad|formatted|information|response|details|data|note|log|value/i;

const EMAIL = /[A-Z0-9._%+-]+(?:@|\/\/)[A-Z0-9-]+(?:\.[A-Z0-9-]+)*\.[A-Z]{2,}/gi;
const PHONE = /(?<![\w+(])(?:\+|00|\()?\d[\d ().-]{6,}\d(?!\w)/g;
const PHONE_ANY = new RegExp(PHONE.source); // the same, without 'g' (no lastIndex state) for test()
const LIST_SPLIT = /\s*[,;|\n]\s*/;
const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'MSTR', 'DR', 'PROF', 'SIR', 'VIP', 'CHD', 'INF']);
const CACHE_LIMIT = 100_000;

type Kind = 'name' | 'email' | 'phone';
const PREFIX: Record<Kind, string> = { name: 'Traveller-', email: 'email-', phone: 'phone-' };

/** What a field holds, from its name. 'number' is a phone only inside Phones[]. */
type Role = Kind | 'phones' | 'number' | 'text' | 'plain';

const roles = new Map<string, Role>();
function roleOf(key: string): Role {
  let role = roles.get(key);
  if (role === undefined) {
    const k = key.toLowerCase();
    role = NAME_KEYS.has(k)
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

/** Per record: the words of its traveller names, and where its free text went in the copy. */
interface Pass {
  words: Set<string>;
  texts: [Record<string | number, unknown>, string | number][];
}

export function createRedactor(enabled: boolean, options: RedactorOptions = {}): Redactor {
  if (!enabled) return <T>(record: T) => record;
  const key = options.key ?? randomBytes(32);
  const cache = new Map<string, string>();

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
  const maskList = (kind: Kind, value: string): string =>
    value
      .split(LIST_SPLIT)
      .map((part) => (part ? mask(kind, part) : part))
      .join(', ');
  // Cheap tests first: most values are short codes, amounts and dates.
  const maskText = (text: string): string => {
    if (text.length < 6) return text;
    let out = text.includes('@') || text.includes('//') ? text.replace(EMAIL, (e) => mask('email', e)) : text;
    if (out.length >= 9 && PHONE_ANY.test(out)) out = out.replace(PHONE, (p) => (isPhone(p) ? mask('phone', p) : p));
    return out;
  };

  const walk = (value: unknown, role: Role, pass: Pass): unknown => {
    if (typeof value === 'string') {
      if (value === '') return value;
      switch (role) {
        case 'name':
          addWords(value, pass.words);
          return maskList('name', value);
        case 'email':
          return maskList('email', value);
        case 'phone':
        case 'phones':
          return maskList('phone', value);
        default:
          return maskText(value);
      }
    }
    if (typeof value === 'number' && (role === 'phone' || role === 'phones')) return mask('phone', String(value));
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) {
      const out: unknown[] = new Array(value.length);
      for (let i = 0; i < value.length; i++) {
        out[i] = walk(value[i], role, pass);
        if (role === 'text' && typeof out[i] === 'string') pass.texts.push([out as never, i]);
      }
      return out;
    }
    const obj = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k in obj) {
      let r = roleOf(k);
      if (r === 'number') r = role === 'phones' ? 'phone' : 'plain';
      out[k] = walk(obj[k], r, pass);
      if (r === 'text' && typeof out[k] === 'string') pass.texts.push([out, k]);
    }
    return out;
  };

  return <T>(record: T): T => {
    const pass: Pass = { words: new Set(), texts: [] };
    const out = walk(record, 'plain', pass);
    // The record's own traveller names, written into its free text ("Call SMITH re visa").
    if (pass.words.size && pass.texts.length) {
      const alternatives = [...pass.words].sort((a, b) => b.length - a.length).map(escapeRegex);
      const names = new RegExp(`(?<!\\p{L})(?:${alternatives.join('|')})(?!\\p{L})`, 'giu');
      for (const [holder, k] of pass.texts) {
        holder[k] = (holder[k] as string).replace(names, (w) => mask('name', w));
      }
    }
    return out as T;
  };
}

/** Same person, same mask: case, spacing and phone punctuation do not matter. */
function normalize(kind: Kind, value: string): string {
  const v = value.trim();
  if (kind === 'phone') return v.replace(/[^\d+]/g, '').replace(/^00/, '+');
  if (kind === 'email') return v.toLowerCase().replace('//', '@');
  return v.toUpperCase().replace(/\s+/g, ' ');
}

/** A phone-like run of digits, not a date, a ticket number or an amount. */
function isPhone(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '').length;
  if (digits < 9 || digits > 15) return false;
  if (/^\d{4}-\d{2}-\d{2}/.test(candidate)) return false; // '2026-11-01 10:00'
  // A bare run of digits (ticket numbers like 0011234567890) needs a '+' or separators.
  return /^[+(]/.test(candidate) || /[ ().-]/.test(candidate);
}

function addWords(name: string, words: Set<string>): void {
  for (const w of name.split(/[^\p{L}'-]+/u)) {
    if (w.length >= 3 && !TITLES.has(w.toUpperCase())) words.add(w);
  }
}

/** Escapes regex syntax ('-' and "'" are literal outside a class; escaping them is an error
 *  in a 'u' regex). */
function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
