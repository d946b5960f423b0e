#!/usr/bin/env node
import { ConfigError, loadConfig, secretsOf, VARIABLES } from './config.js';
import { stderrLogger } from './log.js';
import { createServer } from './server/create-server.js';
import { createRuntime } from './server/runtime.js';
import { serveBothEras } from './server/stdio-eras.js';

/**
 * CLI: argv + env -> config -> runtime -> MCP server on stdio (both protocol versions,
 * src/server/stdio-eras.ts), or Streamable HTTP with --http (src/http/start.ts). stdout
 * carries only the protocol; everything else goes to stderr. Exits cleanly when stdin closes
 * or on SIGTERM/SIGINT.
 */
async function main(): Promise<void> {
  let loaded: ReturnType<typeof loadConfig>;
  try {
    loaded = loadConfig(process.env, process.argv.slice(2));
  } catch (err) {
    if (err instanceof ConfigError) {
      for (const line of err.problems) process.stderr.write(`travel-reports-mcp: ${line}\n`);
      process.exit(2);
    }
    throw err;
  }
  if (loaded.help) {
    // --help never starts the protocol, so stdout is free for it.
    process.stdout.write(usage());
    return;
  }
  const { config } = loaded;
  const log = stderrLogger(secretsOf(config));
  process.on('unhandledRejection', (reason) =>
    log(`unhandled rejection: ${reason instanceof Error ? reason.stack : String(reason)}`),
  );
  if (config.http) {
    // Loaded only in HTTP mode: stdio start-up does not pay for the HTTP stack.
    const { StartupError, startHttpMode } = await import('./http/start.js');
    try {
      await startHttpMode(config, log);
    } catch (err) {
      // A start-up refusal is one line naming what to fix.
      if (!(err instanceof StartupError)) throw err;
      process.stderr.write(`travel-reports-mcp: ${err.message}\n`);
      process.exit(2);
    }
    return;
  }
  const rt = await createRuntime(config, { log, keepOnDisk: true });
  // One server instance per connection era; every instance shares the runtime.
  const stdio = serveBothEras(() => createServer(rt), { onerror: (err) => log(`stdio: ${err.message}`) });

  let closing = false;
  const shutdown = async (why: string) => {
    if (closing) return;
    closing = true;
    log(`shutting down (${why})`);
    await stdio.close().catch(() => {});
    await rt.close().catch(() => {});
    process.exit(0);
  };
  process.stdin.on('end', () => void shutdown('stdin closed'));
  process.stdin.on('close', () => void shutdown('stdin closed'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  log(
    `ready on stdio (${rt.source}${rt.source === 'live' ? `: ${config.baseUrl}` : ''}); ${config.concurrency} ` +
      `concurrent requests, pages of ${config.pageSize}`,
  );
}

function usage(): string {
  const rows = VARIABLES.map(
    (v) => `  --${v.flag.padEnd(22)} ${v.env.padEnd(30)} ${v.meaning}${v.default ? ` (default ${v.default})` : ''}`,
  );
  return [
    'travel-reports-mcp: MCP server for a travel agency reporting service (stdio, or Streamable HTTP with --http).',
    '',
    'Usage: travel-reports-mcp [--demo] [--http [HOST:]PORT] [flags]',
    'Each flag has an environment variable; the flag wins.',
    '',
    ...rows,
    '',
  ].join('\n');
}

main().catch((err) => {
  process.stderr.write(`travel-reports-mcp: failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
