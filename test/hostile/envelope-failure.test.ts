/**
 * Item 2 of the hostile-data issue: an answer carrying a ResponseError, or whose Success is
 * anything but the boolean true, is a failure, never "0 records, complete".
 */
import { afterEach, describe, expect, test } from 'vitest';
import { type HostileUpstream, startHostileUpstream } from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';
import { textOf } from '../helpers/mcp.js';

let upstream: HostileUpstream | undefined;
let live: LiveServer | undefined;
afterEach(async () => {
  await live?.close();
  await upstream?.close();
  live = upstream = undefined;
});

const ARGS = { DateStart: '20261101', DateEnd: '20261110' };

async function answerWith(body: unknown) {
  upstream = await startHostileUpstream(() => ({ body }));
  live = await startLive(upstream.url);
  return live.call('air_segments_by_date', ARGS);
}

describe('envelope failures are failures', () => {
  test('a ResponseError without any Success member is an error naming the service error', async () => {
    const result = await answerWith({
      ResponseMetadata: { HasCache: false },
      ResponseError: { ErrorCode: 'Timeout', Message: 'The report timed out', StatusCode: '500' },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toContain('air_segments_by_date failed (upstream)');
    expect(textOf(result)).toContain('Timeout, status 500');
    expect(textOf(result)).toContain('The report timed out');
    expect(textOf(result)).not.toContain('complete');
  });

  test.each([
    ['the string "false"', 'false', `Success 'false'`],
    ['the string "true"', 'true', `Success 'true'`],
    ['null', null, 'Success null'],
    ['1', 1, 'Success 1 (number)'],
    ['missing', undefined, 'no Success member'],
  ])(
    'Success %s with records and no ResponseError is an error, not an empty or complete page',
    async (_, success, said) => {
      const result = await answerWith({
        ResponseMetadata: { HasCache: false, ...(success === undefined ? {} : { Success: success }) },
        ResponseReport: { Item: [] },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        `air_segments_by_date failed (upstream): /AirSegmentsByDate answered without success: its ResponseMetadata has ${said} where true is expected, and no ResponseError saying why; the page is treated as failed, not as empty.`,
      );
    },
  );

  test('Success true together with a ResponseError is a failure too', async () => {
    const result = await answerWith({
      ResponseMetadata: { Success: true },
      ResponseError: { ErrorCode: 'Partial', Message: 'Some data sources failed' },
      ResponseReport: [],
    });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('Some data sources failed');
  });
});

describe('a ResponseError of any JSON type is told as text (issue 18)', () => {
  test.each([
    [
      'object members',
      { ErrorCode: { Code: 42 }, Message: { Text: 'Bad range', Field: 'DateStart' }, StatusCode: 500 },
      ' ({"Code":42}, status 500): "{"Text":"Bad range","Field":"DateStart"}"',
    ],
    ['list members', { ErrorCode: ['E1', 'E2'], Message: [1, true, null] }, ' (["E1","E2"]): "[1,true,null]"'],
    ['number and boolean members', { ErrorCode: 7, Message: false }, ' (7): "false"'],
    ['a plain string', 'Service unavailable', ': "Service unavailable"'],
    ['a list', [{ Message: 'first' }], ': "[{"Message":"first"}]"'],
  ])('%s', async (_, responseError, said) => {
    const result = await answerWith({ ResponseMetadata: { Success: false }, ResponseError: responseError });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      `air_segments_by_date failed (upstream): The service refused the request to /AirSegmentsByDate${said}.`,
    );
    expect(textOf(result)).not.toContain('[object Object]');
  });
});
