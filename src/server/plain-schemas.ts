/**
 * Published tool schemas as plain JSON Schema that every client and model provider accepts.
 *
 * The SDK (v2) turns our zod schemas into JSON Schema itself, with zod's 2020-12 target, when
 * it answers tools/list. That output carries three things some clients refuse: a `$schema` key
 * (validators of another dialect reject it outright, and the contract forbids it),
 * `propertyNames: {type: "string"}` on every record, and `type: [..]` for a union of
 * primitives (Gemini-backed hosts reject both). This module answers tools/list in the SDK's place, in one place for every
 * tool, whoever registers it, with schemas that mean the same and compile under Ajv's 2020-12
 * and draft-07 compilers in strict mode.
 */
import type { ListToolsResult, McpServer, Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The same constraints without `$schema`, without `propertyNames` that only says keys are
 * strings (JSON object keys always are), and with `type: [a, b]` written as
 * `anyOf: [{type: a}, {type: b}]`. Anything else is left as it is.
 */
export function plainJsonSchema(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(plainJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(schema)) {
    // undefined: a key the JSON text would not carry (a zod meta that removes a generated key).
    if (key === '$schema' || value === undefined) continue;
    if (key === 'propertyNames' && isStringKeysOnly(value)) continue;
    out[key] = plainJsonSchema(value);
  }
  if (Array.isArray(out.type)) {
    const alternatives = out.type.map((type) => ({ type }));
    delete out.type;
    // An existing anyOf must still hold too, so both go under allOf.
    if (out.anyOf === undefined) out.anyOf = alternatives;
    else out.allOf = [...((out.allOf as Json[] | undefined) ?? []), { anyOf: alternatives }];
  }
  return out;
}

function isStringKeysOnly(value: Json): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.keys(value).length === 1 &&
    value.type === 'string'
  );
}

/** The SDK's record of a registered tool (McpServer keeps them in a private map). */
interface RegisteredToolView {
  title?: string;
  description?: string;
  inputSchema?: z.ZodType;
  outputSchema?: z.ZodType;
  annotations?: Tool['annotations'];
  execution?: Tool['execution'];
  _meta?: Tool['_meta'];
  enabled: boolean;
  /** What tools/call hands the SDK's result projection; converted on first use per instance. */
  outputSchemaJson?: unknown;
}

interface SdkInternals {
  _registeredTools: Record<string, RegisteredToolView>;
}

/** Each registered tool's output schema, once publishPlainSchemas has taken it from the SDK's record. */
const outputSchemas = new WeakMap<RegisteredToolView, z.ZodType>();

/** A registered tool's output schema: one set later (the SDK's update()) wins over the one published. */
export function outputSchemaOf(tool: object): z.ZodType | undefined {
  const view = tool as RegisteredToolView;
  return view.outputSchema ?? outputSchemas.get(view);
}

/** What the SDK lists for a tool registered without an input schema. */
const EMPTY_OBJECT_SCHEMA = { type: 'object', properties: {} } as const;

type Io = 'input' | 'output';

/**
 * Each zod schema's published JSON Schema, per process: the catalog's schemas are built once
 * (catalog/schema.ts) and the report tools share one output schema. The SDK builds a server
 * instance per HTTP request and per stdio connection, so every tools/list after the first
 * converts nothing, and the first converts each distinct schema once instead of once per tool.
 */
const published = new WeakMap<z.ZodType, Partial<Record<Io, Json>>>();

function publishedSchema(schema: z.ZodType, io: Io): Json {
  let entry = published.get(schema);
  if (!entry) published.set(schema, (entry = {}));
  // The SDK's own conversion for zod 4 schemas: 2020-12, inputs or outputs of transforms.
  entry[io] ??= deepFreeze(plainJsonSchema(z.toJSONSchema(schema, { target: 'draft-2020-12', io }) as Json));
  return entry[io];
}

/** Shared by every answer from now on, so nothing may change it in place. */
function deepFreeze(value: Json): Json {
  if (value !== null && typeof value === 'object') {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/**
 * Answers tools/list in place of the SDK's handler, with what that handler lists (name,
 * title, description, the schemas, annotations, execution, `_meta`, from the SDK's own record
 * of the registered tools, so enabling, disabling and updating a tool show) and the schemas
 * plain (above) and converted once per schema. Call it after the tools are registered.
 * tools/call is given the same converted output schema (the SDK would convert it again on
 * each instance's first call: one conversion per HTTP request).
 */
export function publishPlainSchemas(server: McpServer): void {
  // The SDK keeps registered tools in a private map and offers no getter; the tests compare
  // this answer with the SDK's own conversion and fail at once if a later SDK moves it.
  const tools = (server as unknown as SdkInternals)._registeredTools;
  if (!tools || !Object.keys(tools).length)
    throw new Error('publishPlainSchemas: register the tools first (no registered tools found)');
  for (const tool of Object.values(tools)) {
    if (!tool.outputSchema) continue;
    tool.outputSchemaJson = publishedSchema(tool.outputSchema, 'output');
    // Kept here, not in the SDK's record: the SDK parses every answer's structuredContent with
    // it, about 0.9 ms of a 17 KB report answer, as much as the call's own work. What the server
    // answers is checked against the published schema by the tests (Ajv, CheckedClient).
    outputSchemas.set(tool, tool.outputSchema);
    tool.outputSchema = undefined;
  }
  server.server.setRequestHandler(
    'tools/list',
    (): ListToolsResult => ({
      tools: Object.entries(tools)
        .filter(([, tool]) => tool.enabled)
        .map(([name, tool]) => {
          const listed: Tool = {
            name,
            title: tool.title,
            description: tool.description,
            inputSchema: (tool.inputSchema
              ? publishedSchema(tool.inputSchema, 'input')
              : EMPTY_OBJECT_SCHEMA) as Tool['inputSchema'],
            annotations: tool.annotations,
            execution: tool.execution,
            _meta: tool._meta,
          };
          const output = outputSchemaOf(tool);
          if (output) listed.outputSchema = publishedSchema(output, 'output') as Tool['outputSchema'];
          return listed;
        }),
    }),
  );
}
