/**
 * The .mcpb as a desktop host uses it: packed once (esbuild bundle + manifest + icon, mcpb
 * validate and pack), unpacked with mcpb, its mcp_config resolved the way hosts do
 * (getMcpConfigForManifest with a user config), then started from the unpacked folder and
 * driven by a real MCP client in demo mode.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { getMcpConfigForManifest, type McpbManifestAny, unpackExtension, validateManifest } from '@anthropic-ai/mcpb';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { SERVER_DIR } from '../../scripts/bundle-server.js';
import { checkBundleZip } from '../../scripts/bundle-zip.js';
import { checkStaged, packBundle, ROOT, readManifest } from '../../scripts/mcpb.js';
import { placeRowsFromPackage } from '../../src/results/place-rows.js';
import { airportRowsFromPackages } from '../../src/sql/airports-table.js';
import { CheckedClient } from '../helpers/checked-client.js';

const run = promisify(execFile);
let work: string;
let mcpbFile: string;
let unpacked: string;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** `bytes` with every occurrence of `from` replaced by `to` (the same length). */
function replaceAll(bytes: Buffer, from: string, to: string): Buffer {
  const out = Buffer.from(bytes);
  const needle = Buffer.from(from);
  for (let i = out.indexOf(needle); i !== -1; i = out.indexOf(needle, i + 1)) out.write(to, i);
  return out;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'mcpb-test-'));
  mcpbFile = await packBundle(path.join(work, 'staging'), work);
  unpacked = path.join(work, 'unpacked');
  expect(await unpackExtension({ mcpbPath: mcpbFile, outputDir: unpacked, silent: true })).toBe(true);
});
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm run pack', () => {
  it('writes travel-reports-mcp-<version>.mcpb holding only the manifest, the icon and the bundled server', async () => {
    expect(path.basename(mcpbFile)).toBe(`travel-reports-mcp-${pkg.version}.mcpb`);
    const files = await filesUnder(unpacked);
    const serverFiles = files.filter((f) => f.startsWith(`server${path.sep}`));
    expect(files).toEqual(['icon.png', 'manifest.json', ...serverFiles]);
    // The entry point and its chunks (bundle-server.ts), the same files npm run build writes.
    expect(serverFiles).toContain(path.join('server', 'index.mjs'));
    expect(serverFiles.every((f) => f.endsWith('.mjs'))).toBe(true);
    expect(serverFiles.map((f) => path.basename(f)).sort()).toEqual((await readdir(SERVER_DIR)).sort());
    const packed = (await stat(mcpbFile)).size;
    let server = 0;
    for (const f of serverFiles) server += (await stat(path.join(unpacked, f))).size;
    process.stderr.write(`mcpb: ${path.basename(mcpbFile)} ${packed} bytes; server ${server} bytes unpacked\n`);
    expect(packed).toBeGreaterThan(100_000);
    expect(packed).toBeLessThan(server);
  });

  it('writes its SHA-256 beside it, as sha256sum -c reads it', async () => {
    const line = await readFile(`${mcpbFile}.sha256`, 'utf8');
    const digest = createHash('sha256')
      .update(await readFile(mcpbFile))
      .digest('hex');
    expect(line).toBe(`${digest}  ${path.basename(mcpbFile)}\n`);
    const { stdout } = await run('sha256sum', ['-c', `${path.basename(mcpbFile)}.sha256`], { cwd: work });
    expect(stdout.trim()).toBe(`${path.basename(mcpbFile)}: OK`);
  });

  it('checks the zip strictly: exactly the staged files, byte for byte, safe names, nothing after its end', async () => {
    const staging = path.join(work, 'staging');
    await expect(checkBundleZip(mcpbFile, staging)).resolves.toBeUndefined();
    const bytes = await readFile(mcpbFile);
    const variant = async (name: string, content: Buffer) => {
      const file = path.join(work, name);
      await writeFile(file, content);
      return file;
    };
    // A signature block (or any bytes) after the end record, as mcpb sign appends one.
    const signed = await variant('signed.mcpb', Buffer.concat([bytes, Buffer.from('MCPB_SIG_V1...MCPB_SIG_END')]));
    await expect(checkBundleZip(signed, staging)).rejects.toThrow(/does not end with a zip end record/);
    // An entry whose name climbs out of the folder (icon.png renamed ../a.png in the headers).
    const climbing = await variant('climbing.mcpb', replaceAll(bytes, 'icon.png', '../a.png'));
    await expect(checkBundleZip(climbing, staging)).rejects.toThrow(/\.\.\/a\.png|invalid relative path/);
    // A staged file the zip lacks, and an entry that was not staged.
    const more = path.join(work, 'staging-more');
    await cp(staging, more, { recursive: true });
    await writeFile(path.join(more, 'extra.txt'), 'x');
    await expect(checkBundleZip(mcpbFile, more)).rejects.toThrow('lacks extra.txt');
    await rm(path.join(more, 'extra.txt'));
    await rm(path.join(more, 'icon.png'));
    await expect(checkBundleZip(mcpbFile, more)).rejects.toThrow('icon.png is not a file of the staged folder');
    // A staged file changed after packing.
    await writeFile(path.join(more, 'icon.png'), Buffer.from('not the icon'));
    await expect(checkBundleZip(mcpbFile, more)).rejects.toThrow('icon.png differs from the staged file');
  });

  it('the unpacked manifest passes the mcpb CLI validator', async () => {
    const cli = path.join(ROOT, 'node_modules', '@anthropic-ai', 'mcpb', 'dist', 'cli', 'cli.js');
    const { stdout } = await run(process.execPath, [cli, 'validate', path.join(unpacked, 'manifest.json')]);
    expect(stdout).toContain('Manifest schema validation passes!');
  });

  it('refuses a staged bundle whose entry point is missing, which mcpb itself accepts', async () => {
    const broken = path.join(work, 'broken');
    await cp(unpacked, broken, { recursive: true });
    await rm(path.join(broken, 'server'), { recursive: true });
    expect(validateManifest(path.join(broken, 'manifest.json'))).toBe(true);
    await expect(checkStaged(broken)).rejects.toThrow(/server\.entry_point 'server\/index\.mjs'.*missing/);
  });

  it('starts from its unpacked folder with the host-resolved config and answers tools/list, a report call and sql_query over it', async () => {
    const manifest = (await readManifest(unpacked)) as unknown as McpbManifestAny;
    const resolved = await getMcpConfigForManifest({
      manifest,
      extensionPath: unpacked,
      systemDirs: { HOME: work, DOWNLOADS: work, DESKTOP: work, DOCUMENTS: work },
      // Held results in a folder of the test's own, never the user's cache folder.
      userConfig: { timezone: 'UTC', max_records: 300, results_dir: path.join(work, 'results') },
      pathSeparator: path.sep,
    });
    expect(resolved?.args).toEqual([path.join(unpacked, 'server', 'index.mjs')]);
    const transport = new StdioClientTransport({
      command: resolved!.command === 'node' ? process.execPath : resolved!.command,
      args: resolved!.args,
      env: resolved!.env,
      cwd: work,
      stderr: 'pipe',
    });
    const client = new CheckedClient({ name: 'mcpb-host', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.version).toBe(pkg.version);
      // The manifest's Node options (V8's young generation capped) reach the server's process.
      if (process.platform === 'linux' && transport.pid !== null) {
        const environ = readFileSync(`/proc/${transport.pid}/environ`, 'utf8').split('\0');
        expect(environ).toContain('NODE_OPTIONS=--max-semi-space-size=4');
      }
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual((manifest.tools ?? []).map((t) => t.name));
      const result = (await client.callTool({
        name: 'car_segments_by_date',
        arguments: { DateStart: 'today-30', DateEnd: 'today', maxRecords: 1000 },
      })) as CallToolResult;
      expect(result.isError).toBeFalsy();
      const sc = result.structuredContent as { source: string; fetchedRecords: number; notes: string[] };
      expect(sc.source).toBe('demo');
      expect(sc.fetchedRecords).toBeGreaterThan(0);
      // The user's max_records (300) reached the bundled server as REPORTS_MAX_RECORDS.
      expect(sc.notes.join(' ')).toContain('REPORTS_MAX_RECORDS=300');
      // The SQL engine (wasm and worker) ships inside the one bundled file.
      const sql = (await client.callTool({
        name: 'sql_query',
        arguments: { sql: 'SELECT COUNT(*) AS n, sqlite_version() IS NOT NULL AS engine FROM car_segments_by_date_1' },
      })) as CallToolResult;
      expect(sql.isError, JSON.stringify(sql.content)).toBeFalsy();
      expect((sql.structuredContent as { rows: unknown[] }).rows).toEqual([{ n: sc.fetchedRecords, engine: 1 }]);
      // The airports table, carried as text read from its packages at build time, is the rows
      // the packages give: counted, measured and three read whole.
      const rows = await airportRowsFromPackages();
      const sum = (f: (r: (typeof rows)[number]) => number) => rows.reduce((n, r) => n + f(r), 0);
      const airports = (await client.callTool({
        name: 'sql_query',
        arguments: {
          sql:
            'SELECT COUNT(*) AS n, SUM(city IS NULL) AS noCity, SUM(length(name)) AS names, ' +
            'SUM(length(time_zone)) AS zones, SUM(length(country)) AS countries FROM airports',
        },
      })) as CallToolResult;
      expect(airports.isError, JSON.stringify(airports.content)).toBeFalsy();
      expect((airports.structuredContent as { rows: unknown[] }).rows).toEqual([
        {
          n: rows.length,
          noCity: sum((r) => (r[1] === null ? 1 : 0)),
          names: sum((r) => r[4].length),
          zones: sum((r) => r[3].length),
          countries: sum((r) => r[2].length),
        },
      ]);
      const some = rows.filter((r) => ['JFK', 'LHR'].includes(r[0]) || r === rows.find((x) => x[1] === null));
      const read = (await client.callTool({
        name: 'sql_query',
        arguments: {
          sql: `SELECT * FROM airports WHERE airport IN (${some.map((r) => `'${r[0]}'`).join(', ')}) ORDER BY airport`,
        },
      })) as CallToolResult;
      expect((read.structuredContent as { rows: Record<string, unknown>[] }).rows.map((r) => Object.values(r))).toEqual(
        some.map((r) => [...r]),
      );
      // The places of airports, carried as text read from their package at build time, give a
      // flight's cities and countries as the package does: every airport of a demo air report.
      const air = (await client.callTool({
        name: 'air_segments_by_date',
        arguments: { DateStart: 'today-30', DateEnd: 'today+30' },
      })) as CallToolResult;
      expect(air.isError, JSON.stringify(air.content)).toBeFalsy();
      const airTable = (air.structuredContent as { table: string }).table;
      const ends = (await client.callTool({
        name: 'sql_query',
        arguments: {
          sql:
            `SELECT BoardPoint AS airport, BoardCity AS city, BoardCountry AS country FROM ${airTable} ` +
            `UNION SELECT OffPoint, OffCity, OffCountry FROM ${airTable} ORDER BY airport`,
        },
      })) as CallToolResult;
      const places = new Map((await placeRowsFromPackage()).map((r) => [r[0], r]));
      const seen = (ends.structuredContent as { rows: { airport: string; city: string; country: string }[] }).rows;
      expect(seen.length).toBeGreaterThan(10);
      for (const { airport, city, country } of seen) {
        const place = places.get(airport);
        expect([airport, city, country]).toEqual([airport, place?.[1] ?? null, place?.[3] ?? null]);
      }
      expect(seen.some((r) => r.city !== r.airport && places.has(r.airport))).toBe(true);
      // The package's source is not in the server, only the rows read from it: none of its
      // functions (this one our code never calls) is bundled.
      const serverFiles = (await filesUnder(unpacked)).filter((f) => f.startsWith(`server${path.sep}`));
      for (const f of serverFiles)
        expect(readFileSync(path.join(unpacked, f), 'utf8'), f).not.toContain('getAllMultiAirportCities');
    } finally {
      const pid = transport.pid;
      await client.close();
      if (pid) {
        try {
          process.kill(pid);
        } catch {
          // already gone
        }
      }
    }
  });
});
