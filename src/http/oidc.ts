/**
 * REPORTS_OIDC_ISSUER: access tokens from the agency's identity provider, verified with jose
 * against the issuer's published keys. Discovery (/.well-known/openid-configuration) is read
 * once at start-up; the key set is cached by jose and fetched again when a token names a key
 * id it has not seen (a rotated key), at most once per cooldown. Issuer, audience, expiry
 * and signature are checked; `alg: none` and HMAC algorithms are never accepted. The token's
 * `email` claim is the person's UserName.
 */
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { AuthOutcome, IdentitySource } from './identity.js';
import { StartupError } from './startup-error.js';

/** Signature algorithms of public keys only: a symmetric algorithm would let the JWKS's
 *  public key material act as an HMAC secret. */
const ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
const DISCOVERY_TIMEOUT_MS = 10_000;
/** A token naming an unknown key id refetches the key set at most this often: rotation is
 *  picked up within seconds, and a flood of bogus key ids costs the provider 1 request in 2 s. */
const JWKS_COOLDOWN_MS = 2_000;

export interface OidcSource extends IdentitySource {
  issuer: string;
}

export async function oidcSource(issuer: string, audience: string | undefined): Promise<OidcSource> {
  const fail = (why: string) => new StartupError(`REPORTS_OIDC_ISSUER: ${issuer}: ${why}`);
  if (!audience)
    throw new StartupError(
      'REPORTS_OIDC_AUDIENCE: missing; with REPORTS_OIDC_ISSUER set, name the audience the access tokens must ' +
        'carry (the identifier of this server at the identity provider).',
    );
  const discoveryUrl = `${issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
  let doc: Record<string, unknown>;
  try {
    const res = await fetch(discoveryUrl, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
    if (!res.ok) throw fail(`discovery document ${discoveryUrl} answered HTTP ${res.status}`);
    doc = (await res.json()) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof StartupError) throw err;
    const inner = (err as { cause?: { code?: string; message?: string; errors?: Array<{ code?: string }> } }).cause;
    const cause = inner?.code ?? inner?.errors?.[0]?.code ?? inner?.message;
    throw fail(
      `cannot read its discovery document ${discoveryUrl} (${cause ?? (err instanceof Error ? err.message : String(err))})`,
    );
  }
  // The issuer a token carries must be the one the configuration names (OpenID Connect Discovery 4.3).
  if (typeof doc.issuer !== 'string' || doc.issuer !== issuer)
    throw fail(`its discovery document names issuer '${String(doc.issuer).slice(0, 100)}', not this one`);
  if (typeof doc.jwks_uri !== 'string') throw fail('its discovery document has no jwks_uri');
  let jwksUrl: URL;
  try {
    jwksUrl = new URL(doc.jwks_uri);
  } catch {
    throw fail(`its jwks_uri '${doc.jwks_uri.slice(0, 100)}' is not a URL`);
  }
  const keys = createRemoteJWKSet(jwksUrl, {
    timeoutDuration: DISCOVERY_TIMEOUT_MS,
    cooldownDuration: JWKS_COOLDOWN_MS,
  });

  return {
    issuer,
    async identify(token: string): Promise<AuthOutcome | undefined> {
      // Not a JWT: another source's token (a users-file or shared token).
      if (!/^[\w-]+\.[\w-]*\.[\w-]*$/.test(token)) return undefined;
      try {
        const { payload } = await jwtVerify(token, keys, { issuer, audience, algorithms: ALGORITHMS });
        const email = payload.email;
        if (typeof email !== 'string' || !email.includes('@'))
          return { refused: 'the access token has no email claim' };
        return { identity: { owner: `oidc:${email.toLowerCase()}`, label: email, userName: email } };
      } catch (err) {
        return { refused: reason(err) };
      }
    },
  };
}

function reason(err: unknown): string {
  if (err instanceof errors.JWTExpired) return 'the access token has expired';
  if (err instanceof errors.JWTClaimValidationFailed) return `the access token's ${err.claim} claim is not accepted`;
  if (err instanceof errors.JOSEAlgNotAllowed) return 'the access token is not signed with an accepted algorithm';
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWSSignatureVerificationFailed)
    return "the access token is not signed by the issuer's keys";
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JOSEError)
    return 'the access token cannot be verified';
  return 'the access token cannot be verified';
}
