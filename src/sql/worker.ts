/**
 * The SQL worker thread: holds every caller's database (one per owner) and runs their
 * statements, so a long statement never blocks the server's event loop; the server
 * terminates this thread when a statement outlives REPORTS_SQL_TIMEOUT_MS (engine.ts).
 */
import { parentPort } from 'node:worker_threads';
import initSqlJs from 'sql.js';
import { airportRows, namesAirports } from './airports-table.js';
import { OwnerDatabase } from './owner-database.js';
import type { WorkerReply, WorkerRequest } from './protocol.js';
import { RefusedStatement } from './refused.js';

if (!parentPort) throw new Error('src/sql/worker.ts runs as a worker thread only');
const port = parentPort;

const sql = initSqlJs();
const databases = new Map<string, OwnerDatabase>();

async function database(owner: string): Promise<OwnerDatabase> {
  let db = databases.get(owner);
  if (!db) {
    db = new OwnerDatabase(await sql);
    databases.set(owner, db);
  }
  return db;
}

function handle(db: OwnerDatabase, req: WorkerRequest): unknown {
  switch (req.op) {
    case 'add':
      return db.addRecords(req.table, req.records);
    case 'finish':
      return db.finish(req.table);
    case 'drop':
      return db.drop(req.table);
    case 'run':
      return db.run(req.sql, req.limits);
    case 'describe':
      return db.describe();
  }
}

/** Requests are answered one after another, in the order they came: the server sends the
 *  next chunk of a table while this one is inserted (engine.ts), and an await below (the
 *  engine's first start) must not let a later request run first. */
let queue: Promise<void> = Promise.resolve();

port.on('message', (req: WorkerRequest) => {
  queue = queue.then(() => answer(req));
});

async function answer(req: WorkerRequest): Promise<void> {
  let reply: WorkerReply;
  try {
    const db = await database(req.owner);
    if (req.op === 'run' && namesAirports(req.sql)) db.addAirports(await airportRows());
    const value = handle(db, req);
    reply = { id: req.id, ok: true, value, ...(req.op === 'drop' || req.op === 'finish' ? { bytes: db.bytes() } : {}) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    reply = { id: req.id, ok: false, message, refused: err instanceof RefusedStatement };
  }
  port.postMessage(reply);
}
