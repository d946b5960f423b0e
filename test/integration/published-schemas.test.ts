/**
 * Every published input and output schema is plain JSON Schema that every client accepts:
 * no `$schema`, no `propertyNames`, no type arrays, and it compiles under Ajv's 2020-12
 * compiler and its draft-07 compiler, both strict. Checked over tools/list as a client sees it.
 */

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from '../../src/server/create-server.js';
import { outputSchemaOf, plainJsonSchema } from '../../src/server/plain-schemas.js';
import { refusedKeywords, strictAjv2020, strictAjvDraft07 } from '../helpers/json-schema.js';
import { type InProcess, startInProcess } from '../helpers/mcp.js';

let h: InProcess;
let tools: Tool[];
beforeAll(async () => {
  h = await startInProcess();
  tools = (await h.client.listTools()).tools;
});
afterAll(async () => h?.close());

/** Paths of the nodes that accept any value as an object's other members: additionalProperties {} or true. */
function anyValueNodes(node: unknown, path = ''): string[] {
  if (!node || typeof node !== 'object') return [];
  if (Array.isArray(node)) return node.flatMap((n, i) => anyValueNodes(n, `${path}[${i}]`));
  return Object.entries(node).flatMap(([k, v]) => {
    const here = `${path}.${k}`;
    const open = k === 'additionalProperties' && (v === true || (typeof v === 'object' && v && !Object.keys(v).length));
    return [...(open ? [here] : []), ...anyValueNodes(v, here)];
  });
}

function publishedSchemas(): { where: string; schema: object }[] {
  return tools.flatMap((t) => [
    { where: `${t.name} inputSchema`, schema: t.inputSchema },
    ...(t.outputSchema ? [{ where: `${t.name} outputSchema`, schema: t.outputSchema }] : []),
  ]);
}

type Listed = { tools: Tool[] };
type ListHandler = (request: unknown, extra: unknown) => Listed | Promise<Listed>;
/** A tool as McpServer records it: what registerTool was given. */
type Registered = Record<
  string,
  Record<'title' | 'description' | 'inputSchema' | 'outputSchema' | 'annotations' | '_meta', never>
>;
type Register = (name: string, config: object, handler: () => Promise<{ content: [] }>) => void;

/** A server's tools/list answer, straight from its request handler (no client between). */
async function listedBy(server: McpServer): Promise<Tool[]> {
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, ListHandler> })._requestHandlers;
  return (await (handlers.get('tools/list') as ListHandler)({ method: 'tools/list', params: {} }, {})).tools;
}

describe("tools/list, answered by plain-schemas.ts in the SDK's place", () => {
  it("lists what the SDK's own handler lists for the same tools, with the schemas made plain", async () => {
    const ours = createServer(h.rt);
    const sdk = new McpServer({ name: 'sdk-reference', version: '1' });
    const register = sdk.registerTool.bind(sdk) as Register;
    for (const [name, tool] of Object.entries((ours as unknown as { _registeredTools: Registered })._registeredTools)) {
      const { title, description, inputSchema, annotations, _meta } = tool;
      // Ours keeps the output schema out of the SDK's record (plain-schemas.ts): the SDK would parse every answer.
      const outputSchema = outputSchemaOf(tool);
      register(name, { title, description, inputSchema, outputSchema, annotations, _meta }, async () => ({
        content: [],
      }));
    }
    const expected = (await listedBy(sdk)).map((t) => ({
      ...t,
      inputSchema: plainJsonSchema(t.inputSchema as never),
      ...(t.outputSchema ? { outputSchema: plainJsonSchema(t.outputSchema as never) } : {}),
    }));
    expect(expected).toHaveLength(tools.length);
    expect(JSON.parse(JSON.stringify(await listedBy(ours)))).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('converts each schema once per process: a second server (an HTTP request) lists the same objects', async () => {
    const [first, second] = [await listedBy(createServer(h.rt)), await listedBy(createServer(h.rt))];
    expect(second.map((t) => t.name)).toEqual(first.map((t) => t.name));
    for (const [i, t] of second.entries()) {
      expect(t.inputSchema, t.name).toBe(first[i].inputSchema);
      expect(t.outputSchema, t.name).toBe(first[i].outputSchema);
    }
    // The report tools share one output schema, converted once.
    const reports = second.filter((t) => t.name === 'air_segments_by_date' || t.name === 'hotel_segments');
    expect(reports[0].outputSchema).toBe(reports[1].outputSchema);
    expect(Object.isFrozen(reports[0].outputSchema)).toBe(true);
  });

  it("shows a tool disabled or changed after registration, as the SDK's handler did", async () => {
    const server = createServer(h.rt);
    const registered = (
      server as unknown as { _registeredTools: Record<string, { disable(): void; update(u: object): void }> }
    )._registeredTools;
    registered.sql_query.disable();
    registered.query_report.update({ description: 'changed' });
    const listed = await listedBy(server);
    expect(listed.map((t) => t.name)).not.toContain('sql_query');
    expect(listed.find((t) => t.name === 'query_report')?.description).toBe('changed');
  });
});

describe('published tool schemas', () => {
  it('every tool publishes an input and an output schema', () => {
    expect(tools.length).toBeGreaterThanOrEqual(25);
    expect(tools.filter((t) => !t.outputSchema).map((t) => t.name)).toEqual([]);
    expect(publishedSchemas()).toHaveLength(tools.length * 2);
  });

  it('every open object says what it holds: no node is additionalProperties {} or true (issue 31)', () => {
    // Inspector v2 --strict warns "accepts any value" for each; 51 such nodes on 3bbce1f (rows, summaries, groups).
    const open = publishedSchemas().flatMap(({ where, schema }) => anyValueNodes(schema).map((p) => `${where}${p}`));
    expect(open).toEqual([]);
    // The records' values are declared: rows hold JSON values, and say so.
    const air = tools.find((t) => t.name === 'air_segments_by_date')!.outputSchema as unknown as {
      properties: { rows: { items: { additionalProperties: object } } };
    };
    const items = air.properties.rows.items;
    expect(items.additionalProperties).toEqual({ $ref: expect.stringMatching(/^#\/\$defs\//) });
  });

  it('no schema carries $schema, propertyNames or a type array', () => {
    const found = publishedSchemas().flatMap(({ where, schema }) => refusedKeywords(schema).map((p) => `${where}${p}`));
    expect(found).toEqual([]);
  });

  it('every schema compiles under Ajv 2020-12 strict and Ajv draft-07 strict', () => {
    const failures: string[] = [];
    let compiled = 0;
    for (const { where, schema } of publishedSchemas()) {
      for (const [dialect, ajv] of [
        ['2020-12', strictAjv2020()],
        ['draft-07', strictAjvDraft07()],
      ] as const) {
        try {
          ajv.compile(schema);
          compiled++;
        } catch (err) {
          failures.push(`${where} (${dialect}): ${(err as Error).message}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(compiled).toBe(tools.length * 4);
    process.stderr.write(`published schemas: ${compiled / 2} of ${tools.length * 2} compile under both dialects\n`);
  });

  it('the schemas still say what the zod schemas say: union types as anyOf, records as open objects', () => {
    const find = tools.find((t) => t.name === 'find_bookings')!;
    const parameters = (find.inputSchema.properties as Record<string, Record<string, unknown>>).parameters;
    expect(parameters.type).toBe('object');
    expect(parameters.additionalProperties).toEqual({
      anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }],
    });
    const ajv = strictAjv2020();
    const validate = ajv.compile(find.inputSchema);
    expect(validate({ parameters: { Foo: 'x', Bar: 2, Baz: true } })).toBe(true);
    expect(validate({ parameters: { Foo: { nested: 1 } } })).toBe(false);
  });
});

describe('plainJsonSchema', () => {
  it('drops $schema and string-only propertyNames, keeps other propertyNames, rewrites type arrays', () => {
    expect(
      plainJsonSchema({
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          a: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} },
          b: { type: 'object', propertyNames: { enum: ['x', 'y'] } },
          c: { type: ['string', 'null'], description: 'c' },
          d: { type: ['string', 'number'], anyOf: [{ minLength: 1 }, { minimum: 0 }] },
        },
      }),
    ).toEqual({
      type: 'object',
      properties: {
        a: { type: 'object', additionalProperties: {} },
        b: { type: 'object', propertyNames: { enum: ['x', 'y'] } },
        c: { description: 'c', anyOf: [{ type: 'string' }, { type: 'null' }] },
        d: { anyOf: [{ minLength: 1 }, { minimum: 0 }], allOf: [{ anyOf: [{ type: 'string' }, { type: 'number' }] }] },
      },
    });
  });
});

type Schema = {
  type?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  additionalProperties?: boolean | Schema;
  minimum?: number;
  maximum?: number;
};

/** Every node of a schema with its path (tool.param, tool.where[].field). */
function nodes(schema: Schema, path: string, out: Array<{ path: string; node: Schema }> = []) {
  out.push({ path, node: schema });
  for (const [k, v] of Object.entries(schema.properties ?? {})) nodes(v, `${path}.${k}`, out);
  if (schema.items) nodes(schema.items, `${path}[]`, out);
  for (const [i, v] of (schema.anyOf ?? []).entries()) nodes(v, `${path}|${i}`, out);
  if (typeof schema.additionalProperties === 'object') nodes(schema.additionalProperties, `${path}{}`, out);
  return out;
}

describe('every published bound is the enforced one (issue 18)', () => {
  it('every object of every input schema refuses unknown keys, but the free-form parameters record', () => {
    const open: string[] = [];
    let objects = 0;
    for (const t of tools)
      for (const { path, node } of nodes(t.inputSchema as Schema, t.name))
        if (node.type === 'object') {
          objects++;
          if (node.additionalProperties !== false) open.push(path);
        }
    // The free-form `parameters` of the tools that take the service's own names are records.
    expect(open.filter((p) => !p.endsWith('.parameters'))).toEqual([]);
    expect(open).toContain('find_bookings.parameters');
    expect(objects).toBeGreaterThan(tools.length);
  });

  it.each([
    ['where', { where: [{ field: 'Account', op: 'eq', value: 'X', negate: true }] }, "'negate' in a where filter"],
    ['aggregates', { aggregates: [{ fn: 'count', as: 'n' }] }, "'as' in an aggregate"],
    ['orderBy', { orderBy: [{ field: 'count', dir: 'asc' }] }, "'dir' in an orderBy item"],
  ])('query_report: an unknown key in a %s item is refused by name', async (_, args, said) => {
    const r = await h.call('query_report', { resultId: 'r_x', ...args });
    expect(r.isError).toBe(true);
    expect((r.content[0] as { text: string }).text).toContain(`unknown key ${said}; it takes`);
  });

  it('export_report: an unknown key in a where item is refused by name', async () => {
    const r = await h.call('export_report', {
      resultId: 'r_x',
      format: 'csv',
      where: [{ field: 'Account', op: 'eq', value: 'X', not: true }],
    });
    expect((r.content[0] as { text: string }).text).toContain(
      "where.0: unknown key 'not' in a where filter; it takes field, op, value",
    );
  });

  it('every numeric argument: its published minimum and maximum are accepted, one past them refused', async () => {
    const bounds: string[] = [];
    const wrong: string[] = [];
    for (const t of tools)
      for (const { path, node } of nodes(t.inputSchema as Schema, t.name)) {
        if (node.type !== 'integer' && node.type !== 'number') continue;
        // A compared value (where[].value) or a free-form parameter's value ({}) may be any number: no bound.
        if (/[|{]/.test(path)) {
          expect([node.minimum, node.maximum], path).toEqual([undefined, undefined]);
          continue;
        }
        const name = path.slice(t.name.length + 1);
        // Only top-level arguments are numeric; a nested one would need its own probe.
        expect(name, path).toMatch(/^\w+$/);
        const lo = node.minimum ?? Number.MIN_SAFE_INTEGER;
        const hi = node.maximum ?? Number.MAX_SAFE_INTEGER;
        bounds.push(`${path} ${node.minimum ?? '-'}..${node.maximum ?? '-'}`);
        // An unknown key makes every probe a refusal, which names each argument it refuses.
        const refusesArg = async (value: number) => {
          const r = await h.call(t.name, { [name]: value, zzProbe: 1 });
          return (r.content[0] as { text: string }).text.includes(`${name}: ${value}`);
        };
        for (const [value, refused] of [
          [lo, false],
          [hi, false],
          ...(node.minimum === undefined ? [] : [[lo - 1, true] as const]),
          ...(node.maximum === undefined ? [] : [[hi + 1, true] as const]),
        ] as const)
          if ((await refusesArg(value)) !== refused) wrong.push(`${path} ${value} ${refused ? 'accepted' : 'refused'}`);
      }
    process.stderr.write(`published numeric bounds:\n  ${bounds.join('\n  ')}\n`);
    expect(wrong).toEqual([]);
    const published = bounds.filter((b) => /^(?:\w+\.)(?:maxRecords|rowLimit|limit|offset) /.test(b));
    expect(new Set(published.map((b) => b.replace(/^\w+\./, '')))).toEqual(
      new Set(['maxRecords 1..10000000', 'rowLimit 0..100000', 'limit 1..1000', 'offset 0..9007199254740991']),
    );
  });
});

describe('a maxRecords above this server REPORTS_MAX_RECORDS is capped with a note, never silently', () => {
  it.each(['air_segments_by_date', 'continue_report'])('%s', async (tool) => {
    const s = await startInProcess({ env: { REPORTS_MAX_RECORDS: '5', REPORTS_PAGE_SIZE: '2' } });
    try {
      const args = { DateStart: '20261101', DateEnd: '20261130' };
      const first = await s.call('air_segments_by_date', { ...args, maxRecords: tool === 'continue_report' ? 2 : 100 });
      const sc = first.structuredContent as { resultId: string; notes: string[] };
      const r = tool === 'continue_report' ? await s.call(tool, { resultId: sc.resultId, maxRecords: 100 }) : first;
      expect(r.isError).toBeFalsy();
      const { notes, fetchedRecords } = r.structuredContent as { notes: string[]; fetchedRecords: number };
      expect(notes).toContain("maxRecords 100 is above this server's limit REPORTS_MAX_RECORDS=5; 5 was used.");
      expect(fetchedRecords).toBe(tool === 'continue_report' ? 7 : 5);
    } finally {
      await s.close();
    }
  });
});
