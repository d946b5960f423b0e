/**
 * Every published input and output schema is plain JSON Schema that every client accepts:
 * no `$schema`, no `propertyNames`, no type arrays, and it compiles under Ajv's 2020-12
 * compiler and its draft-07 compiler, both strict. Checked over tools/list as a client sees it.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plainJsonSchema } from '../../src/server/plain-schemas.js';
import { refusedKeywords, strictAjv2020, strictAjvDraft07 } from '../helpers/json-schema.js';
import { type InProcess, startInProcess } from '../helpers/mcp.js';

let h: InProcess;
let tools: Tool[];
beforeAll(async () => {
  h = await startInProcess();
  tools = (await h.client.listTools()).tools;
});
afterAll(async () => h?.close());

function publishedSchemas(): { where: string; schema: object }[] {
  return tools.flatMap((t) => [
    { where: `${t.name} inputSchema`, schema: t.inputSchema },
    ...(t.outputSchema ? [{ where: `${t.name} outputSchema`, schema: t.outputSchema }] : []),
  ]);
}

describe('published tool schemas', () => {
  it('every tool publishes an input and an output schema', () => {
    expect(tools.length).toBeGreaterThanOrEqual(25);
    expect(tools.filter((t) => !t.outputSchema).map((t) => t.name)).toEqual([]);
    expect(publishedSchemas()).toHaveLength(tools.length * 2);
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
