import type { CallToolResult } from '@modelcontextprotocol/server';
import { oneLine, ReportsError, redact } from '../errors.js';
import type { Logger } from '../log.js';
import { whileCalling } from './quiet.js';

/**
 * The one place where a thrown error becomes an MCP tool error (docs/architecture.md):
 * handlers only throw; the assistant gets an `isError` result whose text says what went
 * wrong and what to do next. Secrets are redacted once more on the way out.
 */
export function toolErrorResult(
  err: unknown,
  secrets: readonly string[],
  log: Logger,
  tool: string,
  mask: (text: string) => string = (text) => text,
): CallToolResult {
  let text: string;
  if (err instanceof ReportsError) {
    // Messages of invalidInput() end without a full stop; end the sentence before the next one.
    const sentence = /[.!?]$/.test(err.message) ? err.message : `${err.message}.`;
    text =
      err.kind === 'invalid_input'
        ? `Invalid argument for ${tool}: ${sentence} Nothing was sent to the service; correct the argument and call again.`
        : `${tool} failed (${err.kind}): ${err.message}`;
  } else {
    const message = err instanceof Error ? err.message : String(err);
    log(`unexpected error in ${tool}: ${err instanceof Error ? err.stack : message}`);
    text = `${tool} failed with an internal error: ${message}. This is a bug in travel-reports-mcp; the details are in its log (stderr).`;
  }
  // A message may quote the service, which may quote a traveller (REPORTS_REDACT_PII).
  // One line: the message may quote the service, whose text must not start lines of its own.
  return { isError: true, content: [{ type: 'text', text: oneLine(mask(redact(text, secrets))) }] };
}

/** A tool's handler as registered: what it throws answered as a tool error, and counted as a call
 *  running while it runs (quiet.ts: the work that waits until calls are quiet). */
export function guard<A extends unknown[]>(
  tool: string,
  secrets: readonly string[],
  log: Logger,
  handler: (...args: A) => Promise<CallToolResult>,
  mask?: (text: string) => string,
): (...args: A) => Promise<CallToolResult> {
  return (...args: A) =>
    whileCalling(async () => {
      try {
        return await handler(...args);
      } catch (err) {
        return toolErrorResult(err, secrets, log, tool, mask);
      }
    });
}
