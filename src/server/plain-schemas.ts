/**
 * Published tool schemas as plain JSON Schema that every client and model provider accepts.
 *
 * The SDK (v1) turns our zod schemas into JSON Schema itself, with zod's draft-07 target, when
 * it answers tools/list. That output carries three things some clients refuse: a `$schema` key
 * (2020-12-only validators reject the draft-07 dialect outright), `propertyNames: {type:
 * "string"}` on every record, and `type: [..]` for a union of primitives (Gemini-backed hosts
 * reject both). This module rewrites the SDK's tools/list answer, in one place for every tool,
 * whoever registers it, into schemas that mean the same and compile under Ajv's 2020-12 and
 * draft-07 compilers in strict mode.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema, type ListToolsResult } from '@modelcontextprotocol/sdk/types.js';

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

interface RequestHandlers {
  _requestHandlers: Map<string, (request: unknown, extra: unknown) => Promise<ListToolsResult>>;
}

/**
 * Wraps the SDK's own tools/list handler, so names, descriptions, annotations and `_meta`
 * stay exactly as the SDK lists them and only the schemas change. Call it after the tools
 * are registered (the SDK installs its handler with the first tool).
 */
export function publishPlainSchemas(server: McpServer): void {
  // The SDK keeps request handlers in a private map and offers no getter; the schema tests
  // over tools/list fail at once if a later SDK moves it.
  const sdkListTools = (server.server as unknown as RequestHandlers)._requestHandlers.get('tools/list');
  if (!sdkListTools) throw new Error('publishPlainSchemas: register the tools first (no tools/list handler yet)');
  server.server.setRequestHandler(ListToolsRequestSchema, async (request, extra) => {
    const listed = await sdkListTools(request, extra);
    return {
      ...listed,
      tools: listed.tools.map((tool) => ({
        ...tool,
        inputSchema: plainJsonSchema(tool.inputSchema as Json) as ListToolsResult['tools'][number]['inputSchema'],
        ...(tool.outputSchema
          ? {
              outputSchema: plainJsonSchema(
                tool.outputSchema as Json,
              ) as ListToolsResult['tools'][number]['outputSchema'],
            }
          : {}),
      })),
    };
  });
}
