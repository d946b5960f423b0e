/**
 * The shortcuts query_report takes over a large result (src/results/paths.ts: records of the
 * last layout add no path; src/results/query.ts: one groupBy key is the group's id itself, and
 * a count per one top-level field is read straight off the records;
 * src/results/derived.ts: segment states counted once per records list) answer what the
 * general way answers.
 */
import { describe, expect, it } from 'vitest';
import { collectPaths } from '../../src/results/paths.js';
import { runQuery } from '../../src/results/query.js';

type Rec = Record<string, unknown>;

describe('collectPaths over records of one layout', () => {
  it('finds a field that only a later record has, a field turned nested, and a list, in first-seen order', () => {
    const flat = (i: number): Rec => ({ Id: i, Account: `A${i % 3}`, Fare: i * 1.5 });
    const records: Rec[] = [
      ...Array.from({ length: 50 }, (_, i) => flat(i)),
      // The same keys in another order: no new path.
      { Account: 'A9', Id: 50, Fare: 1 },
      ...Array.from({ length: 20 }, (_, i) => flat(51 + i)),
      // One record with a field more.
      { ...flat(71), Remark: 'late field' },
      ...Array.from({ length: 20 }, (_, i) => flat(72 + i)),
      // The last layout's keys, one holding an object: its nested path is found.
      { Id: 92, Account: { Code: 'X', Name: 'Nested' }, Fare: 2 },
      // And a list.
      { Id: 93, Account: 'A1', Fare: 3, Legs: [{ From: 'AKL' }, { To: 'SYD' }] },
      flat(94),
    ];
    expect(collectPaths(records)).toEqual([
      'Id',
      'Account',
      'Fare',
      'Remark',
      'Account.Code',
      'Account.Name',
      'Legs',
      'Legs.From',
      'Legs.To',
    ]);
  });
});

describe('runQuery grouped by one field', () => {
  const records: Rec[] = [
    { Code: '1', N: 1 },
    { Code: 1, N: 2 },
    { Code: '1', N: 3 },
    { Code: '', N: 4 },
    { Code: null, N: 5 },
    { Code: true, N: 6 },
    { Code: 'true', N: 7 },
    { N: 8 },
  ];

  it('keeps a text and a number of the same digits apart, and puts empty values in one null group', () => {
    const out = runQuery(records, { groupBy: ['Code'], aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'N' }] });
    const groups = new Map(out.groups!.map((g) => [JSON.stringify(g.key.Code), [g.count, g.sum_N]]));
    expect(groups).toEqual(
      new Map([
        ['"1"', [2, 4]],
        ['1', [1, 2]],
        ['null', [3, 17]],
        ['true', [1, 6]],
        ['"true"', [1, 7]],
      ]),
    );
    expect(out.groupCount).toBe(5);
  });

  it('answers the same groups as two keys whose second is the same for every record', () => {
    const withConstant = records.map((r) => ({ ...r, K: 'k' }));
    const one = runQuery(withConstant, { groupBy: ['Code'] });
    const two = runQuery(withConstant, { groupBy: ['Code', 'K'] });
    expect(two.groups!.map((g) => [g.key.Code, g.count])).toEqual(one.groups!.map((g) => [g.key.Code, g.count]));
  });
});

describe('runQuery counting records per one field, nothing else asked', () => {
  it('answers the groups, in order, that the general way answers, for every kind of value', () => {
    const records: Rec[] = [
      { Code: 'A', N: 1 },
      { Code: ['X', 'Y'], N: 2 },
      { Code: { City: 'NYC' }, N: 3 },
      { Code: [], N: 4 },
      { Code: 'X, Y', N: 5 },
      { Code: 7, N: 6 },
      { Code: '7', N: 7 },
      { Code: '', N: 8 },
      { Code: 'A', N: 9 },
      { N: 10 },
    ];
    // A sum asked too: the general way, group by group.
    const general = runQuery(records, { groupBy: ['Code'], aggregates: [{ fn: 'sum', field: 'N' }] });
    const counted = runQuery(records, { groupBy: ['Code'] });
    expect(counted.groups).toEqual(general.groups!.map((g) => ({ key: g.key, count: g.count })));
    // Largest first; a list is its items joined, as the general way keys it (the same group
    // as that text); '', [] and a missing field are one empty group.
    expect(counted.groups!.map((g) => [g.key.Code, g.count])).toEqual([
      [null, 3],
      ['A', 2],
      ['X, Y', 2],
      [7, 1],
      ['7', 1],
      ['{"City":"NYC"}', 1],
    ]);
  });
});

describe('segment states counted once per records list', () => {
  it('says the same counts on every query, and counts a filtered set on its own', () => {
    const records: Rec[] = ['HK', 'HK', 'HX', 'UN', 'HK', 'TK'].map((s, i) => ({
      ServiceRef: String(i),
      SegmentStatus: s,
      Account: i < 3 ? 'A' : 'B',
    }));
    const report = 'air_segments_by_date';
    const first = runQuery(records, { groupBy: ['Account'] }, { report }).notes;
    const again = runQuery(records, { groupBy: ['Account'] }, { report }).notes;
    expect(first?.some((n) => n.startsWith('Of the 6 matched:'))).toBe(true);
    expect(again).toEqual(first);
    const filtered = runQuery(
      records,
      { groupBy: ['Account'], where: [{ field: 'Account', op: 'eq', value: 'A' }] },
      { report },
    ).notes;
    expect(filtered?.some((n) => n.startsWith('Of the 3 matched:'))).toBe(true);
  });
});
