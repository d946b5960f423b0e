/**
 * A large report page parsed in pieces (docs/architecture.md, "Response bodies"). V8 makes a
 * string of over 128 KB in its large-object space, on memory fresh from the system that is
 * given back at the next collection, so every page of 500 air segments (300 KB) paid for
 * about 75 page faults; on the bench's machine that was 2.3 us a record for the decode alone
 * (texts under 128 KB decode at memory speed, 60 times faster). So the bytes are cut between
 * the records of the envelope's list into pieces of about PIECE_BYTES, and each piece is
 * decoded and parsed on its own: the same values JSON.parse gives for the whole text.
 *
 * The cuts come from a scan of the bytes that follows JSON's strings, escapes and nesting
 * (0.65 us a record) up to the first cut and after the last, and from the records' first key
 * in between (see findCuts). The list is the one parseEnvelope reads: ResponseReport, or its
 * Item. Whatever the scan does not expect (another shape, a key written twice, a count that
 * does not add up, a piece that is not whole records, text that is not JSON) gives
 * undefined, and the caller parses the whole text as before, which also words any error.
 */

import { bomLength } from './body-text.js';

/** Bytes of a piece's text: under 128 KB once decoded, even as two-byte text; the head and
 *  the tail of the envelope, parsed together, are too when their text is one-byte. */
export const PIECE_BYTES = 48 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;

/** Which envelope key a key of the two upper levels is. */
const OTHER = 0;
const REPORT = 1;
const ITEM = 2;
const ESCAPED = 3;

/** Where the records' list was cut, and how many records lie before, between and after the
 *  cuts. */
export interface Cuts {
  /** The commas cut at. */
  at: number[];
  /** Records before the first cut. */
  head: number;
  /** Records between each cut and the next; -1 where the piece's cuts were found by their
   *  pattern (see findCuts), whose parse alone then says what the piece holds. */
  between: number[];
  /** Records after the last cut. */
  tail: number;
  /** The list is ResponseReport's Item, not ResponseReport itself. */
  inItem: boolean;
}

/**
 * What JSON.parse gives for the UTF-8 text of `bytes` (a leading byte order mark dropped), or
 * undefined when the body is not parsed in pieces (see above). The bytes are written to while
 * it runs and are as they were when it returns.
 */
export function parseInPieces(bytes: Buffer, pieceBytes = PIECE_BYTES): unknown {
  const start = bomLength(bytes);
  if (bytes.length - start <= 2 * pieceBytes) return undefined;
  const cuts = findCuts(bytes, start, pieceBytes);
  if (cuts === undefined || cuts.at.length < 2) return undefined;
  try {
    return assemble(bytes, start, cuts);
  } catch {
    // Not JSON after all (the scan does not check everything JSON.parse does).
    return undefined;
  }
}

function assemble(bytes: Buffer, start: number, cuts: Cuts): unknown {
  const { at } = cuts;
  const last = at.length - 1;
  const body = JSON.parse(`${bytes.toString('utf8', start, at[0])},${bytes.toString('utf8', at[last] + 1)}`);
  const report = body?.ResponseReport;
  const ends = cuts.inItem ? report?.Item : report;
  if (!Array.isArray(ends) || ends.length !== cuts.head + cuts.tail) return undefined;
  const records: unknown[] = ends.slice(0, cuts.head);
  for (let k = 0; k < last; k++) {
    const piece = listBetween(bytes, at[k], at[k + 1]);
    const expected = cuts.between[k];
    if (!Array.isArray(piece) || (expected >= 0 && piece.length !== expected)) return undefined;
    for (let i = 0; i < piece.length; i++) records.push(piece[i]);
  }
  for (let i = cuts.head; i < ends.length; i++) records.push(ends[i]);
  if (cuts.inItem) report.Item = records;
  else body.ResponseReport = records;
  return body;
}

/** The records between two cut commas, parsed as a list: the commas are made its brackets
 *  for the decode, then put back. */
function listBetween(bytes: Buffer, from: number, to: number): unknown {
  bytes[from] = OPEN_LIST;
  bytes[to] = CLOSE_LIST;
  try {
    return JSON.parse(bytes.toString('utf8', from, to + 1));
  } finally {
    bytes[from] = COMMA;
    bytes[to] = COMMA;
  }
}

/**
 * The commas at which the records' list can be cut, one at least `pieceBytes` after the last
 * cut (or the list's start). Keys are read only on the envelope's two upper levels, where
 * there are a few; every other string is only skipped.
 *
 * Past the first cut the scan jumps: records of a report begin with the same key, so the next
 * cuts are where the bytes read `},{"Key":` again, a piece further on (`jump`), and the
 * scan resumes at the last of them for the rest. Those bytes cannot be inside a text (its
 * quotes would be escaped), and each piece between two cuts is then parsed as a list on its
 * own: it parses only when it is whole records (a cut inside a record leaves a bracket
 * open), so each cut found this way is a comma between records, as the first one is.
 */
export function findCuts(b: Buffer, start: number, pieceBytes: number): Cuts | undefined {
  const end = b.length;
  const at: number[] = [];
  const between: number[] = [];
  let head = 0;
  let depth = 0;
  let rootIsObject = false;
  /** The key whose value is open on level 1 (the envelope's) and on level 2. */
  let key1 = OTHER;
  let key2 = OTHER;
  let reportKeys = 0;
  let itemKeys = 0;
  /** Depth of the records' list while it is open; 0 before, -1 after. */
  let listDepth = 0;
  let inItem = false;
  /** Commas of the list since its start or the last cut. */
  let commas = 0;
  let lastCut = 0;
  let i = start;
  while (i < end) {
    const c = b[i++];
    if (c === QUOTE) {
      const from = i;
      for (;;) {
        if (i >= end) return undefined;
        const d = b[i++];
        if (d === QUOTE) break;
        if (d === BACKSLASH) i++;
      }
      if (depth > 2 || !isKey(b, i)) continue;
      if (depth === 1 && rootIsObject) {
        const key = envelopeKey(b, from, i - 1);
        if (key === ESCAPED || (key === REPORT && ++reportKeys > 1)) return undefined;
        key1 = key === REPORT ? REPORT : OTHER;
      } else if (depth === 2 && key1 === REPORT) {
        const key = envelopeKey(b, from, i - 1);
        if (key === ESCAPED || (key === ITEM && ++itemKeys > 1)) return undefined;
        key2 = key === ITEM ? ITEM : OTHER;
      }
    } else if (c === OPEN_OBJECT || c === OPEN_LIST) {
      depth++;
      if (depth === 1) rootIsObject = c === OPEN_OBJECT;
      else if (depth === 2) key2 = OTHER;
      if (c === OPEN_LIST && key1 === REPORT && (depth === 2 || (depth === 3 && key2 === ITEM))) {
        // A second list where records may be: JSON.parse keeps the last; not cut.
        if (listDepth !== 0) return undefined;
        listDepth = depth;
        inItem = depth === 3;
        lastCut = i;
      }
    } else if (c === CLOSE_OBJECT || c === CLOSE_LIST) {
      if (depth === listDepth) listDepth = -1;
      if (--depth < 0) return undefined;
    } else if (c === COMMA && depth === listDepth) {
      commas++;
      if (i - lastCut > pieceBytes) {
        if (at.length === 0) head = commas;
        else between.push(commas);
        at.push(i - 1);
        commas = 0;
        lastCut = i;
        if (at.length === 1) {
          const jumped = jump(b, i - 1, pieceBytes);
          for (const cut of jumped) {
            between.push(-1);
            at.push(cut);
          }
          if (jumped.length) i = lastCut = jumped[jumped.length - 1] + 1;
        }
      }
    }
  }
  if (depth !== 0 || listDepth !== -1) return undefined;
  return { at, head, between, tail: commas + 1, inItem };
}

/**
 * Cuts after the one at `cut`, each the comma of the first `},{"Key":` at least `pieceBytes`
 * after the one before and within another `pieceBytes` of it, where Key is the first key of
 * the record after `cut`; none when the records are not written so (indented, keys escaped).
 */
function jump(b: Buffer, cut: number, pieceBytes: number): number[] {
  const cuts: number[] = [];
  if (b[cut - 1] !== CLOSE_OBJECT || b[cut + 1] !== OPEN_OBJECT || b[cut + 2] !== QUOTE) return cuts;
  let keyEnd = cut + 3;
  while (keyEnd < b.length && isKeyByte(b[keyEnd])) keyEnd++;
  if (keyEnd === cut + 3 || b[keyEnd] !== QUOTE || b[keyEnd + 1] !== COLON) return cuts;
  const pattern = b.subarray(cut - 1, keyEnd + 2);
  for (let from = cut + 1 + pieceBytes; from < b.length; ) {
    const found = b.subarray(from, from + pieceBytes + pattern.length).indexOf(pattern);
    if (found === -1) break;
    const comma = from + found + 1;
    cuts.push(comma);
    from = comma + 1 + pieceBytes;
  }
  return cuts;
}

/** A byte of a key the pattern may hold: ASCII letters, digits and '_'. */
function isKeyByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

/** Whether the string that ended before `i` is a key: a colon follows, after any blanks. */
function isKey(b: Buffer, i: number): boolean {
  while (i < b.length && (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09)) i++;
  return b[i] === COLON;
}

/** REPORT or ITEM for those keys as written plainly; ESCAPED for a key with an escape in it,
 *  which may spell either (`Response\u0052eport`): the scan gives up on those where they
 *  could be the envelope's. */
function envelopeKey(b: Buffer, from: number, to: number): number {
  for (let i = from; i < to; i++) if (b[i] === BACKSLASH) return ESCAPED;
  const n = to - from;
  if (n === 14 && b.toString('latin1', from, to) === 'ResponseReport') return REPORT;
  if (n === 4 && b.toString('latin1', from, to) === 'Item') return ITEM;
  return OTHER;
}
