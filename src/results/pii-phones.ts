/**
 * Phone numbers in text (PII masking, pii.ts): national and international forms (a leading 0,
 * 00 or +, brackets, spaces, dots and dashes, 8 to 15 digits), numbers a word announces
 * (`mobile=4402079460958`, `tel:`), and bare runs of digits in prose written the way phones
 * are (0412555020, 0049301234567, 61412555019). What is not a phone although it looks like
 * one: ticket numbers (13 digits, or 3 + 10), dates, amounts, times, addresses of machines, and
 * any identifier the result holds in an identifier field (docs/architecture.md, "Masking").
 */

export const PHONE = /(?<![\w+(])(?:\+|00|\()?\d[\d ().-]{6,}\d(?!\w)/g;
export const PHONE_ANY = new RegExp(PHONE.source); // the same, without 'g' (no lastIndex state) for test()
/** A cheap gate before the phone patterns run: at least eight phone characters. */
export const SEVEN_DIGITS = /\d[\d ().\-/]{5,}\d/;

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

/** 2026-11-01, 01.11.2026, 1/11/26, with a time's hour after it ('2026-11-01 10' of 10:00). */
const DATE = /^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.](?:\d{4}|\d{2}))(?:[ T]\d{1,2}(?:[.]\d{2})?)?$/;
/** 1234567.89: one point, then two decimals. */
const AMOUNT = /^\d+\.\d{2}$/;
/** 0900-1730: two times of day. */
const TIMES = /^(?:[01]\d|2[0-3])[0-5]\d-(?:[01]\d|2[0-3])[0-5]\d$/;
/** 192.168.100.200 */
const MACHINE = /^\d{1,3}(?:\.\d{1,3}){3}$/;
/** A ticket number: 13 digits (not an international 00 call), or airline 3 + 10, maybe a coupon after. */
const TICKET = /^(?:(?!00)\d{13}|\d{3}[- ]\d{10})(?:-\d{1,2})?$/;
/** Words before a number that say it is a ticket (TKT, TKNE, ETKT, FA ...). */
const TICKET_BEFORE = /\b(?:tkt|tkts|ticket|tickets|tkne|etkt|e-?ticket|fa|fh)\W{0,3}$/i;
/** A currency before a number (EUR 12 345 678, € 1 234 567): an amount. */
const CURRENCY_BEFORE = /(?:\b([A-Z]{3})|[$€£¥])\s?$/;
let currencies: Set<string> | undefined;
/** ISO 4217 codes as the runtime knows them (read on first use: the first Intl call loads ICU's data). */
function isCurrency(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return currencies.has(code);
}
function moneyBefore(before: string): boolean {
  const m = CURRENCY_BEFORE.exec(before);
  return m !== null && (m[1] === undefined || isCurrency(m[1]));
}
/** ',50' after a number: a European amount (12 345 678,90). */
const DECIMALS_AFTER = /^,\d{1,2}(?!\d)/;

/**
 * Whether a candidate the PHONE pattern found in a text is a phone. `free`: the text is prose
 * (a remark, a notepad, a log line), where bare digits written the way phones are count too.
 * `before` and `after` are a few characters of the text around it; `isIdentifier` says whether
 * some identifier field of the result holds these digits.
 */
export function isPhone(
  candidate: string,
  free: boolean,
  before = '',
  after = '',
  isIdentifier: (digits: string) => boolean = () => false,
): boolean {
  const digits = candidate.replace(/\D/g, '');
  const n = digits.length;
  if (n < 8 || n > 15) return false;
  if (DATE.test(candidate) || AMOUNT.test(candidate) || TIMES.test(candidate) || MACHINE.test(candidate)) return false;
  if (TICKET.test(candidate) || isIdentifier(digits)) return false;
  if (DECIMALS_AFTER.test(after) || TICKET_BEFORE.test(before) || moneyBefore(before)) return false;
  if (/^[+(]/.test(candidate)) return true;
  if (/[ ().-]/.test(candidate)) return n >= 8;
  if (!free) return false;
  // Bare digits in prose: national (0 and 9 to 12 digits), international (00, or a country
  // code without '+': 11 or 12 digits).
  if (candidate.startsWith('00')) return n >= 11;
  if (candidate.startsWith('0')) return n >= 9 && n <= 12;
  return n === 11 || n === 12;
}

/** The digits of an announced number are a phone's: 7 to 15 of them, not a date. */
export function isAnnouncedPhone(candidate: string): boolean {
  const digits = candidate.replace(/\D/g, '').length;
  return digits >= 7 && digits <= 15 && !/^\d{4}[-/.]\d{2}[-/.]\d{2}/.test(candidate);
}
