/**
 * A 53-bit fingerprint of a record as the service sent it (field names and their order, value
 * types and values, nested lists and objects included), computed without serialising it:
 * hashing JSON.stringify with SHA-1 cost more than everything else done per record. Identical
 * records always get the same fingerprint; two different ones share it with a chance of about
 * 2^-53 per pair (for 100,000 records, under one in a million per report), or 2^-32 when they
 * differ only in a field name (names enter as 32-bit codes). A shared fingerprint can only
 * mark a result incomplete, never hide a repeat.
 */
/** The fingerprint's two 32-bit lanes, [h1, h2], and the second lane and width of the text
 *  last hashed, [laneY, wide]: in a typed array because module-level `let` bindings are
 *  checked for initialisation at every read and write (this state is read and written
 *  several times per value of every record). */
const state = new Int32Array(4);
const H1 = 0;
const H2 = 1;
const LANE_Y = 2;
const WIDE = 3;

export function fingerprint(value: unknown): number {
  startFingerprint();
  mix(value);
  return endFingerprint();
}

/**
 * The steps of fingerprint(), for a walk that does other work on the way (paging/record-pass.ts):
 * startFingerprint(), then mixChar/mixText/mixKey/mixNumber as mix() does, then endFingerprint().
 */
export function startFingerprint(): void {
  state[H1] = 0x811c9dc5;
  state[H2] = 0x3c6ef372;
}

export function endFingerprint(): number {
  const a = avalanche(state[H1]) >>> 0;
  const b = avalanche(state[H2] ^ a) >>> 0;
  return a * 0x200000 + (b & 0x1fffff);
}

/** Tags of value types mixed before a value (so '3' and 3, [] and {} differ). */
export const TAG = {
  string: 1,
  number: 2,
  true: 3,
  false: 4,
  undefined: 5,
  null: 6,
  list: 7,
  listEnd: 8,
  object: 9,
  objectEnd: 10,
  integer: 11,
} as const;

const float = new Float64Array(1);
const words = new Int32Array(float.buffer);

/** A number: a 32-bit integer as itself, any other as its 64 bits (no text made for it).
 *  Returns a 32-bit hash of the number alone (see text). */
export function mixNumber(n: number): number {
  if ((n | 0) === n) {
    char(TAG.integer);
    char(n);
    return n;
  }
  char(TAG.number);
  float[0] = n;
  char(words[0]);
  char(words[1]);
  return words[0] ^ words[1];
}

export { char as mixChar, keyCode, mixKey, text as mixText };

function char(c: number): void {
  state[H1] = Math.imul(state[H1] ^ c, 0x01000193);
  const h2 = Math.imul(state[H2] ^ c, 0x5bd1e995);
  state[H2] = h2 ^ (h2 >>> 15);
}

/**
 * A text mixed in as the hash of it alone (see lanes): the first lane doubles as a hash of
 * the value, returned for a caller that keys values by it (paging/value-counts.ts).
 */
function text(s: string): number {
  const x = lanes(s);
  char(x);
  char(state[LANE_Y]);
  char(s.length & 0xffff); // "ab"+"c" and "a"+"bc" differ
  return x;
}

/** Whether the text last mixed in (mixText) has a character beyond Latin-1: V8 then holds
 *  it at 2 bytes a character (record-memory.ts), found here without a second read. */
export function lastTextWide(): boolean {
  return state[WIDE] !== 0;
}

/**
 * The hot loop: a text hashed on its own in two 32-bit lanes from fixed seeds, two UTF-16
 * units (16 bits each) per step as one 32-bit word, lossless and half the steps. Returns
 * the first lane; the second is left in state[LANE_Y].
 */
function lanes(s: string): number {
  let x = 0x811c9dc5;
  let y = 0x3c6ef372;
  let units = 0;
  const even = s.length & ~1;
  for (let i = 0; i < even; i += 2) {
    const c = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
    units |= c;
    x = Math.imul(x ^ c, 0x01000193);
    y = Math.imul(y ^ c, 0x5bd1e995);
    y ^= y >>> 15;
  }
  if (even !== s.length) {
    const c = s.charCodeAt(even);
    units |= c;
    x = Math.imul(x ^ c, 0x01000193);
    y = Math.imul(y ^ c, 0x5bd1e995);
    y ^= y >>> 15;
  }
  state[LANE_Y] = y;
  state[WIDE] = units & 0xff00ff00;
  return x;
}

/**
 * Field names repeat in every record: each is hashed once and its 32-bit code mixed in after
 * that (a lookup instead of a dozen characters). Bounded, so hostile keys cannot grow it.
 */
const KEY_CODES = new Map<string, number>();
const MAX_KEY_CODES = 10_000;

function mixKey(key: string): void {
  char(keyCode(key));
}

/** What mixKey(key) mixes in: for a caller that keeps it (per field position, record-pass.ts). */
function keyCode(key: string): number {
  let code = KEY_CODES.get(key);
  if (code === undefined) {
    code = avalanche(lanes(key) ^ Math.imul(key.length, 0x9e3779b1));
    if (KEY_CODES.size < MAX_KEY_CODES) KEY_CODES.set(key, code);
  }
  return code;
}

function mix(v: unknown): void {
  switch (typeof v) {
    case 'string':
      char(TAG.string);
      text(v);
      return;
    case 'number':
      mixNumber(v);
      return;
    case 'boolean':
      char(v ? TAG.true : TAG.false);
      return;
    case 'undefined':
      char(TAG.undefined);
      return;
    default:
      if (v === null) char(TAG.null);
      else if (Array.isArray(v)) {
        char(TAG.list);
        for (const item of v) mix(item);
        char(TAG.listEnd);
      } else {
        char(TAG.object);
        const o = v as Record<string, unknown>;
        for (const key in o) {
          mixKey(key);
          mix(o[key]);
        }
        char(TAG.objectEnd);
      }
  }
}

function avalanche(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return h ^ (h >>> 16);
}
