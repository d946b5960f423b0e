/**
 * Issue 18: an argument nested thousands of levels deep (DateStart, maxRecords,
 * OwningCompanyCode, query_report's where, export_report's...) is refused by name before any
 * recursive walk, in every tool: "DateStart: nested too deeply (more than 32 levels)", never
 * "Maximum call stack size exceeded", and nothing is sent to the service.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MAX_ARGUMENT_DEPTH } from '../../src/server/inbound.js';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';

const NOTHING_SENT = 'Nothing was sent to the service; correct the argument and call again.';

/** `levels` lists (or objects) inside each other around a leaf. */
function nested(levels: number, asObject: boolean, leaf: unknown = 'today'): unknown {
  let v = leaf;
  for (let i = 0; i < levels; i++) v = asObject ? { a: v } : [v];
  return v;
}

let s: InProcess;
let tools: Tool[];
beforeAll(async () => {
  s = await startInProcess();
  tools = (await s.client.listTools()).tools;
});
afterAll(async () => {
  await s?.close();
});

describe('arguments nested too deeply', () => {
  test.each([5_000, 20_000])('%i levels in every argument of every tool: refused by name', async (levels) => {
    let calls = 0;
    const before = s.rt.sandbox!.requests.length;
    for (const tool of tools)
      for (const name of Object.keys(tool.inputSchema.properties ?? {})) {
        const result = await s.call(tool.name, { [name]: nested(levels, calls % 2 === 1) });
        calls++;
        expect(result.isError, `${tool.name}.${name}`).toBe(true);
        expect(textOf(result)).toBe(
          `Invalid argument for ${tool.name}: ${name}: nested too deeply (more than 32 levels). ${NOTHING_SENT}`,
        );
      }
    expect(calls).toBeGreaterThan(100);
    expect(s.rt.sandbox!.requests.length).toBe(before);
  });

  test('the named examples: DateStart, maxRecords, OwningCompanyCode, where, orderBy', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['air_segments_by_date', { DateStart: nested(20_000, false), DateEnd: 'today' }, 'DateStart'],
      [
        'air_segments_by_date',
        { DateStart: 'today', DateEnd: 'today', maxRecords: nested(5_000, true, 1) },
        'maxRecords',
      ],
      ['air_segments_by_date', { DateStart: 'today', OwningCompanyCode: nested(20_000, false) }, 'OwningCompanyCode'],
      ['query_report', { resultId: 'r_x', where: [{ field: 'a', op: 'eq', value: nested(20_000, false) }] }, 'where'],
      ['export_report', { resultId: 'r_x', format: 'csv', orderBy: nested(20_000, true) }, 'orderBy'],
    ];
    for (const [tool, args, name] of cases)
      expect(textOf(await s.call(tool, args))).toBe(
        `Invalid argument for ${tool}: ${name}: nested too deeply (more than 32 levels). ${NOTHING_SENT}`,
      );
  });

  test(`${MAX_ARGUMENT_DEPTH} levels are left to the schema, which names what it expects; one more is too deep`, async () => {
    const at = await s.call('air_segments_by_date', { DateStart: nested(MAX_ARGUMENT_DEPTH, false), DateEnd: 'today' });
    expect(textOf(at)).toContain('DateStart: [[[[');
    expect(textOf(at)).toContain('is not a date; use YYYYMMDD');
    const over = await s.call('air_segments_by_date', { DateStart: nested(MAX_ARGUMENT_DEPTH + 1, false) });
    expect(textOf(over)).toBe(
      `Invalid argument for air_segments_by_date: DateStart: nested too deeply (more than 32 levels). ${NOTHING_SENT}`,
    );
  });
});
