/**
 * A sql_query cancelled while its tables are built stops between chunks (engine.ts prepare):
 * the half-built table is not taken for built, and the next statement builds it whole.
 */
import { describe, expect, it } from 'vitest';
import { CHUNK_RECORDS, SqlEngine, type TableSource } from '../../src/sql/engine.js';

const COUNT = CHUNK_RECORDS * 5 + 7;
const records = Array.from({ length: COUNT }, (_, i) => ({ Id: i, CarrierCode: ['LH', 'BA', 'SQ'][i % 3] }));
const limits = { maxRows: 100, maxChars: 100_000 };

describe('SQL tables built on first use, cancelled', () => {
  it('stops at the next chunk, reports no table bytes, and the next statement builds the table whole', async () => {
    const built: Array<[string, number]> = [];
    const engine = new SqlEngine({ timeoutMs: 60_000, onTableBytes: (id, bytes) => built.push([id, bytes]) });
    const controller = new AbortController();
    let reads = 0;
    const source: TableSource = {
      id: 'r1',
      table: 'air_segments_by_date_1',
      updatedAt: 1,
      // The call is cancelled while the records are read for the build: no chunk may follow.
      records: async () => {
        reads++;
        if (reads === 1) controller.abort(new Error('cancelled by the client'));
        return records;
      },
    };
    const sql = 'SELECT CarrierCode, COUNT(*) AS n FROM air_segments_by_date_1 GROUP BY CarrierCode ORDER BY 1';
    try {
      await expect(engine.query('local', [source], new Set(['r1']), sql, limits, controller.signal)).rejects.toThrow(
        'cancelled by the client',
      );
      expect(built).toEqual([]);
      const out = await engine.query('local', [source], new Set(['r1']), sql, limits);
      expect(reads).toBe(2);
      const count = (code: string) => records.filter((r) => r.CarrierCode === code).length;
      expect(out.rows).toEqual([
        ['BA', count('BA')],
        ['LH', count('LH')],
        ['SQ', count('SQ')],
      ]);
      expect(count('BA') + count('LH') + count('SQ')).toBe(COUNT);
      expect(built.map(([id]) => id)).toEqual(['r1']);
    } finally {
      await engine.close();
    }
  });
});
