/**
 * Lists inside a record (a PNR's segments, a booking's passengers and tickets) as readable
 * lines under its row: one small table per list, one line per item, instead of "[4 items]".
 * Hosts that show the model only the text must be able to answer "show me PNR X's itinerary".
 * Every line starts with our own two spaces and "↳ " or "| ", so nothing the service sends
 * starts a line of the text.
 */
import { listPaths, valueAt } from '../results/paths.js';
import { isEmpty, truncate } from '../results/values.js';
import { type Table, tableLine, textCell } from './text-fit.js';

/** Items shown per list under one row; the rest are counted. */
const MAX_ITEMS = 30;
/** Columns of an item table: its non-empty values, in the order the items have them. */
const MAX_ITEM_COLUMNS = 12;
const ITEM_CELL = 40;
/** Cell width of an item column holding longer values (remarks, addresses). */
const ITEM_TEXT_CELL = 120;

type Rec = Record<string, unknown>;

/** The list paths of `records` holding objects: top level, or one nested object down. */
export function objectListPaths(records: readonly Rec[]): string[] {
  return listPaths(records, listOfObjects).filter((path) => path.split('.').length <= 2);
}

/**
 * Characters of lists written under one row: a third of the default text, so the first row
 * always fits with its lists and the text never answers a lookup with no row at all.
 */
const MAX_NESTED_CHARS = 5_000;

/**
 * `table` with the lists at `paths` of each row written under it, within MAX_NESTED_CHARS,
 * then the record's other lists named with their counts (nothing left out unnamed), and how
 * `resultId`'s query_report reads one.
 */
export function withNestedLines(table: Table, paths: readonly string[], resultId?: string): Table {
  if (!paths.length) return table;
  return {
    ...table,
    line: (r) => {
      const lines = [table.line(r)];
      let used = 0;
      let left = 0;
      for (const path of paths) {
        for (const line of listLines(r, path)) {
          if (left || used + line.length + 1 > MAX_NESTED_CHARS) left++;
          else {
            lines.push(line);
            used += line.length + 1;
          }
        }
      }
      if (left) lines.push(`  ↳ … ${left} more lines of this record's lists: query_report with unnest reads them all`);
      const others = otherLists(r, paths);
      if (others.length) {
        const how = resultId ? ` (query_report {"resultId":"${resultId}","unnest":"${others[0].path}"} reads one)` : '';
        lines.push(`  ↳ Lists not shown: ${truncate(others.map((o) => `${o.path} ${o.count}`).join(', '), 600)}${how}`);
      }
      return lines.join('\n');
    },
  };
}

/** The record's non-empty lists, top level or one object down, that `shown` leaves out. */
function otherLists(record: Rec, shown: readonly string[]): { path: string; count: number }[] {
  const out: { path: string; count: number }[] = [];
  const visit = (obj: Rec, prefix: string, depth: number) => {
    for (const key in obj) {
      const v = obj[key];
      const path = prefix ? `${prefix}.${key}` : key;
      if (Array.isArray(v)) {
        if (v.length && listOfObjects(v) && !shown.includes(path)) out.push({ path, count: v.length });
      } else if (v !== null && typeof v === 'object' && depth === 0) visit(v as Rec, path, 1);
    }
  };
  visit(record, '', 0);
  return out;
}

function listLines(record: Rec, path: string): string[] {
  const list = valueAt(record, path);
  if (!Array.isArray(list) || !list.length) return [];
  const items = list.slice(0, MAX_ITEMS);
  const owner = ownerOf(record);
  const lines = [
    `  ↳ ${truncate(path, 80)}${owner ? ` of ${truncate(owner, 40)}` : ''}: ${list.length} item${list.length === 1 ? '' : 's'}`,
  ];
  if (!listOfObjects(list)) {
    lines.push(`  ${tableLine(items.map((v) => textCell(v, ITEM_CELL)))}`);
  } else {
    const all = itemColumns(items as Rec[]);
    const columns = all.slice(0, MAX_ITEM_COLUMNS);
    const widths = columns.map((c) =>
      (items as Rec[]).some((item) => typeof item[c] === 'string' && (item[c] as string).length > ITEM_CELL)
        ? ITEM_TEXT_CELL
        : ITEM_CELL,
    );
    lines.push(`  ${tableLine(columns.map((c) => textCell(c, ITEM_CELL)))}`);
    // Columns past the table's width: each item's own values of them on a line under it, so a
    // lone hotel among flights keeps its property and dates.
    const more = all.slice(MAX_ITEM_COLUMNS);
    for (const item of items as Rec[]) {
      lines.push(`  ${tableLine(columns.map((c, i) => textCell(item[c], widths[i])))}`);
      const rest = more.filter((c) => !isEmpty(item[c])).map((c) => `${c}: ${textCell(item[c], ITEM_CELL)}`);
      if (rest.length) lines.push(`  |   ↳ ${truncate(rest.join('; '), 800)}`);
    }
  }
  if (list.length > items.length) lines.push(`  ↳ … ${list.length - items.length} more items of ${truncate(path, 80)}`);
  return lines;
}

function itemColumns(items: readonly Rec[]): string[] {
  const seen: string[] = [];
  for (const item of items) {
    for (const key in item) {
      if (!seen.includes(key) && !isEmpty(item[key])) seen.push(key);
    }
  }
  return seen;
}

/** The record's locator, to say whose list this is. */
function ownerOf(record: Rec): string | undefined {
  const summary = record.Summary as Rec | undefined;
  const locator = record.RecordLocator ?? (summary && typeof summary === 'object' ? summary.RecordLocator : undefined);
  return typeof locator === 'string' && locator ? locator : undefined;
}

function listOfObjects(v: unknown): boolean {
  return Array.isArray(v) && v.some((x) => x !== null && typeof x === 'object' && !Array.isArray(x));
}
