import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findCuts, PIECE_BYTES, parseInPieces } from '../../src/upstream/json-pieces.js';
import { client, service } from './harness.js';

/** Texts that look like JSON's own structure, escapes and non-Latin-1 characters. */
const nasty = fc.oneof(
  fc.string({ unit: fc.constantFrom('}', '{', ']', '[', ',', ':', '"', '\\', ' ', 'a', '€', '\n'), maxLength: 12 }),
  fc.constantFrom('},{', '},{"ResponseReport":[', '"]}', '\\"},{\\"', '{}', '},{},{'),
  fc.string({ unit: 'binary', maxLength: 8 }),
);
const value = fc.oneof(nasty, fc.jsonValue({ maxDepth: 3 }));
const record = fc.dictionary(fc.oneof(nasty, fc.constantFrom('Item', 'ResponseReport')), value, { maxKeys: 6 });

/** An envelope of either kind, its metadata before or after the records, compact or indented. */
const envelope = fc.record({
  records: fc.array(record, { minLength: 0, maxLength: 40 }),
  inItem: fc.boolean(),
  metaFirst: fc.boolean(),
  indent: fc.constantFrom(0, 0, 2),
  extra: fc.dictionary(nasty, value, { maxKeys: 2 }),
});

interface EnvelopeArgs {
  records: Record<string, unknown>[];
  inItem: boolean;
  metaFirst: boolean;
  indent: number;
  extra: Record<string, unknown>;
}

function text(e: EnvelopeArgs): string {
  const meta = { Success: true, PagingMetadata: { TotalRecords: e.records.length }, ...e.extra };
  const report = e.inItem ? { Item: e.records } : e.records;
  const body = e.metaFirst
    ? { ResponseMetadata: meta, ResponseReport: report }
    : { ResponseReport: report, ResponseMetadata: meta };
  return JSON.stringify(body, null, e.indent);
}

/** How many cuts a compact list of these records takes: a comma between records is cut once
 *  the bytes since the list's start or the last cut exceed `pieceBytes` (written apart from
 *  the scan, from each record's own length). */
function expectedCuts(records: unknown[], pieceBytes: number): number {
  let cuts = 0;
  let sinceCut = 0;
  for (let k = 0; k + 1 < records.length; k++) {
    sinceCut += Buffer.byteLength(JSON.stringify(records[k])) + 1;
    if (sinceCut > pieceBytes) {
      cuts++;
      sinceCut = 0;
    }
  }
  return cuts;
}

/** parseInPieces with small pieces, checking that the bytes are left as they were. */
function pieces(body: string | Buffer, pieceBytes = 64): unknown {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const before = Buffer.from(bytes);
  const parsed = parseInPieces(bytes, pieceBytes);
  expect(bytes.equals(before)).toBe(true);
  return parsed;
}

describe('parseInPieces', () => {
  it('gives what JSON.parse gives for any envelope, and cuts every large compact one', () => {
    let cut = 0;
    fc.assert(
      fc.property(envelope, (e) => {
        const body = text(e);
        const parsed = pieces(body);
        if (parsed !== undefined) {
          cut++;
          expect(parsed).toStrictEqual(JSON.parse(body));
        }
        if (e.indent === 0 && Buffer.byteLength(body) > 2 * 64)
          expect(parsed !== undefined).toBe(expectedCuts(e.records, 64) >= 2);
      }),
      { numRuns: 400, seed: 202_611 },
    );
    expect(cut).toBeGreaterThan(100);
  });

  it("gives what JSON.parse gives when cuts are found by the records' first key, nested lists of the same key included", () => {
    // A report's records all begin with one key; some hold lists of objects that begin with
    // it too (a cut found there leaves a bracket open: the piece does not parse), and texts
    // that spell the pattern (escaped in JSON: never the pattern's bytes).
    // Values short enough that several records fit the small pieces' search window.
    const small = fc.oneof(nasty, fc.integer(), fc.boolean(), fc.constant(null));
    const nested = fc.array(fc.record({ ServiceRef: small, Seg: small }), { maxLength: 3 });
    const reportRecord = fc
      .tuple(
        fc.oneof(small, fc.constant('x},{"ServiceRef":1')),
        fc.dictionary(fc.oneof(nasty, fc.constantFrom('Item', 'ResponseReport')), small, { maxKeys: 3 }),
        fc.option(nested, { freq: 4 }),
      )
      .map(([first, rest, segments]) => ({ ServiceRef: first, ...rest, ...(segments ? { Segments: segments } : {}) }));
    const reportEnvelope = fc.record({
      records: fc.array(reportRecord, { minLength: 0, maxLength: 40 }),
      inItem: fc.boolean(),
      metaFirst: fc.boolean(),
      indent: fc.constant(0),
      extra: fc.dictionary(nasty, value, { maxKeys: 2 }),
    });
    let jumped = 0;
    fc.assert(
      fc.property(reportEnvelope, (e) => {
        const body = text(e);
        const parsed = pieces(body);
        if (parsed !== undefined) expect(parsed).toStrictEqual(JSON.parse(body));
        const cuts = findCuts(Buffer.from(body), 0, 64);
        if (parsed !== undefined && cuts?.between.includes(-1)) jumped++;
      }),
      { numRuns: 400, seed: 202_612 },
    );
    expect(jumped).toBeGreaterThan(50);
  });

  it('never splices records from another list that begins with the same key', () => {
    const rec = (i: number) => `{"ServiceRef":${i},"Note":"n${i}"}`;
    const list = (from: number, n: number) => Array.from({ length: n }, (_, i) => rec(from + i)).join(',');
    const bodies = [
      // The records end before the next cut; a list after them holds the pattern.
      `{"ResponseReport":[${list(0, 6)}],"Other":[${list(100, 40)}]}`,
      `{"ResponseReport":{"Item":[${list(0, 6)}],"More":[${list(100, 40)}]},"ResponseMetadata":{}}`,
      // Every record holds a long list whose objects begin with the same key.
      `{"ResponseReport":[${Array.from({ length: 8 }, (_, i) => `{"ServiceRef":${i},"Segs":[${list(10 * i, 10)}]}`).join(',')}]}`,
    ];
    for (const body of bodies) {
      const parsed = pieces(body);
      if (parsed !== undefined) expect(parsed).toStrictEqual(JSON.parse(body));
    }
    // Plain records are cut by the pattern and read back whole and in order.
    const plain = `{"ResponseMetadata":{"Success":true},"ResponseReport":[${list(0, 60)}]}`;
    expect(findCuts(Buffer.from(plain), 0, 64)?.between).toContain(-1);
    expect(pieces(plain)).toStrictEqual(JSON.parse(plain));
  });

  it('parses a real-sized page of air segments in pieces, records in order', () => {
    const records = Array.from({ length: 1_500 }, (_, i) => ({
      ServiceRef: String(10_000_000 + i),
      RecordLocator: `L${i.toString(36).toUpperCase().padStart(5, '0')}`,
      DepartureDate: `/Date(${1_790_000_000_000 + i * 60_000}-0700)/`,
      Remarks: i % 7 === 0 ? `seat },{ "row": ${i}, café ✈` : `remark ${i}`,
      FareAmount: i * 1.25,
    }));
    const body = JSON.stringify({ ResponseMetadata: { Success: true }, ResponseReport: { Item: records } });
    expect(Buffer.byteLength(body)).toBeGreaterThan(2 * PIECE_BYTES);
    const bytes = Buffer.from(body);
    expect(parseInPieces(bytes)).toStrictEqual(JSON.parse(body));
  });

  it('leaves whole what JSON.parse would read differently or refuse', () => {
    const list = Array.from({ length: 30 }, (_, i) => `{"Seq":${i},"Note":"n${i}"}`).join(',');
    const other = Array.from({ length: 30 }, (_, i) => `{"Seq":${100 + i}}`).join(',');
    const refused = [
      // A second ResponseReport (JSON.parse keeps the last), plainly and escaped.
      `{"ResponseReport":[${list}],"ResponseReport":[${other}]}`,
      `{"ResponseReport":[${list}],"Response\\u0052eport":[${other}]}`,
      `{"ResponseReport":{"Item":[${list}],"Item":[${other}]}}`,
      // The records' list behind an escaped key.
      `{"Response\\u0052eport":[${list}]}`,
      // Not JSON: a comma missing between records, a list cut short, a raw control character.
      `{"ResponseReport":[${list.replace('},{"Seq":15', '}{"Seq":15')}]}`,
      `{"ResponseReport":[${list}`,
      `{"ResponseReport":[${list.replace('n20', 'n\u000120')}]}`,
      `{"ResponseReport":[${list}]}}`,
      // No list where records are.
      `{"ResponseReport":{"Item":{"Seq":1,"Note":"${'x'.repeat(2_000)}"}}}`,
      `[${list}]`,
    ];
    for (const body of refused) {
      const parsed = pieces(body);
      let whole: unknown;
      try {
        whole = JSON.parse(body);
      } catch {
        whole = undefined;
      }
      // Where it does parse, it is never another value than JSON.parse's.
      if (parsed !== undefined) expect(parsed).toStrictEqual(whole);
      if (whole === undefined) expect(parsed).toBeUndefined();
    }
    expect(pieces(`{"ResponseReport":[${list}],"ResponseReport":[${other}]}`)).toBeUndefined();
    expect(pieces(`{"ResponseReport":[${list.replace('},{"Seq":15', '}{"Seq":15')}]}`)).toBeUndefined();
  });

  it('reads a body after a byte order mark, as the text path does', () => {
    const list = Array.from({ length: 30 }, (_, i) => `{"Seq":${i}}`).join(',');
    const body = `{"ResponseMetadata":{"Success":true},"ResponseReport":[${list}]}`;
    const parsed = pieces(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(body)]));
    expect(parsed).toStrictEqual(JSON.parse(body));
  });
});

/** `body` answered by a service over HTTP, read through the client as one page of `records`. */
async function largePage(body: string, records: number, envelope: 'item' | 'collection') {
  const svc = await service({ total: records, fault: () => ({ status: 200, body, contentType: 'application/json' }) });
  return client(svc.url).getPage({ path: '/Report', query: {}, offset: 0, limit: records, envelope });
}

describe('a large page through the client', () => {
  it('answers the records the service sent, nested and two-byte ones included', async () => {
    const records = Array.from({ length: 1_000 }, (_, i) => ({
      Seq: i,
      Remarks: i % 5 === 0 ? `"},{"Seq":-1} ✈ ${i}` : `remark ${'x'.repeat(i % 300)}`,
      Segments: {
        AirSegments: [
          { Carrier: 'LH', Seq: i },
          { Carrier: 'SQ', Note: '],[' },
        ],
      },
    }));
    const body = JSON.stringify({
      ResponseMetadata: { Success: true, PagingMetadata: { TotalRecords: 1_000, ResponseRecords: 1_000 } },
      ResponseReport: { Item: records },
    });
    expect(Buffer.byteLength(body)).toBeGreaterThan(4 * PIECE_BYTES);
    const page = await largePage(body, 1_000, 'item');
    expect(page.totalRecords).toBe(1_000);
    expect(page.records).toStrictEqual(records);
  });

  it('still redacts an echo of the key from a large page', async () => {
    const records = Array.from({ length: 700 }, (_, i) => ({
      Seq: i,
      Debug: i === 350 ? 'request key test-secret-key' : `line ${'y'.repeat(200)}`,
    }));
    const body = JSON.stringify({ ResponseMetadata: { Success: true }, ResponseReport: records });
    const page = await largePage(body, 700, 'collection');
    expect(page.records).toHaveLength(700);
    expect(JSON.stringify(page.records)).not.toContain('test-secret-key');
    expect(page.records[350].Debug).toMatch(/^request key \S+$/);
    expect(page.records[349]).toStrictEqual(records[349]);
  });
});
