/**
 * The too-big replacement (server/outbound.ts) is written by the server itself, after the SDK's
 * encoding: on 2026-07-28 it must carry the resultType the SDK gave the answer it replaces
 * (the SDK v2 client refuses a result without it), and on 2025-11-25 it must not add one.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { boundMessage, MAX_MESSAGE_BYTES } from '../../src/server/outbound.js';

/** A tool result no cutting brings under 1 MB: 200,000 short text blocks. */
function hugeResult(extra: Record<string, unknown>): JSONRPCMessage {
  const content = Array.from({ length: 200_000 }, (_, i) => ({ type: 'text', text: `row ${i}` }));
  return { jsonrpc: '2.0', id: 7, result: { content, ...extra } } as JSONRPCMessage;
}

describe('the too-big replacement', () => {
  it('keeps the resultType of a 2026-07-28 answer', () => {
    const out = boundMessage(hugeResult({ resultType: 'complete' })) as { id: number; result: Record<string, unknown> };
    expect(Buffer.byteLength(JSON.stringify(out))).toBeLessThan(MAX_MESSAGE_BYTES);
    expect(out.id).toBe(7);
    expect(out.result.resultType).toBe('complete');
    expect(out.result.isError).toBe(true);
    expect(JSON.stringify(out.result.content)).toContain('over the 1,048,576-byte limit of one message');
  });

  it('adds none to a 2025-11-25 answer', () => {
    const out = boundMessage(hugeResult({})) as { result: Record<string, unknown> };
    expect(out.result.isError).toBe(true);
    expect('resultType' in out.result).toBe(false);
  });
});
