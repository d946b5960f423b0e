/**
 * REPORTS_HTTP_USERS: two people with their own tokens against the BUILT server in demo
 * mode. Each person's UserName is the only one their calls send, their codes are pinned,
 * their masking applies, and neither can see, query, continue or read the other's results.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/service.js';
import {
  assertBuilt,
  connectClient,
  type HttpClient,
  type HttpServerProcess,
  killAll,
  MCP_HEADERS,
  rawRequest,
  startHttpServer,
  startRefused,
} from '../helpers/http-server.js';

const dir = mkdtempSync(join(tmpdir(), 'users-file-'));
const hash = (t: string) => createHash('sha256').update(t).digest('hex');
const ANA_TOKEN = 'ana-token-1f6c3d9e8a7b';
const BEN_TOKEN = 'ben-token-0a2b4c6d8e9f';

type Out = Record<string, unknown>;
const structured = (r: CallToolResult) => r.structuredContent as Out;
const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

let ana: { userName: string; codes: string[] };
let ben: { userName: string; codes: string[] };
let usersFile: string;
/** PCC (OwningAgencyLocationID) -> its owning company, in the demo agency. */
let companyOfPcc: Map<string, string>;

beforeAll(async () => {
  assertBuilt();
  // The demo agency's users, as the built server's embedded sandbox generates them.
  const sandbox = await startSandbox({ dataNow: new Date() });
  const users = sandbox.dataset.appUsers.filter((u) => u.role !== 'admin');
  companyOfPcc = new Map(sandbox.dataset.pccs.map((p) => [p.code, p.companyCode]));
  await sandbox.close();
  const first = users[0];
  const second = users.find((u) => u.companyCodes[0] !== first.companyCodes[0]);
  if (!second) throw new Error('the demo agency should have users in two companies');
  ana = { userName: first.email, codes: first.companyCodes };
  ben = { userName: second.email, codes: second.companyCodes };
  usersFile = join(dir, 'users.json');
  writeFileSync(
    usersFile,
    JSON.stringify([
      { name: 'ana', tokenSha256: hash(ANA_TOKEN), userName: ana.userName, owningCompanyCodes: ana.codes },
      { name: 'ben', tokenSha256: hash(BEN_TOKEN), userName: ben.userName, redactPii: true },
    ]),
  );
});
afterEach(killAll);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('REPORTS_HTTP_USERS: per-person tokens', () => {
  let server: HttpServerProcess;
  let a: HttpClient;
  let b: HttpClient;

  it('forces each person UserName and codes, and keeps results to their owner', async () => {
    server = await startHttpServer({ env: { REPORTS_DEMO: 'true', REPORTS_HTTP_USERS: usersFile } });
    a = await connectClient(server.url, ANA_TOKEN);
    b = await connectClient(server.url, BEN_TOKEN);
    try {
      const ra = await a.call('air_segments_by_date', { DateStart: 'today-30', DateEnd: 'today+30' });
      expect(ra.isError).toBeFalsy();
      const outA = structured(ra);
      const queryA = outA.query as Record<string, string>;
      expect(queryA.UserName).toBe(ana.userName);
      expect(queryA.OwningCompanyCode).toBe(ana.codes.join(','));
      const fetchedA = Number(outA.fetchedRecords);
      expect(fetchedA).toBeGreaterThan(0);
      const byPcc = structured(
        await a.call('query_report', {
          resultId: outA.resultId,
          groupBy: ['OwningAgencyLocationID'],
          aggregates: [{ fn: 'count' }],
        }),
      ) as { groups: Array<{ key: { OwningAgencyLocationID: string }; count: number }> };
      expect(byPcc.groups.length).toBeGreaterThan(0);
      expect(byPcc.groups.reduce((n, g) => n + g.count, 0)).toBe(fetchedA);
      for (const g of byPcc.groups) expect(ana.codes).toContain(companyOfPcc.get(g.key.OwningAgencyLocationID));

      // Ben's calls run as Ben, whatever he asks; asking for Ana is refused before any request.
      const asAna = await b.call('air_segments_by_date', {
        DateStart: 'today-30',
        DateEnd: 'today+30',
        UserName: ana.userName,
      });
      expect(asAna.isError).toBe(true);
      // Ben's entry masks PII: e-mails in error texts too, his own UserName included.
      expect(text(asAna)).toMatch(/your calls always run as your own UserName \(email-[0-9a-f]{8}\)/);
      expect(text(asAna)).not.toContain(ben.userName);
      const rb = await b.call('air_segments_by_date', { DateStart: 'today-30', DateEnd: 'today+30' });
      // Ben's entry masks PII: his own e-mail is masked in the echo too; the data shows whose rights ran.
      expect((structured(rb).query as Record<string, string>).UserName).toMatch(/^email-[0-9a-f]{8}$/);
      const pccsB = structured(
        await b.call('query_report', { resultId: structured(rb).resultId, groupBy: ['OwningAgencyLocationID'] }),
      ) as { groups: Array<{ key: { OwningAgencyLocationID: string } }> };
      expect(pccsB.groups.length).toBeGreaterThan(0);
      for (const g of pccsB.groups) expect(ben.codes).toContain(companyOfPcc.get(g.key.OwningAgencyLocationID));
      // Ana's codes are hers: another company's is refused.
      const outside = await a.call('air_segments_by_date', {
        DateStart: 'today-30',
        DateEnd: 'today+30',
        OwningCompanyCode: ben.codes[0],
      });
      expect(outside.isError).toBe(true);
      expect(text(outside)).toContain('outside the configured company scope');

      // Ben cannot reach Ana's result by any door, and the answer is the unknown-result one.
      const idA = String(outA.resultId);
      const unknownId = 'r_AAAAAAAAAAAAAAAAAAAAAAAA';
      const unknown = text(await b.call('query_report', { resultId: unknownId }));
      const theirs = text(await b.call('query_report', { resultId: idA }));
      expect(theirs).toBe(unknown.replace(unknownId, idA));
      expect(theirs).toContain(`No result '${idA}' is held`);
      const cont = await b.call('continue_report', { resultId: idA });
      expect(cont.isError).toBe(true);
      expect(text(cont)).toContain(`No result '${idA}' is held`);
      await expect(b.client.readResource({ uri: String(outA.resourceUri) })).rejects.toThrow(
        `No result '${idA}' is held`,
      );
      await expect(b.client.readResource({ uri: `${outA.resourceUri}.csv` })).rejects.toThrow(/is held/);
      // Held results only (the result view's ui:// page is listed for everyone).
      const listedB = (await b.client.listResources()).resources
        .map((r) => r.uri)
        .filter((u) => u.startsWith('reports://'));
      expect(listedB).toEqual([String(structured(rb).resourceUri)]);
      const listedA = (await a.client.listResources()).resources
        .map((r) => r.uri)
        .filter((u) => u.startsWith('reports://'));
      expect(listedA).toEqual([String(outA.resourceUri)]);
      // Ana still reads her own.
      const read = await a.client.readResource({ uri: String(outA.resourceUri) });
      const page = JSON.parse((read.contents[0] as { text: string }).text) as { records: unknown[]; pages: number };
      expect(page.pages).toBe(1);
      expect(page.records.length).toBe(fetchedA);

      // Ben's session is his: Ana's token on it is an unknown session.
      const hijack = await rawRequest(server.url, {
        headers: {
          ...MCP_HEADERS,
          Authorization: `Bearer ${ANA_TOKEN}`,
          'mcp-session-id': b.transport.sessionId ?? '',
          'mcp-protocol-version': '2025-06-18',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list' }),
      });
      expect(hijack.status).toBe(404);
      expect(JSON.parse(hijack.body).error.message).toMatch(/Session not found/);
      expect(server.stderr()).not.toContain(ANA_TOKEN);
      expect(server.stderr()).not.toContain(BEN_TOKEN);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('masks PII for the person whose entry says so, and only for them', async () => {
    server = await startHttpServer({ env: { REPORTS_DEMO: 'true', REPORTS_HTTP_USERS: usersFile } });
    a = await connectClient(server.url, ANA_TOKEN);
    b = await connectClient(server.url, BEN_TOKEN);
    try {
      const args = { ArrivalDateStart: 'today-30', ArrivalDateEnd: 'today+30', fields: ['Passenger'] };
      const rowsOf = async (c: HttpClient) => {
        const r = await c.call('passenger_arrivals', args);
        expect(r.isError).toBeFalsy();
        return JSON.stringify(structured(r).rows);
      };
      const rowsB = await rowsOf(b);
      const rowsA = await rowsOf(a);
      expect(rowsB).toMatch(/Traveller-[0-9a-f]{8}/);
      expect(rowsA).not.toMatch(/Traveller-[0-9a-f]{8}/);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("sql_query sees only the caller's own tables: another person's do not exist for it", async () => {
    server = await startHttpServer({ env: { REPORTS_DEMO: 'true', REPORTS_HTTP_USERS: usersFile } });
    a = await connectClient(server.url, ANA_TOKEN);
    b = await connectClient(server.url, BEN_TOKEN);
    try {
      const outA = structured(await a.call('air_segments_by_date', { DateStart: 'today-30', DateEnd: 'today+30' }));
      expect(outA.table).toBe('air_segments_by_date_1');
      const count = 'SELECT COUNT(*) AS n FROM air_segments_by_date_1';
      expect(structured(await a.call('sql_query', { sql: count })).rows).toEqual([{ n: outA.fetchedRecords }]);
      const none = await b.call('sql_query', { sql: count });
      expect(none.isError).toBe(true);
      expect(text(none)).toBe(
        `Invalid argument for sql_query: sql: '${count}' failed in SQLite: no such table: air_segments_by_date_1. ` +
          'You hold no results yet: run a report tool first; its answer names its table (`table`). ' +
          'Nothing was sent to the service; correct the argument and call again.',
      );
      // Ben's own first result has the same name, and his statement reads his records only.
      const outB = structured(await b.call('air_segments_by_date', { DateStart: 'today-5', DateEnd: 'today+5' }));
      expect(outB.table).toBe('air_segments_by_date_1');
      expect(outB.fetchedRecords).not.toBe(outA.fetchedRecords);
      expect(structured(await b.call('sql_query', { sql: count })).rows).toEqual([{ n: outB.fetchedRecords }]);
      expect(structured(await a.call('sql_query', { sql: count })).rows).toEqual([{ n: outA.fetchedRecords }]);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a wrong token, or none, gets 401 whatever the source', async () => {
    server = await startHttpServer({ env: { REPORTS_DEMO: 'true', REPORTS_HTTP_USERS: usersFile } });
    for (const auth of [undefined, `Bearer ${ANA_TOKEN}x`, `Bearer ${hash(ANA_TOKEN)}`, 'Basic YW5hOmFuYQ==']) {
      const r = await rawRequest(server.url, {
        headers: { ...MCP_HEADERS, ...(auth ? { Authorization: auth } : {}) },
        body: '{}',
      });
      expect(r.status).toBe(401);
      expect(String(r.headers['www-authenticate'])).toMatch(/^Bearer /);
    }
  });

  it('a malformed users file stops start-up with one line naming it (each mistake: test/unit/users-file.test.ts)', async () => {
    const path = join(dir, 'bad-hash.json');
    writeFileSync(path, JSON.stringify([{ name: 'ana', tokenSha256: 'ABC', userName: 'a@b.c' }]));
    const r = await startRefused(['--http', '127.0.0.1:0'], { REPORTS_DEMO: 'true', REPORTS_HTTP_USERS: path });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      `travel-reports-mcp: REPORTS_HTTP_USERS: ${path}: entry 1 ('ana'): "tokenSha256" must be the SHA-256 of the token as 64 lowercase hex characters`,
    ]);
  });
});
