/**
 * Held results kept on disk (CONTRACT section 12, docs/held-results.md), through a real MCP
 * client: a server stopped and built again with the same configuration and folder answers
 * query_report, sql_query, resources and continue_report on a result from before exactly as
 * before; the folder holds no record value in clear; another API key reads nothing; a damaged
 * file is dropped with a log line while the others load; a folder that cannot be written
 * leaves the server working from memory. Live mode against the sandbox over loopback HTTP
 * (its own key), each test in its own temporary folder.
 */
import { mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openFolderKey } from '../../src/results/disk/folder-key.js';
import { readSealedJson, readSealedRecords } from '../../src/results/disk/sealed-file.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { type KeptServer, startKeptServer } from '../helpers/kept-server.js';
import { readAllCsv, readAllRecords, readPage } from '../helpers/resources.js';

type Rec = Record<string, unknown>;
const KEY = 'kept-results-key-0123456789';
const USERNAME = 'kept-user';
const NOW = new Date('2026-11-15T12:00:00Z');

let sandbox: Sandbox;
const folders: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({
    username: USERNAME,
    key: KEY,
    now: () => NOW,
    dataNow: new Date('2026-11-15T00:00:00Z'),
  });
});
afterAll(async () => {
  await sandbox?.close();
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

async function tempFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kept-results-'));
  folders.push(dir);
  return join(dir, 'results');
}

type Server = KeptServer;
const running = new Set<Server>();
afterEach(async () => {
  for (const s of running) await s.close();
  running.clear();
});

/** A server as `travel-reports-mcp` starts it on stdio (results kept on disk), in process. */
async function start(dir: string, env: Record<string, string> = {}): Promise<Server> {
  const server = await startKeptServer({ url: sandbox.url, username: USERNAME, key: KEY, now: NOW, dir, env });
  const s: Server = {
    ...server,
    close: async () => {
      running.delete(s);
      await server.close();
    },
  };
  running.add(s);
  return s;
}

function ok(r: CallToolResult): Rec {
  expect(r.isError, JSON.stringify(r.content).slice(0, 500)).toBeFalsy();
  return r.structuredContent as Rec;
}

/** The file export_report writes, as text. */
async function exported(s: Server, args: Record<string, unknown>): Promise<string> {
  const out = ok(await s.call('export_report', args));
  return readFile(String(out.path), 'utf8');
}

/** The held results resources/list names. */
async function resultUris(client: Client): Promise<string[]> {
  return (await client.listResources()).resources
    .map((r) => r.uri)
    .filter((u) => u.startsWith('reports://'))
    .sort();
}

/** Every byte of every file under `dir`. */
async function folderBytes(dir: string): Promise<Buffer> {
  const out: Buffer[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) out.push(await readFile(join(e.parentPath, e.name)));
  return Buffer.concat(out);
}

async function keptFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile() && /\.(meta|data)$/.test(e.name)) out.push(join(e.parentPath, e.name));
  return out.sort();
}

const AIR = { DateStart: '20261001', DateEnd: '20261130' };
const GROUPS = {
  groupBy: ['Account'],
  aggregates: [{ fn: 'count' }, { fn: 'countDistinct', field: 'RecordLocator' }],
  orderBy: [{ field: 'Account' }],
};

describe('held results kept on disk across a restart', () => {
  it('answers query_report, sql_query, resource pages, exports and continue_report on a result from before, exactly', async () => {
    const dir = await tempFolder();
    const expected = sandbox.report('AirSegmentsByDate', AIR) as Rec[];
    expect(expected.length).toBeGreaterThan(300);

    const a = await start(dir);
    const full = ok(await a.call('air_segments_by_date', AIR));
    const capped = ok(await a.call('air_segments_by_date', { ...AIR, maxRecords: 150 }));
    expect(capped.complete).toBe(false);
    const id = String(full.resultId);
    const before = {
      grouped: await a.call('query_report', { resultId: id, ...GROUPS }),
      filtered: await a.call('query_report', {
        resultId: id,
        where: [{ field: 'Account', op: 'eq', value: String(expected[0].Account) }],
        limit: 5,
      }),
      sql: await a.call('sql_query', {
        sql: `SELECT Account, COUNT(*) AS n FROM ${full.table} GROUP BY Account ORDER BY n DESC, Account LIMIT 5`,
      }),
      page: await a.client.readResource({ uri: String(full.resourceUri) }),
      records: await readAllRecords(a.client, String(full.resourceUri)),
      csv: await readAllCsv(a.client, String(full.resourceUri)),
      list: await resultUris(a.client),
      exported: await exported(a, { resultId: id, format: 'csv', where: [{ field: 'Account', op: 'exists' }] }),
    };
    expect(before.records).toHaveLength(expected.length);
    expect(ok(before.sql).rowCount).toBe(5);
    expect(ok(before.grouped).groups).toBeDefined();
    await a.close();

    const files = await keptFiles(dir);
    expect(files.filter((f) => f.endsWith('.meta'))).toHaveLength(2);

    const b = await start(dir);
    expect(await b.call('query_report', { resultId: id, ...GROUPS })).toEqual(before.grouped);
    expect(
      await b.call('query_report', {
        resultId: id,
        where: [{ field: 'Account', op: 'eq', value: String(expected[0].Account) }],
        limit: 5,
      }),
    ).toEqual(before.filtered);
    expect(
      await b.call('sql_query', {
        sql: `SELECT Account, COUNT(*) AS n FROM ${full.table} GROUP BY Account ORDER BY n DESC, Account LIMIT 5`,
      }),
    ).toEqual(before.sql);
    expect(await b.client.readResource({ uri: String(full.resourceUri) })).toEqual(before.page);
    expect(await readAllRecords(b.client, String(full.resourceUri))).toEqual(before.records);
    expect(await readAllCsv(b.client, String(full.resourceUri))).toBe(before.csv);
    expect(await resultUris(b.client)).toEqual(before.list);
    expect(await exported(b, { resultId: id, format: 'csv', where: [{ field: 'Account', op: 'exists' }] })).toBe(
      before.exported,
    );
    expect(before.list).toHaveLength(2);

    // The capped result is continued after the restart: only the missing records are fetched.
    sandbox.resetStats();
    const continued = ok(await b.call('continue_report', { resultId: capped.resultId }));
    expect(continued.complete).toBe(true);
    expect(continued.fetchedRecords).toBe(expected.length);
    expect(sandbox.requests.every((r) => r.offset >= 100)).toBe(true);
    expect(await readAllRecords(b.client, String(capped.resourceUri))).toEqual(before.records);

    // A new result after the restart gets a table name of its own, not one from before.
    const next = ok(await b.call('air_segments_by_date', { ...AIR, maxRecords: 10 }));
    expect([full.table, capped.table]).not.toContain(next.table);
    await b.close();

    // The continued result was kept as continued.
    const c = await start(dir);
    expect(await readAllRecords(c.client, String(capped.resourceUri))).toEqual(before.records);
    expect((await readPage(c.client, String(capped.resourceUri))).resultId).toBe(capped.resultId);
  }, 60_000);

  it('holds no record value in clear, and another API key reads nothing of it', async () => {
    const dir = await tempFolder();
    const a = await start(dir);
    const out = ok(await a.call('car_segments_by_date', { DateStart: '20261001', DateEnd: '20261130' }));
    const records = await readAllRecords(a.client, String(out.resourceUri));
    await a.close();
    const locator = String(records[0].RecordLocator);
    const traveller = String(records[0].Passengers).split(',')[0].trim();
    expect(locator).toMatch(/^[A-Z0-9]{6}$/);
    expect(traveller.length).toBeGreaterThan(3);
    const bytes = await folderBytes(dir);
    expect(bytes.length).toBeGreaterThan(1000);
    for (const value of [locator, traveller, String(records[0].Account), 'RecordLocator', 'car_segments_by_date']) {
      expect(bytes.includes(Buffer.from(value, 'utf8')), value).toBe(false);
      expect(bytes.includes(Buffer.from(value, 'utf16le')), value).toBe(false);
    }

    // Another key: nothing listed, the resultId unknown, no table, and the first key's files left alone.
    const other = await start(dir, { REPORTS_API_KEY: 'another-key-9876543210' });
    expect(await resultUris(other.client)).toEqual([]);
    const asked = await other.call('query_report', { resultId: out.resultId });
    expect(asked.isError).toBe(true);
    expect(JSON.stringify(asked.content)).toContain('is not a resultId this server issued');
    const sql = await other.call('sql_query', { sql: `SELECT COUNT(*) AS n FROM ${out.table}` });
    expect(sql.isError).toBe(true);
    expect(JSON.stringify(sql.content)).toContain('You hold no results yet');
    await other.close();
    const again = await start(dir);
    expect(await readAllRecords(again.client, String(out.resourceUri))).toEqual(records);
  });

  it('drops a damaged or cut-short file with a log line; the other results still load', async () => {
    const dir = await tempFolder();
    const a = await start(dir);
    const ids: string[] = [];
    for (const end of ['20261010', '20261020', '20261030'])
      ids.push(String(ok(await a.call('air_segments_by_date', { DateStart: '20261001', DateEnd: end })).resultId));
    await a.close();
    const files = await keptFiles(dir);
    const dataOf = (id: string) =>
      files.find((f) => f.endsWith(`${Buffer.from(id.slice(2), 'base64url').toString('hex')}.data`))!;
    const metaOf = (id: string) => dataOf(id).replace(/\.data$/, '.meta');
    // One cut short, one with a byte changed in its records, one's description overwritten.
    await truncate(dataOf(ids[0]), 100);
    const flipped = await readFile(dataOf(ids[1]));
    flipped[flipped.length >> 1] ^= 0x55;
    await writeFile(dataOf(ids[1]), flipped);

    const b = await start(dir);
    // The damaged records are found at first use: that result answers as dropped, the third whole.
    for (const id of ids.slice(0, 2)) {
      const r = await b.call('query_report', { resultId: id });
      expect(r.isError).toBe(true);
      expect(JSON.stringify(r.content)).toContain('its copy kept on disk could not be read (damaged)');
    }
    expect(ok(await b.call('query_report', { resultId: ids[2], aggregates: [{ fn: 'count' }] })).groups).toBeDefined();
    expect(b.logs.filter((l) => l.includes('could not be read and is dropped'))).toHaveLength(2);
    await b.close();
    expect(await keptFiles(dir)).toEqual([metaOf(ids[2]), dataOf(ids[2])].sort());

    // A damaged description is dropped at start-up, with a line.
    await writeFile(metaOf(ids[2]), Buffer.from('not sealed'));
    const c = await start(dir);
    expect(await resultUris(c.client)).toEqual([]);
    await c.close();
    expect(c.logs.some((l) => /kept result file \w+\.meta could not be read and is dropped/.test(l))).toBe(true);
    expect(await keptFiles(dir)).toEqual([]);
  });

  it('with masking on, writes only masked records, and not the unmasked parameters', async () => {
    const dir = await tempFolder();
    const coupons = { DateStart: '20260601', DateEnd: '20261130', CouponCodeGroup: 'ALL', DateTracker: 'I' };
    const raw = sandbox.report('TicketCouponsByStatusCode', coupons) as Rec[];
    const surname = String(raw[0].Passenger).split('/')[0];
    const a = await start(dir, { REPORTS_REDACT_PII: 'true' });
    const all = ok(await a.call('ticket_coupons_by_status_code', coupons));
    const capped = ok(
      await a.call('ticket_coupons_by_status_code', { ...coupons, PaxSurname: surname, maxRecords: 1 }),
    );
    expect(capped.complete).toBe(false);
    const shown = await readAllRecords(a.client, String(all.resourceUri));
    await a.close();

    // Opened with the key, the files hold the masked records, and no traveller's name.
    const key = await openFolderKey(dir, { secret: KEY, context: `${USERNAME}\n${sandbox.url}` });
    const stemOf = (id: unknown) => Buffer.from(String(id).slice(2), 'base64url').toString('hex');
    const kept = await readSealedRecords(
      join(key.folder, `${stemOf(all.resultId)}.data`),
      key.key,
      `data:${all.resultId}`,
    );
    expect(kept).toEqual(shown);
    const plain = JSON.stringify(kept);
    const meta = JSON.stringify(
      await readSealedJson(join(key.folder, `${stemOf(capped.resultId)}.meta`), key.key, `meta:${capped.resultId}`),
    );
    // Surnames of four letters or more, as whole words (two letters such as NG are parts of other words).
    const names = new Set(raw.map((r) => String(r.Passenger).split('/')[0]).filter((n) => n.length >= 4));
    expect(names.size).toBeGreaterThan(10);
    for (const name of names) {
      const word = new RegExp(`(?<![A-Za-z])${name}(?![A-Za-z])`, 'i');
      expect(word.test(plain) || word.test(meta), name).toBe(false);
    }
    expect(plain).toMatch(/Traveller-[0-9a-f]{8}/);

    // Read back, the masks are the same as before the restart, and the one naming a traveller is not continued.
    const b = await start(dir, { REPORTS_REDACT_PII: 'true' });
    expect(await readAllRecords(b.client, String(all.resourceUri))).toEqual(shown);
    const again = await readAllRecords(
      b.client,
      String(ok(await b.call('ticket_coupons_by_status_code', coupons)).resourceUri),
    );
    expect(again).toEqual(shown);
    const refused = await b.call('continue_report', { resultId: capped.resultId });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain('the parameters naming a traveller are not kept there');
  });

  it('keeps working from memory when the folder cannot be written, saying so once', async () => {
    // A file where the folder should be: nothing can be made under it.
    const base = await tempFolder();
    await writeFile(`${base}-file`, 'x');
    const blocked = await start(join(`${base}-file`, 'results'));
    const out = ok(await blocked.call('air_segments_by_date', { ...AIR, maxRecords: 20 }));
    expect(ok(await blocked.call('query_report', { resultId: out.resultId, limit: 1 })).matched).toBe(20);
    expect(blocked.logs.filter((l) => l.includes('cannot be kept on disk'))).toHaveLength(1);

    // The folder usable at start, then taken away: writes fail, the calls do not.
    const dir = await tempFolder();
    const s = await start(dir);
    const folder = (await readdir(dir, { withFileTypes: true })).find((e) => e.isDirectory())!;
    await rm(join(dir, folder.name), { recursive: true });
    await writeFile(join(dir, folder.name), 'in the way');
    for (let i = 0; i < 3; i++) {
      const r = ok(await s.call('air_segments_by_date', { ...AIR, maxRecords: 10 + i }));
      expect(ok(await s.call('query_report', { resultId: r.resultId, limit: 1 })).matched).toBe(10 + i);
    }
    await s.close();
    expect(s.logs.filter((l) => l.includes('cannot be kept on disk'))).toHaveLength(1);
  });
});
