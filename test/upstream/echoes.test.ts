import { describe, expect, it } from 'vitest';
import { EchoRedactor } from '../../src/upstream/echoes.js';

/** The forms a service may echo a secret in: raw, URL-encoded (either case of hex), JSON-escaped. */
function echoed(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [
    secret,
    encoded,
    encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    JSON.stringify(secret).slice(1, -1),
  ];
}

describe('secrets echoed by the service', () => {
  // Keys whose forms differ: URL-encoded, JSON-escaped, and the hex of either case.
  for (const key of ['k3y+/"=%AbCdEf0123\\x', 'a+b/c"d=e%f\\g']) {
    it(`are redacted in every form, for a key like ${JSON.stringify(key)}`, () => {
      const echoes = new EchoRedactor([key]);
      for (const form of echoed(key)) {
        const out = echoes.redact(`{"Message":"key ${form} refused"}`);
        expect(out).toBe('{"Message":"key [redacted] refused"}');
      }
      const clean = '{"Message":"nothing of it here: AbCdEf012 a+b"}';
      expect(echoes.redact(clean)).toBe(clean);
    });
  }
});
