import { createHmac, randomBytes } from 'node:crypto';
import { ownedBy } from '../results/held-results.js';
import { createRedactor, type Redactor } from '../results/pii.js';
import type { Runtime } from '../server/runtime.js';
import type { Identity } from './identity.js';

/**
 * The runtime as one HTTP identity sees it: the shared upstream client, limit and store, with
 * the person's UserName fixed, their company codes pinned, their masking, and their results
 * owned by them. Masks are keyed per person and stable across sessions and replicas (derived
 * from the signing key), so a traveller masks the same in all of one person's results.
 */
export function sessionRuntimes(rt: Runtime): (identity: Identity) => Runtime {
  const maskRoot = rt.config.apiKey ?? randomBytes(32).toString('hex');
  const redactors = new Map<string, Redactor>();
  const redactorFor = (identity: Identity): Redactor => {
    const enabled = identity.redactPii ?? rt.config.redactPii;
    if (!enabled) return rt.redact;
    let r = redactors.get(identity.owner);
    if (!r) {
      if (redactors.size >= 10_000) redactors.clear();
      const key = createHmac('sha256', maskRoot).update(`pii-mask:${identity.owner}`).digest();
      r = createRedactor(true, { key });
      redactors.set(identity.owner, r);
    }
    return r;
  };
  return (identity) => ({
    ...rt,
    owner: identity.owner,
    results: ownedBy(rt.store, identity.owner),
    fixedUserName: identity.userName,
    config: {
      ...rt.config,
      userName: identity.userName ?? rt.config.userName,
      owningCompanyCodes: identity.owningCompanyCodes ?? rt.config.owningCompanyCodes,
      redactPii: identity.redactPii ?? rt.config.redactPii,
    },
    redact: redactorFor(identity),
  });
}
