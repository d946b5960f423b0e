/**
 * resources/read and prompts/get answered by our handlers in place of the SDK's
 * (docs/architecture.md, "Errors of lookups"): one not-found path for every URI and prompt.
 * The SDK's own answers print the code inside the message (a client then shows "MCP error
 * -32602: MCP error -32602: Resource nope://x not found"), carry no `data.uri`, and answer a
 * malformed URI -32603 "Invalid URL", an internal error for the caller's mistake. Here:
 * - a URI that is not a URI: -32602 (invalid params) naming it;
 * - a URI no resource or template of this server matches: -32002 (resource not found, as the
 *   2025-11-25 protocol this SDK speaks has it) with `data.uri`, and where resources are;
 * - an unknown prompt: -32602 naming it and the prompts there are, with `data.name`; arguments
 *   a prompt refuses: -32602 naming each, what was received and what is expected.
 * Messages are our own words: the code is never written into them. Reading a known resource
 * or prompt is the SDK's registered callback, as before.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  GetPromptRequestSchema,
  type GetPromptResult,
  ReadResourceRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { cutText, describeValue } from '../errors.js';
import { PROMPTS } from './prompts.js';

/** JSON-RPC error codes: MCP's resource not found, and invalid params. */
export const RESOURCE_NOT_FOUND = -32002;
export const INVALID_PARAMS = -32602;

/** What the SDK keeps of registered resources and prompts (private maps it offers no getter for). */
interface SdkInternals {
  _registeredResources: Record<string, { enabled: boolean; readCallback: ReadCallback }>;
  _registeredResourceTemplates: Record<
    string,
    {
      resourceTemplate: { uriTemplate: { match(uri: string): Record<string, string | string[]> | null } };
      readCallback: (uri: URL, variables: Record<string, string | string[]>, extra: unknown) => unknown;
    }
  >;
  _registeredPrompts: Record<string, { enabled: boolean; callback: (args: unknown, extra: unknown) => unknown }>;
}
type ReadCallback = (uri: URL, extra: unknown) => unknown;

/** A JSON-RPC error as the SDK sends it: `code`, `message` and `data` as they are. */
export function rpcError(code: number, message: string, data: Record<string, unknown>): Error {
  return Object.assign(new Error(message), { code, data });
}

/** A URI no resource of this server has: the same answer whatever the URI. */
export function resourceNotFound(uri: string, why?: string): Error {
  return rpcError(
    RESOURCE_NOT_FOUND,
    why ??
      `No resource ${describeValue(cutText(uri, 200))} on this server. Read the resourceUri a report tool ` +
        'answered with (reports://results/{resultId}, .csv for CSV pages), or one that resources/list gives.',
    { uri: cutText(uri, 200) },
  );
}

/**
 * Installs both handlers. Call it after every resource and prompt is registered (the SDK
 * installs its own handlers at the first registration; these replace them).
 */
export function answerLookups(server: McpServer): void {
  const sdk = server as unknown as SdkInternals;
  if (!sdk._registeredResources || !sdk._registeredResourceTemplates || !sdk._registeredPrompts)
    throw new Error('answerLookups: the SDK no longer keeps registered resources and prompts where it did');

  server.server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
    const raw = request.params.uri;
    if (!URL.canParse(raw))
      throw rpcError(
        INVALID_PARAMS,
        `uri: ${describeValue(cutText(raw, 200))} is not a URI; read a resourceUri a tool answered with ` +
          '(reports://results/{resultId}), or one that resources/list gives',
        { uri: cutText(raw, 200) },
      );
    const uri = new URL(raw);
    const href = uri.toString();
    const resource = sdk._registeredResources[href];
    if (resource?.enabled) return (await resource.readCallback(uri, extra)) as ReadResourceResult;
    for (const template of Object.values(sdk._registeredResourceTemplates)) {
      const variables = template.resourceTemplate.uriTemplate.match(href);
      if (variables) return (await template.readCallback(uri, variables, extra)) as ReadResourceResult;
    }
    throw resourceNotFound(raw);
  });

  const argsOf = new Map(PROMPTS.map((p) => [p.name, z.object(p.args)]));
  server.server.setRequestHandler(GetPromptRequestSchema, async (request, extra) => {
    const { name } = request.params;
    const prompt = sdk._registeredPrompts[name];
    if (!prompt?.enabled)
      throw rpcError(
        INVALID_PARAMS,
        `No prompt ${describeValue(cutText(name, 100))} on this server; its prompts are ` +
          `${Object.keys(sdk._registeredPrompts).join(', ')} (prompts/list gives their arguments)`,
        { name: cutText(name, 100) },
      );
    const schema = argsOf.get(name);
    const given = request.params.arguments ?? {};
    const parsed = schema ? schema.safeParse(given) : { success: true as const, data: given };
    if (!parsed.success) {
      const wrong = parsed.error.issues.map((issue) => {
        const arg = String(issue.path[0] ?? '');
        const expected = (schema?.shape[arg] as z.ZodType | undefined)?.description ?? 'a string';
        return `${arg}: ${describeValue((given as Record<string, unknown>)[arg])} expected ${expected}`;
      });
      throw rpcError(INVALID_PARAMS, `Prompt ${name} cannot start: ${wrong.join('; ')}`, { name });
    }
    return (await prompt.callback(parsed.data, extra)) as GetPromptResult;
  });
}
