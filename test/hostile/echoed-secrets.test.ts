/**
 * Item 9 of the hostile-data issue: a service that echoes the signature URL-encoded or
 * JSON-escaped, or the signature of an earlier attempt, never gets it back into a tool's
 * answer; nor the key in any of those forms.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { HOSTILE_KEY, type HostileUpstream, startHostileUpstream } from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';

let upstream: HostileUpstream | undefined;
let live: LiveServer | undefined;
afterEach(async () => {
  await live?.close();
  await upstream?.close();
  live = upstream = undefined;
});

const ARGS = { DateStart: '20261101', DateEnd: '20261110' };

/** Every form a signature or the key might take in an echo. */
function forms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [secret, encoded, encoded.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()), secret.replace(/\//g, '\\/')];
}

function refusal(message: string) {
  return {
    body: {
      ResponseMetadata: { Success: false },
      ResponseError: { ErrorCode: 'BadSignature', Message: message, StatusCode: '401' },
    },
  };
}

describe('echoed signatures and key', () => {
  test('URL-encoded and JSON-escaped echoes of this request signature and of the key are redacted', async () => {
    upstream = await startHostileUpstream((req) => {
      const sig = req.signature;
      const escaped = JSON.stringify(sig).slice(1, -1).replace(/\//g, '\\/');
      // The raw JSON text carries the escaped slash form, as ServiceStack writes it.
      return {
        body: `{"ResponseMetadata":{"Success":false},"ResponseError":{"ErrorCode":"BadSignature","Message":"expected ${encodeURIComponent(sig)} got ${encodeURIComponent(sig).toLowerCase()} or ${escaped}; key ${encodeURIComponent(HOSTILE_KEY)}","StatusCode":"401"}}`,
      };
    });
    live = await startLive(upstream.url);
    const result = await live.call('air_segments_by_date', ARGS);
    const out = JSON.stringify(result);
    expect(result.isError).toBe(true);
    expect(out).toContain('[redacted]');
    const sig = upstream.requests[0].signature;
    // The signature has '+' or '/' in most requests; the check holds for every form anyway.
    for (const form of [...forms(sig), ...forms(HOSTILE_KEY)]) expect(out).not.toContain(form);
  });

  test("a retry's answer quoting the first attempt's signature does not carry it out", async () => {
    upstream = await startHostileUpstream((req) =>
      req.n === 0
        ? { status: 503, body: 'busy' }
        : refusal(
            `Replay of ${encodeURIComponent(upstream!.requests[0].signature)} and ${upstream!.requests[0].signature}`,
          ),
    );
    // A clock that moves a second per reading, so that the retry is signed differently.
    let tick = 0;
    live = await startLive(upstream.url, {}, () => new Date(Date.UTC(2026, 10, 15, 12, 0, tick++)));
    const result = await live.call('air_segments_by_date', ARGS);
    expect(upstream.requests).toHaveLength(2);
    expect(upstream.requests[0].signature).not.toBe(upstream.requests[1].signature);
    const out = JSON.stringify(result);
    expect(out).toContain('Replay of [redacted] and [redacted]');
    for (const r of upstream.requests) for (const form of forms(r.signature)) expect(out).not.toContain(form);
  });
});
