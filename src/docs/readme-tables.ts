/**
 * The README's configuration and tool tables, generated from the same sources the program
 * uses (VARIABLES, and the server's own tools/list), so the docs cannot drift:
 * `npm run docs` rewrites them and a test fails when README.md is stale.
 */

import type { Tool } from '@modelcontextprotocol/client';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import { loadConfig, VARIABLES } from '../config.js';
import { createServer } from '../server/create-server.js';
import { createRuntime } from '../server/runtime.js';

export function configTable(): string {
  const rows = VARIABLES.map((v) => `| \`${v.env}\` | \`--${v.flag}\` | ${v.default ?? 'none'} | ${v.meaning} |`);
  return ['| variable | flag | default | meaning |', '|---|---|---|---|', ...rows].join('\n');
}

export function toolTable(tools: readonly Tool[]): string {
  const rows = tools.map((t) => {
    const schema = t.inputSchema as { required?: string[] };
    const required = schema.required?.length ? schema.required.map((r) => `\`${r}\``).join(', ') : '';
    return `| \`${t.name}\` | ${firstSentence(t.description ?? '')} | ${required} |`;
  });
  return ['| tool | what it answers | required |', '|---|---|---|', ...rows].join('\n');
}

function firstSentence(text: string): string {
  const m = /^(.*?[.!?])(\s|$)/.exec(text);
  return (m ? m[1] : text).replace(/\|/g, '\\|');
}

/** The server's tools as a client sees them (demo mode, in-process). */
export async function listServerTools(): Promise<Tool[]> {
  const rt = await createRuntime(loadConfig({ REPORTS_DEMO: 'true' }).config, { log: () => {} });
  const server = createServer(rt);
  const [a, b] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'docs', version: '1.0.0' });
  try {
    await Promise.all([server.connect(b), client.connect(a)]);
    return (await client.listTools()).tools;
  } finally {
    await client.close();
    await server.close();
    await rt.close();
  }
}

/** Replaces the text between `<!-- NAME:start -->` and `<!-- NAME:end -->`. */
export function replaceSection(doc: string, name: string, body: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  if (i === -1 || j < i) throw new Error(`README.md has no ${start} ... ${end} section`);
  return `${doc.slice(0, i + start.length)}\n${body}\n${doc.slice(j)}`;
}

export async function renderReadme(doc: string): Promise<string> {
  const withConfig = replaceSection(doc, 'config-table', configTable());
  return replaceSection(withConfig, 'tool-table', toolTable(await listServerTools()));
}
