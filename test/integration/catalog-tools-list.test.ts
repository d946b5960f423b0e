/**
 * The published catalog against the spec, as an assistant sees it: tools/list of a real SDK
 * Client talking to the server in demo mode. SPEC_TRANSACTIONS is the hand transcription of
 * the service's published transactions (independent of src/catalog).
 */

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  CONTROLS,
  FREE_FORM,
  LOAD_OPTIONS_ITEMS,
  SPEC_BOOLEANS,
  SPEC_INTEGERS,
  SPEC_TRANSACTIONS,
} from '../catalog/spec-params.js';
import { type InProcess, startInProcess } from '../helpers/mcp.js';

const REPORT_TOOLS = Object.keys(SPEC_TRANSACTIONS);
const REPORT_OUTPUT_KEYS = [
  'report',
  'source',
  'query',
  'totalRecords',
  'fetchedRecords',
  'complete',
  'notes',
  'resultId',
  'table',
  'resourceUri',
  'summary',
  'rows',
  'next',
];
/**
 * Tokens an assistant pays for the tool definitions (JSON of name, description, inputSchema / 4).
 * The contract allows 9,000: publishing every enforced bound (maxRecords 1..10,000,000, rowLimit
 * 0..100,000 on 23 tools, query_report's limit) took the count from 7,899 to 8,273.
 */
const TOKEN_BUDGET = 9_000;

type JsonSchema = {
  type?: string;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
  enum?: string[];
  anyOf?: JsonSchema[];
  items?: JsonSchema;
};

let s: InProcess;
let tools: Tool[];
const byName = (name: string): Tool => {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`tools/list has no ${name}`);
  return tool;
};
const input = (name: string) => byName(name).inputSchema as JsonSchema;
const output = (name: string) => byName(name).outputSchema as JsonSchema;

beforeAll(async () => {
  s = await startInProcess();
  tools = (await s.client.listTools()).tools;
});
afterAll(async () => {
  await s?.close();
});

test('tools/list names exactly the report tools of the spec, then query_report, continue_report, sql_query, diagnose_connection, export_report, travellers_at', () => {
  expect(tools.map((t) => t.name)).toEqual([
    ...REPORT_TOOLS,
    'query_report',
    'continue_report',
    'sql_query',
    'diagnose_connection',
    'export_report',
    'travellers_at',
  ]);
});

describe.each(REPORT_TOOLS)('%s as published', (name) => {
  const spec = SPEC_TRANSACTIONS[name];

  test('has every parameter of the spec, each described, plus the controls, and nothing else', () => {
    const schema = input(name);
    expect(schema.type).toBe('object');
    const expected = [...spec.params, ...(spec.freeForm ? [FREE_FORM] : []), ...CONTROLS];
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual([...expected].sort());
    for (const param of [...spec.params, ...(spec.freeForm ? [FREE_FORM] : []), ...CONTROLS]) {
      const description = schema.properties![param].description;
      expect(typeof description, `${name}.${param} description`).toBe('string');
      expect(description!.trim().length, `${name}.${param} description`).toBeGreaterThan(0);
    }
  });

  test('requires exactly what the spec requires and refuses other keys', () => {
    const schema = input(name);
    expect([...(schema.required ?? [])].sort()).toEqual([...spec.required].sort());
    expect(schema.additionalProperties).toBe(false);
  });

  test('types: the spec enums, integers, booleans and lists', () => {
    const props = input(name).properties!;
    for (const [param, values] of Object.entries(spec.enums ?? {})) {
      expect(props[param].enum, `${name}.${param}`).toEqual(values);
    }
    for (const param of spec.params) {
      if (SPEC_INTEGERS.includes(param)) expect(props[param].type, `${name}.${param}`).toBe('integer');
      if (SPEC_BOOLEANS.includes(param)) expect(props[param].type, `${name}.${param}`).toBe('boolean');
    }
    // Lists are published as the comma-list string the service takes (arrays are accepted too).
    for (const param of spec.lists) {
      expect(props[param].type, `${name}.${param}`).toBe('string');
      expect(props[param].anyOf, `${name}.${param}`).toBeUndefined();
      expect(props[param].description, `${name}.${param}`).toMatch(/, comma list/);
    }
  });

  test('annotations read-only, open-world, idempotent; output schema with the CONTRACT section 5 keys', () => {
    const tool = byName(name);
    expect(tool.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true, idempotentHint: true });
    expect(tool.description!.length).toBeGreaterThan(40);
    const out = output(name);
    expect(Object.keys(out.properties ?? {})).toEqual(REPORT_OUTPUT_KEYS);
    expect([...(out.required ?? [])].sort()).toEqual([...REPORT_OUTPUT_KEYS].sort());
    expect(out.properties!.source.enum).toEqual(['live', 'demo']);
  });
});

test('LoadOptions of booking_details lists the spec vocabulary in its description', () => {
  const description = input('booking_details').properties!.LoadOptions.description!;
  for (const item of LOAD_OPTIONS_ITEMS) expect(description).toContain(item);
});

test('query_report, continue_report, sql_query and diagnose_connection: strict inputs, read-only, their output schemas', () => {
  const query = byName('query_report');
  expect(Object.keys(input('query_report').properties!)).toEqual([
    'resultId',
    'where',
    'groupBy',
    'aggregates',
    'orderBy',
    'unnest',
    'fields',
    'offset',
    'limit',
  ]);
  expect(input('query_report').required).toEqual(['resultId']);
  expect(input('query_report').additionalProperties).toBe(false);
  // It answers from held records without calling the service: deliberately not open-world.
  expect(query.annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false, idempotentHint: true });
  expect(Object.keys(output('query_report').properties!)).toEqual([
    'resultId',
    'complete',
    'unnest',
    'matched',
    'offset',
    'limit',
    'nextOffset',
    'rows',
    'groups',
    'groupCount',
    'notes',
  ]);
  const ops = input('query_report').properties!.where.items!.properties!.op.enum;
  expect(ops).toEqual(['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'startsWith', 'exists']);
  const fns = input('query_report').properties!.aggregates.items!.properties!.fn.enum;
  expect(fns).toEqual(['count', 'sum', 'avg', 'min', 'max', 'countDistinct']);

  expect(Object.keys(input('continue_report').properties!)).toEqual(['resultId', 'maxRecords', 'rowLimit', 'fields']);
  expect(input('continue_report').required).toEqual(['resultId']);
  expect(input('continue_report').additionalProperties).toBe(false);
  expect(byName('continue_report').annotations).toMatchObject({
    readOnlyHint: true,
    openWorldHint: true,
    idempotentHint: true,
  });
  expect(Object.keys(output('continue_report').properties!)).toEqual(REPORT_OUTPUT_KEYS);

  expect(Object.keys(input('sql_query').properties!)).toEqual(['sql']);
  expect(input('sql_query').required).toEqual(['sql']);
  expect(input('sql_query').additionalProperties).toBe(false);
  expect(byName('sql_query').annotations).toMatchObject({ readOnlyHint: true, openWorldHint: false });
  expect(Object.keys(output('sql_query').properties!)).toEqual([
    'columns',
    'rows',
    'rowCount',
    'truncated',
    'tables',
    'resourceUri',
    'notes',
  ]);

  expect(input('diagnose_connection').properties ?? {}).toEqual({});
  expect(input('diagnose_connection').additionalProperties).toBe(false);
  expect(byName('diagnose_connection').annotations).toMatchObject({
    readOnlyHint: true,
    openWorldHint: true,
    idempotentHint: true,
  });
  expect(Object.keys(output('diagnose_connection').properties!)).toEqual(['verdict', 'source', 'checks']);

  expect(Object.keys(input('travellers_at').properties!)).toEqual(['place', 'from', 'to', 'lookbackDays']);
  expect(input('travellers_at').required).toEqual(['place', 'from', 'to']);
  expect(input('travellers_at').additionalProperties).toBe(false);
  expect(byName('travellers_at').annotations).toMatchObject({ readOnlyHint: true, openWorldHint: true });
  expect(Object.keys(output('travellers_at').properties!)).toEqual(
    Object.keys(output('air_segments_by_date').properties!),
  );

  expect(Object.keys(input('export_report').properties!)).toEqual([
    'resultId',
    'format',
    'where',
    'fields',
    'unnest',
    'name',
  ]);
  expect(input('export_report').required).toEqual(['resultId', 'format']);
  expect(input('export_report').additionalProperties).toBe(false);
  // It writes a file: not read-only (hosts auto-approve read-only tools), not destructive (it never replaces one).
  expect(byName('export_report').annotations).toEqual({
    title: 'Export a report result to a file',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  });
  expect(Object.keys(output('export_report').properties!)).toEqual([
    'resultId',
    'report',
    'format',
    'path',
    'fileName',
    'rows',
    'columns',
    'bytes',
    'complete',
    'notes',
  ]);

  for (const tool of tools) {
    for (const [param, schema] of Object.entries((tool.inputSchema as JsonSchema).properties ?? {})) {
      expect(schema.description?.trim().length ?? 0, `${tool.name}.${param} description`).toBeGreaterThan(0);
    }
  }
});

test('token cost of the tool definitions (name, description, inputSchema) is at most 9,000 (the contract budget, deterministic)', () => {
  const definitions = tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  const tokens = Math.ceil(JSON.stringify(definitions).length / 4);
  const outputTokens = Math.ceil(JSON.stringify(tools.map((t) => t.outputSchema)).length / 4);
  console.error(
    `tools/list token cost: ${tokens} tokens for ${tools.length} tool definitions (output schemas apart: ${outputTokens})`,
  );
  expect(tokens).toBeLessThanOrEqual(TOKEN_BUDGET);
  expect(tokens).toBeGreaterThan(1_000);
});

test('annotations tell the truth: every tool and prompt has a title; only export_report writes (issue 31)', async () => {
  const titled = tools.filter((t) => t.title && t.annotations?.title === t.title);
  expect(tools.filter((t) => !titled.includes(t)).map((t) => t.name)).toEqual([]);
  const writers = tools.filter((t) => t.annotations?.readOnlyHint !== true).map((t) => t.name);
  expect(writers).toEqual(['export_report']);
  expect(tools.filter((t) => t.annotations?.destructiveHint === true).map((t) => t.name)).toEqual([]);
  const { prompts } = await s.client.listPrompts();
  expect(prompts.length).toBeGreaterThan(3);
  expect(prompts.filter((p) => !p.title || p.title.length < 5).map((p) => p.name)).toEqual([]);
});
