/**
 * REPORTS_HTTP_USERS: a JSON file of people, each with the SHA-256 of their token, the
 * UserName their calls run as, and optionally their company codes and PII masking:
 *   [{ "name": "ana", "tokenSha256": "<64 hex>", "userName": "ana@agency.example",
 *      "owningCompanyCodes": ["TRV1"], "redactPii": true }]
 * Only hashes are stored, so the file itself opens nothing.
 */

import { timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { AuthOutcome, Identity, IdentitySource } from './identity.js';
import { sha256 } from './shared-token.js';
import { StartupError } from './startup-error.js';

interface Person {
  identity: Identity;
  hash: Buffer;
}

const KEYS = ['name', 'tokenSha256', 'userName', 'owningCompanyCodes', 'redactPii'];

/** Reads and checks the file; any problem stops start-up with one line naming the file. */
export function loadUsersFile(path: string, serverCodes: readonly string[] | undefined): IdentitySource {
  const fail = (why: string) => new StartupError(`REPORTS_HTTP_USERS: ${path}: ${why}`);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw fail(code === 'ENOENT' ? 'no such file' : `cannot be read (${code ?? String(err)})`);
  }
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch (err) {
    throw fail(`is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  if (!Array.isArray(entries) || entries.length === 0)
    throw fail('expected a non-empty JSON array of {"name", "tokenSha256", "userName"} objects');

  const people: Person[] = [];
  entries.forEach((entry, i) => {
    const where = `entry ${i + 1}`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw fail(`${where} is not an object`);
    const e = entry as Record<string, unknown>;
    const unknown = Object.keys(e).filter((k) => !KEYS.includes(k));
    if (unknown.length) throw fail(`${where}: unknown key '${cut(unknown[0])}'; keys are ${KEYS.join(', ')}`);
    const name = e.name;
    if (typeof name !== 'string' || !name.trim()) throw fail(`${where}: "name" must be a non-empty string`);
    const label = `${where} ('${cut(name)}')`;
    // The hash is not echoed: it identifies a token.
    if (typeof e.tokenSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(e.tokenSha256))
      throw fail(`${label}: "tokenSha256" must be the SHA-256 of the token as 64 lowercase hex characters`);
    if (typeof e.userName !== 'string' || !e.userName.trim())
      throw fail(`${label}: "userName" must be the person's UserName (an e-mail) with the service`);
    let codes: string[] | undefined;
    if (e.owningCompanyCodes !== undefined) {
      const c = e.owningCompanyCodes;
      if (!Array.isArray(c) || !c.length || c.some((x) => typeof x !== 'string' || !/^[A-Za-z0-9_-]+$/.test(x)))
        throw fail(`${label}: "owningCompanyCodes" must be a non-empty list of company codes such as ["TRV1"]`);
      codes = c as string[];
      const outside = serverCodes && codes.filter((x) => !serverCodes.some((s) => s.toLowerCase() === x.toLowerCase()));
      if (outside?.length)
        throw fail(`${label}: company codes ${outside.join(',')} are outside REPORTS_OWNING_COMPANY_CODES`);
    }
    if (e.redactPii !== undefined && typeof e.redactPii !== 'boolean')
      throw fail(`${label}: "redactPii" must be true or false`);
    if (people.some((p) => p.identity.label === name)) throw fail(`${label}: the name appears twice`);
    const hash = Buffer.from(e.tokenSha256, 'hex');
    if (people.some((p) => p.hash.equals(hash))) throw fail(`${label}: the same token hash as an earlier entry`);
    people.push({
      hash,
      identity: {
        owner: `user:${name}`,
        label: name,
        userName: e.userName.trim(),
        owningCompanyCodes: codes,
        redactPii: e.redactPii as boolean | undefined,
      },
    });
  });

  return {
    async identify(token: string): Promise<AuthOutcome | undefined> {
      const given = sha256(token);
      let found: Identity | undefined;
      // Every entry is compared, in constant time, so the time taken says nothing about which matched.
      for (const p of people) if (timingSafeEqual(p.hash, given) && !found) found = p.identity;
      return found ? { identity: found } : undefined;
    },
  };
}

function cut(text: string): string {
  const clean = text.replace(/[^\x20-\x7e]/g, '?');
  return clean.length > 40 ? `${clean.slice(0, 40)}…` : clean;
}
