/**
 * The one inbound guard: a tools/call whose arguments nest deeper than MAX_ARGUMENT_DEPTH is
 * answered here, before the SDK or zod walk them (a value nested 20,000 levels would overflow
 * the stack of any recursive walk). No tool argument nests deeper than 4 levels (a
 * query_report `where` item's list value), so the limit costs no real call anything. The
 * answer is the tool error any invalid argument gets (boundary.ts), naming the argument.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { cutText, oneLine, ReportsError } from '../errors.js';
import { toolErrorResult } from './boundary.js';

export const MAX_ARGUMENT_DEPTH = 32;

/** The first argument of `args` that nests more than `max` levels (objects and lists), if any. */
export function tooDeepArgument(args: unknown, max = MAX_ARGUMENT_DEPTH): string | undefined {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return undefined;
  for (const [name, value] of Object.entries(args)) {
    // Iterative, so the check itself cannot overflow: [value, depth of its containers].
    const stack: Array<[unknown, number]> = [[value, 0]];
    while (stack.length) {
      const [v, depth] = stack.pop() as [unknown, number];
      if (v === null || typeof v !== 'object') continue;
      if (depth + 1 > max) return name;
      for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
    }
  }
  return undefined;
}

/**
 * Makes the server behind `transport` answer too-deep tool arguments itself (see above). Called
 * once the server is connected: it wraps the handler the server set, through the transport's
 * own property (some transports forward `onmessage` to an inner one with an accessor).
 */
export function guardInbound<T extends Transport>(transport: T): T {
  const handler = transport.onmessage;
  if (!handler) return transport;
  transport.onmessage = (message, extra) => {
    const refusal = refuseTooDeep(message);
    if (refusal) void transport.send(refusal).catch(() => undefined);
    else handler(message, extra);
  };
  return transport;
}

function refuseTooDeep(message: JSONRPCMessage): JSONRPCMessage | undefined {
  const m = message as { id?: string | number; method?: string; params?: { name?: unknown; arguments?: unknown } };
  if (m.method !== 'tools/call' || m.id === undefined) return undefined;
  const name = tooDeepArgument(m.params?.arguments);
  if (name === undefined) return undefined;
  const tool = cutText(oneLine(String(m.params?.name)), 80);
  const param = cutText(oneLine(name), 80);
  const err = new ReportsError(
    'invalid_input',
    `${param}: nested too deeply (more than ${MAX_ARGUMENT_DEPTH} levels)`,
    {
      param,
    },
  );
  const result = toolErrorResult(err, [], () => undefined, tool);
  return { jsonrpc: '2.0', id: m.id, result } as JSONRPCMessage;
}
