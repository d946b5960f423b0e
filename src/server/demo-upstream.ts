/**
 * The demo path: the embedded sandbox started on 127.0.0.1 and the configuration fitted to
 * its synthetic agency. The only file of the server that imports the sandbox, and loaded only
 * in demo mode (docs/architecture.md, "Layers").
 */
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../sandbox/service.js';

export type { Sandbox, SandboxOptions };

export interface DemoOptions {
  /** Demo data is anchored on this day, so that "this week" questions find bookings. */
  now: Date;
  log: Logger;
  /** Extra options for the sandbox (tests set size, latency, faults). */
  sandbox?: SandboxOptions;
}

export async function startDemoUpstream(
  config: Config,
  opts: DemoOptions,
): Promise<{ sandbox: Sandbox; config: Config }> {
  let sandbox: Sandbox;
  try {
    sandbox = await startSandbox({ dataNow: opts.now, ...opts.sandbox });
  } catch (err) {
    throw new Error(
      `demo mode: the embedded sandbox could not start on 127.0.0.1 (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  const why =
    config.demoReason === 'forced'
      ? 'REPORTS_DEMO / --demo'
      : 'no REPORTS_BASE_URL, REPORTS_API_USERNAME and REPORTS_API_KEY set';
  opts.log(`demo mode (${why}): synthetic data from the embedded sandbox at ${sandbox.url}`);
  return { sandbox, config: fitToDemoAgency(config, sandbox, opts.log) };
}

/**
 * A real agency's UserName or company codes mean nothing to the demo agency: the sandbox
 * would refuse the user and find no records for the codes. They are set aside, with a line
 * saying so and what the demo agency has, rather than failing every call.
 */
function fitToDemoAgency(config: Config, sandbox: Sandbox, log: Logger): Config {
  const out = { ...config };
  if (config.userName) {
    const users = sandbox.dataset.appUsers.map((u) => u.email);
    if (!users.some((u) => u.toLowerCase() === config.userName!.toLowerCase())) {
      log(
        `demo mode: REPORTS_USER_NAME '${config.userName}' is not a user of the demo agency and is not used; demo ` +
          `users: ${users.slice(0, 5).join(', ')}`,
      );
      out.userName = undefined;
    }
  }
  if (config.owningCompanyCodes) {
    const codes = sandbox.dataset.companies.map((c) => c.code);
    const kept = config.owningCompanyCodes.filter((c) => codes.some((d) => d.toLowerCase() === c.toLowerCase()));
    if (kept.length < config.owningCompanyCodes.length) {
      log(
        `demo mode: REPORTS_OWNING_COMPANY_CODES ${config.owningCompanyCodes.filter((c) => !kept.includes(c)).join(',')} ` +
          `are not companies of the demo agency${kept.length ? '' : '; the scope is not pinned'}; demo companies: ${codes.join(', ')}`,
      );
      out.owningCompanyCodes = kept.length ? kept : undefined;
    }
  }
  return out;
}
