/**
 * resources/read and prompts/get answered by our handlers in place of the SDK's
 * (docs/architecture.md, "Errors of lookups"): one not-found path for every URI and prompt.
 * The SDK's own answers print the code inside the message (a client then shows "MCP error
 * -32602: MCP error -32602: Resource nope://x not found"), carry no `data.uri`, and answer a
 * malformed URI -32603 "Invalid URL", an internal error for the caller's mistake. Here:
 * - a URI that is not a URI: -32602 (invalid params) naming it;
 * - a URI no resource or template of this server matches: resource not found with `data.uri`,
 *   and where resources are. SDK v2 answers it -32602 for every client (2026-07-28 made it so;
 *   a 2025-11-25 client got -32002 before), so a malformed URI's data carries a second key: a
 *   v2 client reads a -32602 whose data is exactly `{uri}` as not-found;
 * - an unknown prompt: -32602 naming it and the prompts there are, with `data.name`; arguments
 *   a prompt refuses: -32602 naming each, what was received and what is expected.
 * Messages are our own words: the code is never written into them. Reading a known resource
 * or prompt is the SDK's registered callback, as before.
 */
import {
  type GetPromptResult,
  type McpServer,
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  ResourceNotFoundError,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { cutText, describeValue } from '../errors.js';
import { PROMPTS } from './prompts.js';

/** What the SDK keeps of registered resources and prompts (private maps it offers no getter for). */
interface SdkInternals {
  _registeredResources: Record<string, { enabled: boolean; readCallback: ReadCallback }>;
  _registeredResourceTemplates: Record<
    string,
    {
      resourceTemplate: { uriTemplate: { match(uri: string): Record<string, string | string[]> | null } };
      readCallback: (uri: URL, variables: Record<string, string | string[]>, ctx: unknown) => unknown;
    }
  >;
  _registeredPrompts: Record<string, { enabled: boolean; handler: (args: unknown, ctx: unknown) => unknown }>;
}
type ReadCallback = (uri: URL, ctx: unknown) => unknown;

/** A request's parameter the caller got wrong: -32602 with our words and `data` as it is. */
export function invalidParams(message: string, data: Record<string, unknown>): Error {
  return new ProtocolError(ProtocolErrorCode.InvalidParams, message, data);
}

/** A URI no resource of this server has: the same answer whatever the URI. */
export function resourceNotFound(uri: string, why?: string): Error {
  return new ResourceNotFoundError(
    cutText(uri, 200),
    why ??
      `No resource ${describeValue(cutText(uri, 200))} on this server. Read the resourceUri a report tool ` +
        'answered with (reports://results/{resultId}, .csv for CSV pages), or one that resources/list gives.',
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

  server.server.setRequestHandler('resources/read', async (request, ctx) => {
    const raw = request.params.uri;
    if (!URL.canParse(raw))
      throw invalidParams(
        `uri: ${describeValue(cutText(raw, 200))} is not a URI; read a resourceUri a tool answered with ` +
          '(reports://results/{resultId}), or one that resources/list gives',
        { uri: cutText(raw, 200), expected: 'a URI' },
      );
    const uri = new URL(raw);
    const href = uri.toString();
    const resource = sdk._registeredResources[href];
    if (resource?.enabled) return (await resource.readCallback(uri, ctx)) as ReadResourceResult;
    for (const template of Object.values(sdk._registeredResourceTemplates)) {
      const variables = template.resourceTemplate.uriTemplate.match(href);
      if (variables) return (await template.readCallback(uri, variables, ctx)) as ReadResourceResult;
    }
    throw resourceNotFound(raw);
  });

  const argsOf = new Map(PROMPTS.map((p) => [p.name, z.object(p.args)]));
  server.server.setRequestHandler('prompts/get', async (request, ctx) => {
    const { name } = request.params;
    const prompt = sdk._registeredPrompts[name];
    if (!prompt?.enabled)
      throw invalidParams(
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
      throw invalidParams(`Prompt ${name} cannot start: ${wrong.join('; ')}`, { name });
    }
    return (await prompt.handler(parsed.data, ctx)) as GetPromptResult;
  });
}
