/**
 * A live-mode server pointed at a service that echoes the request's signature and the key in
 * its 401 answers: diagnose_connection and the report tools say what is wrong without
 * carrying either secret into any text or structured content.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createServer } from '../../src/server/create-server.js';
import { createRuntime, type Runtime } from '../../src/server/runtime.js';
import { CheckedClient } from '../helpers/checked-client.js';
import { type PagedService, startPagedService } from '../helpers/paged-service.js';

const KEY = 'live-secret-key-0123456789';

describe('secrets in echoed error bodies (live mode)', () => {
  let svc: PagedService;
  let rt: Runtime;
  let client: Client;
  const signatures: string[] = [];

  beforeAll(async () => {
    svc = await startPagedService({
      total: 10,
      key: KEY,
      fault: (req) => {
        const sig = String(req.headers['x-service-api-signature']);
        signatures.push(sig);
        return req.n % 2 === 0
          ? {
              status: 401,
              contentType: 'text/html',
              body: `<h1>Unauthorized</h1><p>signature ${sig} with key ${KEY} rejected</p>`,
            }
          : {
              status: 401,
              body: JSON.stringify({
                ResponseMetadata: { Success: false },
                ResponseError: {
                  ErrorCode: 'Unauthorized',
                  Message: `Signature ${sig} does not match`,
                  StatusCode: '401',
                  VerboseMessage: `key ${KEY}`,
                },
              }),
            };
      },
    });
    const { config } = loadConfig({
      REPORTS_BASE_URL: svc.url,
      REPORTS_API_USERNAME: 'api-user',
      REPORTS_API_KEY: KEY,
      REPORTS_TIMEZONE: 'UTC',
    });
    rt = await createRuntime(config, { log: () => {} });
    const server = createServer(rt);
    const [a, b] = InMemoryTransport.createLinkedPair();
    client = new CheckedClient({ name: 'secrets-test', version: '1.0.0' });
    await Promise.all([server.connect(b), client.connect(a)]);
  });
  afterAll(async () => {
    await client.close();
    await rt.close();
    await svc.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;

  it('diagnose_connection names the failure without the signature or key, in text and structured content', async () => {
    for (let i = 0; i < 2; i++) {
      const result = await call('diagnose_connection', {});
      const all = JSON.stringify(result);
      expect(signatures.length).toBeGreaterThan(i);
      for (const secret of [KEY, ...signatures]) expect(all).not.toContain(secret);
      const sc = result.structuredContent as {
        verdict: string;
        checks: Array<{ check: string; ok: boolean; detail: string }>;
      };
      expect(sc.verdict).toBe('problem');
      const signed = sc.checks.find((c) => c.check === 'signed request')!;
      expect(signed.ok).toBe(false);
      expect(signed.detail).toContain('(HTTP 401). Check REPORTS_API_USERNAME and REPORTS_API_KEY.');
      expect(signed.detail).toContain('[redacted]');
    }
  });

  it('report tools fail with the same advice and no secret', async () => {
    const result = await call('car_segments_by_date', { DateStart: '20261101', DateEnd: '20261130' });
    expect(result.isError).toBe(true);
    const all = JSON.stringify(result);
    for (const secret of [KEY, ...signatures]) expect(all).not.toContain(secret);
    expect(all).toContain('Check REPORTS_API_USERNAME and REPORTS_API_KEY');
  });
});
