/**
 * The shapes of personal data in text (PII masking, pii.ts): e-mails, phone numbers (written
 * with separators, the national way, or as digits announced by a word such as `mobile=`),
 * names written the GDS way (SURNAME/GIVEN TITLE), after a title (Mrs Jane Doe) or as a whole
 * value shaped like a name (Given Surname), and the whole words of a text.
 */

export const EMAIL = /[\p{L}\p{N}._%+-]+(?:@|\/\/)[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/giu;
export const PHONE = /(?<![\w+(])(?:\+|00|\()?\d[\d ().-]{6,}\d(?!\w)/g;
export const PHONE_ANY = new RegExp(PHONE.source); // the same, without 'g' (no lastIndex state) for test()
/**
 * A number announced as a phone: a word (phone, mobile, tel, call, sms, whatsapp, fax, contact,
 * cell...) then at most a few separators (and `no.`, `number`, `#`), then 7 to 15 digits in
 * any grouping: `mobile=4402079460958`, `tel:+44 20 7946 0958`, `call 0412 555 020`.
 */
const ANNOUNCERS = ['phone', 'ph', 'mobile', 'mob', 'tel', 'telephone', 'call', 'sms', 'whatsapp', 'fax', 'contact']
  .concat(['cell', 'reach'])
  .map((w) => [...w].map((c) => `[${c}${c.toUpperCase()}]`).join(''));
export const ANNOUNCED_PHONE = new RegExp(
  // a word on its own, or the last word of a camelCase name (HomeTel, ContactPhone)
  `(?:(?<![\\p{L}\\p{N}])|(?<=\\p{Ll})(?=\\p{Lu}))((?:${ANNOUNCERS.join('|')})\\p{L}*` +
    '(?:[^\\p{L}\\p{N}+(]{0,3}(?:no|nbr|number|num|on|at)\\.?)?[^\\p{L}\\p{N}+(]{0,3})' +
    // not a mask of ours (phone-12345678) read again
    '(?<!(?:phone|email|Traveller)-)' +
    '(\\+?\\(?\\d[\\d ().\\-/]{5,22}\\d)(?![\\p{L}\\p{N}])',
  'gu',
);
export const ANNOUNCER = /ph|mob|tel|call|sms|whatsapp|fax|contact|cell|reach/i;
/** SURNAME/GIVEN NAMES [TITLE], as GDS bookings and their logs write a traveller. */
export const GDS_NAME =
  /(?<![\p{L}\p{N}/])(\p{Lu}[\p{Lu}'-]*)\/(\p{Lu}[\p{Lu}'-]*(?: \p{Lu}[\p{Lu}'-]*)*)(?![\p{L}\p{N}/])/gu;
/** Mrs Jane Doe, MR SMITH, Dr. O'Neil: a title then one to three capitalised words. */
export const TITLED_NAME = new RegExp(
  '(?<![\\p{L}\\p{N}])(?:MR|MRS|MS|MISS|MSTR|DR|Mr|Mrs|Ms|Miss|Mstr|Dr)\\.? +' +
    "(\\p{Lu}[\\p{L}'’-]*\\p{L}(?: +\\p{Lu}[\\p{L}'’-]*\\p{L}){0,2})",
  'gu',
);
/** A whole value shaped like a person's name: Given Surname, O'Neil-Smith Mary, SMITH/JOHN MR. */
const NAME_VALUE = /^(?:(?:Mr|Mrs|Ms|Miss|Mstr|Dr)\.? +)?\p{Lu}[\p{L}'’-]*\p{L}(?: +\p{Lu}[\p{L}'’-]*\p{L}){1,3}$/u;
const GDS_VALUE = /^\p{Lu}[\p{Lu}'-]*\/\p{Lu}[\p{Lu}'-]*(?: \p{Lu}[\p{Lu}'-]*)*$/u;
/** Whole words with their digits (ABC123 is one word, not the name ABC), possessive kept apart. */
export const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu;
export const POSSESSIVE = /['’]s$/i;

export const TITLES = new Set(['MR', 'MRS', 'MS', 'MISS', 'MSTR', 'DR', 'PROF', 'SIR', 'VIP', 'CHD', 'INF', 'ADT']);

/** A whole value that reads as a person's name (used where the key says a person may be). */
export function isNameValue(value: string): boolean {
  if (value.length > 80) return false;
  if (value.includes('/')) return GDS_VALUE.test(value) && !isPlaceCodes(...(value.split('/') as [string, string]));
  // Mixed case only (Jane Doe): an all-capitals pair is as often a code (HK CONFIRMED).
  return NAME_VALUE.test(value) && value !== value.toUpperCase();
}

/**
 * A phone-like run of digits, not a date, a ticket number or an amount. A bare run of digits
 * (no '+' and no separators) counts in free text when it is written the national way, with a
 * leading 0 and 9 to 12 digits (0412555020); a 13-digit ticket number never does (unless a
 * word announces it as a phone, see ANNOUNCED_PHONE).
 */
export function isPhone(candidate: string, free: boolean): boolean {
  const digits = candidate.replace(/\D/g, '').length;
  if (digits < 9 || digits > 15) return false;
  if (/^\d{4}-\d{2}-\d{2}/.test(candidate)) return false; // '2026-11-01 10:00'
  if (/^[+(]/.test(candidate) || /[ ().-]/.test(candidate)) return true;
  return free && /^0\d{8,11}$/.test(candidate);
}

/** The digits of an announced number are a phone's: 7 to 15 of them, not a date. */
export function isAnnouncedPhone(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15 && !/^\d{4}[-/.]\d{2}[-/.]\d{2}/.test(candidate);
}

/** LHR/JFK, SYD/MEL: airport or city pairs, not SURNAME/GIVEN. */
export function isPlaceCodes(first: string, second: string): boolean {
  return first.length === 3 && /^\p{Lu}{3}$/u.test(second);
}
