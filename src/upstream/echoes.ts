/**
 * What a service may echo back of a request: debug pages and verbose errors quote the
 * headers, sometimes URL-encoded (`%2B`, `%2F`, `%3D`), sometimes JSON-escaped (`\/`), and a
 * retry's answer may quote the signature of an earlier attempt. The signatures this client
 * made recently are remembered, and every form of them, and of the key, is redacted from an
 * answer before anything reads it.
 */
import { redact } from '../errors.js';

/** Enough for every request in flight and their retries; signatures are 44 characters. */
const REMEMBERED = 4096;

// A base64 HMAC-SHA256: 43 characters of [A-Za-z0-9+/] and '=', in any of the echoed forms.
const SIGNATURE_FORM = /(?:[A-Za-z0-9+]|\\?\/|%2[BbFf]){43}(?:=|%3[Dd]|\\u003[Dd])/g;

export class EchoRedactor {
  private readonly signatures = new Set<string>();

  constructor(private readonly secrets: readonly string[]) {}

  remember(signature: string): void {
    if (this.signatures.size >= REMEMBERED) {
      const oldest = this.signatures.values().next().value;
      if (oldest !== undefined) this.signatures.delete(oldest);
    }
    this.signatures.add(signature);
  }

  /** `text` without any remembered signature or secret, raw, URL-encoded or JSON-escaped. */
  redact(text: string): string {
    let out = text.replace(SIGNATURE_FORM, (found) => (this.signatures.has(plain(found)) ? '[redacted]' : found));
    out = redact(out, this.secrets.flatMap(forms));
    return out;
  }
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
