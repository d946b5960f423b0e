/**
 * REPORTS_OIDC_ISSUER: a local identity provider started by the test (node:http on
 * 127.0.0.1, keys made with jose) and the BUILT server verifying its access tokens.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/service.js';
import {
  assertBuilt,
  connectClient,
  INITIALIZE,
  killAll,
  MCP_HEADERS,
  rawRequest,
  startHttpServer,
  startRefused,
} from '../helpers/http-server.js';

const AUDIENCE = 'travel-reports-mcp-test';
type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

let issuerServer: Server;
let issuer: string;
const published: JWK[] = [];
let jwksFetches = 0;
let signing: { key: Key; kid: string };
let email: string;

beforeAll(async () => {
  assertBuilt();
  const sandbox = await startSandbox({ dataNow: new Date() });
  email = sandbox.dataset.appUsers[1].email;
  await sandbox.close();
  const { publicKey, privateKey } = await generateKeyPair('RS256', { extractable: true });
  published.push({ ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' });
  signing = { key: privateKey, kid: 'k1' };
  issuerServer = createServer((req, res) => {
    if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks`, authorization_endpoint: `${issuer}/authorize` }));
    } else if (req.url === '/jwks') {
      jwksFetches++;
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ keys: published }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => issuerServer.listen(0, '127.0.0.1', r));
  issuer = `http://127.0.0.1:${(issuerServer.address() as AddressInfo).port}`;
});
afterEach(killAll);
afterAll(() => new Promise<void>((r) => issuerServer.close(() => r())));

function token(opts: { key?: Key; kid?: string; aud?: string; exp?: number; iss?: string; claims?: object } = {}) {
  return new SignJWT({ email, ...opts.claims })
    .setProtectedHeader({ alg: 'RS256', kid: opts.kid ?? signing.kid })
    .setIssuer(opts.iss ?? issuer)
    .setAudience(opts.aud ?? AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 300)
    .sign(opts.key ?? signing.key);
}

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('REPORTS_OIDC_ISSUER: access tokens from an identity provider', () => {
  it('accepts a valid token (email = UserName), refuses expired, foreign, wrongly signed and unsigned ones with 401', async () => {
    const server = await startHttpServer({
      env: { REPORTS_DEMO: 'true', REPORTS_OIDC_ISSUER: issuer, REPORTS_OIDC_AUDIENCE: AUDIENCE },
    });
    const origin = new URL(server.url).origin;
    const metadataUrl = `${origin}/.well-known/oauth-protected-resource`;

    // Protected resource metadata (RFC 9728), at the root and path-suffixed locations.
    for (const url of [metadataUrl, `${metadataUrl}/mcp`]) {
      const meta = await rawRequest(url, { method: 'GET' });
      expect(meta.status).toBe(200);
      expect(JSON.parse(meta.body)).toEqual({
        resource: server.url,
        authorization_servers: [issuer],
        bearer_methods_supported: ['header'],
        resource_name: 'travel-reports-mcp',
      });
    }

    const good = await token();
    const c = await connectClient(server.url, good);
    try {
      const r = await c.call('air_segments_by_date', { DateStart: 'today-7', DateEnd: 'today+7' });
      expect(r.isError).toBeFalsy();
      expect((r.structuredContent as { query: Record<string, string> }).query.UserName).toBe(email);
    } finally {
      await c.close();
    }

    const other = await generateKeyPair('RS256');
    const now = Math.floor(Date.now() / 1000);
    const refused: Array<[string, string | undefined, RegExp]> = [
      ['none', undefined, /^Bearer realm="travel-reports-mcp", resource_metadata=/],
      ['expired', await token({ exp: now - 120 }), /the access token has expired/],
      ['wrong audience', await token({ aud: 'someone-else' }), /aud claim is not accepted/],
      ['wrong issuer', await token({ iss: 'http://127.0.0.1:1' }), /iss claim is not accepted/],
      ['wrong key, known kid', await token({ key: other.privateKey }), /not signed by the issuer's keys/],
      ['unknown kid', await token({ key: other.privateKey, kid: 'kx' }), /not signed by the issuer's keys/],
      [
        'alg none',
        `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ email, iss: issuer, aud: AUDIENCE, exp: now + 300 })}.`,
        /not signed with an accepted algorithm|cannot be verified/,
      ],
      ['no email', await token({ claims: { email: undefined } }), /no email claim/],
      ['garbage', 'not-a-token', /unknown token/],
    ];
    for (const [what, t, header] of refused) {
      const answer = await rawRequest(server.url, {
        headers: { ...MCP_HEADERS, ...(t ? { Authorization: `Bearer ${t}` } : {}) },
        body: INITIALIZE,
      });
      expect(answer.status, what).toBe(401);
      const wwwAuth = String(answer.headers['www-authenticate']);
      expect(wwwAuth, what).toMatch(header);
      expect(wwwAuth, what).toContain(`resource_metadata="${metadataUrl}"`);
      expect(answer.headers['mcp-session-id'], what).toBeUndefined();
    }
    expect(server.stderr()).not.toContain(good);
  });

  it('caches the key set and fetches it again for a new key id (rotation)', async () => {
    const server = await startHttpServer({
      env: { REPORTS_DEMO: 'true', REPORTS_OIDC_ISSUER: issuer, REPORTS_OIDC_AUDIENCE: AUDIENCE },
    });
    const before = jwksFetches;
    for (let i = 0; i < 3; i++) {
      const ok = await rawRequest(server.url, {
        headers: { ...MCP_HEADERS, Authorization: `Bearer ${await token()}` },
        body: INITIALIZE,
      });
      expect(ok.status).toBe(200);
    }
    expect(jwksFetches - before).toBe(1);

    const rotated = await generateKeyPair('ES256', { extractable: true });
    published.push({ ...(await exportJWK(rotated.publicKey)), kid: 'k2', alg: 'ES256', use: 'sig' });
    // jose refetches an unknown kid at most once per cooldown (2 s here) after the last fetch.
    await new Promise((r) => setTimeout(r, 2_100));
    const k2 = await new SignJWT({ email })
      .setProtectedHeader({ alg: 'ES256', kid: 'k2' })
      .setIssuer(issuer)
      .setAudience(AUDIENCE)
      .setExpirationTime('5m')
      .sign(rotated.privateKey);
    const answer = await rawRequest(server.url, {
      headers: { ...MCP_HEADERS, Authorization: `Bearer ${k2}` },
      body: INITIALIZE,
    });
    expect(answer.status).toBe(200);
    expect(jwksFetches - before).toBe(2);
    published.pop();
  });

  it('an unreachable issuer, or no audience named, stops start-up with one line', async () => {
    // A port nothing listens on: taken, then released.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const closed = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const down = await startRefused(['--http', '127.0.0.1:0'], {
      REPORTS_DEMO: 'true',
      REPORTS_OIDC_ISSUER: `http://127.0.0.1:${closed}`,
      REPORTS_OIDC_AUDIENCE: AUDIENCE,
    });
    expect(down.code).toBe(2);
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
    expect(down.stderr.trim()).toBe(
      `travel-reports-mcp: REPORTS_OIDC_ISSUER: http://127.0.0.1:${closed}: cannot read its discovery document http://127.0.0.1:${closed}/.well-known/openid-configuration (ECONNREFUSED)`,
    );
    const noAudience = await startRefused(['--http', '127.0.0.1:0'], {
      REPORTS_DEMO: 'true',
      REPORTS_OIDC_ISSUER: issuer,
    });
    expect(noAudience.code).toBe(2);
    expect(noAudience.stderr.trim().split('\n')).toHaveLength(1);
    expect(noAudience.stderr).toContain('REPORTS_OIDC_AUDIENCE: missing');
  });
});
