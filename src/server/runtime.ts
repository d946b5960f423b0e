import type { Config } from '../config.js';
import { secretsOf } from '../config.js';
import { ReportsError } from '../errors.js';
import { type Logger, stderrLogger } from '../log.js';
import { createRedactor, type Redactor } from '../results/pii.js';
import { ResultStore } from '../results/store.js';
import { type Sandbox, type SandboxOptions, startSandbox } from '../sandbox/service.js';
import { UpstreamClient } from '../upstream/client.js';
import { Limiter } from '../upstream/limiter.js';

/**
 * Everything a server instance works with, built once from the Config: the upstream client
 * (with the process-wide limiter), the result store, the logger, and in demo mode the
 * embedded sandbox it talks to. createServer(runtime) has no other inputs.
 */
export interface Runtime {
  config: Config;
  source: 'live' | 'demo';
  upstream: UpstreamClient;
  store: ResultStore;
  log: Logger;
  now: () => Date;
  /** REPORTS_REDACT_PII masking, one key per process so a traveller masks the same in
   *  every result (identity when off). */
  redact: Redactor;
  /** What must never appear in any output: the signing key in use (the sandbox's in demo
   *  mode) and the HTTP token. */
  secrets: string[];
  sandbox?: Sandbox;
  /** Whose results this server instance fetches and sees: 'local' on stdio, one HTTP
   *  identity per session in HTTP mode (src/http/session-runtime.ts). */
  owner: string;
  /** An HTTP person's UserName: the only one their calls send (config.userName is a default). */
  fixedUserName?: string;
  /** Aborted when the server stops (HTTP mode's SIGTERM after its grace period): every
   *  running call ends with a 'cancelled' answer while its stream is still open. */
  stopping: AbortSignal;
  cancelRunningCalls(): void;
  close(): Promise<void>;
}

/** The signal a tool call's work runs under: the client's cancel, or the server stopping. */
export function callSignal(rt: Runtime, signal: AbortSignal | undefined): AbortSignal {
  return signal ? AbortSignal.any([signal, rt.stopping]) : rt.stopping;
}

export interface RuntimeOptions {
  log?: Logger;
  /** Extra options for the embedded sandbox in demo mode (tests set size, latency, faults). */
  sandbox?: SandboxOptions;
  now?: () => Date;
}

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const log = options.log ?? stderrLogger(secretsOf(config));
  const now = options.now ?? (() => new Date());
  let sandbox: Sandbox | undefined;
  let baseUrl = config.baseUrl;
  let username = config.apiUsername;
  let key = config.apiKey;
  if (config.demo) {
    // Demo data is anchored on today so that "this week" questions find bookings.
    try {
      sandbox = await startSandbox({ dataNow: now(), ...options.sandbox });
    } catch (err) {
      throw new Error(
        `demo mode: the embedded sandbox could not start on 127.0.0.1 (${err instanceof Error ? err.message : String(err)})`,
      );
    }
    baseUrl = sandbox.url;
    username = sandbox.username;
    key = sandbox.key;
    log(
      `demo mode (${config.demoReason === 'forced' ? 'REPORTS_DEMO / --demo' : 'no REPORTS_BASE_URL, REPORTS_API_USERNAME and REPORTS_API_KEY set'}): synthetic data from the embedded sandbox at ${sandbox.url}`,
    );
    config = fitToDemoAgency(config, sandbox, log);
  }
  if (!baseUrl || !username || !key)
    throw new Error('createRuntime: live mode needs baseUrl, apiUsername and apiKey (loadConfig guarantees them)');

  const upstream = new UpstreamClient({
    baseUrl,
    username,
    key,
    timeoutMs: config.timeoutMs,
    limiter: new Limiter(config.concurrency),
    now,
    log,
  });
  const store = new ResultStore({
    maxBytes: config.resultsMaxBytes,
    ttlMs: config.resultsTtlMs,
    onEvict: (r, why: string) => log(`result ${r.id} (${r.report}, ${r.records.length} records) evicted: ${why}`),
  });
  const stopping = new AbortController();
  return {
    config,
    source: config.demo ? 'demo' : 'live',
    upstream,
    store,
    log,
    now,
    redact: createRedactor(config.redactPii),
    secrets: [...secretsOf(config), key],
    sandbox,
    owner: 'local',
    stopping: stopping.signal,
    cancelRunningCalls() {
      stopping.abort(
        new ReportsError(
          'cancelled',
          'The server is shutting down, so this call was cancelled; call again in a moment (the server, or another replica, will answer).',
        ),
      );
    },
    async close() {
      await upstream.close();
      await sandbox?.close();
    },
  };
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
        `demo mode: REPORTS_USER_NAME '${config.userName}' is not a user of the demo agency and is not used; demo users: ${users.slice(0, 5).join(', ')}`,
      );
      out.userName = undefined;
    }
  }
  if (config.owningCompanyCodes) {
    const codes = sandbox.dataset.companies.map((c) => c.code);
    const kept = config.owningCompanyCodes.filter((c) => codes.some((d) => d.toLowerCase() === c.toLowerCase()));
    if (kept.length < config.owningCompanyCodes.length) {
      log(
        `demo mode: REPORTS_OWNING_COMPANY_CODES ${config.owningCompanyCodes.filter((c) => !kept.includes(c)).join(',')} are not companies of the demo agency${kept.length ? '' : '; the scope is not pinned'}; demo companies: ${codes.join(', ')}`,
      );
      out.owningCompanyCodes = kept.length ? kept : undefined;
    }
  }
  return out;
}
