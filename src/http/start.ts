/**
 * HTTP mode start-up: identity sources from the configuration, the refusal to serve beyond
 * loopback without one, the shared runtime, and a graceful stop on SIGTERM/SIGINT.
 */
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import { createServer } from '../server/create-server.js';
import { createRuntime } from '../server/runtime.js';
import type { IdentitySource } from './identity.js';
import { oidcSource } from './oidc.js';
import { isLoopback } from './origin.js';
import { serveHttp } from './serve.js';
import { sessionRuntimes } from './session-runtime.js';
import { sharedTokenSource } from './shared-token.js';
import { StartupError } from './startup-error.js';
import { loadUsersFile } from './users-file.js';

/** How long SIGTERM lets running calls finish before cancelling them. */
const SHUTDOWN_GRACE_MS = 5_000;

export { StartupError };

export const NO_IDENTITY_SOURCE =
  'refusing to serve beyond loopback without an identity source: set REPORTS_HTTP_TOKEN, REPORTS_HTTP_USERS or ' +
  'REPORTS_OIDC_ISSUER (or bind to 127.0.0.1)';

export async function identitySources(config: Config): Promise<{ sources: IdentitySource[]; issuer?: string }> {
  const sources: IdentitySource[] = [];
  if (config.httpToken) sources.push(sharedTokenSource(config.httpToken));
  if (config.httpUsersFile) sources.push(loadUsersFile(config.httpUsersFile, config.owningCompanyCodes));
  if (config.oidcIssuer) sources.push(await oidcSource(config.oidcIssuer, config.oidcAudience));
  return { sources, issuer: config.oidcIssuer };
}

/** OAuth 2.0 Protected Resource Metadata (RFC 9728), which MCP clients read to find where to sign in. */
function resourceMetadata(issuer: string) {
  return (resource: string) => ({
    resource,
    authorization_servers: [issuer],
    bearer_methods_supported: ['header'],
    resource_name: 'travel-reports-mcp',
  });
}

export async function startHttpMode(config: Config, log: Logger): Promise<void> {
  const http = config.http;
  if (!http) throw new Error('startHttpMode: config.http is not set');
  const { sources, issuer } = await identitySources(config);
  if (sources.length === 0 && !isLoopback(http.host)) throw new StartupError(NO_IDENTITY_SOURCE);

  const rt = await createRuntime(config, { log });
  const runtimeFor = sessionRuntimes(rt);
  let service: Awaited<ReturnType<typeof serveHttp>>;
  try {
    service = await serveHttp({
      host: http.host,
      port: http.port,
      sources,
      resourceMetadata: issuer ? resourceMetadata(issuer) : undefined,
      serverFor: (identity, options) => createServer(runtimeFor(identity), options),
      cancelRunningCalls: () => rt.cancelRunningCalls(),
      log,
    });
  } catch (err) {
    await rt.close().catch(() => {});
    throw new StartupError(
      `--http ${http.host}:${http.port}: cannot listen (${err instanceof Error ? err.message : String(err)})`,
    );
  }

  let closing = false;
  const shutdown = async (why: string) => {
    if (closing) return;
    closing = true;
    log(`shutting down (${why}): finishing running calls for up to ${SHUTDOWN_GRACE_MS / 1000} s`);
    await service.close(SHUTDOWN_GRACE_MS);
    await rt.close().catch(() => {});
    log('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  const who = sources.length ? 'bearer token required' : 'no authentication (loopback only)';
  log(
    `listening on ${service.url} (${rt.source}${rt.source === 'live' ? `: ${config.baseUrl}` : ''}; ${who}); ` +
      `${config.concurrency} concurrent requests, pages of ${config.pageSize}`,
  );
}
