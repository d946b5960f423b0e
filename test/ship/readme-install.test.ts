/**
 * The README's install snippets, parsed out of README.md (each follows an
 * `<!-- install-snippet: NAME -->` marker) and checked against the program: the command, the
 * path of the built entry point (it exists, and it is package.json's bin), the variable names
 * (each is in VARIABLES), and for the bundle the script and the settings it names.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { VARIABLES } from '../../src/config.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');
const README = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const CHECKOUT = '/path/to/travel-reports-mcp/';
const VARIABLE_NAMES = new Set(VARIABLES.map((v) => v.env));
const CREDENTIALS = ['REPORTS_BASE_URL', 'REPORTS_API_USERNAME', 'REPORTS_API_KEY'];

/** The fenced block after the marker, and the prose up to the next heading. */
function snippet(name: string): { lang: string; code: string; prose: string } {
  const marker = `<!-- install-snippet: ${name} -->`;
  const at = README.indexOf(marker);
  if (at === -1) throw new Error(`README.md has no ${marker}`);
  const m = /^\s*```(\w+)\n([\s\S]*?)\n```\n([\s\S]*?)(?=\n#|\n<!-- install-snippet|$)/.exec(
    README.slice(at + marker.length),
  );
  if (!m) throw new Error(`README.md: no fenced code block right after ${marker}`);
  return { lang: m[1], code: m[2], prose: m[3] };
}

/** A README path to the checkout, checked as a path inside this repository. */
function checkEntryPoint(readmePath: string): void {
  expect(readmePath.startsWith(CHECKOUT), readmePath).toBe(true);
  const relative = readmePath.slice(CHECKOUT.length);
  expect(relative).toBe(pkg.bin['travel-reports-mcp']);
  expect(existsSync(path.join(ROOT, relative)), `${relative} exists after the build`).toBe(true);
}

function checkEnvNames(names: string[]): void {
  expect(names.filter((n) => !VARIABLE_NAMES.has(n))).toEqual([]);
  expect(names).toEqual(expect.arrayContaining(CREDENTIALS));
}

interface StdioEntry {
  type?: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

describe('README install snippets', () => {
  it('Claude Desktop: npm run pack exists and writes the .mcpb named; the settings named are the manifest’s', () => {
    const { lang, code, prose } = snippet('claude-desktop');
    expect(lang).toBe('sh');
    expect(code).toMatch(/^npm install && npm run pack\b/);
    expect((pkg.scripts as Record<string, string>).pack).toContain('dist/scripts/pack.js');
    expect(existsSync(path.join(ROOT, 'scripts', 'pack.ts'))).toBe(true);
    expect(code).toContain(`${pkg.name}-<version>.mcpb`);
    const manifest = JSON.parse(readFileSync(path.join(ROOT, 'manifest.json'), 'utf8')) as {
      display_name: string;
      user_config: Record<string, { title: string }>;
    };
    expect(prose).toContain(`Settings > Extensions > ${manifest.display_name}`);
    // *Italic* names are settings; **bold** ones are menu paths.
    const named = [...prose.matchAll(/(?<!\*)\*([^*]+)\*(?!\*)/g)].map((m) => m[1].replace(/\s+/g, ' '));
    expect(named).toEqual(Object.values(manifest.user_config).map((c) => c.title));
  });

  it('Claude Code: claude mcp add with known variables, then node and the built entry point', () => {
    const { lang, code } = snippet('claude-code');
    expect(lang).toBe('sh');
    const words = code.replace(/\\\n/g, ' ').trim().split(/\s+/);
    expect(words.slice(0, 3)).toEqual(['claude', 'mcp', 'add']);
    const dashDash = words.indexOf('--');
    expect(dashDash).toBeGreaterThan(3);
    const options = words.slice(3, dashDash);
    const envNames = options.flatMap((w, i) => (options[i - 1] === '--env' ? [w.split('=')[0]] : []));
    checkEnvNames(envNames);
    expect(options.at(-1)).toBe('travel-reports');
    expect(options[options.indexOf('--transport') + 1]).toBe('stdio');
    const [command, entry, ...rest] = words.slice(dashDash + 1);
    expect(command).toBe('node');
    checkEntryPoint(entry);
    expect(rest).toEqual([]);
  });

  it('VS Code: mcp.json "servers" entry over stdio; the key comes from a password input', () => {
    const { lang, code } = snippet('vscode');
    expect(lang).toBe('json');
    const config = JSON.parse(code) as {
      inputs: { type: string; id: string; password?: boolean }[];
      servers: Record<string, StdioEntry>;
    };
    const entry = config.servers['travel-reports'];
    expect(entry.type).toBe('stdio');
    expect(entry.command).toBe('node');
    expect(entry.args).toHaveLength(1);
    checkEntryPoint(entry.args[0]);
    checkEnvNames(Object.keys(entry.env));
    const inputRefs = [...JSON.stringify(entry.env).matchAll(/\$\{input:([^}]+)\}/g)].map((m) => m[1]);
    expect(inputRefs).toEqual(['reports-api-key']);
    expect(config.inputs).toEqual([
      expect.objectContaining({ type: 'promptString', id: 'reports-api-key', password: true }),
    ]);
  });

  it('Cursor: mcp.json "mcpServers" entry with node and the built entry point', () => {
    const { lang, code } = snippet('cursor');
    expect(lang).toBe('json');
    const config = JSON.parse(code) as { mcpServers: Record<string, StdioEntry> };
    const entry = config.mcpServers['travel-reports'];
    expect(entry.command).toBe('node');
    expect(entry.args).toHaveLength(1);
    checkEntryPoint(entry.args[0]);
    checkEnvNames(Object.keys(entry.env));
  });
});
