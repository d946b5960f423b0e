import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';

export type ToolExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * When the client sent a progressToken, reports progress in records after every page
 * (notifications/progress). Without a token it does nothing. Failures to notify never
 * fail the call.
 */
export function progressReporter(
  extra: ToolExtra,
  label: string,
): ((fetched: number, total: number) => void) | undefined {
  const token = extra._meta?.progressToken;
  if (token === undefined) return undefined;
  return (fetched, total) => {
    extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: fetched, total, message: `${label}: ${fetched} of ${total} records` },
      })
      .catch(() => {});
  };
}
