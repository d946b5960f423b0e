/**
 * What a service may echo back of a request: debug pages and verbose errors quote the
 * headers, sometimes URL-encoded (`%2B`, `%2F`, `%3D`), sometimes JSON-escaped (`\/`), and a
 * retry's answer may quote the signature of an earlier attempt. The signatures this client
 * made recently are remembered, and every form of them, and of the key, is redacted from an
 * answer before anything reads it.
 */
import { redact } from '../errors.js';
import { utf8 } from './body-text.js';

/** Enough for every request in flight and their retries; signatures are 44 characters. */
const REMEMBERED = 4096;

// A base64 HMAC-SHA256 is 43 characters of [A-Za-z0-9+/] then '=': in an echo each may be
// URL-encoded or JSON-escaped. Echoes are found from their final '=' (in any form), which is
// rare in report data: scanning every position of a long alphanumeric value for 43-character
// windows would cost minutes on a 12 MB field.
const TERMINATOR = /=|%3[Dd]|\\u003[Dd]/g;
const SIGNATURE_AT = /(?:[A-Za-z0-9+]|\\?\/|%2[BbFf]){43}(?:=|%3[Dd]|\\u003[Dd])/y;
/** The longest form of 43 characters (each `%2B`) before the terminator. */
const LOOK_BACK = 43 * 3;

export class EchoRedactor {
  private readonly signatures = new Set<string>();
  /** Every form of every secret (see forms). */
  private readonly secretForms: string[];

  constructor(secrets: readonly string[]) {
    this.secretForms = secrets.flatMap(forms);
  }

  remember(signature: string): void {
    if (this.signatures.size >= REMEMBERED) {
      const oldest = this.signatures.values().next().value;
      if (oldest !== undefined) this.signatures.delete(oldest);
    }
    this.signatures.add(signature);
  }

  /** `text` without any remembered signature or secret, raw, URL-encoded or JSON-escaped. */
  redact(text: string): string {
    return redact(this.withoutSignatures(text), this.secretForms);
  }

  /**
   * A body's text, redacted as redact() does. The bytes are searched first (a byte search is
   * several times faster than one over the text): a body holding no secret and nothing a
   * signature could end with is decoded and that is all.
   */
  text(bytes: Buffer, mayHold = this.mayHoldEcho(bytes)): string {
    const text = utf8(bytes);
    return mayHold ? this.redact(text) : text;
  }

  /** Whether the bytes may hold a secret or a remembered signature in any form. */
  mayHoldEcho(bytes: Buffer): boolean {
    if (this.signatures.size > 0 && mayHoldTerminatorBytes(bytes)) return true;
    // A secret of under 4 characters is never redacted (errors.ts, redact).
    return this.secretForms.some((s) => s.length >= 4 && bytes.includes(s));
  }

  private withoutSignatures(text: string): string {
    if (this.signatures.size === 0 || !mayHoldTerminator(text)) return text;
    const found: Array<[number, number]> = [];
    for (const m of text.matchAll(TERMINATOR)) {
      const end = m.index + m[0].length;
      // Every start that could make exactly 43 characters end at this terminator.
      for (let start = Math.max(0, m.index - LOOK_BACK); start <= m.index - 43; start++) {
        SIGNATURE_AT.lastIndex = start;
        const hit = SIGNATURE_AT.exec(text);
        if (hit && start + hit[0].length === end && this.signatures.has(plain(hit[0]))) {
          found.push([start, end]);
          break;
        }
      }
    }
    if (found.length === 0) return text;
    let out = '';
    let at = 0;
    for (const [start, end] of found) {
      if (start < at) continue;
      out += `${text.slice(at, start)}[redacted]`;
      at = end;
    }
    return out + text.slice(at);
  }
}

/** What TERMINATOR finds starts with one of these: plain scans instead of the alternation
 *  regex over a body without any. */
const TERMINATOR_BYTES = ['=', '%3', '\\u003'];

function mayHoldTerminator(text: string): boolean {
  return TERMINATOR_BYTES.some((t) => text.includes(t));
}

const EQUALS = 0x3d;
const PERCENT = 0x25;
const BACKSLASH = 0x5c;

/**
 * mayHoldTerminator over bytes: each form's first byte is found by a one-byte search (as
 * fast as memory reads), the rest checked where it is; searching for the three texts took
 * three slower passes over every page.
 */
function mayHoldTerminatorBytes(b: Buffer): boolean {
  if (b.indexOf(EQUALS) !== -1) return true;
  for (let i = b.indexOf(PERCENT); i !== -1; i = b.indexOf(PERCENT, i + 1)) if (b[i + 1] === 0x33) return true;
  for (let i = b.indexOf(BACKSLASH); i !== -1; i = b.indexOf(BACKSLASH, i + 1))
    if (b[i + 1] === 0x75 && b[i + 2] === 0x30 && b[i + 3] === 0x30 && b[i + 4] === 0x33) return true;
  return false;
}

function plain(found: string): string {
  return found
    .replace(/%2[Bb]/g, '+')
    .replace(/%2[Ff]/g, '/')
    .replace(/%3[Dd]|\\u003[Dd]/g, '=')
    .replace(/\\\//g, '/');
}

/** A secret as it may be echoed: raw, URL-encoded (both cases of hex), JSON-escaped. */
function forms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [
    ...new Set([
      secret,
      encoded,
      encoded.toLowerCase() === encoded ? encoded : lowerHex(encoded),
      JSON.stringify(secret).slice(1, -1),
    ]),
  ];
}

function lowerHex(encoded: string): string {
  return encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());
}
