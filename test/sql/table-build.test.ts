/**
 * A result's table built chunk by chunk in the SQL worker (engine.ts, owner-database.ts): the
 * next chunk is sent while one is inserted, rows whose fields come in another order or bring
 * new fields in a later chunk, and a path met twice in one record, each cell in its column.
 */
import { describe, expect, it } from 'vitest';
import { CHUNK_RECORDS, SqlEngine, type TableSource } from '../../src/sql/engine.js';

const COUNT = CHUNK_RECORDS * 2 + 5;
/** From this record on (in the second chunk), records carry a field none before did. */
const LATE_FROM = CHUNK_RECORDS + 3;

function recordAt(i: number): Record<string, unknown> {
  const late = i >= LATE_FROM ? { Late: `L${i}` } : {};
  if (i === 7) return { Id: i, 'Pax.Name': 'first', Code: 'P7', Pax: { Name: 'second' } };
  if (i % 3 === 0) return { Id: i, Code: `A${i}`, Fare: i + 0.25, ...late };
  if (i % 3 === 1) return { ...late, Fare: i + 0.5, Id: i, Code: `B${i}` };
  return { Id: i, Code: `C${i}`, Fare: null, Flag: i % 2 === 0, ...late };
}

/** The row each record should become, over the columns below, written out field by field. */
function expectedRow(i: number): unknown[] {
  const late = i >= LATE_FROM ? `L${i}` : null;
  if (i === 7) return [i + 1, i, 'P7', null, null, 'second', null];
  if (i % 3 === 0) return [i + 1, i, `A${i}`, i + 0.25, null, null, late];
  if (i % 3 === 1) return [i + 1, i, `B${i}`, i + 0.5, null, null, late];
  return [i + 1, i, `C${i}`, null, i % 2 === 0 ? 1 : 0, null, late];
}

describe('SQL tables built chunk by chunk', () => {
  it('puts every cell in its column across chunks, field orders and fields added late', async () => {
    const records = Array.from({ length: COUNT }, (_, i) => recordAt(i));
    const built: Array<[string, number]> = [];
    const engine = new SqlEngine({ timeoutMs: 60_000, onTableBytes: (id, bytes) => built.push([id, bytes]) });
    const source: TableSource = { id: 'r1', table: 'segments_1', updatedAt: 1, records: async () => records };
    const limits = { maxRows: COUNT + 1, maxChars: 100_000_000 };
    try {
      const described = await engine.describe('local', [source], new Set(['r1']));
      expect(described).toEqual([
        { table: 'segments_1', columns: ['_row', 'Id', 'Code', 'Fare', 'Flag', 'Pax_Name', 'Late'] },
      ]);
      const out = await engine.query(
        'local',
        [source],
        new Set(['r1']),
        'SELECT _row, Id, Code, Fare, Flag, Pax_Name, Late FROM segments_1 ORDER BY _row',
        limits,
      );
      expect(out.rowCount).toBe(COUNT);
      expect(out.rows).toEqual(records.map((_, i) => expectedRow(i)));
      expect(built.map(([id]) => id)).toEqual(['r1']);
      expect(built[0][1]).toBeGreaterThan(0);
    } finally {
      await engine.close();
    }
  });
});
