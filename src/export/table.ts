/**
 * The table an export writes: its columns and, per record, the values under them. Columns are
 * the fields asked for (checked and read exactly as query_report reads `fields`, dot paths
 * fanning out through lists), else every top-level field in first-seen order.
 */
import { topLevelColumns } from '../results/csv.js';
import { compilePath } from '../results/paths.js';
import { fieldResolver } from '../results/query.js';

type Row = Record<string, unknown>;

export interface ExportTable {
  columns: string[];
  /** The record's values in column order; null where it has none. */
  valuesOf(record: Row): unknown[];
}

/** `all` are every held record (field names are checked against them), `fields` the caller's. */
export function exportTable(all: readonly Row[], fields: readonly string[] | undefined): ExportTable {
  if (!fields?.length) {
    const columns = topLevelColumns(all);
    return { columns, valuesOf: (r) => columns.map((c) => r[c] ?? null) };
  }
  const field = fieldResolver(all);
  const columns = fields.map((f, i) => field(f, `fields[${i}]`));
  const getters = columns.map(compilePath);
  return { columns, valuesOf: (r) => getters.map((get) => get(r) ?? null) };
}
