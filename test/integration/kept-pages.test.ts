/**
 * Results kept on disk as the pages the service sent (docs/held-results.md, "On disk"),
 * through a real MCP client against the sandbox over loopback HTTP: a report walked as it came
 * is kept as its compressed pages (a TRP1 file) and, after a restart, fetched again from them
 * into exactly the records held before (days, derived fields, a cap, a failed page); a result
 * that its pages alone do not give (masked, sent uncompressed) is kept as records (TRM2); with
 * the scope pinned (the service filtering), the pages are kept and give the same records again.
 * A copy made under other settings (or by a version that did not write them down), another
 * result's pages, or pages that give other records than the description counted, is dropped at
 * first use with words that say why.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openFolderKey } from '../../src/results/disk/folder-key.js';
import { readSealedJson, writeSealedJson } from '../../src/results/disk/sealed-file.js';
import type { FaultKind } from '../../src/sandbox/faults.js';
import { type Sandbox, type SandboxRequestInfo, startSandbox } from '../../src/sandbox/service.js';
import { type KeptServer, startKeptServer } from '../helpers/kept-server.js';
import { readAllRecords } from '../helpers/resources.js';

type Rec = Record<string, unknown>;
const KEY = 'kept-pages-key-0123456789';
const USERNAME = 'kept-pages-user';
const NOW = new Date('2026-11-15T12:00:00Z');
const AIR = { DateStart: '20261001', DateEnd: '20261130' };

let compressing: Sandbox;
let plain: Sandbox;
/** Faults the compressing sandbox answers with, by request. */
let faults: (req: SandboxRequestInfo) => FaultKind | undefined = () => undefined;
const folders: string[] = [];

beforeAll(async () => {
  const common = { username: USERNAME, key: KEY, now: () => NOW, dataNow: new Date('2026-11-15T00:00:00Z') };
  compressing = await startSandbox({ ...common, faultPlan: (req) => faults(req) });
  plain = await startSandbox({ ...common, compress: false });
});
afterAll(async () => {
  await compressing?.close();
  await plain?.close();
  for (const f of folders) await rm(f, { recursive: true, force: true });
});

type Server = KeptServer;
const running = new Set<Server>();
afterEach(async () => {
  faults = () => undefined;
  for (const s of running) await s.close();
  running.clear();
});

async function tempFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kept-pages-'));
  folders.push(dir);
  return join(dir, 'results');
}

/** A server as stdio starts it (results kept on disk), in process. */
async function start(dir: string, env: Record<string, string> = {}, sandbox = compressing): Promise<Server> {
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

/** The `.data` file of result `id` under `dir`. */
async function dataFile(dir: string, id: unknown): Promise<string> {
  const stem = Buffer.from(String(id).slice(2), 'base64url').toString('hex');
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile() && e.name === `${stem}.data`) return join(e.parentPath, e.name);
  throw new Error(`no .data file for ${id}`);
}

/** What a kept result's `.data` file holds: pages (TRP1) or records (TRM2). */
async function keptAs(dir: string, id: unknown): Promise<string> {
  return (await readFile(await dataFile(dir, id))).subarray(0, 4).toString('latin1');
}

describe('held results kept as the pages the service sent', () => {
  it('fetches the same records again from the pages after a restart: days, derived fields, a cap, a failed page', async () => {
    const dir = await tempFolder();
    const a = await start(dir);
    const full = ok(await a.call('air_segments_by_date', AIR));
    const capped = ok(await a.call('air_segments_by_date', { ...AIR, maxRecords: 150 }));
    // The page at Offset 200 answers 500 (not retried): its records are missing, the rest held.
    faults = (req) => (req.offset === 200 ? '500' : undefined);
    const failed = ok(await a.call('air_segments_by_date', { ...AIR, DateEnd: '20261125' }));
    faults = () => undefined;
    expect(Number(full.fetchedRecords)).toBeGreaterThan(300);
    expect(capped.complete).toBe(false);
    expect(failed.complete).toBe(false);
    expect(JSON.stringify(failed.notes)).toContain('(from Offset 200) were not fetched');
    const results = [full, capped, failed];
    const before = await Promise.all(results.map((r) => readAllRecords(a.client, String(r.resourceUri))));
    await a.close();
    for (const r of results) expect(await keptAs(dir, r.resultId)).toBe('TRP1');
    // As sent: the service's dates, before the walk decoded them and held the days.
    expect(before[0][0].DepartureDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(typeof before[0][0].SegmentState).toBe('string');
    expect(before[1]).toHaveLength(150);

    const b = await start(dir);
    compressing.resetStats();
    for (const [i, r] of results.entries())
      expect(await readAllRecords(b.client, String(r.resourceUri)), String(r.report)).toEqual(before[i]);
    // Fetched again from the disk, not from the service.
    expect(compressing.requests).toHaveLength(0);
    expect(ok(await b.call('query_report', { resultId: full.resultId, aggregates: [{ fn: 'count' }] })).matched).toBe(
      before[0].length,
    );
  });

  it('with the scope pinned, keeps the pages the service filtered and gives the same records again', async () => {
    const dir = await tempFolder();
    const env = { REPORTS_OWNING_COMPANY_CODES: 'TRV2' };
    const a = await start(dir, env);
    const scoped = ok(await a.call('air_segments_by_date', AIR));
    const held = await readAllRecords(a.client, String(scoped.resourceUri));
    await a.close();
    expect(held.length).toBeGreaterThan(0);
    expect(held.length).toBeLessThan((compressing.report('AirSegmentsByDate', AIR) as Rec[]).length);
    expect(await keptAs(dir, scoped.resultId)).toBe('TRP1');
    const b = await start(dir, env);
    expect(await readAllRecords(b.client, String(scoped.resourceUri))).toEqual(held);
  });

  it('keeps as records what the pages alone do not give: masked, sent uncompressed', async () => {
    const dir = await tempFolder();
    const masked = await start(dir, { REPORTS_REDACT_PII: 'true' });
    const m = ok(await masked.call('air_segments_by_date', AIR));
    await masked.close();
    expect(await keptAs(dir, m.resultId)).toBe('TRM2');

    const plainDir = await tempFolder();
    const uncompressed = await start(plainDir, {}, plain);
    const u = ok(await uncompressed.call('air_segments_by_date', AIR));
    const sent = await readAllRecords(uncompressed.client, String(u.resourceUri));
    await uncompressed.close();
    expect(await keptAs(plainDir, u.resultId)).toBe('TRM2');
    const again = await start(plainDir, {}, plain);
    expect(await readAllRecords(again.client, String(u.resourceUri))).toEqual(sent);
    await again.close();

    // Records kept unmasked are not shown by a server that masks: dropped, saying why.
    const masking = await start(plainDir, { REPORTS_REDACT_PII: 'true' }, plain);
    const refused = await masking.call('query_report', { resultId: u.resultId });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain(
      'its copy kept on disk was made under other settings (REPORTS_REDACT_PII false then, true now), so it was dropped',
    );
  });

  it('drops a copy made under other settings, or holding another result’s pages, at first use, saying why', async () => {
    const dir = await tempFolder();
    const a = await start(dir);
    const one = ok(await a.call('air_segments_by_date', AIR));
    const two = ok(await a.call('air_segments_by_date', { DateStart: '20261001', DateEnd: '20261031' }));
    const three = ok(await a.call('car_segments_by_date', AIR));
    const threeRecords = await readAllRecords(a.client, String(three.resourceUri));
    const four = ok(await a.call('car_segments_by_date', { DateStart: '20261001', DateEnd: '20261031' }));
    await a.close();

    // The pinned scope set since: the pages would now give other records.
    const scoped = await start(dir, { REPORTS_OWNING_COMPANY_CODES: 'ACME' });
    const refused = await scoped.call('query_report', { resultId: one.resultId });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain(
      'its copy kept on disk was made under other settings (REPORTS_OWNING_COMPANY_CODES [] then, [\\"ACME\\"] now), so it was dropped',
    );
    expect(scoped.logs.some((l) => l.includes(`kept result ${one.resultId}`) && l.includes('is dropped'))).toBe(true);
    await scoped.close();

    // Result two's file holding result three's pages (both sealed under this key).
    await writeFile(await dataFile(dir, two.resultId), await readFile(await dataFile(dir, three.resultId)));
    const b = await start(dir);
    const swapped = await b.call('query_report', { resultId: two.resultId });
    expect(swapped.isError).toBe(true);
    expect(JSON.stringify(swapped.content)).toContain('its copy kept on disk could not be read (damaged)');
    expect(b.logs.some((l) => l.includes('it is the copy of the pages of another result'))).toBe(true);
    expect(await readAllRecords(b.client, String(three.resourceUri))).toEqual(threeRecords);
    await b.close();

    // A description whose records' identities are not what the pages give (sealed with the key).
    const key = await openFolderKey(dir, { secret: KEY, context: `${USERNAME}\n${compressing.url}` });
    const metaPath = (await dataFile(dir, three.resultId)).replace(/\.data$/, '.meta');
    const role = `meta:${three.resultId}`;
    const meta = (await readSealedJson(metaPath, key.key, role)) as { pages: { identities: number } };
    meta.pages.identities = (meta.pages.identities + 1) % 2 ** 52;
    await writeSealedJson(metaPath, key.key, role, meta);
    // A description as versions before wrote it: no settings.
    const fourMeta = (await dataFile(dir, four.resultId)).replace(/\.data$/, '.meta');
    const fourRole = `meta:${four.resultId}`;
    const { settings, ...before } = (await readSealedJson(fourMeta, key.key, fourRole)) as { settings: unknown };
    expect(settings).toEqual({
      version: expect.any(String),
      REPORTS_OWNING_COMPANY_CODES: [],
      REPORTS_REDACT_PII: false,
    });
    await writeSealedJson(fourMeta, key.key, fourRole, before);
    const c = await start(dir);
    const older = await c.call('query_report', { resultId: four.resultId });
    expect(older.isError).toBe(true);
    expect(JSON.stringify(older.content)).toContain(
      'was made under other settings (kept by an earlier version, which did not write them down), so it was dropped',
    );
    const other = await c.call('query_report', { resultId: three.resultId });
    expect(other.isError).toBe(true);
    expect(JSON.stringify(other.content)).toContain('its copy kept on disk could not be read (damaged)');
    expect(c.logs.some((l) => l.includes('it holds other records than it held'))).toBe(true);
  });
});
