/**
 * One caller's SQLite database inside the SQL worker: the tables of their held results, built
 * chunk by chunk, dropped with the result, and the one read-only statement a call runs. A
 * caller has a database of their own, so another caller's tables do not exist for them
 * (docs/sql.md). Runs in the worker thread only.
 */
import type { Database, SqlJsStatic, SqlValue, Statement } from 'sql.js';
import { AIRPORTS_COLUMNS, AIRPORTS_TABLE, type AirportRow } from './airports-table.js';
import { refuseWrites } from './engine-check.js';
import { type Cell, type FlatRow, flattenRecord, quoteIdent, type RowCounters, tableName } from './flatten.js';
import { RefusedStatement } from './refused.js';

/** Columns named so far for one table, in the order they were added. */
interface TableColumns {
  name: string;
  /** Field path -> its column's place in `columns`. */
  byPath: Map<string, number>;
  columns: string[];
  /** Lower-cased names in use (SQLite compares identifiers without case). */
  used: Set<string>;
  child: boolean;
  /** The last row's paths and their places (see placesOf). */
  last?: { paths: string[]; places: number[] };
}

interface Build {
  counters: RowCounters;
  tables: Map<string, TableColumns>;
}

export interface RunLimits {
  /** Most rows returned; the rest are counted. */
  maxRows: number;
  /** Most characters of cell text returned (roughly the rows' JSON size). */
  maxChars: number;
}

export interface RunOutput {
  columns: string[];
  rows: Cell[][];
  rowCount: number;
  /** Some rows were counted but not returned (limits above). */
  truncated: boolean;
}

export class OwnerDatabase {
  private readonly db: Database;
  private readonly builds = new Map<string, Build>();

  constructor(sql: SqlJsStatic) {
    this.db = new sql.Database();
    // Every table is TEMP, held in SQLite's page cache: sql.js keeps its main database as a
    // file of its in-memory file system, whose every commit copies pages into a buffer that
    // grows by an eighth at a time (a copy of the whole file each time). Built so (sql.js
    // alone), 1,000,000 rows of 31 columns took 22.3 s to insert and 562 ms to group; as TEMP
    // tables, 9.2 s and 380 ms (docs/sql.md, "Where the tables live").
    this.db.run('PRAGMA temp_store = MEMORY');
    this.db.run('PRAGMA query_only = 1');
  }

  /** Bytes the database's tables occupy: pages in use (free pages left by dropped tables are
   *  reused, not returned, so they are not counted twice) times the page size. */
  bytes(): number {
    const [[count]] = this.db.exec('PRAGMA temp.page_count')[0].values;
    const [[free]] = this.db.exec('PRAGMA temp.freelist_count')[0].values;
    const [[size]] = this.db.exec('PRAGMA temp.page_size')[0].values;
    return (Number(count) - Number(free)) * Number(size);
  }

  /** Adds `records` (the next chunk, in order) to the tables of `table`, creating them as needed. */
  addRecords(table: string, records: Record<string, unknown>[]): void {
    let build = this.builds.get(table);
    if (!build) {
      build = { counters: new Map(), tables: new Map() };
      this.builds.set(table, build);
    }
    const rows: FlatRow[] = [];
    for (const record of records) flattenRecord(record, build.counters, rows);
    const byTable = new Map<string, FlatRow[]>();
    for (const row of rows) {
      const list = byTable.get(row.tablePath);
      if (list) list.push(row);
      else byTable.set(row.tablePath, [row]);
    }
    this.writing(() => {
      for (const [tablePath, list] of byTable) this.insert(build, table, tablePath, list);
    });
  }

  /** Creates the reference table `airports` (airports-table.ts) unless it is there. */
  addAirports(rows: readonly AirportRow[]): void {
    if (this.tableNames().includes(AIRPORTS_TABLE)) return;
    this.writing(() => {
      this.db.run(
        `CREATE TEMP TABLE ${AIRPORTS_TABLE} (${AIRPORTS_COLUMNS.map((c, i) => `${c} TEXT${i === 0 ? ' PRIMARY KEY' : ''}`).join(', ')})`,
      );
      const insert = this.db.prepare(`INSERT INTO ${AIRPORTS_TABLE} VALUES (?, ?, ?, ?, ?)`);
      try {
        for (const row of rows) insert.run(row);
      } finally {
        insert.free();
      }
    });
  }

  /** The building of `table` is over: its bookkeeping goes (the tables stay). */
  finish(table: string): void {
    this.builds.delete(table);
  }

  /** Drops `table` and its child tables. */
  drop(table: string): void {
    this.builds.delete(table);
    const names = this.tableNames().filter((t) => t === table || t.startsWith(`${table}__`));
    if (names.length === 0) return;
    this.writing(() => {
      for (const t of names) this.db.run(`DROP TABLE ${quoteIdent(t)}`);
    });
  }

  /** Every table and its columns, in name order. */
  describe(): { table: string; columns: string[] }[] {
    return this.tableNames().map((t) => ({
      table: t,
      columns: (this.db.exec(`PRAGMA table_info(${quoteIdent(t)})`)[0]?.values ?? []).map((v) => String(v[1])),
    }));
  }

  /** Runs one read-only statement (refused before it runs otherwise; see engine-check.ts). */
  run(sql: string, limits: RunLimits): RunOutput {
    const stmt = this.onlyStatement(sql);
    try {
      refuseWrites(this.db, stmt.getSQL());
      const columns = stmt.getColumnNames();
      const rows: Cell[][] = [];
      let rowCount = 0;
      let chars = 0;
      while (stmt.step()) {
        rowCount++;
        if (rows.length >= limits.maxRows || chars > limits.maxChars) continue;
        const row = stmt.get().map(toCell);
        for (const c of row) chars += typeof c === 'string' ? c.length + 3 : 8;
        rows.push(row);
      }
      return { columns, rows, rowCount, truncated: rows.length < rowCount };
    } finally {
      stmt.free();
    }
  }

  close(): void {
    this.db.close();
  }

  /** The one statement of `sql`, compiled; more than one is refused before any runs. */
  private onlyStatement(sql: string): Statement {
    const it = this.db.iterateStatements(sql);
    const first = it.next();
    if (first.done) throw new RefusedStatement('holds no statement; send one SELECT or WITH statement');
    const text = first.value.getSQL();
    first.value.free();
    let more: boolean;
    try {
      // Compiling what follows the first statement (nothing runs): a second one is refused.
      const second = it.next();
      more = !second.done;
      if (!second.done) second.value.free();
    } catch {
      more = true;
    }
    if (more) {
      throw new RefusedStatement(
        'holds more than one statement (or text after the first); send exactly one SELECT or WITH statement ' +
          '(nothing was run)',
      );
    }
    return this.db.prepare(text);
  }

  private tableNames(): string[] {
    const rows =
      this.db.exec("SELECT name FROM sqlite_temp_master WHERE type = 'table' ORDER BY name")[0]?.values ?? [];
    return rows.map((r) => String(r[0]));
  }

  /** Runs `write` in one transaction with writing allowed (callers' statements never are). */
  private writing(write: () => void): void {
    this.db.run('PRAGMA query_only = 0');
    this.db.run('BEGIN');
    try {
      write();
      this.db.run('COMMIT');
    } catch (err) {
      this.db.run('ROLLBACK');
      throw err;
    } finally {
      this.db.run('PRAGMA query_only = 1');
    }
  }

  private insert(build: Build, table: string, tablePath: string, rows: FlatRow[]): void {
    let cols = build.tables.get(tablePath);
    const child = tablePath !== '';
    if (!cols) {
      const name = tableName(table, tablePath);
      cols = { name, byPath: new Map(), columns: [], used: new Set(['_row', ...(child ? ['_parent'] : [])]), child };
      build.tables.set(tablePath, cols);
      this.db.run(
        `CREATE TEMP TABLE ${quoteIdent(name)} ("_row" INTEGER PRIMARY KEY${child ? ', "_parent" INTEGER' : ''})`,
      );
    }
    // Each row's cells by column; new fields in this chunk become new columns first (SQLite
    // adds a column without rewriting rows).
    const places = rows.map((row) => this.placesOf(cols, row.paths));
    const first = child ? 2 : 1;
    const names = ['_row', ...(child ? ['_parent'] : []), ...cols.columns];
    const stmt = this.db.prepare(
      `INSERT INTO ${quoteIdent(cols.name)} (${names.map(quoteIdent).join(', ')}) ` +
        `VALUES (${names.map(() => '?').join(', ')})`,
    );
    // One array of values for every row: the statement copies them in as they are bound.
    const values: SqlValue[] = new Array(names.length);
    try {
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i];
        values.fill(null);
        values[0] = row.row;
        if (child) values[1] = row.parent ?? null;
        const place = places[i];
        for (let j = 0; j < place.length; j++) values[first + place[j]] = row.cells[j];
        stmt.run(values);
      }
    } finally {
      stmt.free();
    }
  }

  /** The column of each of a row's paths, columns added for new ones. A report's rows nearly
   *  always have the previous row's paths (the same strings, compared by identity): its
   *  places are then the previous row's, with no lookup. */
  private placesOf(cols: TableColumns, paths: string[]): number[] {
    const { last } = cols;
    if (last !== undefined && samePaths(last.paths, paths)) return last.places;
    const places = paths.map((path) => {
      let place = cols.byPath.get(path);
      if (place === undefined) {
        const column = freeName(path.replaceAll('.', '_'), cols.used);
        place = cols.columns.push(column) - 1;
        cols.byPath.set(path, place);
        this.db.run(`ALTER TABLE ${quoteIdent(cols.name)} ADD COLUMN ${quoteIdent(column)}`);
      }
      return place;
    });
    cols.last = { paths, places };
    return places;
  }
}

function samePaths(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `name`, or `name_2`, `name_3`... whichever is free (compared without case, as SQLite does). */
function freeName(name: string, used: Set<string>): string {
  let candidate = name;
  for (let k = 2; used.has(candidate.toLowerCase()); k++) candidate = `${name}_${k}`;
  used.add(candidate.toLowerCase());
  return candidate;
}

function toCell(v: SqlValue): Cell {
  if (v instanceof Uint8Array) return `<blob of ${v.length} bytes>`;
  return v as Cell;
}
