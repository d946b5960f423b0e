import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset } from '../../src/sandbox/data.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { call, query, recordsOf } from './helpers.js';

const NOW = new Date('2026-11-15T08:00:00Z');
let sb: Sandbox;

beforeAll(async () => {
  sb = await startSandbox({ size: 500, now: () => NOW });
});
afterAll(async () => {
  await sb.close();
});

const at = { date: NOW };

/** Minimal RFC 4180 parser for the assertions. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r') continue;
    else if (ch === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
    } else cell += ch;
  }
  return rows;
}

describe('determinism', () => {
  it('the same seed gives byte-identical answers; another seed different ones', async () => {
    const paths = [
      `/BookingDetails${query({ LoadOptions: 'All', Limit: '25' })}`,
      `/TicketCouponsByStatusCode${query({ DateStart: '20260101', DateEnd: '20261231', CouponCodeGroup: 'ALL', DateTracker: 'T', Limit: '50' })}`,
      `/AppUsersActivity${query({ Limit: '30' })}`,
    ];
    const twin = await startSandbox({ size: 500, now: () => NOW });
    const other = await startSandbox({ size: 500, now: () => NOW, seed: 43 });
    try {
      for (const p of paths) {
        const a = await call(sb, p, at);
        const b = await call(twin, p, at);
        const c = await call(other, p, at);
        expect(a.status).toBe(200);
        expect(b.text).toBe(a.text);
        expect(c.text).not.toBe(a.text);
      }
    } finally {
      await twin.close();
      await other.close();
    }
  });

  it('generation itself is deterministic (two independent runs) and seed-dependent', () => {
    const dataNow = new Date('2026-11-15T00:00:00Z');
    const project = (seed: number): string => {
      const ds = generateDataset({ seed, size: 300, dataNow });
      return JSON.stringify([
        ds.bookings.map((b) => [
          b.serviceRef,
          b.recordLocator,
          b.createdMs,
          b.account.code,
          b.passengers.map((p) => p.guid),
          b.segments.map((x) => [x.kind, x.nbr, x.status]),
        ]),
        ds.coupons.map((c) => [c.id, c.ticket.number, c.seq, c.status, c.lastCheckedMs]),
        ds.partnerLogs.map((l) => [l.id, l.logMs, l.success]),
        ds.activities.map((a) => [a.id, a.ms, a.activity]),
      ]);
    };
    const a = project(42);
    expect(project(42)).toBe(a);
    expect(project(43)).not.toBe(a);
  });

  it('writes service dates with escaped slashes, as the service does', async () => {
    const res = await call(sb, `/HotelSegments${query({ Limit: '3' })}`, at);
    expect(res.text).toMatch(/"ArrivalDate":"\\\/Date\(\d+-0000\)\\\/"/);
    expect(recordsOf(res.json())[0].ArrivalDate).toMatch(/^\/Date\(\d+-0000\)\/$/);
  });
});

describe('formats', () => {
  const PARAMS = { DateStart: '20261101', DateEnd: '20261130', Limit: '15' };

  it('.csv suffix, format=csv and Accept: text/csv answer the page as CSV', async () => {
    const json = recordsOf((await call(sb, `/CarSegmentsByDate${query(PARAMS)}`, at)).json());
    const bySuffix = await call(sb, `/CarSegmentsByDate.csv${query(PARAMS)}`, at);
    expect(bySuffix.status).toBe(200);
    expect(bySuffix.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = parseCsv(bySuffix.text);
    expect(rows[0]).toEqual(Object.keys(json[0]));
    expect(rows).toHaveLength(json.length + 1);
    for (const [i, rec] of json.entries()) expect(rows[i + 1]).toEqual(Object.values(rec).map((v) => String(v)));
    const byParam = await call(sb, `/CarSegmentsByDate${query({ ...PARAMS, format: 'csv' })}`, at);
    expect(byParam.text).toBe(bySuffix.text);
    const byAccept = await call(sb, `/CarSegmentsByDate${query(PARAMS)}`, { ...at, headers: { Accept: 'text/csv' } });
    expect(byAccept.text).toBe(bySuffix.text);
  });

  it('CSV JSON-encodes nested members and quotes commas', async () => {
    const res = await call(sb, `/BookingDetails.csv${query({ Limit: '5', LoadOptions: 'Passengers' })}`, at);
    const rows = parseCsv(res.text);
    const col = rows[0].indexOf('Passengers');
    expect(col).toBeGreaterThan(0);
    const pax = JSON.parse(rows[1][col]) as Array<{ LastName: string }>;
    expect(typeof pax[0].LastName).toBe('string');
  });

  it('.json suffix and format=json answer the same JSON', async () => {
    const plain = await call(sb, `/CarSegmentsByDate${query(PARAMS)}`, at);
    const suffix = await call(sb, `/CarSegmentsByDate.json${query(PARAMS)}`, at);
    const param = await call(sb, `/CarSegmentsByDate${query({ ...PARAMS, format: 'json' })}`, at);
    expect(recordsOf(suffix.json())).toEqual(recordsOf(plain.json()));
    expect(recordsOf(param.json())).toEqual(recordsOf(plain.json()));
    const bad = await call(sb, `/CarSegmentsByDate${query({ ...PARAMS, format: 'xml' })}`, at);
    expect(bad.status).toBe(406);
    expect(bad.json().ResponseError?.ErrorCode).toBe('UnsupportedFormat');
  });

  it('callback=fn wraps the JSON as JSONP', async () => {
    const plain = await call(sb, `/QcCommentsForConsultant${query({ Limit: '5' })}`, at);
    const jsonp = await call(sb, `/QcCommentsForConsultant${query({ Limit: '5', callback: 'handle' })}`, at);
    expect(jsonp.headers.get('content-type')).toMatch(/^application\/javascript/);
    expect(jsonp.text.startsWith('handle({"ResponseMetadata":')).toBe(true);
    expect(jsonp.text.endsWith('});')).toBe(true);
    const inner = JSON.parse(jsonp.text.slice('handle('.length, -2)) as ReturnType<typeof plain.json>;
    expect(inner.ResponseReport).toEqual(plain.json().ResponseReport);
    expect(inner.ResponseMetadata.PagingMetadata).toEqual(plain.json().ResponseMetadata.PagingMetadata);
    const bad = await call(sb, `/QcCommentsForConsultant${query({ callback: 'alert(1)//' })}`, at);
    expect(bad.status).toBe(400);
    expect(bad.json().ResponseError?.ErrorCode).toBe('InvalidCallback');
  });

  it('the deprecated /AirSegmentsByDate/user answers like /AirSegmentsByDate', async () => {
    const a = await call(sb, `/AirSegmentsByDate${query(PARAMS)}`, at);
    const b = await call(sb, `/AirSegmentsByDate/user${query(PARAMS)}`, at);
    expect(recordsOf(b.json())).toEqual(recordsOf(a.json()));
  });
});

describe('POST on the all-verbs transactions', () => {
  it('takes the parameters from a JSON body, lists as arrays', async () => {
    const get = await call(
      sb,
      `/CheckFailedSubmissions${query({ LogDateStart: '20251201', LogDateEnd: '20261115', OwningAgencyLocationID: '1ABC,3GHI' })}`,
      at,
    );
    const post = await call(sb, '/CheckFailedSubmissions', {
      ...at,
      method: 'POST',
      body: { LogDateStart: '20251201', LogDateEnd: '20261115', OwningAgencyLocationID: ['1ABC', '3GHI'], Limit: 100 },
    });
    expect(post.status).toBe(200);
    const records = recordsOf(post.json());
    expect(records.length).toBeGreaterThan(0);
    expect(records).toEqual(recordsOf(get.json()));
    expect(new Set(records.map((r) => r.OwningAgencyLocationID))).toEqual(new Set(['1ABC', '3GHI']));
    expect(sb.requests.at(-1)?.query.OwningAgencyLocationID).toBe('1ABC,3GHI');
  });

  it('booleans in bodies are booleans; validation applies to bodies too', async () => {
    const ok = await call(sb, '/PartnerForwardingLogs', { ...at, method: 'POST', body: { IsSuccess: false } });
    const recs = recordsOf(ok.json());
    expect(recs.length).toBeGreaterThan(0);
    expect(recs.every((r) => r.Success === false)).toBe(true);
    const active = await call(sb, '/BookingsWithActiveSegments', {
      ...at,
      method: 'POST',
      body: { AllFutureDate: true, Account: ['ACME'] },
    });
    expect(recordsOf(active.json()).every((r) => r.Account === 'ACME')).toBe(true);
    const bad = await call(sb, '/QLogForward', { ...at, method: 'POST', body: { LogDateStart: '2026-01-01' } });
    expect(bad.json().ResponseError?.ErrorCode).toBe('InvalidDate');
  });
});
