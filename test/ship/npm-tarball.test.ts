/**
 * The npm package as a user gets it: `npm pack` once, the tarball installed into an empty
 * folder from the local file, and its bin run with --help and --demo (tools/list answers).
 * Dependencies come from npm's cache where it has them (--prefer-offline): `npm ci` filled it.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { CheckedClient } from '../helpers/checked-client.js';

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, '..', '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let work: string;
let packedFiles: string[];
let bin: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'npm-tarball-test-'));
  // `npm test` has just built dist/; --ignore-scripts keeps pack from rebuilding it under other tests.
  const { stdout } = await run(NPM, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT });
  const [info] = JSON.parse(stdout) as [{ filename: string; files: { path: string }[] }];
  packedFiles = info.files.map((f) => f.path).sort();
  const app = path.join(work, 'app');
  await mkdir(app);
  await writeFile(path.join(app, 'package.json'), '{ "name": "empty-app", "private": true }\n');
  await run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', path.join(work, info.filename)], {
    cwd: app,
  });
  bin = path.join(app, 'node_modules', '.bin', 'travel-reports-mcp');
}, 180_000);
afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm pack tarball', () => {
  it('holds the bundled server and README only: no sources, tests or tsc output', () => {
    expect(packedFiles).toContain('dist/server/index.mjs');
    expect(packedFiles).toContain('README.md');
    expect(
      packedFiles.filter((f) => !f.startsWith('dist/server/') && f !== 'README.md' && f !== 'package.json'),
    ).toEqual([]);
    expect(packedFiles.filter((f) => f.endsWith('.ts'))).toEqual([]);
  });

  it('its bin answers --help on stdout and exits 0', async () => {
    const { stdout } = await run(bin, ['--help']);
    expect(stdout).toMatch(/^Usage: travel-reports-mcp \[--demo\]/m);
    expect(stdout).toContain('--api-key');
  });

  it('its bin runs --demo and answers tools/list', async () => {
    const transport = new StdioClientTransport({
      command: bin,
      // Held results in memory only: a test never writes into the user's cache folder.
      args: ['--demo', '--results-dir', 'off'],
      stderr: 'pipe',
    });
    const client = new CheckedClient({ name: 'tarball-user', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.version).toBe(pkg.version);
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('booking_details');
      expect(names).toContain('query_report');
      expect(client.getInstructions()).toContain('DEMO MODE');
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
