/**
 * What the shipped server compiles before its first answer (scripts/bundle-server.ts): the
 * static imports of dist/server/index.mjs, followed file by file as Node links them. Each part
 * that only some calls need must stay out of it, or start-up pays for it on every launch.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_SERVER } from '../helpers/built-server.js';

const DIR = path.dirname(BUILT_SERVER);

/** The files index.mjs loads before it runs: its static imports, transitively. */
function startUpFiles(): string[] {
  const seen = new Set<string>();
  const queue = [path.basename(BUILT_SERVER)];
  while (queue.length) {
    const file = queue.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = readFileSync(path.join(DIR, file), 'utf8');
    // esbuild writes `import ... from "./chunk.mjs"` and `import "./chunk.mjs"` at the top.
    for (const m of text.matchAll(/^(?:import|export)\b[^;]*?["']\.\/([^"']+\.mjs)["']/gms)) queue.push(m[1]);
  }
  return [...seen].sort();
}

/** A text each lazily loaded part carries and nothing at start-up should. */
const LAZY_PARTS = [
  { part: 'undici (the first request)', marker: 'llhttp' },
  { part: 'exceljs (an XLSX export)', marker: 'ExcelJS' },
  { part: "SQLite's wasm (the first sql_query)", marker: 'sql-wasm' },
  { part: "the result view's page (a host reading it)", marker: '<!doctype html>' },
  { part: 'node-redis (HTTP mode with REPORTS_REDIS_URL)', marker: 'RESP3' },
  // Our HTTP serving (http/). The SDK v2 keeps its HTTP handler in the same module as McpServer
  // (its package's index), which a bundler cannot split: that part of the SDK is loaded at start-up.
  { part: 'the HTTP serving (--http)', marker: 'the MCP endpoint is' },
  { part: 'the sandbox (demo mode)', marker: 'duty-of-care' },
];

describe('the shipped server at start-up', () => {
  const files = startUpFiles();
  const text = files.map((f) => readFileSync(path.join(DIR, f), 'utf8')).join('\n');

  it('loads its start-up chunks only, not the chunks of calls', () => {
    const all = readdirSync(DIR).filter((f) => f.endsWith('.mjs'));
    const lazy = all.filter((f) => !files.includes(f));
    // Each dynamic import is a chunk named after its module, and none is loaded at start-up.
    for (const name of ['report-call', 'sql-call', 'travellers-call', 'export', 'undici-parts', 'demo-upstream'])
      expect(
        lazy.some((f) => f.startsWith(`${name}-`)),
        name,
      ).toBe(true);
    expect(files.filter((f) => !f.startsWith('chunk-') && f !== 'index.mjs')).toEqual([]);
    const bytes = files.reduce((n, f) => n + statSync(path.join(DIR, f)).size, 0);
    process.stderr.write(`bundle: ${files.length} of ${all.length} files at start-up, ${bytes} bytes\n`);
  });

  it.each(LAZY_PARTS)('leaves out $part', ({ marker }) => {
    expect(text.includes(marker)).toBe(false);
    // The marker is real: the part is in the bundle, in a chunk loaded later.
    const later = readdirSync(DIR).filter((f) => !files.includes(f));
    expect(later.some((f) => readFileSync(path.join(DIR, f), 'utf8').includes(marker))).toBe(true);
  });
});
