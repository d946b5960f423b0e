#!/usr/bin/env node
/**
 * `npm run sandbox`: the sandbox reporting service alone, on a loopback port, for use with
 * other clients. Configured by environment:
 *   SANDBOX_PORT        port (default 8787; 0 picks a free one)
 *   SANDBOX_HOST        bind address (default 127.0.0.1)
 *   SANDBOX_SEED        data seed (default 42)
 *   SANDBOX_SIZE        number of bookings (default 2000)
 *   SANDBOX_DATA_NOW    YYYY-MM-DD the data is anchored on (default today, UTC)
 *   SANDBOX_LATENCY_MS  per-request latency: "20" or a range "10-50"
 *   SANDBOX_FAULT_RATE  share of requests given a random fault, 0..1
 *   SANDBOX_FAULT_KINDS comma list of 500,502,503,429,401,html,truncated,reset,hang,short-page
 * Runs until SIGINT/SIGTERM, then closes cleanly.
 */
import { ConfigError, optionsFromEnv } from './cli-env.js';
import { type SandboxOptions, startSandbox } from './service.js';

async function main(): Promise<void> {
  let opts: SandboxOptions;
  try {
    opts = optionsFromEnv(process.env);
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`sandbox: ${e.message}\n`);
      process.exit(2);
    }
    throw e;
  }
  const sb = await startSandbox(opts);
  const ds = sb.dataset; // generate now, so the first request is not the slow one
  const latency =
    opts.latencyMs === undefined
      ? 'none'
      : Array.isArray(opts.latencyMs)
        ? `${opts.latencyMs[0]}-${opts.latencyMs[1]} ms`
        : `${opts.latencyMs} ms`;
  const faults = opts.faultRate
    ? `${opts.faultRate * 100}% of requests (${(opts.faultKinds ?? ['500', '502', '503', '429']).join(', ')})`
    : 'none';
  const lines = [
    `Sandbox reporting service (synthetic data) listening on ${sb.url}`,
    `  API username:  ${sb.username}`,
    `  API key:       ${sb.key}`,
    `  data:          seed ${ds.seed}, ${ds.bookings.length} bookings, ${ds.airSegments.length} air ` +
      `segments, ${ds.coupons.length} coupons; anchored at ${new Date(ds.nowMs).toISOString().slice(0, 10)}`,
    `  latency:       ${latency}; faults: ${faults}`,
    `  owning companies: ${ds.companies.map((c) => c.code).join(', ')}; accounts: ${ds.accounts.map((a) => a.code).join(', ')}`,
    `  UserName values: ${ds.appUsers.map((u) => u.email).join(', ')}`,
    '',
    'Example environment for travel-reports-mcp:',
    `  REPORTS_BASE_URL=${sb.url}`,
    `  REPORTS_API_USERNAME=${sb.username}`,
    `  REPORTS_API_KEY=${sb.key}`,
    '',
    'Every request must be signed (X-SERVICE-API-* headers). Press Ctrl+C to stop.',
  ];
  console.log(lines.join('\n'));

  // A long-running sandbox keeps only recent request logs.
  setInterval(() => {
    if (sb.requests.length > 10_000) sb.resetStats();
  }, 60_000).unref();

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: closing the sandbox (${sb.requests.length} requests served)`);
    sb.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: unknown) => {
  process.stderr.write(`sandbox: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
