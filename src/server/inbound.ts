/**
 * The one inbound guard, on every transport the server is connected to:
 * - a tools/call whose arguments nest deeper than MAX_ARGUMENT_DEPTH is answered here, before
 *   the SDK or zod walk them (a value nested 20,000 levels would overflow the stack of any
 *   recursive walk). No tool argument nests deeper than 4 levels (a query_report `where`
 *   item's list value), so the limit costs no real call anything. The answer is the tool
 *   error any invalid argument gets (boundary.ts), naming the argument;
 * - a client's cancel is noted (`onCancel`), so a call can tell it from a broken stream
 *   (joined-calls.ts), and, over stateless HTTP, delivered to the instance running the call
 *   it names (running-requests.ts).
 */
import {
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import { cutText, oneLine, ReportsError } from '../errors.js';
import { toolErrorResult } from './boundary.js';
import type { RunningRequests } from './running-requests.js';

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

export interface InboundOptions {
  /** A client cancelled request `id` (notifications/cancelled) of this instance. */
  onCancel(id: RequestId): void;
  /** Stateless HTTP: the person's requests, so a cancel reaches the instance running its call. */
  routing?: { owner: string; requests: RunningRequests };
}

/**
 * Makes the server behind `transport` answer too-deep tool arguments itself and note cancels
 * (see above). Called once the server is connected: it wraps the handler the server set,
 * through the transport's own property (some transports forward `onmessage` to an inner one
 * with an accessor).
 */
export function guardInbound<T extends Transport>(transport: T, options: InboundOptions): T {
  const handler = transport.onmessage;
  if (!handler) return transport;
  const { onCancel, routing } = options;
  const answering = new Set<RequestId>();
  const deliver = (message: JSONRPCMessage, extra?: Parameters<typeof handler>[1]) => {
    const cancelled = cancelledId(message);
    if (cancelled !== undefined) onCancel(cancelled);
    handler(message, extra);
  };
  transport.onmessage = (message, extra) => {
    const refusal = refuseTooDeep(message);
    if (refusal) return void transport.send(refusal).catch(() => undefined);
    const cancelled = cancelledId(message);
    if (routing && cancelled !== undefined && routing.requests.routeCancel(routing.owner, cancelled, message)) return;
    const id = requestId(message);
    if (routing && id !== undefined) {
      answering.add(id);
      routing.requests.register(routing.owner, id, deliver);
    }
    deliver(message, extra);
  };
  if (routing) {
    const send = transport.send.bind(transport);
    const release = (id: RequestId) => {
      answering.delete(id);
      routing.requests.release(routing.owner, id, deliver);
    };
    transport.send = (message, sendOptions) => {
      const id = (message as { id?: RequestId }).id;
      if (id !== undefined && ('result' in message || 'error' in message)) release(id);
      return send(message, sendOptions);
    };
    const onclose = transport.onclose;
    transport.onclose = () => {
      for (const id of answering) release(id);
      onclose?.();
    };
  }
  return transport;
}

function requestId(message: JSONRPCMessage): RequestId | undefined {
  const m = message as { id?: RequestId; method?: string };
  return m.method !== undefined && m.id !== undefined ? m.id : undefined;
}

function cancelledId(message: JSONRPCMessage): RequestId | undefined {
  const m = message as { id?: unknown; method?: string; params?: { requestId?: unknown } };
  if (m.method !== 'notifications/cancelled' || m.id !== undefined) return undefined;
  const id = m.params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}

/** A request of the 2026-07-28 protocol: its `_meta` envelope names the protocol version. */
export function isModernRequest(message: unknown): boolean {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } }).params?._meta;
  return typeof meta?.[PROTOCOL_VERSION_META_KEY] === 'string';
}

/**
 * The answer to a tools/call whose arguments nest too deeply; undefined for any other message.
 * Also used before the SDK's HTTP handler, which validates a request's shape before any
 * transport of ours sees it (http/serve.ts).
 */
export function refuseTooDeep(message: JSONRPCMessage): JSONRPCMessage | undefined {
  if (!message || typeof message !== 'object') return undefined;
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
  // A reply written here bypasses the SDK's encoding, which adds resultType for 2026-07-28.
  const typed = isModernRequest(message) ? { ...result, resultType: 'complete' } : result;
  return { jsonrpc: '2.0', id: m.id, result: typed } as JSONRPCMessage;
}
