import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readBody, utf8 } from '../../src/upstream/body-text.js';
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

    it(`are redacted from a body's bytes as from its text, for a key like ${JSON.stringify(key)}`, () => {
      const echoes = new EchoRedactor([key]);
      const signature = 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=';
      echoes.remember(signature);
      const bodies = [
        ...echoed(key).map((form) => `{"Message":"key ${form} refused é"}`),
        `{"Message":"signed ${signature.replace('=', '%3D')} seen"}`,
        '{"Message":"a = b, and nothing secret"}',
        '{"Message":"nothing of it here: AbCdEf012 a+b ü"}',
      ];
      for (const body of bodies) expect(echoes.text(Buffer.from(body))).toBe(echoes.redact(body));
      expect(echoes.text(Buffer.from(bodies[0]))).toBe('{"Message":"key [redacted] refused é"}');
      expect(echoes.text(Buffer.from(bodies.at(-3) as string))).toBe('{"Message":"signed [redacted] seen"}');
    });
  }
});

describe('the byte search that lets a body skip redaction', () => {
  it("answers 'may hold an echo' exactly when a secret or a signature's last characters are in it", () => {
    const key = 'k3y+/"=%AbCdEf0123\\x';
    const echoes = new EchoRedactor([key]);
    echoes.remember('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWY=');
    // What the search stands for: any form of the key, or any text a signature can end with.
    const expected = (text: string) =>
      echoed(key).some((form) => text.includes(form)) || ['=', '%3', '\\u003'].some((t) => text.includes(t));
    const piece = fc.constantFrom('a', '=', '%', '%3', '3', '\\', '\\u', 'u003', '\\u003', '\\\\u003', 'é', '"', key);
    const text = fc.array(piece, { maxLength: 12 }).map((p) => p.join(''));
    fc.assert(
      fc.property(text, (t) => echoes.mayHoldEcho(Buffer.from(t)) === expected(t)),
      { numRuns: 3_000 },
    );
    expect(echoes.mayHoldEcho(Buffer.from('{"A":"%2F \\u0041 x"}'))).toBe(false);
    expect(echoes.mayHoldEcho(Buffer.from('{"A":"tail \\u003'))).toBe(true);
  });
});

describe('a response body read whole', () => {
  async function* chunks(parts: Buffer[]) {
    for (const p of parts) yield p;
  }

  it('joins its chunks, grows past the first buffer, and drops a leading byte order mark', async () => {
    const big = 'x'.repeat(200_000);
    const text = `{"A":"${big}","B":"ü€"}`;
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const parts = [
      bytes.subarray(0, 2),
      bytes.subarray(2, 70_000),
      bytes.subarray(70_000, 70_001),
      bytes.subarray(70_001),
    ];
    expect(await readBody(chunks(parts), utf8)).toBe(text);
    // A reused buffer holds only the body read into it.
    expect(await readBody(chunks([Buffer.from('{"C":1}')]), utf8)).toBe('{"C":1}');
    expect(await readBody(chunks([]), utf8)).toBe('');
  });
});
