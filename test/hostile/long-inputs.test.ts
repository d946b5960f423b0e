/**
 * Item 7 of the hostile-data issue: an error names the input and quotes what was received,
 * cut short with its length; a 1 MB resultId, argument name or value never comes back whole.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type InProcess, startInProcess, textOf } from '../helpers/mcp.js';

const HUGE = 1_000_000;
const huge = (c: string) => c.repeat(HUGE);
const MARK = '[cut: 1,000,000 characters in all]';

let s: InProcess;
let resultId: string;
beforeAll(async () => {
  s = await startInProcess();
  const r = await s.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261102', rowLimit: 1 });
  resultId = (r.structuredContent as { resultId: string }).resultId;
});
afterAll(async () => {
  await s?.close();
});

/** The error text of a call, checked to be short and to name `param`. */
async function errorOf(tool: string, args: Record<string, unknown>, param: string): Promise<string> {
  let text: string;
  try {
    const result = await s.call(tool, args);
    expect(result.isError, textOf(result).slice(0, 300)).toBe(true);
    text = textOf(result);
  } catch (err) {
    // A protocol-level error (unknown tool) is an answer too: its message is what comes back.
    text = (err as Error).message;
  }
  expect(text.length, text.slice(0, 300)).toBeLessThan(3_000);
  expect(text).toContain(param);
  return text;
}

describe('long inputs are cut in error texts', () => {
  test('a 1 MB resultId to query_report and continue_report', async () => {
    for (const tool of ['query_report', 'continue_report']) {
      const text = await errorOf(tool, { resultId: huge('r') }, 'No result');
      expect(text).toContain(`'rrrrrrrr`);
      expect(text).toContain(MARK);
    }
  });

  test('a 1 MB argument name', async () => {
    const text = await errorOf(
      'air_segments_by_date',
      { DateStart: '20261101', DateEnd: '20261102', [huge('Q')]: 1 },
      'unknown parameter',
    );
    expect(text).toContain(MARK);
  });

  test('a 1 MB value of a date, a list and a free-form parameter name and value', async () => {
    expect(await errorOf('air_segments_by_date', { DateStart: huge('9'), DateEnd: '20261102' }, 'DateStart')).toContain(
      '[cut: 1,000,000 characters in all]',
    );
    await errorOf('find_bookings', { parameters: { [huge('K')]: 'v' } }, 'parameters');
    expect(
      await errorOf('find_bookings', { parameters: { RecordLocator: huge('v') } }, 'parameters.RecordLocator'),
    ).toContain(MARK);
    expect(await errorOf('find_bookings', { parameters: { Offset: huge('5') } }, 'parameters.Offset')).toContain(MARK);
    expect(await errorOf('qc_comments_for_consultant', { Consultant: huge('c') }, 'Consultant')).toContain(MARK);
  });

  test('a 1 MB field name in query_report where, groupBy and fields', async () => {
    const where = await errorOf(
      'query_report',
      { resultId, where: [{ field: huge('F'), op: 'eq', value: 1 }] },
      'where[0].field',
    );
    expect(where).toContain(MARK);
    await errorOf('query_report', { resultId, groupBy: [huge('G')] }, 'groupBy');
    await errorOf(
      'query_report',
      { resultId, where: [{ field: 'Account', op: 'eq', value: huge('V') }], limit: -1 },
      'limit',
    );
  });

  test('a 1 MB tool name', async () => {
    await errorOf(huge('t'), {}, 'not found');
  });

  test('a 1 MB resource URI', async () => {
    let text = '';
    try {
      const r = await s.client.readResource({ uri: `reports://results/${huge('z')}` });
      text = JSON.stringify(r);
    } catch (err) {
      text = (err as Error).message;
    }
    expect(text.length, text.slice(0, 300)).toBeLessThan(3_000);
  });
});
