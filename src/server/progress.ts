import type { ServerContext } from '@modelcontextprotocol/server';

/** What a tool handler is given besides its arguments: the request's id, signal and `_meta`. */
export type ToolContext = ServerContext;

/**
 * When the client sent a progressToken, reports progress in records after every page
 * (notifications/progress). Without a token it does nothing. Failures to notify never
 * fail the call.
 */
export function progressReporter(
  ctx: ToolContext,
  label: string,
): ((fetched: number, total: number) => void) | undefined {
  const token = ctx.mcpReq._meta?.progressToken;
  if (token === undefined) return undefined;
  return (fetched, total) => {
    ctx.mcpReq
      .notify({
        method: 'notifications/progress',
        params: { progressToken: token, progress: fetched, total, message: `${label}: ${fetched} of ${total} records` },
      })
      .catch(() => {});
  };
}
