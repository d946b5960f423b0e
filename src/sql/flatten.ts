/**
 * How a held record becomes table rows (docs/sql.md): nested objects' fields become columns
 * named by their path joined with `_` (`Summary.RecordLocator` -> `Summary_RecordLocator`);
 * lists of objects become rows of a child table `<table>__<path joined with _>` linked by
 * `_parent`; lists of plain values stay one column holding their JSON; booleans become 0/1.
 * Pure: the worker calls it chunk by chunk.
 */

export type Cell = string | number | null;

/** One row of one table, by field path (dot-joined), before columns are named. */
export interface FlatRow {
  /** The table's path below the result's table: '' for the records, `Segments.AirSegments` for a child. */
  tablePath: string;
  /** Position in its table, from 1. */
  row: number;
  /** The parent row's `_row` (child tables only). */
  parent?: number;
  /** The row's field paths and, at the same index, their cells, in the record's order (a
   *  path met twice keeps its last cell). Two arrays, not a Map a row: with a Map, flattening
   *  took 0.8 s of the 5.3 s the worker spent on 100,000 bench records' tables; now 0.34 s. */
  paths: string[];
  cells: Cell[];
}

/** Counts rows per table path so each table numbers its rows from 1 across chunks. */
export type RowCounters = Map<string, number>;

/** Deeper than this, an object is kept as JSON text (records are bounded in depth where they enter). */
const MAX_DEPTH = 16;

/** The rows of `record` and of every list inside it, parents before their children. */
export function flattenRecord(record: Record<string, unknown>, counters: RowCounters, out: FlatRow[]): void {
  addRow('', record, undefined, counters, out, 0);
}

function addRow(
  tablePath: string,
  item: Record<string, unknown>,
  parent: number | undefined,
  counters: RowCounters,
  out: FlatRow[],
  depth: number,
): void {
  const row = (counters.get(tablePath) ?? 0) + 1;
  counters.set(tablePath, row);
  const flat: FlatRow = { tablePath, row, paths: [], cells: [] };
  if (parent !== undefined) flat.parent = parent;
  out.push(flat);
  const lists: [string, Record<string, unknown>[]][] = [];
  walk(item, '', flat, lists, depth);
  for (const [path, items] of lists) {
    const childPath = tablePath ? `${tablePath}.${path}` : path;
    for (const child of items) addRow(childPath, child, row, counters, out, depth + 1);
  }
}

function walk(
  obj: Record<string, unknown>,
  prefix: string,
  row: FlatRow,
  lists: [string, Record<string, unknown>[]][],
  depth: number,
): void {
  const { paths, cells } = row;
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    // A top-level path is the key itself: the same string in every record, which the table's
    // builder compares by identity (owner-database.ts).
    const path = prefix ? `${prefix}.${key}` : key;
    if (value === undefined || (Array.isArray(value) && value.length === 0)) continue;
    let cell: Cell;
    if (value === null || typeof value === 'string' || typeof value === 'number') cell = value;
    else if (typeof value === 'boolean') cell = value ? 1 : 0;
    else if (Array.isArray(value)) {
      if (depth < MAX_DEPTH && value.length > 0 && value.every(isPlainObject)) {
        lists.push([path, value]);
        continue;
      }
      cell = JSON.stringify(value);
    } else if (isPlainObject(value) && depth < MAX_DEPTH) {
      walk(value, path, row, lists, depth + 1);
      continue;
    } else cell = JSON.stringify(value) ?? String(value);
    paths.push(path);
    cells.push(cell);
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `Segments.AirSegments` -> `Segments_AirSegments`: the name part of a column or child table. */
export function sqlName(path: string): string {
  return path.replaceAll('.', '_');
}

/** The table of `tablePath` under the result's table `table`. */
export function tableName(table: string, tablePath: string): string {
  return tablePath ? `${table}__${sqlName(tablePath)}` : table;
}

/** An identifier quoted for SQLite: any name, whatever it holds, stays one identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
