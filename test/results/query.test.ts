import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runQuery } from '../../src/results/query.js';
import { type QueryArgs, queryArgsSchema, queryArgsShape } from '../../src/results/query-schema.js';
import { thrown } from '../helpers/thrown.js';
import { cents, coupons, type Rec } from './fixtures.js';

const records = coupons();
const locators = (rows: Rec[] | undefined) => (rows ?? []).map((r) => r.RecordLocator);

describe('runQuery: groups and aggregates', () => {
  it('counts and sums per Account like a direct computation, count desc by default', () => {
    const out = runQuery(records, {
      groupBy: ['Account'],
      aggregates: [{ fn: 'sum', field: 'FOPFare' }, { fn: 'count' }, { fn: 'avg', field: 'FOPFare' }],
    });
    const direct = new Map<string, { count: number; cents: number }>();
    for (const r of records) {
      const g = direct.get(String(r.Account)) ?? { count: 0, cents: 0 };
      g.count++;
      g.cents += cents(r.FOPFare);
      direct.set(String(r.Account), g);
    }
    expect(out.matched).toBe(12);
    expect(out.groupCount).toBe(4);
    expect(out.nextOffset).toBeNull();
    expect(out.groups!.map((g) => g.key.Account)).toEqual(['ACME', 'GLOBEX', 'INITECH', 'UMBRELLA']);
    for (const g of out.groups!) {
      const d = direct.get(String(g.key.Account))!;
      expect(g.count).toBe(d.count);
      expect(g.sum_FOPFare).toBe(d.cents / 100);
      expect(g.avg_FOPFare).toBeCloseTo(d.cents / 100 / d.count, 4);
    }
    expect(out.groups![0]).toEqual({
      key: { Account: 'ACME' },
      count: 5,
      sum_FOPFare: 1612.1,
      avg_FOPFare: 322.42,
      // These records state no currency for FOPFare: every total of it says so.
      currency_FOPFare: 'currency not stated by the service',
    });
  });

  it('orders groups by an aggregate and pages them', () => {
    const args = {
      groupBy: ['Account'],
      aggregates: [{ fn: 'sum' as const, field: 'FOPFare' }],
      orderBy: [{ field: 'sum_FOPFare', direction: 'asc' as const }],
      limit: 3,
    };
    const first = runQuery(records, args);
    expect(first.groups!.map((g) => [g.key.Account, g.sum_FOPFare])).toEqual([
      ['UMBRELLA', 8],
      ['GLOBEX', 866.44],
      ['INITECH', 1575],
    ]);
    expect(first.nextOffset).toBe(3);
    const second = runQuery(records, { ...args, offset: 3 });
    expect(second.groups!.map((g) => g.key.Account)).toEqual(['ACME']);
    expect(second.nextOffset).toBeNull();
    // Aggregates default to descending.
    const desc = runQuery(records, { ...args, orderBy: [{ field: 'sum_fopfare' }] });
    expect(desc.groups![0].key.Account).toBe('ACME');
  });

  it('aggregates without groupBy give one group over the matches', () => {
    const out = runQuery(records, {
      where: [{ field: 'Carrier', op: 'eq', value: 'AA' }],
      aggregates: [
        { fn: 'sum', field: 'FlownKM' },
        { fn: 'min', field: 'FlightDate' },
        { fn: 'max', field: 'FOPFare' },
        { fn: 'countDistinct', field: 'Account' },
        { fn: 'count', field: 'Passenger' },
      ],
    });
    const aa = records.filter((r) => r.Carrier === 'AA');
    expect(out.matched).toBe(aa.length);
    expect(out.groups).toEqual([
      {
        key: {},
        count: 4,
        sum_FlownKM: aa.reduce((s, r) => s + Number(r.FlownKM), 0),
        min_FlightDate: '2026-11-01T23:30:00.000-05:00',
        max_FOPFare: 1500,
        currency_FOPFare: 'currency not stated by the service',
        countDistinct_Account: 3,
        count_Passenger: 4,
      },
    ]);
  });

  it('groups dates by calendar day or month, and by nested fields', () => {
    const byMonth = runQuery(records, { groupBy: ['FlightDate:month'], orderBy: [{ field: 'FlightDate:month' }] });
    expect(byMonth.groups!.map((g) => [g.key['FlightDate:month'], g.count])).toEqual([
      ['2026-10', 1],
      ['2026-11', 10],
      ['2026-12', 1],
    ]);
    const nested = runQuery(records, { groupBy: ['Summary.CreatedBy'] });
    expect(nested.groups!.map((g) => [g.key['Summary.CreatedBy'], g.count])).toEqual([
      ['AGENT', 6],
      ['WEB', 6],
    ]);
  });

  it('an empty group value is null', () => {
    const out = runQuery(records, { groupBy: ['Passenger'], where: [{ field: 'Account', op: 'eq', value: 'ACME' }] });
    expect(out.groups!.find((g) => g.key.Passenger === null)?.count).toBe(1);
  });
});

describe('runQuery: filters', () => {
  it('eq ignores case; ne is its complement', () => {
    const eq = runQuery(records, { where: [{ field: 'Account', op: 'eq', value: 'acme' }], limit: 100 });
    expect(locators(eq.rows)).toEqual(records.filter((r) => r.Account === 'ACME').map((r) => r.RecordLocator));
    const ne = runQuery(records, { where: [{ field: 'Account', op: 'ne', value: 'ACME' }] });
    expect(ne.matched).toBe(12 - eq.matched);
  });

  it('compares numeric strings as numbers, not text', () => {
    const out = runQuery(records, { where: [{ field: 'FOPFare', op: 'lt', value: 100 }] });
    const direct = records.filter((r) => Number(r.FOPFare) < 100).map((r) => r.RecordLocator);
    expect(locators(out.rows)).toEqual(direct);
    expect(direct).toEqual(['K2BBBB', 'K5EEEE', 'K7GGGG', 'K9IIII', 'KBKKKK', 'KCLLLL']);
    const eq = runQuery(records, { where: [{ field: 'FOPFare', op: 'eq', value: '1000' }] });
    expect(locators(eq.rows)).toEqual(['K1AAAA']);
  });

  it('a date-only value compares the calendar day the record states, whatever its offset', () => {
    // K1 departs 2026-11-01 23:30 New York time (2026-11-02 in UTC): it is on the 1st.
    // K2 departs 2026-11-02 01:00 Athens time (2026-11-01 in UTC): it is on the 2nd.
    const day1 = runQuery(records, { where: [{ field: 'FlightDate', op: 'eq', value: '2026-11-01' }] });
    expect(locators(day1.rows)).toEqual(['K1AAAA']);
    const compact = runQuery(records, { where: [{ field: 'FlightDate', op: 'eq', value: '20261102' }] });
    expect(locators(compact.rows)).toEqual(['K2BBBB']);
    const from = runQuery(records, {
      where: [
        { field: 'FlightDate', op: 'gte', value: '2026-11-02' },
        { field: 'FlightDate', op: 'lt', value: '20261201' },
      ],
      limit: 100,
    });
    const direct = records
      .filter(
        (r) => String(r.FlightDate).slice(0, 10) >= '2026-11-02' && String(r.FlightDate).slice(0, 10) < '2026-12-01',
      )
      .map((r) => r.RecordLocator);
    expect(locators(from.rows)).toEqual(direct);
    expect(direct).not.toContain('K1AAAA');
    expect(direct).toContain('K2BBBB');
  });

  it('a full ISO value compares instants', () => {
    const cut = '2026-11-02T00:00:00Z';
    const out = runQuery(records, { where: [{ field: 'FlightDate', op: 'lt', value: cut }], limit: 100 });
    const direct = records
      .filter((r) => Date.parse(String(r.FlightDate)) < Date.parse(cut))
      .map((r) => r.RecordLocator);
    expect(locators(out.rows)).toEqual(direct);
    expect(direct).toEqual(['K2BBBB', 'K6FFFF']);
  });

  it('reaches nested objects and list items with dot paths', () => {
    const loc = runQuery(records, { where: [{ field: 'Summary.RecordLocator', op: 'eq', value: 'K7GGGG' }] });
    expect(locators(loc.rows)).toEqual(['K7GGGG']);
    const pax = runQuery(records, { where: [{ field: 'Passengers.LastName', op: 'contains', value: 'kaf' }] });
    expect(locators(pax.rows)).toEqual(['KAJJJJ', 'KBKKKK']);
    const tickets = runQuery(records, { where: [{ field: 'TicketNumbers', op: 'contains', value: '7893X' }] });
    expect(locators(tickets.rows)).toEqual(['K4DDDD']);
  });

  it('in, startsWith and exists', () => {
    const inn = runQuery(records, { where: [{ field: 'Account', op: 'in', value: ['INITECH', 'umbrella'] }] });
    expect(locators(inn.rows)).toEqual(['KAJJJJ', 'KBKKKK', 'KCLLLL']);
    const sw = runQuery(records, { where: [{ field: 'Passenger', op: 'startsWith', value: 'smith/' }] });
    expect(locators(sw.rows)).toEqual(['K1AAAA', 'K2BBBB']);
    const missing = runQuery(records, { where: [{ field: 'Passenger', op: 'exists', value: false }] });
    expect(locators(missing.rows)).toEqual(['K5EEEE']);
    const present = runQuery(records, { where: [{ field: 'Passengers', op: 'exists' }] });
    expect(present.matched).toBe(11);
    const dates = runQuery(records, { where: [{ field: 'VndIssueDt', op: 'exists', value: true }] });
    expect(dates.matched).toBe(11);
    const bools = runQuery(records, { where: [{ field: 'IsVip', op: 'eq', value: true }] });
    expect(locators(bools.rows)).toEqual(['K2BBBB', 'K6FFFF']);
  });
});

describe('runQuery: rows, order and paging', () => {
  it('pages through sorted rows with nextOffset and the pages add up to the direct sort', () => {
    const direct = [...records].sort((a, b) => cents(b.FOPFare) - cents(a.FOPFare)).map((r) => r.RecordLocator);
    const seen: unknown[] = [];
    let offset: number | null = 0;
    let pages = 0;
    while (offset !== null) {
      const out = runQuery(records, {
        orderBy: [{ field: 'FOPFare', direction: 'desc' }],
        fields: ['RecordLocator', 'FOPFare'],
        offset,
        limit: 5,
      });
      expect(out.offset).toBe(offset);
      expect(out.matched).toBe(12);
      seen.push(...locators(out.rows));
      offset = out.nextOffset;
      pages++;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(direct);
  });

  it('sorts dates as instants, stable for ties, empties last', () => {
    const out = runQuery(records, { orderBy: [{ field: 'FlightDate' }], fields: ['RecordLocator'], limit: 3 });
    expect(locators(out.rows)).toEqual(['K6FFFF', 'K2BBBB', 'K1AAAA']);
    const pax = runQuery(records, {
      orderBy: [{ field: 'Passenger', direction: 'desc' }],
      fields: ['RecordLocator', 'Passenger'],
      limit: 100,
    });
    expect(pax.rows!.at(-1)).toEqual({ RecordLocator: 'K5EEEE', Passenger: null });
  });

  it('projects fields (dot paths too) and returns whole records otherwise', () => {
    const out = runQuery(records, { fields: ['RecordLocator', 'Summary.CreatedBy', 'Passengers.FirstName'], limit: 2 });
    expect(out.rows).toEqual([
      { RecordLocator: 'K1AAAA', 'Summary.CreatedBy': 'AGENT', 'Passengers.FirstName': ['JOHN'] },
      { RecordLocator: 'K2BBBB', 'Summary.CreatedBy': 'WEB', 'Passengers.FirstName': ['JOHN'] },
    ]);
    const whole = runQuery(records, { limit: 1 });
    expect(whole.rows).toEqual([records[0]]);
  });

  it('defaults the limit to 50 and caps it at 1000', () => {
    const many = Array.from({ length: 1500 }, (_, i) => ({ N: i }));
    const def = runQuery(many, {});
    expect([def.limit, def.rows!.length, def.nextOffset]).toEqual([50, 50, 50]);
    const big = runQuery(many, { limit: 5000, offset: 100 });
    expect([big.limit, big.rows!.length, big.nextOffset]).toEqual([1000, 1000, 1100]);
  });

  it('an empty result answers with nothing matched', () => {
    expect(runQuery([], { where: [{ field: 'Account', op: 'eq', value: 'X' }] })).toEqual({
      matched: 0,
      offset: 0,
      limit: 50,
      nextOffset: null,
      rows: [],
    });
  });
});

describe('runQuery: invalid input', () => {
  it('names an unknown field and lists the fields that exist', () => {
    const e = thrown(() => runQuery(records, { where: [{ field: 'Acount', op: 'eq', value: 'ACME' }] }));
    expect(e.kind).toBe('invalid_input');
    expect(e.details.param).toBe('where[0].field');
    expect(e.message).toContain("'Acount'");
    expect(e.message).toContain('FOPFare');
    expect(e.message).toContain('Summary.RecordLocator');
    expect(e.message).toContain('Passengers.LastName');
    const cases: [QueryArgs, string][] = [
      [{ groupBy: ['Nope'] }, 'groupBy[0]'],
      [{ orderBy: [{ field: 'Nope' }] }, 'orderBy[0].field'],
      [{ fields: ['RecordLocator', 'Nope'] }, 'fields[1]'],
      [{ aggregates: [{ fn: 'sum', field: 'Nope' }] }, 'aggregates[0].field'],
    ];
    for (const [args, param] of cases) {
      const err = thrown(() => runQuery(records, args));
      expect([err.kind, err.details.param]).toEqual(['invalid_input', param]);
      expect(err.message).toContain("'Nope' is not a field");
    }
  });

  it('resolves a field written in another case', () => {
    const out = runQuery(records, { groupBy: ['account'] });
    expect(out.groups![0].key).toEqual({ Account: 'ACME' });
  });

  it('rejects values that do not fit the op, and grouped orderBy on a non-group field', () => {
    expect(
      thrown(() => runQuery(records, { where: [{ field: 'Account', op: 'lt', value: ['A'] }] })).message,
    ).toContain("use op 'in'");
    expect(thrown(() => runQuery(records, { where: [{ field: 'Account', op: 'eq' }] })).details.param).toBe(
      'where[0].value',
    );
    expect(thrown(() => runQuery(records, { aggregates: [{ fn: 'sum' }] })).message).toContain("required for fn 'sum'");
    const e = thrown(() => runQuery(records, { groupBy: ['Account'], orderBy: [{ field: 'Carrier' }] }));
    expect(e.message).toContain("'Account', 'count'");
  });
});

describe('query schema', () => {
  it('describes every property and accepts a full query', () => {
    const json = z.toJSONSchema(queryArgsSchema) as { properties: Record<string, { description?: string }> };
    expect(Object.keys(json.properties).sort()).toEqual(Object.keys(queryArgsShape).sort());
    for (const [name, prop] of Object.entries(json.properties)) expect(prop.description, name).toBeTruthy();
    const parsed = queryArgsSchema.parse({
      resultId: 'r_x',
      where: [{ field: 'Account', op: 'in', value: ['A', 'B'] }],
      groupBy: ['Account'],
      aggregates: [{ fn: 'sum', field: 'FOPFare' }],
      orderBy: [{ field: 'sum_FOPFare', direction: 'desc' }],
      limit: 10,
    });
    expect(parsed.where![0].value).toEqual(['A', 'B']);
    expect(queryArgsSchema.safeParse({ resultId: 'r', where: [{ field: 'A', op: 'like' }] }).success).toBe(false);
    expect(JSON.stringify(json).length).toBeLessThan(3000);
  });
});

describe('numbers against text', () => {
  const rows = [{ Amt: '10' }, { Amt: '9' }, { Amt: 'N/A' }, { Amt: '100' }, { Amt: '' }];
  it('a numeric bound never matches text, and min/max prefer numbers', () => {
    expect(runQuery(rows, { where: [{ field: 'Amt', op: 'gt', value: 50 }] }).rows).toEqual([{ Amt: '100' }]);
    expect(runQuery(rows, { where: [{ field: 'Amt', op: 'lt', value: '50' }] }).rows).toEqual([
      { Amt: '10' },
      { Amt: '9' },
    ]);
    const g = runQuery(rows, {
      aggregates: [
        { fn: 'max', field: 'Amt' },
        { fn: 'min', field: 'Amt' },
      ],
    }).groups![0];
    // Numeric strings come back as numbers, as sums do.
    expect(g.max_Amt).toBe(100);
    expect(g.min_Amt).toBe(9);
  });
});

describe('date parts in groupBy', () => {
  it('are refused on a field that holds no dates', () => {
    expect(() => runQuery([{ Amt: '10' }, { Amt: '20' }], { groupBy: ['Amt:month'] })).toThrow(
      `groupBy[0]: 'Amt:month' asks for a date part, but Amt holds no dates (e.g. "10"); group by Amt itself`,
    );
    const g = runQuery(
      [{ D: '2026-11-02T10:00:00Z' }, { D: '2026-11-30T23:00:00-05:00' }, { D: '2026-12-01T00:00:00Z' }],
      { groupBy: ['D:month'] },
    ).groups!;
    expect(g.map((x) => [x.key['D:month'], x.count])).toEqual([
      ['2026-11', 2],
      ['2026-12', 1],
    ]);
  });
});

describe("runQuery: a booking's counts on each of its segments", () => {
  it('sums TotalAirSegs once per RecordLocator in each group, and says so', () => {
    const stay = (locator: string, account: string, air: number, nights: number) => ({
      RecordLocator: locator,
      Account: account,
      TotalAirSegs: air,
      NbrNights: nights,
      StatusCode: 'HK',
      SegmentState: 'confirmed',
    });
    // ABC123 holds two stays (a multi-city trip): its 4 air segments are counted once.
    const records = [stay('ABC123', 'ACME', 4, 2), stay('ABC123', 'ACME', 4, 3), stay('XYZ789', 'ACME', 2, 1)];
    const out = runQuery(
      records,
      {
        groupBy: ['Account'],
        aggregates: [
          { fn: 'sum', field: 'TotalAirSegs' },
          { fn: 'sum', field: 'NbrNights' },
        ],
      },
      { report: 'hotel_segments' },
    );
    expect(out.groups).toEqual([{ key: { Account: 'ACME' }, count: 3, sum_TotalAirSegs: 6, sum_NbrNights: 6 }]);
    expect(out.notes).toContain(
      "sum_TotalAirSegs counts each RecordLocator once: TotalAirSegs is the booking's, repeated on each of its segments.",
    );
  });
});
