/**
 * The shapes of personal data in text (PII masking, pii.ts): e-mails, names written the GDS way
 * (SURNAME/GIVEN TITLE), after a title (Mrs Jane Doe, Sra. María de la Cruz) or as a whole value
 * shaped like a name (Given Surname, Ludwig van Beethoven, Иван Петров, 山田太郎, محمد بن سلمان),
 * the whole words of a text, and the one spelling a name's words are compared in (fold).
 * Phones are in pii-phones.ts.
 */

export const EMAIL = /[\p{L}\p{N}._%+-]+(?:@|\/\/)[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}/giu;

const MARKS = /\p{M}+/gu;
const ASCII = /^[\x20-\x7e]*$/;
/**
 * A name's one spelling for comparing and masking: `Álvarez`, `ALVAREZ` and `alvarez` are one
 * name. Compatibility decomposition then no combining marks (accents, Greek tonos, Arabic
 * vowel marks), then capitals: the decomposition is Unicode's own, so every script is folded
 * the same way; NFKD rather than NFD also folds the full-width letters of East Asian text.
 */
export function fold(word: string): string {
  return ASCII.test(word) ? word.toUpperCase() : word.normalize('NFKD').replace(MARKS, '').toUpperCase();
}

/**
 * Particles of names (van der, de la, bin, Ní, al-): part of a name beside its words, never a
 * name on their own (masking `de` or `la` wherever it appears would mask half of a Spanish text).
 */
const PARTICLE_WORDS = ['van', 'von', 'der', 'den', 'de', 'del', 'della', 'dei', 'di', 'da', 'das', 'dos', 'du']
  .concat(['la', 'le', 'bin', 'binti', 'bint', 'ibn', 'al', 'el', 'ní', 'nic', 'ó', 'ua', 'ter', 'ten', 'zu'])
  .concat(['af', 'av', 'بن', 'بنت', 'ابن', 'آل']);
export const PARTICLES = new Set(PARTICLE_WORDS.map(fold));
const P = `(?:${PARTICLE_WORDS.filter((w) => /^\p{Ll}/u.test(w)).join('|')})`;
/** A capitalised word of a name, maybe after a particle joined by a hyphen (al-Rashid). */
const W = `(?:${P}-)?\\p{Lu}[\\p{L}\\p{M}'’-]*[\\p{L}\\p{M}]`;
const TITLE_WORDS = [
  'MR',
  'MRS',
  'MS',
  'MISS',
  'MSTR',
  'DR',
  'PROF',
  'MME',
  'MLLE',
  'SR',
  'SRA',
  'SRTA',
  'HERR',
  'FRAU',
];
const TITLE = TITLE_WORDS.flatMap((t) => [t, t[0] + t.slice(1).toLowerCase()]).join('|');
/** Cheap test before the titled-name pattern runs. */
export const MAY_HAVE_TITLE = /m[rs]|miss|mstr|dr|prof|mme|mlle|sr|herr|frau/i;

const GDS_PARTICLES = [...PARTICLES].filter((p) => /^[A-Z]+$/.test(p)).join('|');
/**
 * SURNAME/GIVEN NAMES [TITLE], as GDS bookings and their logs write a traveller; particles
 * before the surname (VAN DER BERG/JAN), and a second surname word where the name opens the
 * text or follows a separator (ALVAREZ QUINTERO/JOSE MARIA MR).
 */
export const GDS_NAME = new RegExp(
  '(?<![\\p{L}\\p{N}/])(' +
    "(?:(?<=^|[,;:(\\n]\\s{0,2})\\p{Lu}[\\p{Lu}'-]+ (?=\\p{Lu}))?" +
    `(?:(?:${GDS_PARTICLES}) )*` +
    "\\p{Lu}[\\p{Lu}'-]*)\\/(\\p{Lu}[\\p{Lu}'-]*(?: \\p{Lu}[\\p{Lu}'-]*)*)(?![\\p{L}\\p{N}/])",
  'gu',
);
/** Mrs Jane Doe, MR SMITH, Dr. O'Neil, Sra. María de la Cruz: a title then one to three words of a name. */
export const TITLED_NAME = new RegExp(
  `(?<![\\p{L}\\p{N}])(?:${TITLE})\\.? +(${W}(?: +(?:${P} +){0,3}${W}){0,2})`,
  'gu',
);
/** A whole value shaped like a person's name: Given Surname, O'Neil-Smith Mary, Jan van der Berg. */
const NAME_VALUE = new RegExp(`^(?:(?:${TITLE})\\.? +)?${W}(?: +(?:${P} +){0,3}${W}){1,3}$`, 'u');
const GDS_VALUE = /^\p{Lu}[\p{Lu}' -]*\/\p{Lu}[\p{Lu}'-]*(?: \p{Lu}[\p{Lu}'-]*)*$/u;
/** Scripts written without capitals or without spaces between words. */
const CJK_CHARS = '\\p{sc=Han}\\p{sc=Hiragana}\\p{sc=Katakana}\\p{sc=Hangul}ー';
/** 山田太郎, 山田 太郎, ジョン・スミス, 김민준: a whole value under a person key. */
const CJK_NAME = new RegExp(`^[${CJK_CHARS}]{1,5}(?:[ ・·\\u3000]?[${CJK_CHARS}]{1,5})?$`, 'u');
/** محمد بن سلمان: two to five words of Arabic letters. */
const ARABIC_NAME = /^[\p{sc=Arabic}\p{M}]+(?: [\p{sc=Arabic}\p{M}]+){1,4}$/u;
/** A run of East Asian letters (a name inside it is found as a substring, see pii.ts), with
 *  the letter and space before it when one stands alone there: a surname of one letter written
 *  apart from the given name (王 伟芳, 이 민준) is masked with it. */
export const CJK_RUN = new RegExp(`(?:[${CJK_CHARS}][ \\u3000])?[${CJK_CHARS}]{2,}`, 'gu');
/** One East Asian letter: a surname of one (王, 李, 이, 김) when a name field holds it. */
export const CJK_LETTER = new RegExp(`^[${CJK_CHARS}]$`, 'u');
export const HAS_CJK = new RegExp(`[${CJK_CHARS}]`, 'u');

/** Whole words with their digits (ABC123 is one word, not the name ABC), possessive kept apart. */
export const WORD = /[\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*/gu;
export const POSSESSIVE = /['’]s$/i;

/** Words of a name field that are not the person's name (SR stays a name word: Sr is also a given name's initials). */
export const TITLES = new Set([...TITLE_WORDS.filter((t) => t !== 'SR'), 'SIR', 'VIP', 'CHD', 'INF', 'ADT']);

/** A whole value that reads as a person's name (used where the key says a person may be). */
export function isNameValue(value: string): boolean {
  if (value.length > 80) return false;
  if (value.includes('/')) return GDS_VALUE.test(value) && !isPlaceCodes(...(value.split('/') as [string, string]));
  if (CJK_NAME.test(value)) return value.length >= 2;
  if (ARABIC_NAME.test(value)) return true;
  // Mixed case only (Jane Doe): an all-capitals pair is as often a code (HK CONFIRMED).
  return NAME_VALUE.test(value) && value !== value.toUpperCase();
}

/** LHR/JFK, SYD/MEL: airport or city pairs, not SURNAME/GIVEN. */
export function isPlaceCodes(first: string, second: string): boolean {
  return first.length === 3 && /^\p{Lu}{3}$/u.test(second);
}
