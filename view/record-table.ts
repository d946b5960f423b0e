/**
 * The records table. Fields holding objects (a PNR's `Summary`, `Segments`) are spread into
 * one column per field inside them (`Segments.AirSegments`); a list of records shows as a
 * count ("4 air segments") that opens the row, and an opened row shows each such list as a
 * small table (one row per item, its fields as columns) and long text whole. Never raw JSON.
 */
import { cellText } from './model.js';
import { countedItems } from './words.js';

type Rec = Record<string, unknown>;

/** Characters of text a cell shows before the row must be opened to read the rest. */
const CELL_CHARS = 120;

function isPlainObject(v: unknown): v is Rec {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function isRecordList(v: unknown): v is Rec[] {
  return Array.isArray(v) && v.length > 0 && v.some(isPlainObject);
}

/** The value at a dot path (`Segments.AirSegments`). */
export function valueAt(row: Rec, path: string): unknown {
  if (path in row) return row[path];
  let v: unknown = row;
  for (const part of path.split('.')) v = isPlainObject(v) ? v[part] : undefined;
  return v;
}

/**
 * The columns to show, in the rows' key order (the server puts each report's useful fields
 * first): a field holding objects gives way to the fields inside it.
 */
export function displayColumns(fields: string[], rows: Rec[]): string[] {
  const out: string[] = [];
  for (const field of fields) {
    const objects = rows.map((r) => r[field]).filter(isPlainObject);
    if (!objects.length) {
      out.push(field);
      continue;
    }
    const inner = new Set<string>();
    for (const o of objects) for (const k of Object.keys(o)) inner.add(k);
    for (const k of inner) out.push(`${field}.${k}`);
  }
  return out;
}

/** Whether a cell holds more than it can show: a list of records, or text past the cell's width. */
function opens(value: unknown): boolean {
  return isRecordList(value) || (typeof value === 'string' && value.length > CELL_CHARS);
}

export interface TableHandlers {
  sortedBy?: { field: string; direction: 'asc' | 'desc' };
  onSort(field: string): void;
}

export function renderRecordTable(table: HTMLTableElement, columns: string[], rows: Rec[], h: TableHandlers): void {
  const head = document.createElement('thead');
  const headRow = document.createElement('tr');
  for (const column of columns) {
    const th = document.createElement('th');
    th.scope = 'col';
    const sort = document.createElement('button');
    sort.type = 'button';
    sort.className = 'sort';
    sort.dataset.field = column;
    const current = h.sortedBy?.field === column ? h.sortedBy.direction : undefined;
    sort.textContent = column + (current === 'asc' ? ' ▲' : current === 'desc' ? ' ▼' : '');
    th.ariaSort = current === 'asc' ? 'ascending' : current === 'desc' ? 'descending' : 'none';
    sort.onclick = () => h.onSort(column);
    th.append(sort);
    headRow.append(th);
  }
  head.append(headRow);
  const body = document.createElement('tbody');
  // One record alone (a booking looked up by its locator) opens at once.
  const openAll = rows.length === 1;
  for (const row of rows) {
    const tr = document.createElement('tr');
    tr.className = 'record';
    const detail = document.createElement('tr');
    detail.className = 'detail';
    detail.hidden = true;
    const toggles: HTMLButtonElement[] = [];
    const toggle = (open: boolean) => {
      if (open && !detail.firstChild) detail.append(detailCell(row, columns));
      detail.hidden = !open;
      for (const b of toggles) b.ariaExpanded = String(open);
    };
    for (const column of columns) {
      const td = document.createElement('td');
      const value = valueAt(row, column);
      const text = cellText(value, column, CELL_CHARS);
      if (typeof value === 'number') td.className = 'num';
      if (opens(value)) {
        const button = document.createElement('button');
        button.type = 'button';
        button.className = 'open';
        button.textContent = text;
        button.ariaExpanded = 'false';
        button.onclick = () => toggle(detail.hidden);
        toggles.push(button);
        td.append(button);
      } else td.textContent = text;
      tr.append(td);
    }
    body.append(tr, detail);
    if (openAll && toggles.length) toggle(true);
  }
  table.replaceChildren(head, body);
}

/** An opened row: every list of records as a table, every long text whole. */
function detailCell(row: Rec, columns: string[]): HTMLTableCellElement {
  const td = document.createElement('td');
  td.colSpan = columns.length;
  const box = document.createElement('div');
  box.className = 'nested';
  for (const column of columns) {
    const value = valueAt(row, column);
    if (!opens(value)) continue;
    const section = document.createElement('section');
    section.className = 'sub';
    section.dataset.field = column;
    const title = document.createElement('h3');
    if (isRecordList(value)) {
      title.textContent = `${column}: ${countedItems(value.length, column)}`;
      section.append(title, subTable(value));
    } else {
      title.textContent = column;
      const text = document.createElement('pre');
      text.textContent = String(value);
      section.append(title, text);
    }
    box.append(section);
  }
  td.append(box);
  return td;
}

/** One row per item; its fields as columns in first-seen order. */
function subTable(items: Rec[]): HTMLTableElement {
  const keys = [...new Set(items.flatMap((i) => (isPlainObject(i) ? Object.keys(i) : [])))];
  const table = document.createElement('table');
  table.className = 'sub-table';
  const head = document.createElement('tr');
  for (const k of keys) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = k;
    head.append(th);
  }
  const thead = document.createElement('thead');
  thead.append(head);
  const body = document.createElement('tbody');
  for (const item of items) {
    const tr = document.createElement('tr');
    for (const k of keys) {
      const td = document.createElement('td');
      const value = isPlainObject(item) ? item[k] : undefined;
      td.textContent = innerText(value, k);
      if (typeof value === 'number') td.className = 'num';
      tr.append(td);
    }
    body.append(tr);
  }
  table.append(thead, body);
  return table;
}

/** A value inside an item: a list inside it (a segment's seats) as its items' values ("1A KK"). */
function innerText(value: unknown, field: string): string {
  if (!isRecordList(value)) return cellText(value, field, 400);
  return value
    .map((item) =>
      Object.entries(item)
        .filter(([, v]) => v !== null && v !== undefined && v !== '' && typeof v !== 'object')
        .map(([k, v]) => cellText(v, k))
        .join(' '),
    )
    .join(', ');
}
