import { afterEach } from 'vitest';
import { UpstreamClient, type UpstreamOptions } from '../../src/upstream/client.js';
import { Limiter } from '../../src/upstream/limiter.js';
import type { FetchOutcome } from '../../src/upstream/paging.js';
import { type PagedService, startPagedService } from '../helpers/paged-service.js';

/** Shared set-up of the upstream tests: every service and client opened is closed after each test. */
export const USERNAME = 'api-user';
export const KEY = 'test-secret-key';

const services: PagedService[] = [];
const clients: UpstreamClient[] = [];

afterEach(async () => {
  // Services first: closing them ends any request still hanging, so client.close() (which
  // waits for in-flight requests) cannot hang.
  await Promise.all(services.splice(0).map((s) => s.close()));
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

export async function service(opts: Parameters<typeof startPagedService>[0]): Promise<PagedService> {
  const svc = await startPagedService({ username: USERNAME, key: KEY, ...opts });
  services.push(svc);
  return svc;
}

export function client(baseUrl: string, opts: Partial<UpstreamOptions> = {}): UpstreamClient {
  const c = new UpstreamClient({
    baseUrl,
    username: USERNAME,
    key: KEY,
    timeoutMs: 5_000,
    limiter: new Limiter(4),
    retry: { attempts: 3, baseDelayMs: 10, maxDelayMs: 40 },
    ...opts,
  });
  clients.push(c);
  return c;
}

/** The Seq numbers of every fetched record, in page order. */
export function seqs(outcome: FetchOutcome): number[] {
  return outcome.pages.flatMap((p) => p.records.map((r) => r.Seq as number));
}

export function range(from: number, to: number): number[] {
  return Array.from({ length: to - from }, (_, i) => from + i);
}

/** Asserts the requested [Offset, Offset+Limit) windows never overlap; returns them sorted. */
export function requestedWindows(svc: PagedService): Array<[number, number]> {
  const windows = svc.requests
    .map((r) => [r.offset, r.offset + r.limit] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  for (let i = 1; i < windows.length; i++) {
    if (windows[i][0] < windows[i - 1][1]) {
      throw new Error(`requested windows overlap: [${windows[i - 1]}) and [${windows[i]})`);
    }
  }
  return windows;
}

/** Awaits a promise expected to reject and returns what it rejected with. */
// biome-ignore lint/suspicious/noExplicitAny: tests inspect whatever was thrown
export async function rejection(p: Promise<unknown>): Promise<any> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

export const PATH = '/CarSegmentsByDate';
