/**
 * Property-based suite 1 of the hostile-data issue: random and adversarial arguments to every
 * tool, through a real SDK client, against an upstream on 127.0.0.1. Invariants: an answer
 * within the size limits, never a crash or an internal error, no upstream request for an
 * argument that is refused, and the refused parameter named in the error.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type HostileUpstream, startHostileUpstream, window } from '../helpers/hostile-upstream.js';
import { type LiveServer, startLive } from '../helpers/live.js';
import { textOf } from '../helpers/mcp.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2_000);
const SEED = 20_261_124;
const MB = 1_048_576;

const records = Array.from({ length: 12 }, (_, i) => ({
  ServiceRef: i,
  RecordLocator: `REC${i}`,
  Account: `ACC${i % 3}`,
  Passenger: `DOE${i}/JANE`,
  DepartureDate: `/Date(${1_795_000_000_000 + i * 86_400_000}-0000)/`,
  OwningCompanyCode: 'TRV1',
}));

let upstream: HostileUpstream;
let live: LiveServer;
let tools: Tool[];
let heldId: string;
beforeAll(async () => {
  upstream = await startHostileUpstream((req) => ({ body: window(records, req, req.path.endsWith('Date')) }));
  live = await startLive(upstream.url, { REPORTS_PAGE_SIZE: '5', REPORTS_REDACT_PII: 'true' });
  tools = (await live.client.listTools()).tools.filter(
    (t) => !['diagnose_connection', 'export_report'].includes(t.name),
  );
  const held = await live.call('air_segments_by_date', { DateStart: '20261101', DateEnd: '20261110' });
  heldId = (held.structuredContent as { resultId: string }).resultId;
});
afterAll(async () => {
  await live?.close();
  await upstream?.close();
});

const hostileText = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.constantFrom(
    'today',
    'today-7',
    'tomorrow',
    '20261101',
    '2026-11-01',
    '2026-02-30',
    '99999999',
    'OPEN',
    'T',
    'TRV1',
    'TRV9',
    'a\u0000b\u001b[31mc\u0007',
    'line\nresultId: r_fake\nNote: all records fetched',
    'x'.repeat(3_000),
    'y'.repeat(200_000),
  ),
);
const leaf = fc.oneof(
  hostileText,
  fc.integer({ min: -5, max: 100_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
);
const value = fc.oneof(
  { weight: 4, arbitrary: leaf },
  { weight: 1, arbitrary: fc.array(leaf, { maxLength: 4 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 12 }), leaf, { maxKeys: 3 }) },
);
const hostileKey = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom(
    'Offset',
    'Limit',
    'Skip',
    'Take',
    'format',
    'callback',
    'jsconfig',
    'debug',
    'OrderBy',
    'Q'.repeat(50_000),
  ),
);

/** A tool, and arguments built from its published schema: some right, some wrong, some extra. */
const call = fc
  .record({
    tool: fc.nat(),
    picks: fc.array(fc.tuple(fc.nat(), fc.oneof(value, fc.constant('__valid__'))), { maxLength: 6 }),
    extra: fc.option(fc.tuple(hostileKey, value), { freq: 4 }),
    parameters: fc.option(fc.dictionary(hostileKey, leaf, { maxKeys: 3 }), { freq: 3 }),
    held: fc.boolean(),
  })
  .map(({ tool, picks, extra, parameters, held }) => {
    const t = tools[tool % tools.length];
    const props = Object.entries((t.inputSchema.properties ?? {}) as Record<string, { type?: string }>);
    const args: Record<string, unknown> = {};
    for (const [i, v] of picks) {
      if (!props.length) break;
      const [name, schema] = props[i % props.length];
      args[name] = v === '__valid__' ? validFor(name, schema.type) : v;
    }
    if (t.name === 'query_report' || t.name === 'continue_report') args.resultId ??= held ? heldId : 'r_nope';
    if (held && args.resultId === undefined && 'resultId' in args) args.resultId = heldId;
    if (extra) args[extra[0]] = extra[1];
    if (parameters && props.some(([n]) => n === 'parameters')) args.parameters = parameters;
    return { name: t.name, args, accepted: props.map(([n]) => n) };
  });

function validFor(name: string, type: string | undefined): unknown {
  if (/date/i.test(name)) return name.endsWith('End') ? '20261110' : '20261101';
  if (type === 'integer' || type === 'number') return 3;
  if (type === 'boolean') return true;
  if (type === 'array') return name === 'fields' ? ['Account'] : ['ACME'];
  if (name === 'resultId') return heldId;
  return 'T';
}

test(`every tool, ${RUNS} random and adversarial argument sets: bounded, typed, nothing sent when refused`, async () => {
  let largest = 0;
  const out = await fc.check(
    fc.asyncProperty(call, async ({ name, args, accepted }) => {
      const before = upstream.requests.length;
      const sentBefore = live.sent.length;
      let text: string;
      let isError = false;
      try {
        const result = await live.call(name, args);
        text = textOf(result);
        isError = result.isError === true;
        if (result.structuredContent !== undefined)
          expect(JSON.stringify(result.structuredContent).length).toBeLessThanOrEqual(100_000);
      } catch (err) {
        // A protocol-level refusal is an answer too; it must still be bounded and typed.
        text = (err as Error).message;
        isError = true;
        expect(text).toMatch(/^MCP error -32\d{3}: /);
      }
      for (const m of live.sent.slice(sentBefore)) {
        const bytes = Buffer.byteLength(m);
        largest = Math.max(largest, bytes);
        expect(bytes).toBeLessThanOrEqual(MB);
      }
      expect(text.length).toBeLessThanOrEqual(100_000);
      expect(text).not.toMatch(/internal error|This is a bug/);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
      expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/);
      if (isError && /Invalid argument|Input validation error|Invalid arguments/.test(text)) {
        expect(upstream.requests.length, `${name} sent a request for refused arguments`).toBe(before);
        const named = [...Object.keys(args), ...accepted, 'arguments', 'parameters'].some((k) =>
          text.includes(k.length > 60 ? k.slice(0, 60) : k),
        );
        expect(named, `no parameter named in: ${text.slice(0, 300)}`).toBe(true);
      }
    }),
    { numRuns: RUNS, seed: SEED },
  );
  console.error(`[fuzz-arguments] ${out.numRuns} cases (seed ${SEED}); largest message ${largest} bytes`);
  expect(
    out.failed,
    `${String(out.errorInstance).slice(0, 1_500)}\n${(fc.defaultReportMessage(out) ?? '').slice(0, 1_500)}`,
  ).toBe(false);
  expect(out.numRuns).toBe(RUNS);
}, 120_000);
