/**
 * Who is calling over HTTP. Every HTTP request is authenticated on its own (there are no
 * sessions): the identity decides whose results the request reaches.
 */
export interface Identity {
  /** Owner of the results this identity fetches: nobody else sees them. Never a token. */
  owner: string;
  /** For log lines: a person's name, 'shared token', 'local'. */
  label: string;
  /** Sent as UserName/Username on every transaction that takes it; the caller cannot ask for another. */
  userName?: string;
  /** Pinned company scope for this identity (within the server's own, if it has one). */
  owningCompanyCodes?: string[];
  /** Mask PII for this identity (the server's REPORTS_REDACT_PII otherwise). */
  redactPii?: boolean;
}

/** Why a request was refused: the text goes into the 401's error_description and the log. */
export type AuthOutcome = { identity: Identity } | { refused: string };

/** One source of identities: the shared token, the users file, or the OIDC issuer. */
export interface IdentitySource {
  /** The identity behind a bearer token; `refused` when the token is this source's kind but
   *  not valid (expired, wrong audience); undefined when this source does not know it. */
  identify(token: string): Promise<AuthOutcome | undefined>;
}

/** Tries each source in turn: the first identity wins, else the first reason given. */
export async function authenticate(
  sources: readonly IdentitySource[],
  token: string | undefined,
): Promise<AuthOutcome> {
  if (!token) return { refused: 'no bearer token' };
  let refusal: string | undefined;
  for (const source of sources) {
    const outcome = await source.identify(token);
    if (outcome && 'identity' in outcome) return outcome;
    if (outcome && refusal === undefined) refusal = outcome.refused;
  }
  return { refused: refusal ?? 'unknown token' };
}

/** The one identity of a loopback server with no identity source: whoever can reach it. */
export const LOCAL_IDENTITY: Identity = { owner: 'local', label: 'local' };
