/**
 * REPORTS_REDACT_PII: traveller names, e-mail addresses and phone numbers masked everywhere in
 * what the server returns. Records are masked before they are stored, so summary, rows,
 * query_report groups, CSV, exports and resources never see them; notes and error messages
 * (which may quote the service) are masked as text.
 *
 * Masking works from what a result contains, not from a list of field names:
 * - names: a field is a person's name when its key path says so (pii-keys.ts: `Traveller.First`,
 *   `GuestSurname`, `BookedIn`, `Contact.Name`), or when its value is shaped like a name
 *   (`Given Surname`, `SURNAME/GIVEN`) where a key says a person may be. SURNAME/GIVEN and
 *   titled names (Mrs Jane Doe) are recognised in any text (pii-shapes.ts). Every name's words
 *   are learnt, then masked wherever they appear as whole words, whatever their case and with
 *   possessives, in every record of the result and of later results and in error messages.
 * - e-mails (any script) by pattern, in every field; phones by pattern (with separators, or the
 *   national way), as any digits a word announces (`mobile=4402079460958`, `tel:`), and as the
 *   whole value of a field whose name says phone (ContactPhone, HomeTel, WhatsApp).
 * - identifiers (ticket numbers, locators, ServiceRefs, PCCs, account codes) are never masked
 *   as names or phones.
 * Masks are stable within the process (HMAC-SHA256 under a random per-process key): the same
 * name always gives the same mask, so grouping and counting still work, and a mask cannot be
 * turned back into the name without the key.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { IN_PERSON, keyInfo, type Role, roleIn } from './pii-keys.js';
import { ANNOUNCED_PHONE, ANNOUNCER, isAnnouncedPhone, isPhone, PHONE, PHONE_ANY, SEVEN_DIGITS } from './pii-phones.js';
import {
  CJK_LETTER,
  CJK_RUN,
  EMAIL,
  fold,
  GDS_NAME,
  HAS_CJK,
  isNameValue,
  isPlaceCodes,
  MAY_HAVE_TITLE,
  PARTICLES,
  POSSESSIVE,
  TITLED_NAME,
  TITLES,
  WORD,
} from './pii-shapes.js';

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

const LIST_SPLIT = /\s*[,;|\n]\s*/;
const CACHE_LIMIT = 100_000;
/** Plain values this long or shorter are cached (see maskShort). */
const SHORT = 24;
/** Names remembered across results; the oldest are forgotten past this. */
const KNOWN_NAMES_LIMIT = 200_000;

type Kind = 'name' | 'email' | 'phone';
const PREFIX: Record<Kind, string> = { name: 'Traveller-', email: 'email-', phone: 'phone-' };

/** How a string is masked: as a whole (a name, a list of e-mails...) or as text of some kind. */
type Treatment = 'names' | 'emails' | 'phones' | 'contact' | 'name-value' | 'text' | 'plain' | 'id';

/** The treatment of a string under a role; `shapes`: a name-shaped value here is a name. */
function treatment(value: string, role: Role, ctx: number, shapes: boolean): Treatment {
  switch (role) {
    case 'name':
      return EMAIL_WHOLE.test(value) ? 'emails' : 'names';
    case 'email':
      return 'emails';
    case 'phone':
    case 'phones':
      return 'phones';
    case 'contact':
      return 'contact';
    case 'id':
      return 'id';
    case 'text':
    case 'plain':
      return (shapes || ctx & IN_PERSON) && isNameValue(value) ? 'name-value' : role;
    default:
      return 'plain';
  }
}
const EMAIL_WHOLE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/u;

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
  /** Words of traveller names seen so far, folded (fold(): capitals, no accents). */
  const known = new Set<string>();
  /** Those written in East Asian scripts, found inside runs of text with no spaces. */
  const knownCjk = new Set<string>();
  /**
   * East Asian surnames of one letter (王, 李, 이, 김), folded: masked beside a known name in
   * East Asian script, as one with it (王伟芳已登机, 이 민준님). A Han one on its own stays (one
   * letter names nobody, and is a word of many texts); a Hangul one is two letters once folded
   * (NFKD gives its jamo), so `known` holds it too and a word of it alone is masked.
   */
  const cjkSurnames = new Set<string>();
  /** The digits of identifiers the results hold (ticket numbers, ServiceRefs): never a phone. */
  const identifiers = new Set<string>();
  const isIdentifier = (digits: string): boolean => identifiers.has(digits);
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
  /**
   * A folded word of a name remembered. Titles are not names, nor a particle written in lower
   * case before more of the name (Jan van der Berg, María de la Cruz): masking `de` or `la`
   * wherever it appears would mask half of a Spanish text. Written any other way (Da Silva Ana,
   * a surname Le, DE LA CRUZ/MARIA) the word may be the name itself, and is remembered.
   */
  const remember = (word: string): void => {
    if (word.length >= 2 && !TITLES.has(word) && !known.has(word)) {
      if (known.size >= KNOWN_NAMES_LIMIT) {
        const oldest = known.values().next().value as string;
        known.delete(oldest);
        knownCjk.delete(oldest);
      }
      known.add(word);
      if (HAS_CJK.test(word)) knownCjk.add(word);
      learntCount++;
    }
  };
  /** A surname of one East Asian letter remembered (see cjkSurnames). */
  const rememberSurname = (letter: string): void => {
    const folded = fold(letter);
    if (cjkSurnames.has(folded)) return;
    if (cjkSurnames.size >= KNOWN_NAMES_LIMIT) cjkSurnames.clear();
    cjkSurnames.add(folded);
    learntCount++;
  };
  /**
   * The words of a name remembered; O'Neil-Smith also as O'NEIL and SMITH, José as JOSE. A name
   * in East Asian script of two words or more also as written without spaces (王 伟 as 王伟), and
   * a word of it of one letter as a surname (see cjkSurnames).
   */
  const learn = (name: string): void => {
    const words = name
      .replace(/’/g, "'")
      .split(/[^\p{L}\p{M}'-]+/u)
      .map((w) => w.replace(POSSESSIVE, '').replace(/^['-]+|['-]+$/g, ''))
      .filter(Boolean);
    words.forEach((w, i) => {
      const word = fold(w);
      if (i < words.length - 1 && PARTICLES.has(word) && w === w.toLowerCase()) return;
      if (CJK_LETTER.test(w)) rememberSurname(w);
      remember(word);
      if (word.includes('-')) for (const part of word.split('-')) remember(part.replace(/^'+|'+$/g, ''));
    });
    if (words.length > 1 && words.every((w) => HAS_CJK.test(w))) remember(fold(words.join('')));
  };
  /** A word of a text that is a known name: whole, without its possessive, or a part of a hyphenated one. */
  const isKnown = (w: string): boolean => {
    const word = fold(
      w
        .replace(/’/g, "'")
        .replace(POSSESSIVE, '')
        .replace(/['-]+$/, ''),
    );
    if (known.has(word)) return true;
    if (!word.includes('-') || /\d/.test(word)) return false;
    for (const part of word.split('-')) if (known.has(part)) return true;
    return false;
  };
  /** A particle (van, de la, bin) is masked with the name that follows it. */
  const NEXT_WORD = /[ -]+([\p{L}\p{N}][\p{L}\p{M}\p{N}'’-]*)/uy;
  const nameFollows = (text: string, from: number): boolean => {
    for (let at = from, n = 0; n < 4; n++) {
      NEXT_WORD.lastIndex = at;
      const m = NEXT_WORD.exec(text);
      if (!m) return false;
      if (isKnown(m[1])) return true;
      if (!PARTICLES.has(fold(m[1]))) return false;
      at = NEXT_WORD.lastIndex;
    }
    return false;
  };
  /** Known names written in East Asian scripts inside a run of letters with no spaces (王小明已登机). */
  const CJK_LONGEST = 8;
  /** The length of the longest known name at `i` in `run`, or 0. */
  const knownCjkAt = (run: string, i: number): number => {
    let len = Math.min(CJK_LONGEST, run.length - i);
    while (len >= 2 && !knownCjk.has(fold(run.slice(i, i + len)))) len--;
    return len >= 2 ? len : 0;
  };
  /** A run of CJK_RUN with its known names masked, each with a surname of one letter before it. */
  const maskCjkRun = (run: string): string => {
    let out = '';
    for (let i = 0; i < run.length; ) {
      let len = knownCjkAt(run, i);
      if (len === 0 && cjkSurnames.size > 0) {
        // 王伟芳, 王 伟芳: the surname (one letter, two code units beyond the BMP) and the name.
        const letter = String.fromCodePoint(run.codePointAt(i) as number);
        const gap = run[i + letter.length] === ' ' || run[i + letter.length] === '\u3000' ? 1 : 0;
        const name = cjkSurnames.has(fold(letter)) ? knownCjkAt(run, i + letter.length + gap) : 0;
        if (name > 0) len = letter.length + gap + name;
      }
      if (len > 0) {
        out += mask('name', run.slice(i, i + len));
        i += len;
      } else out += run[i++];
    }
    return out;
  };
  const maskList = (kind: Kind, value: string): string =>
    value
      .split(LIST_SPLIT)
      .map((part) => (part ? mask(kind, part) : part))
      .join(', ');

  /** Names in a text learnt: SURNAME/GIVEN and titled names (Mrs Jane Doe). */
  const learnFromText = (text: string): void => {
    if (text.includes('/'))
      for (const m of text.matchAll(GDS_NAME)) if (!isPlaceCodes(m[1], m[2])) learn(`${m[1]} ${m[2]}`);
    if (MAY_HAVE_TITLE.test(text)) for (const m of text.matchAll(TITLED_NAME)) learn(m[1]);
  };

  /**
   * E-mails everywhere; in anything but an identifier also phones (by shape, or announced by a
   * word), GDS and titled names, and the known names as whole words, whatever their case.
   */
  const maskText = (text: string, kind: 'text' | 'plain' | 'id'): string => {
    if (text.length < 2) return text;
    let out = text.includes('@') || text.includes('//') ? text.replace(EMAIL, (e) => mask('email', e)) : text;
    if (kind === 'id') return out;
    if (out.length >= 7 && SEVEN_DIGITS.test(out)) {
      if (ANNOUNCER.test(out))
        out = out.replace(ANNOUNCED_PHONE, (whole, word: string, p: string) =>
          isAnnouncedPhone(p) && !isIdentifier(p.replace(/\D/g, '')) ? word + mask('phone', p) : whole,
        );
      // Prose (a remark, a log line, words around the number): bare digits may be a phone too.
      const free = kind === 'text' || (out.includes(' ') && /\p{L}{2}/u.test(out));
      if (out.length >= 8 && PHONE_ANY.test(out))
        out = out.replace(PHONE, (p: string, at: number, all: string) =>
          isPhone(
            p,
            free,
            all.slice(Math.max(0, at - 12), at),
            all.slice(at + p.length, at + p.length + 4),
            isIdentifier,
          )
            ? mask('phone', p)
            : p,
        );
    }
    if (out.includes('/')) {
      out = out.replace(GDS_NAME, (whole, surname: string, given: string) => {
        if (isPlaceCodes(surname, given)) return whole;
        learn(`${surname} ${given}`);
        return mask('name', whole);
      });
    }
    if (MAY_HAVE_TITLE.test(out))
      out = out.replace(TITLED_NAME, (whole, name: string) => {
        learn(name);
        return whole.slice(0, whole.length - name.length) + mask('name', name);
      });
    if (known.size === 0) return out;
    if (knownCjk.size > 0 && HAS_CJK.test(out)) out = out.replace(CJK_RUN, maskCjkRun);
    return out.replace(WORD, (w: string, at: number, all: string) => {
      if (!isKnown(w)) return PARTICLES.has(fold(w)) && nameFollows(all, at + w.length) ? mask('name', w) : w;
      const base = w.replace(POSSESSIVE, '');
      return mask('name', base) + w.slice(base.length); // the possessive kept: "Traveller-1a2b3c4d's bags"
    });
  };

  const maskString = (value: string, how: Treatment): string => {
    switch (how) {
      case 'names':
        learn(value);
        return maskList('name', value);
      case 'name-value':
        learn(value);
        return mask('name', value);
      case 'emails':
        return maskList('email', value);
      case 'phones':
        return maskList('phone', value);
      case 'contact':
        if (value.includes('@')) return maskText(value, 'plain');
        if (SEVEN_DIGITS.test(value) && !/\p{L}{2}/u.test(value)) return maskList('phone', value);
        learn(value);
        return maskList('name', value);
      case 'plain':
        return value.length > SHORT ? maskText(value, how) : maskShort(value);
      default:
        return maskText(value, how);
    }
  };

  /**
   * Short plain values (codes, cities, statuses) repeat on every record: masked once per set of
   * known names: this keeps masking a page within ~1.0-1.3x of its cost before names were looked
   * for in every field (20,000 records of 16 fields, 3,000 travellers).
   */
  const shortCache = new Map<string, string>();
  let shortCacheAt = -1;
  const maskShort = (value: string): string => {
    if (shortCacheAt !== learntCount || shortCache.size >= CACHE_LIMIT) {
      shortCache.clear();
      shortCacheAt = learntCount;
    }
    let m = shortCache.get(value);
    if (m === undefined) {
      m = maskText(value, 'plain');
      shortCache.set(value, m);
    }
    return m;
  };

  /** First pass: the names of a value's name fields (and names written in its text) learnt. */
  const collect = (value: unknown, role: Role, ctx: number, shapes: boolean, depth: number): void => {
    if (role === 'id' && (typeof value === 'string' || typeof value === 'number')) {
      const digits = String(value).replace(/\D/g, '');
      if (digits.length >= 8 && identifiers.size < KNOWN_NAMES_LIMIT) identifiers.add(digits);
      return;
    }
    if (typeof value === 'string') {
      const how = treatment(value, role, ctx, shapes);
      if (how === 'names' || how === 'name-value') learn(value);
      else if (how === 'contact' && !value.includes('@') && /\p{L}{2}/u.test(value)) learn(value);
      else if (how === 'text' || how === 'plain') learnFromText(value);
      return;
    }
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return;
    if (Array.isArray(value)) {
      for (const v of value) collect(v, role, ctx, shapes, depth + 1);
      return;
    }
    for (const k in value as Rec) {
      const info = keyInfo(k);
      collect((value as Rec)[k], roleIn(info, ctx), ctx | info.adds, info.nameShapes, depth + 1);
    }
  };

  const walk = (value: unknown, role: Role, ctx: number, shapes: boolean, depth: number): unknown => {
    if (typeof value === 'string') return value === '' ? value : maskString(value, treatment(value, role, ctx, shapes));
    if (typeof value === 'number' && (role === 'phone' || role === 'phones')) return mask('phone', String(value));
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((v) => walk(v, role, ctx, shapes, depth + 1));
    return mapValues(value as Rec, (k, v) => {
      const info = keyInfo(k);
      return walk(v, roleIn(info, ctx), ctx | info.adds, info.nameShapes, depth + 1);
    });
  };

  /** Like walk, over values already masked: name, e-mail and phone fields are masks already. */
  const rewalk = (value: unknown, role: Role, ctx: number, depth: number): unknown => {
    if (typeof value === 'string') return role === 'text' || role === 'plain' ? maskText(value, role) : value;
    if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return value;
    if (Array.isArray(value)) return value.map((v) => rewalk(v, role, ctx, depth + 1));
    return mapValues(value as Rec, (k, v) => {
      const info = keyInfo(k);
      return rewalk(v, roleIn(info, ctx), ctx | info.adds, depth + 1);
    });
  };

  const one = <T>(value: T): T => {
    collect(value, 'plain', 0, false, 0);
    return walk(value, 'plain', 0, false, 0) as T;
  };
  return Object.assign(one, {
    records(records: readonly Rec[]): Rec[] {
      for (const r of records) collect(r, 'plain', 0, false, 0);
      return records.map((r) => walk(r, 'plain', 0, false, 0) as Rec);
    },
    text: (text: string) => maskText(text, 'text'),
    remask: (records: readonly Rec[]) => records.map((r) => rewalk(r, 'plain', 0, 0) as Rec),
    learnt: () => learntCount,
  });
}

/**
 * A copy of `o` with each value replaced by `f(key, value)`, made by copying `o` whole and then
 * writing what changed: V8 gives the copy `o`'s layout (a record from JSON.parse: its fields in
 * the object itself). Built a property at a time, as it was, a masked record of more than 16
 * fields became a hash table: 1,630 heap bytes for 30 fields against 280, so a masked result
 * held about 6x an unmasked one (docs/architecture.md, "Memory of held results"). A key
 * `__proto__` (JSON.parse makes it an own field) is defined, never assigned: assigning it
 * would set the copy's prototype.
 */
function mapValues(o: Rec, f: (key: string, value: unknown) => unknown): Rec {
  const out: Rec = { ...o };
  for (const k in o) {
    const v = o[k];
    const w = f(k, v);
    if (w === v) continue;
    if (k === '__proto__')
      Object.defineProperty(out, k, { value: w, writable: true, enumerable: true, configurable: true });
    else out[k] = w;
  }
  return out;
}

/** Records are bounded in depth where they enter (service-date.ts); this is only a guard. */
const MAX_DEPTH = 64;

/** Same person, same mask: case, spacing and phone punctuation do not matter. */
function normalize(kind: Kind, value: string): string {
  const v = value.trim();
  if (kind === 'phone') return v.replace(/[^\d+]/g, '').replace(/^00/, '+');
  if (kind === 'email') return v.toLowerCase().replace('//', '@');
  return fold(v).replace(/\s+/g, ' ');
}
