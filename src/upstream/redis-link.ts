/**
 * The one Redis connection of a process (REPORTS_REDIS_URL), with the official client
 * (node-redis). Commands fail at once while Redis is away (no offline queue, so no call
 * hangs waiting for it), the client reconnects in the background, and every failure becomes
 * one clear error naming REPORTS_REDIS_URL, never its password.
 */
import { createClient } from 'redis';
import { ReportsError } from '../errors.js';
import type { Logger } from '../log.js';

export type RedisClient = ReturnType<typeof createClient>;

/** Connecting at start-up waits this long before giving up with one line. */
const CONNECT_TIMEOUT_MS = 5_000;
/** A command that gets no answer (Redis stopped mid-answer, a network partition) fails after this. */
const COMMAND_TIMEOUT_MS = 5_000;

export interface RedisLink {
  client: RedisClient;
  /** Where, for messages: the URL without its password. */
  where: string;
  /** Runs a command; a Redis failure becomes a ReportsError saying what to do. */
  run<T>(what: string, command: (client: RedisClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export function redisWhere(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href;
  } catch {
    return 'REPORTS_REDIS_URL';
  }
}

export async function connectRedis(url: string, log: Logger): Promise<RedisLink> {
  const where = redisWhere(url);
  let down = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: CONNECT_TIMEOUT_MS,
      // Keep trying while Redis is away: calls fail meanwhile; the server recovers when it is back.
      reconnectStrategy: (retries) => Math.min(100 * 2 ** Math.min(retries, 5), 2_000),
    },
  });
  // Without a listener an 'error' event would end the process.
  client.on('error', (err: Error) => {
    if (!down) log(`Redis at ${where} is unreachable (${describe(err)}); calls that need it fail until it is back`);
    down = true;
  });
  client.on('ready', () => {
    if (down) log(`Redis at ${where} is back`);
    down = false;
  });
  const first = client.connect().then(() => undefined);
  const timeout = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`no connection within ${CONNECT_TIMEOUT_MS / 1000} s`)),
      CONNECT_TIMEOUT_MS,
    ).unref(),
  );
  try {
    await Promise.race([first, timeout]);
  } catch (err) {
    client.destroy();
    throw new Error(`REPORTS_REDIS_URL: cannot connect to ${where} (${describe(err)})`);
  }

  return {
    client,
    where,
    async run(what, command) {
      let timer: NodeJS.Timeout | undefined;
      try {
        return await Promise.race([
          command(client),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`no answer within ${COMMAND_TIMEOUT_MS / 1000} s`)),
              COMMAND_TIMEOUT_MS,
            );
          }),
        ]);
      } catch (err) {
        if (err instanceof ReportsError) throw err;
        throw new ReportsError(
          'network',
          `The shared result store (Redis, REPORTS_REDIS_URL) could not ${what}: ${describe(err)}. Nothing was ` +
            `lost on the service's side; try again in a moment, and if it persists ask the server's operator to check Redis.`,
        );
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      try {
        await client.close();
      } catch {
        client.destroy();
      }
    },
  };
}

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string; errors?: Array<{ code?: string }> };
  const code = e?.code ?? e?.errors?.[0]?.code;
  const message = err instanceof Error ? err.message : String(err);
  return (code && !message.includes(code) ? `${code}: ${message}` : message || code || 'unknown error').slice(0, 200);
}
