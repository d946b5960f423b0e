import type { RequestId } from '@modelcontextprotocol/server';
import type { Config } from '../config.js';
import { secretsOf } from '../config.js';
import { ReportsError } from '../errors.js';
import { type Logger, stderrLogger } from '../log.js';
import type { KeySource } from '../results/disk/folder-key.js';
import { type HeldResults, type OwnedResults, ownedBy } from '../results/held-results.js';
import { createRedactor, type Redactor } from '../results/pii.js';
import { ResultStore } from '../results/store.js';
import type { SqlEngine } from '../sql/engine.js';
import { UpstreamClient } from '../upstream/client.js';
import { Limiter } from '../upstream/limiter.js';
import { PACKAGE_VERSION } from '../version.js';
import type { Sandbox, SandboxOptions } from './demo-upstream.js';
import { JoinedCalls } from './joined-calls.js';
import { whenQuiet } from './quiet.js';
import { reclaimAfterEviction } from './reclaim.js';

/**
 * Everything a server instance works with, built once from the Config: the upstream client
 * (with the process-wide limiter), the result store, the logger, and in demo mode the
 * embedded sandbox it talks to. createServer(runtime) has no other inputs.
 */
export interface Runtime {
  config: Config;
  source: 'live' | 'demo';
  upstream: UpstreamClient;
  /** Every held result (in memory, or in Redis shared by replicas). */
  store: HeldResults;
  /** The results of `owner`: what this server instance's tools and resources see. */
  results: OwnedResults;
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
  /** The SQL engine (src/sql/), started with the first sql_query and shared by every session:
   *  each owner has a database of their own inside it. */
  sqlEngine(): Promise<SqlEngine>;
  /** Report calls in progress and just completed, shared by every session: an identical call
   *  of the same person joins them (joined-calls.ts). */
  calls: JoinedCalls;
  /** Whether the client cancelled request `id` of this server instance (notifications/cancelled),
   *  as against its stream breaking (create-server.ts); true outside an instance. */
  cancelledByClient(id: RequestId): boolean;
  close(): Promise<void>;
}

/** The signal a tool call's work runs under: the client's cancel, or the server stopping. */
export function callSignal(rt: Runtime, signal: AbortSignal | undefined): AbortSignal {
  return signal ? AbortSignal.any([signal, rt.stopping]) : rt.stopping;
}

export interface RuntimeOptions {
  log?: Logger;
  /** One line per upstream request answered; off by default (see UpstreamOptions.debug). */
  debug?: Logger;
  /** Extra options for the embedded sandbox in demo mode (tests set size, latency, faults). */
  sandbox?: SandboxOptions;
  now?: () => Date;
  /**
   * Keep held results on disk too, in REPORTS_RESULTS_DIR (stdio mode: src/index.ts sets it;
   * docs/held-results.md). Not with REPORTS_REDIS_URL, nor when the folder is `off`.
   */
  keepOnDisk?: boolean;
}

export async function createRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const log = options.log ?? stderrLogger(secretsOf(config));
  const now = options.now ?? (() => new Date());
  let sandbox: Sandbox | undefined;
  let baseUrl = config.baseUrl;
  let username = config.apiUsername;
  let key = config.apiKey;
  if (config.demo) {
    // Loaded only in demo mode: nothing else in the server depends on the sandbox.
    const { startDemoUpstream } = await import('./demo-upstream.js');
    const demo = await startDemoUpstream(config, { now: now(), log, sandbox: options.sandbox });
    sandbox = demo.sandbox;
    config = demo.config;
    baseUrl = sandbox.url;
    username = sandbox.username;
    key = sandbox.key;
  }
  if (!baseUrl || !username || !key)
    throw new Error('createRuntime: live mode needs baseUrl, apiUsername and apiKey (loadConfig guarantees them)');

  // With REPORTS_REDIS_URL the results and the concurrency limit are shared by every replica.
  const shared = config.redisUrl ? await sharedParts(config.redisUrl, config, log) : undefined;
  const upstream = new UpstreamClient({
    baseUrl,
    username,
    key,
    timeoutMs: config.timeoutMs,
    // A body that decodes past what held results may occupy could never be held.
    maxBodyBytes: config.resultsMaxBytes,
    limiter: shared?.limiter ?? new Limiter(config.concurrency),
    now,
    log,
    debug: options.debug ?? (() => {}),
  });
  const memory = shared
    ? undefined
    : new ResultStore({
        maxBytes: config.resultsMaxBytes,
        ttlMs: config.resultsTtlMs,
        onEvict: (r, why: string) => {
          log(`result ${r.id} (${r.report}, ${r.records.length} records) evicted: ${why}`);
          reclaimAfterEviction(r.bytes);
        },
      });
  const disk =
    memory && options.keepOnDisk && config.resultsDir
      ? await keptOnDisk(
          memory,
          config,
          { secret: key, context: config.demo ? 'demo' : `${username}\n${baseUrl}` },
          log,
        )
      : undefined;
  const store: HeldResults = shared?.store ?? disk?.store ?? (memory as ResultStore);
  const stopping = new AbortController();
  let engine: Promise<SqlEngine> | undefined;
  const sqlEngine = () => {
    engine ??= import('../sql/engine.js').then(({ SqlEngine }) => {
      const sql = new SqlEngine({
        timeoutMs: config.sqlTimeoutMs,
        onTableBytes: (id, bytes) => store.setExternalBytes?.(id, bytes),
      });
      store.onDropped?.((r) => sql.forget(r.owner, r.id));
      return sql;
    });
    return engine;
  };
  return {
    config,
    source: config.demo ? 'demo' : 'live',
    upstream,
    store,
    results: ownedBy(store, 'local'),
    log,
    now,
    // Kept results are masked as they were: the masks' key is then kept too (derived), so a
    // traveller masks the same in results from before a restart and after it.
    redact: createRedactor(config.redactPii, disk ? { key: disk.maskKey } : {}),
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
    sqlEngine,
    calls: new JoinedCalls(),
    cancelledByClient: () => true,
    async close() {
      await disk?.store.close();
      await (await engine)?.close();
      await upstream.close();
      await shared?.link.close();
      await sandbox?.close();
    },
  };
}

/**
 * The store that keeps results on disk as well, loaded only in stdio mode. A folder that cannot
 * be used (not writable, not a folder) leaves results in memory, said once.
 */
async function keptOnDisk(memory: ResultStore, config: Config, source: KeySource, log: Logger) {
  const root = config.resultsDir as string;
  // In demo mode the key is the demo's own: its sandbox key is not a secret, and its address changes.
  const keySource = config.demo ? { secret: DEMO_RESULTS_SECRET, context: 'demo' } : source;
  try {
    const [{ openFolderKey }, { DiskStore }] = await Promise.all([
      import('../results/disk/folder-key.js'),
      import('../results/disk-store.js'),
    ]);
    const key = await openFolderKey(root, keySource);
    const settings = {
      version: PACKAGE_VERSION,
      REPORTS_OWNING_COMPANY_CODES: config.owningCompanyCodes ?? [],
      REPORTS_REDACT_PII: config.redactPii,
    };
    const maxBytes = config.resultsDiskBytes;
    const store = new DiskStore({ memory, root, key, maxBytes, log, settings, quiet: whenQuiet });
    return { store, maskKey: key.maskKey };
  } catch (err) {
    log(
      `held results cannot be kept on disk in ${root} (${err instanceof Error ? err.message : String(err)}): ` +
        'they stay in memory only, until the server stops; check REPORTS_RESULTS_DIR',
    );
    return undefined;
  }
}

/** What demo mode's kept results are sealed under: not a secret (the demo's data is synthetic). */
const DEMO_RESULTS_SECRET = 'travel-reports-mcp demo results';

/** Redis parts, loaded only when configured (stdio start-up does not pay for the client). */
async function sharedParts(url: string, config: Config, log: Logger) {
  const [{ connectRedis }, { SharedLimiter }, { RedisResultStore }] = await Promise.all([
    import('../upstream/redis-link.js'),
    import('../upstream/redis-limiter.js'),
    import('../results/redis-store.js'),
  ]);
  const link = await connectRedis(url, log);
  log(`results and the concurrency limit (${config.concurrency}) are shared through Redis at ${link.where}`);
  return {
    link,
    limiter: new SharedLimiter(link, config.concurrency),
    store: new RedisResultStore(link, config.resultsTtlMs),
  };
}
