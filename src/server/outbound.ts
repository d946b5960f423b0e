/**
 * The one outbound guard: every JSON-RPC message the server writes passes here, whatever
 * tool, resource or SDK code produced it. Output is bounded at its source (rows, summaries,
 * resource pages); this is the guarantee behind it (docs/architecture.md, "Bounded output"):
 * - no message over MAX_MESSAGE_BYTES (the SDK's stdio reader drops the connection on a big
 *   one; hosts cap a tool result at 1 MB);
 * - in a tool result no text, and no serialised structuredContent, over MAX_TEXT_CHARS;
 * - in an error (a JSON-RPC error, an isError result) no run of characters long enough to be
 *   an echoed input: the SDK quotes unknown tool names and argument paths whole.
 * Long values are cut with cutText's marker, which says how long they were.
 */
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import { cutText, withoutControls } from '../errors.js';

export const MAX_MESSAGE_BYTES = 1_048_576;
export const MAX_TEXT_CHARS = 100_000;
/** Room left for the JSON-RPC frame and the markers when a message is shrunk. */
const MESSAGE_TARGET_BYTES = MAX_MESSAGE_BYTES - 16_384;
const ECHO_RUN = /\S{201,}/g;
/** Successively tighter caps on single strings, tried until a message fits. */
const CAPS = [MAX_TEXT_CHARS, 20_000, 4_000, 1_000, 200];

/** Makes `transport` write only bounded messages. */
export function guardOutbound<T extends Transport>(transport: T): T {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => send(boundMessage(message), options);
  return transport;
}

type Json = unknown;

export function boundMessage(message: JSONRPCMessage): JSONRPCMessage {
  let out = message as Record<string, unknown>;
  const error = out.error as { message?: unknown } | undefined;
  if (error && typeof error.message === 'string') {
    out = { ...out, error: { ...error, message: cutEchoes(error.message) } };
  }
  const result = out.result as Record<string, unknown> | undefined;
  if (result && typeof result === 'object') out = { ...out, result: boundTexts(result) };
  // Nearly every message is short: one of at most MAX_TEXT_CHARS characters of JSON holds no
  // longer text or structuredContent, and is under MAX_MESSAGE_BYTES even at 3 bytes of UTF-8
  // a character. One serialisation, where every tool result took two.
  const json = JSON.stringify(out);
  if (json.length <= MAX_TEXT_CHARS) return out as JSONRPCMessage;
  let bytes = Buffer.byteLength(json);
  if (result && typeof result === 'object') {
    const bounded = boundStructured(out.result as Record<string, unknown>);
    if (bounded !== out.result) {
      out = { ...out, result: bounded };
      bytes = byteLength(out);
    }
  }
  if (bytes <= MAX_MESSAGE_BYTES) return out as JSONRPCMessage;
  for (const cap of CAPS) {
    out = capStrings(out, cap) as Record<string, unknown>;
    if (byteLength(out) <= MESSAGE_TARGET_BYTES) return out as JSONRPCMessage;
  }
  return tooBig(out, byteLength(message)) as JSONRPCMessage;
}

/** A tool result's texts within MAX_TEXT_CHARS, without controls; error texts without echoes. */
function boundTexts(result: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(result.contents) || !Array.isArray(result.content)) return result; // resources/read: pages are bounded by bytes
  return {
    ...result,
    content: result.content.map((c: Record<string, unknown>) =>
      c && c.type === 'text' && typeof c.text === 'string'
        ? { ...c, text: withoutControls(cutText(result.isError ? cutEchoes(c.text) : c.text, MAX_TEXT_CHARS)) }
        : c,
    ),
  };
}

/** A tool result's structuredContent within MAX_TEXT_CHARS of JSON. */
function boundStructured(result: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(result.contents) || result.structuredContent === undefined) return result;
  if (JSON.stringify(result.structuredContent).length <= MAX_TEXT_CHARS) return result;
  return { ...result, structuredContent: shrinkStructured(result.structuredContent) };
}

/** Cuts long strings, then long lists (from the end), until the JSON fits MAX_TEXT_CHARS. */
function shrinkStructured(value: Json): Json {
  let out = value;
  for (const cap of CAPS.slice(1)) {
    out = capStrings(out, cap);
    if (JSON.stringify(out).length <= MAX_TEXT_CHARS) return out;
  }
  // Lists left too long: keep a prefix of each list that still fits, halving until it does.
  for (let keep = 256; keep >= 1; keep = Math.floor(keep / 2)) {
    const trimmed = capLists(out, keep);
    if (JSON.stringify(trimmed).length <= MAX_TEXT_CHARS) return trimmed;
  }
  return capLists(out, 0);
}

function cutEchoes(text: string): string {
  return text.replace(ECHO_RUN, (run) => cutText(run, 80));
}

function capStrings(value: Json, cap: number, depth = 0): Json {
  if (typeof value === 'string') return cutText(value, cap);
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.map((v) => capStrings(v, cap, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[cutText(k, cap)] = capStrings(v, cap, depth + 1);
  return out;
}

function capLists(value: Json, keep: number, depth = 0): Json {
  if (value === null || typeof value !== 'object' || depth > 64) return value;
  if (Array.isArray(value)) return value.slice(0, keep).map((v) => capLists(v, keep, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = capLists(v, keep, depth + 1);
  return out;
}

/** The last resort: a message that no cutting brings under the limit becomes an error. */
function tooBig(message: Record<string, unknown>, bytes: number): Json {
  const text =
    `The answer was ${bytes.toLocaleString('en-US')} bytes, over the ` +
    `${MAX_MESSAGE_BYTES.toLocaleString('en-US')}-byte limit of one message, and could not be cut to fit; ask ` +
    `for less (fewer rows or fields, a narrower query, or the next page).`;
  const result = message.result as Record<string, unknown> | undefined;
  if (result && !Array.isArray(result.contents)) {
    // 2026-07-28 results carry resultType, which the SDK added before this point.
    const typed = result.resultType === undefined ? {} : { resultType: result.resultType };
    return { jsonrpc: '2.0', id: message.id, result: { isError: true, content: [{ type: 'text', text }], ...typed } };
  }
  if ('id' in message && ('result' in message || 'error' in message))
    return { jsonrpc: '2.0', id: message.id, error: { code: -32603, message: text } };
  // A notification or a request of the server's own: sent without its parameters.
  return { jsonrpc: '2.0', method: message.method, ...('id' in message ? { id: message.id } : {}) };
}

function byteLength(value: Json): number {
  return Buffer.byteLength(JSON.stringify(value));
}
