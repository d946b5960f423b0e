/**
 * manifest.json is generated (npm run docs) and cannot drift: it equals what the generator
 * makes now, its tools and prompts equal what the server lists to a real SDK client, its
 * version is package.json's and the server's, it passes mcpb's own manifest schema, and its
 * user_config reaches the server as the configuration a desktop user meant.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { McpbManifestAny } from '@anthropic-ai/mcpb';
import { v0_3 } from '@anthropic-ai/mcpb';
import { getMcpConfigForManifest } from '@anthropic-ai/mcpb/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { loadConfig, VARIABLES } from '../../src/config.js';
import { drawIcon } from '../../src/docs/icon.js';
import { DESKTOP_SETTINGS, manifestJson } from '../../src/docs/manifest.js';
import { type InProcess, startInProcess } from '../helpers/mcp.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const committed = readFileSync(path.join(ROOT, 'manifest.json'), 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: the manifest is read as JSON and checked field by field
const manifest = JSON.parse(committed) as Record<string, any>;

let h: InProcess;
beforeAll(async () => {
  h = await startInProcess();
});
afterAll(async () => h?.close());

describe('manifest.json', () => {
  it('is what `npm run docs` generates now (run it when this fails)', async () => {
    expect(committed).toBe(await manifestJson());
  });

  it('lists exactly the tools the server lists, in order, with their descriptions', async () => {
    const { tools } = await h.client.listTools();
    expect(manifest.tools).toEqual(tools.map((t) => ({ name: t.name, description: t.description })));
    expect(manifest.tools.map((t: { name: string }) => t.name)).toContain('booking_details');
  });

  it('lists exactly the prompts the server lists, with descriptions and argument names', async () => {
    const { prompts } = await h.client.listPrompts();
    expect(
      manifest.prompts.map((p: { name: string; description: string; arguments: string[] }) => ({
        name: p.name,
        description: p.description,
        arguments: p.arguments,
      })),
    ).toEqual(
      prompts.map((p) => ({ name: p.name, description: p.description, arguments: p.arguments?.map((a) => a.name) })),
    );
    const tracking = manifest.prompts.find((p: { name: string }) => p.name === 'traveller_tracking');
    expect(tracking.text).toContain('${arguments.destination}');
    expect(tracking.text).toContain('travellers_at');
  });

  it("has package.json's version, which the server also reports", () => {
    expect(manifest.version).toBe(pkg.version);
    expect(h.client.getServerVersion()).toEqual({ name: 'travel-reports-mcp', version: pkg.version });
  });

  it("passes mcpb's manifest 0.3 schema", () => {
    const parsed = v0_3.McpbManifestSchema.safeParse(manifest);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    expect(manifest.manifest_version).toBe('0.3');
    expect(manifest.compatibility).toEqual({
      platforms: ['darwin', 'win32', 'linux'],
      runtimes: { node: '^20.18.1 || ^22.0.0 || >=24.0.0' },
    });
  });

  it('names the README\'s "Privacy and data" section as its privacy policy', () => {
    expect(manifest.privacy_policies).toEqual([`https://www.npmjs.com/package/${pkg.name}#privacy-and-data`]);
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    // The anchor is the heading's, as GitHub and npm make it.
    expect(readme).toMatch(/^## Privacy and data$/m);
    const section = readme.slice(readme.indexOf('## Privacy and data'));
    const body = section.slice(0, section.indexOf('\n## ', 5));
    for (const topic of [
      'What is sent, and where',
      'What is held',
      'For how long',
      'Encrypted how',
      'Who can read it',
      'How to delete it',
    ])
      expect(body, topic).toContain(`**${topic}.**`);
  });

  it('icon.png is the drawn icon, a 512x512 PNG', () => {
    const icon = readFileSync(path.join(ROOT, manifest.icon));
    expect(icon.equals(drawIcon())).toBe(true);
    expect(icon.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect([icon.readUInt32BE(16), icon.readUInt32BE(20)]).toEqual([512, 512]);
  });

  it('user_config covers the desktop settings, each with a title, description and type; the key is sensitive', () => {
    const config = manifest.user_config as Record<string, Record<string, unknown>>;
    expect(Object.keys(config)).toEqual([
      'base_url',
      'api_username',
      'api_key',
      'user_name',
      'owning_company_codes',
      'timezone',
      'redact_pii',
      'max_records',
      'results_max_mb',
      'export_dir',
      'results_dir',
      'results_disk_mb',
    ]);
    for (const [key, entry] of Object.entries(config)) {
      expect(entry.title, key).toEqual(expect.any(String));
      expect(String(entry.description).length, key).toBeGreaterThan(20);
      expect(entry.type, key).toMatch(/^(string|number|boolean|directory)$/);
    }
    expect(config.api_key.sensitive).toBe(true);
    expect(Object.values(config).filter((e) => e.sensitive)).toHaveLength(1);
    expect(config.max_records.default).toBe(50000);
    expect(config.redact_pii.default).toBe(false);
    expect(config.results_disk_mb.default).toBe(1024);
    expect(config.results_max_mb.default).toBe(256);
    // A text, not a folder picker: `off` keeps results in memory only.
    expect(config.results_dir.type).toBe('string');
    expect(config.results_dir.description).toContain('`off`');
    const envNames = new Set(VARIABLES.map((v) => v.env));
    for (const s of DESKTOP_SETTINGS) expect(envNames.has(s.env), s.env).toBe(true);
    expect(manifest.server.mcp_config.env).toEqual({
      ...Object.fromEntries(DESKTOP_SETTINGS.map((s) => [s.env, `\${user_config.${s.key}}`])),
      NODE_OPTIONS: '--max-semi-space-size=4',
    });
  });
});

describe('user settings as a desktop host passes them', () => {
  async function resolvedEnv(userConfig: Record<string, string | number | boolean>) {
    const resolved = await getMcpConfigForManifest({
      manifest: manifest as McpbManifestAny,
      extensionPath: '/opt/ext',
      systemDirs: { HOME: '/home/u', DOWNLOADS: '/home/u/Downloads', DESKTOP: '/home/u/Desktop', DOCUMENTS: '/d' },
      userConfig,
      pathSeparator: '/',
    });
    return resolved!;
  }

  it('settings left empty arrive as ${user_config.X} and count as unset: demo mode, defaults kept', async () => {
    const resolved = await resolvedEnv({});
    expect(resolved.args).toEqual(['/opt/ext/server/index.mjs']);
    expect(resolved.env!.REPORTS_API_KEY).toBe('${user_config.api_key}');
    const { config } = loadConfig(resolved.env!);
    expect(config.demo).toBe(true);
    expect(config.apiKey).toBeUndefined();
    expect(config.maxRecords).toBe(50000);
    expect(config.redactPii).toBe(false);
    expect(config.owningCompanyCodes).toBeUndefined();
    expect(config.resultsDiskBytes).toBe(1024 * 1024 * 1024);
    expect(config.resultsMaxBytes).toBe(256 * 1024 * 1024);
  });

  it('filled settings reach the configuration', async () => {
    const resolved = await resolvedEnv({
      base_url: 'https://reports.example.com/api',
      api_username: 'agency-api',
      api_key: 'k3y',
      user_name: 'ann@example.com',
      owning_company_codes: 'ACME,GLOBEX',
      timezone: 'Europe/London',
      redact_pii: true,
      max_records: 1200,
      results_max_mb: 700,
      export_dir: '/home/u/exports',
      results_dir: 'off',
      results_disk_mb: 64,
    });
    const { config } = loadConfig(resolved.env!);
    expect(config.resultsDir).toBeUndefined();
    expect(config.resultsDiskBytes).toBe(64 * 1024 * 1024);
    expect(config.resultsMaxBytes).toBe(700 * 1024 * 1024);
    expect(config).toMatchObject({
      demo: false,
      baseUrl: 'https://reports.example.com/api',
      apiUsername: 'agency-api',
      apiKey: 'k3y',
      userName: 'ann@example.com',
      owningCompanyCodes: ['ACME', 'GLOBEX'],
      timeZone: 'Europe/London',
      redactPii: true,
      maxRecords: 1200,
      exportDir: '/home/u/exports',
    });
  });
});
