/**
 * A transaction is written down in several tables that are kept apart on purpose
 * (docs/architecture.md, "Three tables of transactions"). This test names whichever table
 * lacks a transaction the catalog has, so adding one (docs/adding-a-transaction.md) cannot
 * stop half way. The tool list itself always comes from the catalog, never a count.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { TRANSACTIONS } from '../../src/catalog/transactions.js';
import type { TransactionDef } from '../../src/catalog/types.js';
import { reportAtPath, reportByName } from '../../src/sandbox/reports.js';
import { TOOL_NAMES } from '../../src/server/create-server.js';
import { SPEC_TRANSACTIONS } from '../catalog/spec-params.js';
import { CASES } from '../sandbox/shapes.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
const readmeTools = [...README.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
const MANIFEST = JSON.parse(readFileSync(new URL('../../manifest.json', import.meta.url), 'utf8')) as {
  tools: Array<{ name: string }>;
};
const manifestTools = MANIFEST.tools.map((t) => t.name);

interface Table {
  name: string;
  /** Where to add the transaction. */
  where: string;
  has: (def: TransactionDef) => boolean;
}

const TABLES: Table[] = [
  {
    name: 'the sandbox',
    where: 'src/sandbox/reports.ts (REPORTS), with its records in src/sandbox/records.ts',
    has: (def) => reportAtPath(def.path) !== undefined && reportAtPath(def.path) === reportByName(def.transaction),
  },
  {
    name: 'the spec transcription',
    where: 'test/catalog/spec-params.ts (SPEC_TRANSACTIONS)',
    has: (def) => SPEC_TRANSACTIONS[def.tool]?.path === def.path,
  },
  {
    name: 'the sandbox shapes test',
    where: 'test/sandbox/shapes.ts (CASES, and SHAPES for its record type)',
    has: (def) => CASES.some(([path]) => path === def.path),
  },
  {
    name: "the README's tool table",
    where: 'README.md (run `npm run docs`)',
    has: (def) => readmeTools.includes(def.tool),
  },
  {
    name: "the bundle manifest's tool list",
    where: 'manifest.json (run `npm run docs`)',
    has: (def) => manifestTools.includes(def.tool),
  },
];

/** `tool: missing from <table>; add it to <where>` for every gap. */
function gaps(transactions: readonly TransactionDef[], tables: readonly Table[]): string[] {
  return transactions.flatMap((def) =>
    tables.filter((t) => !t.has(def)).map((t) => `${def.tool}: missing from ${t.name}; add it to ${t.where}`),
  );
}

describe('every transaction of the catalog is in every table', () => {
  it('no table lacks one', () => {
    expect(gaps(TRANSACTIONS, TABLES)).toEqual([]);
  });

  it('no table has a report tool the catalog lacks', () => {
    const catalog = TRANSACTIONS.map((d) => d.tool);
    expect(Object.keys(SPEC_TRANSACTIONS).filter((t) => !catalog.includes(t))).toEqual([]);
    const ownTools = TOOL_NAMES.filter((t) => !catalog.includes(t));
    expect(readmeTools.filter((t) => !catalog.includes(t) && !ownTools.includes(t))).toEqual([]);
    // The README and the manifest list every tool the server lists, in its order.
    expect(readmeTools).toEqual([...TOOL_NAMES]);
    expect(manifestTools).toEqual([...TOOL_NAMES]);
  });

  it('names the table and the file when one lacks a transaction', () => {
    const invented: TransactionDef = { ...TRANSACTIONS[0], tool: 'invented_report', path: '/InventedReport' };
    expect(gaps([invented], TABLES)).toEqual([
      'invented_report: missing from the sandbox; add it to src/sandbox/reports.ts (REPORTS), with its records in src/sandbox/records.ts',
      'invented_report: missing from the spec transcription; add it to test/catalog/spec-params.ts (SPEC_TRANSACTIONS)',
      'invented_report: missing from the sandbox shapes test; add it to test/sandbox/shapes.ts (CASES, and SHAPES for its record type)',
      "invented_report: missing from the README's tool table; add it to README.md (run `npm run docs`)",
      "invented_report: missing from the bundle manifest's tool list; add it to manifest.json (run `npm run docs`)",
    ]);
  });
});
