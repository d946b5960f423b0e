/**
 * The records the bench upstream serves: air segments with the service's field names and
 * /Date(...)/ values, shaped like an agency's data (CONTRACT section 9) so that no cache keyed
 * by value can flatter us: every record is distinct, and the cardinalities are an agency's:
 * 400 accounts, 6,000 travellers, 25,000 bookings (record locators) per report, 40 offices,
 * 120 consultants, departures over a whole year, booking instants to the second, free-text
 * remarks of 0 to ~300 characters, fares in 7 currencies. Record `index` of report `variant`
 * is computed on its own (a hash of the two), so any page and any count come from one
 * generator, and what query_report must answer can be recomputed here.
 */
import { encodeServiceDate } from '../src/upstream/service-date.js';

export type BenchRecord = Record<string, unknown>;

/** 32-bit mix of integers (murmur3's finaliser over a running state): a cheap keyed PRNG. */
function mix(a: number, b: number): number {
  let h = Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A stream of pseudo-random integers for one seed. */
class Draws {
  private n = 0;
  constructor(private readonly seed: number) {}
  next(): number {
    return mix(this.seed, ++this.n);
  }
  below(k: number): number {
    return this.next() % k;
  }
  pick<T>(list: readonly T[]): T {
    return list[this.below(list.length)];
  }
}

const LETTERS = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function code(d: Draws, length: number, alphabet = LETTERS): string {
  let s = '';
  for (let i = 0; i < length; i++) s += alphabet[d.below(alphabet.length)];
  return s;
}

const FIRST = words(
  'James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan Joseph ' +
    'Jessica Thomas Sarah Charles Karen Chen Wei Aiko Hiroshi Priya Arjun Fatima Omar Sofia Mateo Lucas Emma Noah ' +
    'Olivia Liam Ava Ethan Mia Amelia Harper Aroha Tane Mere Nikau Isla Oliver Jack Charlotte Leo Grace Hugo Chloe',
);
const LAST = words(
  'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson ' +
    'Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis ' +
    'Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera ' +
    'Campbell Mitchell Carter Roberts Tanaka Sato Suzuki Kim Park Patel Singh Kumar Ngata Walker Parata Tui',
);
const REMARK_WORDS = words(
  'please confirm seat aisle window request vegetarian meal upgrade waitlisted client prefers early arrival ' +
    'corporate rate applies invoice to cost centre approval pending from manager visa check required passport ' +
    'expires soon lounge access frequent flyer number added reissue exchange refund credit voucher hold until ' +
    'noon deadline ticketing time limit call traveller before changes hotel near venue car at destination',
);
const CARRIERS = words(
  'NZ QF VA JQ SQ CX EK QR UA AA DL AC BA AF KL LH LX OS SK AY IB TP EI NH JL KE OZ CI BR TG MH GA PR VN CZ MU ' +
    'CA HU ET SA MS TK EY WY SV FJ PX NF TN HA AS B6 WN F9 NK 3K TR 5J QZ',
);
const STATUSES = ['HK', 'HK', 'HK', 'HK', 'HK', 'HK', 'TK', 'TK', 'KK', 'UN', 'HL', 'HX', 'UC', 'NO'];
const CURRENCIES = ['NZD', 'NZD', 'NZD', 'AUD', 'AUD', 'USD', 'USD', 'EUR', 'GBP', 'SGD', 'JPY'];
const YEAR_START_MS = Date.UTC(2026, 0, 1);
const DAY_MS = 86_400_000;

function words(s: string): string[] {
  return s.split(' ');
}

/** Reference sets of one report, the same for every record of it (seeded by the variant). */
interface Agency {
  airports: string[];
  accounts: string[];
  offices: Array<{ code: string; iata: string; offset: number }>;
  consultants: string[];
  travellers: string[];
}

const agencies = new Map<number, Agency>();

function agency(variant: number): Agency {
  let a = agencies.get(variant);
  if (a) return a;
  const d = new Draws(mix(variant, 0x5eed));
  const offsets = [780, 720, 600, 570, 480, 330, 60, 0, -300, -420, -480];
  a = {
    airports: Array.from({ length: 220 }, () => code(d, 3)),
    accounts: Array.from({ length: 400 }, () => `${code(d, 3)}${String(d.below(10_000)).padStart(4, '0')}`),
    offices: Array.from({ length: 40 }, () => ({
      code: code(d, 4, ALNUM),
      iata: String(10_000_000 + d.below(90_000_000)),
      offset: d.pick(offsets),
    })),
    consultants: Array.from({ length: 120 }, () => `${d.pick(FIRST)} ${d.pick(LAST)}`),
    travellers: Array.from({ length: 6000 }, () => `${d.pick(LAST).toUpperCase()}/${d.pick(FIRST).toUpperCase()}`),
  };
  agencies.set(variant, a);
  return a;
}

/** Bookings per report: a record belongs to one of them and shares its booking's fields. */
const BOOKINGS = 25_000;

/** Record `index` of report `variant`. */
export function benchRecord(variant: number, index: number): BenchRecord {
  const ag = agency(variant);
  const booking = mix(variant * 7919 + 1, index) % BOOKINGS;
  const b = new Draws(mix(variant, booking + 1_000_000));
  const office = b.pick(ag.offices);
  const pax = 1 + (b.below(10) === 0 ? 1 + b.below(3) : 0);
  const passengers: string[] = [];
  for (let i = 0; i < pax; i++) passengers.push(b.pick(ag.travellers));
  const createdMs = YEAR_START_MS - 30 * DAY_MS + b.below(380 * 86_400) * 1000;
  const s = new Draws(mix(variant + 0x1000, index));
  const depDay = Math.floor((createdMs - YEAR_START_MS) / DAY_MS) + 1 + s.below(60);
  const depMin = s.below(288) * 5;
  const duration = 40 + s.below(900);
  const arrDay = depDay + Math.floor((depMin + duration) / 1440);
  const currency = s.pick(CURRENCIES);
  const fare = 49 + s.below(450_000) / 100;
  return {
    ServiceRef: String(variant * 10_000_000 + index),
    RecordLocator: locator(variant, booking),
    PNRCreationDate: encodeServiceDate(createdMs, office.offset),
    OwningAgencyLocationID: office.code,
    OwningConsultant: b.pick(ag.consultants),
    Account: b.pick(ag.accounts),
    Passengers: passengers.join(', '),
    DepartureDate: encodeServiceDate(YEAR_START_MS + depDay * DAY_MS, 0),
    DepartureTime: hhmm(depMin),
    ArrivalDate: encodeServiceDate(YEAR_START_MS + arrDay * DAY_MS, 0),
    ArrivalTime: hhmm(depMin + duration),
    CarrierCode: carrierOf(variant, index),
    BoardPoint: s.pick(ag.airports),
    OffPoint: s.pick(ag.airports),
    FlightNbr: String(1 + s.below(9999)),
    BookingCode: LETTERS[s.below(LETTERS.length)],
    CreatingAgencyIata: office.iata,
    SegmentStatus: s.pick(STATUSES),
    FareAmount: currency === 'JPY' ? Math.round(fare * 90) : fare,
    FareCurrency: currency,
    Remarks: remark(s),
  };
}

/** A booking's record locator: six characters, distinct per booking within a report. */
function locator(variant: number, booking: number): string {
  const d = new Draws(mix(variant + 0x2000, booking));
  return `${code(d, 2, ALNUM)}${(booking + variant * BOOKINGS).toString(32).toUpperCase().padStart(4, '0')}`;
}

/** Carriers by a skewed draw (a few carry most segments), as an agency's mix is. */
function carrierOf(variant: number, index: number): string {
  const r = mix(variant + 0x3000, index) / 2 ** 32;
  return CARRIERS[Math.floor(r * r * CARRIERS.length)];
}

/** Free text of 0 to ~300 characters: a third empty, most short, some long. */
function remark(d: Draws): string {
  const kind = d.below(12);
  const n = kind < 4 ? 0 : kind < 10 ? 2 + d.below(6) : 10 + d.below(20);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(d.pick(REMARK_WORDS));
  if (n > 0 && d.below(4) === 0) out.push(`ref ${code(d, 6, ALNUM)}`);
  return out.join(' ');
}

function hhmm(minutes: number): string {
  const m = minutes % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** Records [offset, offset + count) of a report of `total` records. */
export function benchRecords(variant: number, total: number, offset: number, count: number): BenchRecord[] {
  const out: BenchRecord[] = [];
  for (let i = offset; i < Math.min(total, offset + count); i++) out.push(benchRecord(variant, i));
  return out;
}

/** Records per CarrierCode of a whole report: what query_report must answer for it. */
export function countsByCarrier(variant: number, total: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (let i = 0; i < total; i++) {
    const c = carrierOf(variant, i);
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  return counts;
}
