/**
 * What a field holds, read from its key and the keys above it (PII masking, pii.ts). A key is
 * split into words (`ContactPhone` -> contact, phone; `Traveller.First` -> the key `First`
 * inside a `Traveller`), so fields no list names are recognised: any word meaning a person
 * (pax, passenger, traveller, guest, holder, contact, user, booked-in...) makes the fields
 * under it a person's, where `First`, `Last`, `Name` are names; a phone or e-mail word makes
 * a field a phone or an e-mail. Identifier words (Ref, Locator, Number, Code, Id, PCC,
 * Account...) make a field an identifier, which is never masked as a name or a phone.
 */

/** name/email/phone: the whole value is one (or a list). phones: a list of {Number}. */
export type Role = 'name' | 'email' | 'phone' | 'phones' | 'number' | 'contact' | 'id' | 'text' | 'plain';

/** Context bits passed down from the keys above a value. */
export const IN_PERSON = 1;
export const IN_CONTACT = 2;
export const IN_PHONES = 4;

export interface KeyInfo {
  /** The role outside a person context, and inside one (where `First`, `Name` are names). */
  role: Role;
  roleInPerson: Role;
  /** Context bits this key adds for what is under it. */
  adds: number;
  /** A name-shaped value (`Given Surname`, `SURNAME/GIVEN`) here is a name even in a plain field. */
  nameShapes: boolean;
}

const PERSON = new Set([
  'pax',
  'paxs',
  'passenger',
  'passengers',
  'traveller',
  'travellers',
  'traveler',
  'travelers',
  'guest',
  'guests',
  'holder',
  'holders',
  'cardholder',
  'contact',
  'contacts',
  'user',
  'users',
  'booker',
  'bookedin',
  'bookedby',
  'bookedfor',
  'requester',
  'requestor',
  'customer',
  'customers',
  'person',
  'persons',
  'people',
  'employee',
  'member',
  'occupant',
  'occupants',
  'driver',
  'renter',
  'attendee',
  'companion',
  'consultant',
  'recipient',
]);
/** Words that with a person word (or inside a person) mean the person's name. */
const NAME_PARTS = new Set([
  'name',
  'names',
  'first',
  'last',
  'given',
  'family',
  'surname',
  'surnames',
  'sur',
  'middle',
  'full',
  'maiden',
  'fore',
  'forename',
  'forenames',
  'initials',
  'display',
]);
/** Name parts that mean a person's name on their own (Surname, Forename). */
const NAME_ALONE = new Set(['surname', 'surnames', 'forename', 'forenames', 'maiden']);
/** FirstName, lastname, PaxGivenName...: compound keys the word split cannot see into. */
const NAME_COMPOUND = new RegExp(
  '^(?:pax|passenger|traveller|traveler|guest|primary|lead|contact|holder|user|booker)?' +
    '(?:first|last|given|family|middle|full|sur|maiden|fore)name$',
);
const PHONE_WORDS = new Set([
  'phone',
  'phones',
  'telephone',
  'tel',
  'mobile',
  'mobiles',
  'mob',
  'cell',
  'cellphone',
  'fax',
  'sms',
  'whatsapp',
  'ctcm',
  'phonenbr',
  'phonenumber',
  'mobilelist',
  'mobilenbr',
]);
const EMAIL_WORDS = new Set(['email', 'emails', 'mail', 'ctce', 'emailaddress', 'emaillist']);
/** A last word saying the field is about the phone or e-mail, not the number itself (PhoneType). */
const MODIFIERS = new Set([
  'type',
  'types',
  'kind',
  'count',
  'id',
  'ids',
  'guid',
  'seq',
  'sequence',
  'flag',
  'status',
  'index',
  'order',
  'verified',
  'valid',
  'consent',
  'optin',
  'date',
  'time',
  'dt',
  'code',
  'country',
  'format',
  'trails',
  'trail',
  'sent',
  'delivery',
]);
/** Last words of identifier fields: ticket numbers, locators, ServiceRefs, PCCs, account codes. */
const ID_LAST = new Set([
  'ref',
  'refs',
  'locator',
  'locators',
  'pnr',
  'nbr',
  'no',
  'num',
  'number',
  'numbers',
  'code',
  'codes',
  'id',
  'ids',
  'guid',
  'uuid',
  'pcc',
  'pccs',
  'account',
  'accounts',
  'iata',
  'key',
  'sine',
  'hash',
]);
/** Words saying a name belongs to a thing, not a person (HotelName, VendorName, FieldName). */
const THING = new Set([
  'hotel',
  'vendor',
  'city',
  'airline',
  'carrier',
  'company',
  'account',
  'agency',
  'property',
  'chain',
  'airport',
  'country',
  'location',
  'place',
  'branch',
  'product',
  'class',
  'field',
  'event',
  'report',
  'service',
  'office',
  'department',
  'project',
  'route',
  'file',
  'host',
  'server',
  'queue',
  'table',
  'column',
  'brand',
  'group',
  'state',
  'region',
  'terminal',
  'station',
  'transaction',
]);
const CONTACT_NUMBER = new Set(['number', 'numbers', 'nbr', 'no', 'num', 'nos']);
const FREE_TEXT = new RegExp(
  'remark|text|comment|message|notepad|formatted|information|response|details?|data|note|log|value|matched|raw|' +
    'description|reason|body|subject',
  'i',
);

/** `ContactPhone` -> ['contact', 'phone']; `PAXName` -> ['pax', 'name']; `booked_in` -> ['bookedin']. */
export function keyWords(key: string): string[] {
  const words = key
    .replace(/(\p{Ll}|\p{N})(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  const out: string[] = [];
  for (const w of words) {
    const prev = out.at(-1);
    // booked in, booked by, card holder, e mail, sur name: one word
    if ((prev === 'booked' && (w === 'in' || w === 'by' || w === 'for')) || (prev === 'card' && w === 'holder'))
      out[out.length - 1] = prev + w;
    else if (prev === 'e' && w === 'mail') out[out.length - 1] = 'email';
    else if (prev === 'whats' && w === 'app') out[out.length - 1] = 'whatsapp';
    else out.push(w);
  }
  return out;
}

function infoOf(key: string): KeyInfo {
  const words = keyWords(key);
  const last = words.at(-1) ?? '';
  const squashed = words.join('');
  const lower = key.toLowerCase();
  const person = words.some((w) => PERSON.has(w));
  const thing = words.some((w) => THING.has(w));
  const modified = MODIFIERS.has(last);
  const fixed = (role: Role, adds = 0, nameShapes = false): KeyInfo => ({
    role,
    roleInPerson: role,
    adds,
    nameShapes,
  });
  if (lower === 'phones') return fixed('phones', IN_PHONES);
  if (lower === 'number' || lower === 'numbers') return fixed('number');
  // ContactNumber(s), EmergencyContactNo: a contact's numbers are phones, not identifiers.
  if (CONTACT_NUMBER.has(last) && words.some((w) => w === 'contact' || w === 'contacts')) return fixed('phone');
  if (!modified && words.some((w) => PHONE_WORDS.has(w))) return fixed('phone');
  if (!modified && words.some((w) => EMAIL_WORDS.has(w))) return fixed('email');
  if (ID_LAST.has(last) || words.includes('locator') || words.includes('pcc')) return fixed('id');
  const namePart = NAME_PARTS.has(last);
  const nameForSure =
    !thing &&
    (NAME_COMPOUND.test(squashed) ||
      NAME_ALONE.has(last) ||
      (namePart && (person || words.slice(0, -1).some((w) => NAME_PARTS.has(w)))));
  const adds = (person ? IN_PERSON : 0) | (words.includes('contact') || words.includes('contacts') ? IN_CONTACT : 0);
  if (nameForSure) return fixed('name', adds | IN_PERSON, true);
  // Passenger, LeadGuest, CardHolder, PaxList, BookedIn: the whole value is a person.
  const personWords = words.filter((w) => w !== 'list' && w !== 'lead' && w !== 'primary' && w !== 'main');
  if (person && !thing && personWords.length > 0 && personWords.every((w) => PERSON.has(w)))
    return fixed(adds & IN_CONTACT ? 'contact' : 'name', adds, true);
  const other: Role = FREE_TEXT.test(key) ? 'text' : 'plain';
  return {
    role: other,
    roleInPerson: namePart && !thing ? 'name' : other,
    adds,
    nameShapes: !thing && (person || namePart),
  };
}

const infos = new Map<string, KeyInfo>();
/** The cached KeyInfo of a key (field names are few; the cache is only bounded as a guard). */
export function keyInfo(key: string): KeyInfo {
  let info = infos.get(key);
  if (info === undefined) {
    info = infoOf(key);
    if (infos.size > 10_000) infos.clear();
    infos.set(key, info);
  }
  return info;
}

/** The role of a value under `key`, given the context bits of the keys above it. */
export function roleIn(info: KeyInfo, ctx: number): Role {
  const role = ctx & IN_PERSON ? info.roleInPerson : info.role;
  if (role === 'number') return ctx & (IN_PHONES | IN_CONTACT) ? 'phone' : 'plain';
  return role;
}
