/**
 * Whether a statement reads only, decided by SQLite itself before the statement runs: the
 * program SQLite compiles for it (EXPLAIN) opens a write transaction exactly when it would
 * write (a WITH ... INSERT/UPDATE/DELETE passes a keyword check but not this one). The
 * database is also query_only while callers' statements run, as a second wall.
 */
import type { Database } from 'sql.js';
import { RefusedStatement } from './refused.js';

export function refuseWrites(db: Database, sql: string): void {
  const plan = db.exec(`EXPLAIN ${sql}`)[0];
  if (!plan) return;
  const opcode = plan.columns.indexOf('opcode');
  const p2 = plan.columns.indexOf('p2');
  for (const step of plan.values) {
    const op = String(step[opcode]);
    if ((op === 'Transaction' && Number(step[p2]) !== 0) || WRITES.has(op)) {
      throw new RefusedStatement(
        'writes (its compiled program opens a write transaction); only reads are allowed: SELECT or WITH ... ' +
          'SELECT (nothing was run)',
      );
    }
  }
}

/** Opcodes that change a database file or its schema (ephemeral tables use other paths). */
const WRITES = new Set(['OpenWrite', 'Destroy', 'Clear', 'CreateBtree', 'ParseSchema', 'Vacuum', 'VUpdate']);
