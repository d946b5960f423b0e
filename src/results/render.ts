/**
 * The text an assistant reads for a report or query_report result: a headline, the profile
 * of all records, the first rows as a pipe table and what to call next. Whatever rowLimit or
 * fields ask, the text stays under TEXT_CHAR_LIMIT (25,000 tokens at 4 characters a token):
 * rows are cut on row boundaries and the text says how many were left out.
 */
import { collectPaths, compilePath, resolveField } from './paths.js';
import type { QueryOutput } from './query.js';
import type { QueryArgs } from './query-schema.js';
import { type FieldProfile, type Summary, summarize } from './summarize.js';
import { formatNumber, isIdField, isIsoDate, truncate } from './values.js';

/** Hard ceiling of every rendered text (CONTRACT.md section 5: under 25,000 tokens). */
export const TEXT_CHAR_LIMIT = 100_000;
export const DEFAULT_ROW_LIMIT = 20;
/** Columns picked when the caller names none. */
export const DEFAULT_COLUMNS = 8;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export interface ResultView {
  report: string;
  source: 'live' | 'demo';
  query: Record<string, string>;
  totalRecords: number | null;
  fetchedRecords: number;
  complete: boolean;
  notes: string[];
  resultId: string;
  resourceUri: string;
  summary: Summary;
  /** All held records (the first rowLimit are shown). */
  records: readonly Record<string, unknown>[];
}

export interface RenderOptions {
  /** Rows shown (default 20); the text limit may show fewer and says so. */
  rowLimit?: number;
  /** Columns of the table (dot paths allowed); default: the ~8 most informative scalar fields. */
  fields?: string[];
}

export function renderResult(view: ResultView, options: RenderOptions = {}): string {
  return renderResultParts(view, options).text;
}

export interface RenderedResult {
  text: string;
  /** Rows that made it into the text (the first rowsShown records), for structuredContent. */
  rowsShown: number;
}

/** renderResult, also telling how many rows the text shows. */
export function renderResultParts(view: ResultView, options: RenderOptions = {}): RenderedResult {
  const { summary, records, resultId } = view;
  const rowLimit = Math.max(0, Math.floor(options.rowLimit ?? DEFAULT_ROW_LIMIT));
  const head: string[] = [headline(view)];
  for (const note of view.notes.slice(0, 10)) head.push(`Note: ${truncate(note, 400)}`);
  head.push(`resultId: ${resultId}`, '');

  if (summary.recordCount > 0) {
    head.push(`Summary of all ${n(summary.recordCount)} records:`);
    // When every record is listed below, "N distinct (all unique)" says nothing the rows don't.
    const allListed = records.length <= rowLimit;
    for (const [path, p] of Object.entries(summary.fields)) {
      if (allListed && p.unique) continue;
      head.push(`- ${truncate(profileLine(path, p), 220)}`);
    }
    if (summary.emptyFields.length)
      head.push(`Empty in every record: ${truncate(summary.emptyFields.join(', '), 600)}`);
    if (summary.otherFields?.length) head.push(`Not profiled: ${truncate(summary.otherFields.join(', '), 600)}`);
    head.push('');
  }

  const explicit = !!options.fields?.length;
  const columns = !explicit
    ? defaultColumns(summary)
    : records.length
      ? options.fields!.map((f) => resolveField(f, collectPaths(records), 'fields'))
      : options.fields!;
  const wanted = Math.min(rowLimit, records.length);
  const table = makeTable(columns, wanted ? records.slice(0, wanted) : [], explicit ? 80 : 40);

  const cut = (shown: number): string[] => {
    const tail: string[] = [];
    if (shown < wanted) {
      tail.push(
        `${n(wanted - shown)} of the ${n(wanted)} requested rows were left out to keep this text under ` +
          `${n(TEXT_CHAR_LIMIT / 4)} tokens. Read them with query_report {"resultId":"${resultId}","offset":${shown}} ` +
          `or all records at ${view.resourceUri}.`,
      );
    }
    tail.push('', ...nextSteps(view));
    return tail;
  };
  const rowsTitle =
    wanted === 0
      ? records.length
        ? `Rows not shown (rowLimit 0); ${n(records.length)} held.`
        : 'No records.'
      : `${wanted < records.length ? `First ${n(wanted)} of ${n(records.length)}` : `All ${n(records.length)}`} rows (columns: ${columns.join(', ')}):`;
  head.push(rowsTitle);
  const { text, shown } = fit(head, table, cut);
  return { text, rowsShown: shown };
}

export interface QueryRenderContext {
  resultId: string;
  /** Tool name of the report the result came from. */
  report?: string;
  /** Records held by the result. */
  heldRecords?: number;
  args?: QueryArgs;
  resourceUri?: string;
}

export function renderQuery(output: QueryOutput, context: QueryRenderContext): string {
  const { resultId, args = {} } = context;
  const where = (args.where ?? []).map(
    (w) => `${w.field} ${w.op}${w.value === undefined ? '' : ` ${JSON.stringify(w.value)}`}`,
  );
  const of = context.heldRecords === undefined ? '' : ` of ${n(context.heldRecords)} held`;
  const head: string[] = [
    `query_report on ${resultId}${context.report ? ` (${context.report})` : ''}: ${n(output.matched)}${of} records match` +
      (where.length ? ` ${truncate(where.join(' and '), 600)}.` : ' (no filter).'),
  ];

  let columns: string[];
  let table: Table;
  let total: number;
  let unit: string;
  if (output.groups) {
    const keyNames = output.groups.length ? Object.keys(output.groups[0].key) : [...(args.groupBy ?? [])];
    const aggNames = output.groups.length
      ? Object.keys(output.groups[0]).filter((k) => k !== 'key' && k !== 'count')
      : [];
    columns = [...keyNames, 'count', ...aggNames];
    const rows = output.groups.map((g) => ({ ...g.key, ...g, key: undefined }));
    table = makeTable(columns, rows, 60);
    total = output.groupCount ?? output.groups.length;
    unit = 'groups';
    head.push(
      keyNames.length
        ? `${n(total)} groups by ${keyNames.join(', ')}${range(output, output.groups.length, total)}:`
        : 'Totals over the matching records:',
    );
  } else {
    const rows = output.rows ?? [];
    columns = args.fields?.length && rows.length ? Object.keys(rows[0]) : defaultColumns(summarize(rows));
    table = makeTable(columns, rows, args.fields?.length ? 80 : 40);
    total = output.matched;
    unit = 'rows';
    head.push(
      rows.length ? `Rows${range(output, rows.length, total)} (columns: ${columns.join(', ')}):` : 'No matching rows.',
    );
  }

  const pageSize = table.rows.length;
  const cut = (shown: number): string[] => {
    const tail: string[] = [];
    const nextOffset = shown < pageSize ? output.offset + shown : output.nextOffset;
    if (shown < pageSize) {
      tail.push(
        `${n(pageSize - shown)} of the ${n(pageSize)} ${unit} on this page were left out of this text to keep it under ` +
          `${n(TEXT_CHAR_LIMIT / 4)} tokens (all are in structuredContent).`,
      );
    }
    if (nextOffset !== null) {
      tail.push(`More: query_report with the same arguments and "offset":${nextOffset}.`);
    }
    if (context.resourceUri) tail.push(`All records as JSON: ${context.resourceUri}`);
    return tail;
  };
  return fit(head, table, cut).text;
}

/** The most informative scalar fields, in record order: RecordLocator, Account, travellers,
 *  statuses, two dates, two amounts, then other categories; constants, mostly-empty fields and
 *  free text left out. */
export function defaultColumns(summary: Summary, max = DEFAULT_COLUMNS): string[] {
  const entries = Object.entries(summary.fields);
  const locator = entries.find(([path]) => /RecordLocator$/.test(path))?.[0];
  const scored = entries
    .map(([path, p], order) => ({
      path,
      order,
      group: columnGroup(p),
      score: path === locator ? 100 : columnScore(path, p, summary.recordCount),
    }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const caps: Record<string, number> = { date: 2, amount: 2 };
  const picked: typeof scored = [];
  const deferred: typeof scored = [];
  for (const c of scored) {
    if (c.group in caps && caps[c.group]-- <= 0) deferred.push(c);
    else picked.push(c);
  }
  const chosen = [...picked, ...deferred].slice(0, max);
  if (chosen.length < 2) {
    // Nested reports (PNRSegments): list sizes rather than an empty table.
    entries.forEach(([path, p], order) => {
      if (p.kind === 'list' && chosen.length < max) chosen.push({ path, order, group: 'list', score: 0 });
    });
  }
  return chosen.sort((a, b) => a.order - b.order).map((c) => c.path);
}

function columnGroup(p: FieldProfile): string {
  return p.kind === 'date' ? 'date' : p.sum !== undefined ? 'amount' : p.kind;
}

function columnScore(path: string, p: FieldProfile, count: number): number {
  if (p.kind === 'text' || p.kind === 'list') return 0;
  const leaf = path.slice(path.lastIndexOf('.') + 1);
  const distinct = p.distinct ?? 0;
  let score: number;
  if (leaf === 'Account') score = 50;
  else if (/^(Passenger|PaxList|PrimaryPax|Traveller)$/.test(leaf)) score = 8;
  else if (p.kind === 'date' || p.sum !== undefined || /Status/.test(leaf)) score = 6;
  else if (p.kind === 'categorical') score = p.unique || isIdField(leaf) ? 3 : distinct <= 50 ? 5 : 4;
  else score = 2; // plain numbers, booleans
  if (count > 1 && distinct === 1) score -= 10;
  if (p.nulls > count / 2) score -= 4;
  if (path.includes('.')) score -= 1;
  return score;
}

// ---------- pieces ----------

function headline(view: ResultView): string {
  const params = Object.entries(view.query)
    .filter(([k, v]) => v !== '' && k !== 'Offset' && k !== 'Limit')
    .map(([k, v]) => `${k}=${truncate(String(v), 40)}`)
    .join(' ');
  const what = `${view.report}${view.source === 'demo' ? ' (demo data)' : ''}${params ? ` ${truncate(params, 300)}` : ''}`;
  const fetched = view.fetchedRecords;
  if (view.complete) return `${what}: ${n(fetched)} record${fetched === 1 ? '' : 's'}, complete.`;
  const total = view.totalRecords === null ? ' (total unknown)' : ` of ${n(view.totalRecords)}`;
  return `${what}: ${n(fetched)}${total} records fetched, INCOMPLETE (see notes).`;
}

function profileLine(path: string, p: FieldProfile): string {
  const empty = p.nulls ? `; ${n(p.nulls)} empty` : '';
  switch (p.kind) {
    case 'categorical':
    case 'boolean': {
      if (p.unique) return `${path}: ${n(p.distinct ?? 0)} distinct (all unique)${empty}`;
      const top = (p.top ?? []).map((t) => `${t.value} ${n(t.count)}`).join(', ');
      const more = (p.distinct ?? 0) > (p.top?.length ?? 0) ? '…' : '';
      return p.kind === 'boolean'
        ? `${path}: ${top}${empty}`
        : `${path}: ${n(p.distinct ?? 0)} distinct; top ${top}${more}${empty}`;
    }
    case 'numeric': {
      const range = p.sumByCurrency ? '' : p.min === p.max ? `all ${num(p.min)}` : `${num(p.min)} to ${num(p.max)}`;
      if (p.sumByCurrency) {
        const { field, sums, currencies } = p.sumByCurrency;
        const more = sums.length < currencies ? ` and ${currencies - sums.length} more` : '';
        return `${path}: sum by ${field} (never added across currencies): ${sums.map((c) => `${c.currency} ${num(c.sum)}`).join(', ')}${more}${empty}`;
      }
      const sum = p.sum !== undefined ? `sum ${num(p.sum)}${p.currency ? ` ${p.currency.value}` : ''}; ` : '';
      return `${path}: ${sum}${range}${empty}`;
    }
    case 'date':
      return `${path}: ${shortDate(String(p.min))} → ${shortDate(String(p.max))}${empty}`;
    case 'text':
      return `${path}: free text, ${n(p.distinct ?? 0)} distinct, e.g. "${truncate(p.sample ?? '', 60)}"${empty}`;
    case 'list': {
      const { min = 0, max = 0, total = 0 } = p.items ?? {};
      return `${path}: list, ${min === max ? min : `${min}–${max}`} item${min === max && max === 1 ? '' : 's'} per record, ${n(total)} in all${empty}`;
    }
  }
}

function nextSteps(view: ResultView): string[] {
  const fields = Object.entries(view.summary.fields);
  const groupable = fields.filter(([, p]) => p.kind === 'categorical' && !p.unique && (p.distinct ?? 0) > 1);
  const cat =
    groupable.find(([path]) => path === 'Account') ??
    groupable.find(([, p]) => (p.distinct ?? 0) <= 50) ??
    groupable[0];
  const amount = fields.find(([, p]) => p.sum !== undefined || p.sumByCurrency !== undefined);
  const filters = groupable.filter(([path, p]) => path !== cat?.[0] && !isIdField(path) && (p.distinct ?? 0) <= 50);
  const filter = filters.find(([path]) => /Status/.test(path)) ?? filters[0];
  const example: Record<string, unknown> = { resultId: view.resultId };
  if (filter?.[1].top?.length) example.where = [{ field: filter[0], op: 'eq', value: filter[1].top[0].value }];
  if (cat) example.groupBy = [cat[0]];
  // Amounts in several currencies are summed per currency, never across them.
  const split = amount?.[1].sumByCurrency?.field;
  if (split) example.groupBy = [...((example.groupBy as string[] | undefined) ?? []).filter((g) => g !== split), split];
  if (amount) example.aggregates = [{ fn: 'sum', field: amount[0] }];
  const steps = [
    `Next: query_report ${JSON.stringify(example)} filters, groups and totals all ${n(view.fetchedRecords)} held records without calling the service.`,
  ];
  if (!view.complete) {
    const missing = view.totalRecords === null ? null : view.totalRecords - view.fetchedRecords;
    steps.push(
      missing !== null && missing <= 0
        ? 'Every record was fetched but the data changed while it was read (see notes): run the report again for a consistent result.'
        : `continue_report {"resultId":"${view.resultId}"} fetches ${missing === null ? 'the rest' : `the ${n(missing)} records still missing`}.`,
    );
  }
  steps.push(`All records as JSON: ${view.resourceUri}`);
  return steps;
}

function range(output: QueryOutput, shown: number, total: number): string {
  if (shown === total) return '';
  return `, showing ${n(output.offset + 1)}–${n(output.offset + shown)} of ${n(total)}`;
}

/** A pipe table whose lines are formatted only as they are used (rows may be 100,000). */
interface Table {
  header: string | null;
  rows: readonly Record<string, unknown>[];
  line: (row: Record<string, unknown>) => string;
}

function makeTable(columns: string[], rows: readonly Record<string, unknown>[], width: number): Table {
  const getters = columns.map(compilePath);
  return {
    header: columns.length && rows.length ? columns.join(' | ') : null,
    rows: columns.length ? rows : [],
    line: (r) => getters.map((g) => cell(g(r), width)).join(' | '),
  };
}

function cell(value: unknown, width: number): string {
  if (value === undefined || value === null) return '';
  let text: string;
  // Cells show values as the service sent them: 41246 is often an id, not a quantity.
  if (typeof value === 'number') text = String(value);
  else if (typeof value === 'string') text = isIsoDate(value) ? shortDate(value) : value;
  else if (Array.isArray(value)) {
    text = value.some((v) => v !== null && typeof v === 'object')
      ? `[${value.length} item${value.length === 1 ? '' : 's'}]`
      : value.join(', ');
  } else text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return truncate(text.replace(/\s+/g, ' ').replace(/\|/g, '/'), width);
}

/** '2026-04-04T09:55:34.000-05:00' -> '2026-04-04T09:55:34-05:00' (display only). */
function shortDate(iso: string): string {
  return iso.replace(/\.000(?=Z|[+-]|$)/, '');
}

function n(value: number): string {
  return formatNumber(value);
}

function num(value: unknown): string {
  return typeof value === 'number' ? formatNumber(value) : String(value);
}

/**
 * head, then the table header and as many rows as fit, then the tail for that many shown
 * rows; never over TEXT_CHAR_LIMIT.
 */
function fit(head: string[], table: Table, tail: (shownRows: number) => string[]): { text: string; shown: number } {
  const parts = [...head];
  if (table.header !== null) parts.push(table.header);
  // The longest tail (its numbers only get shorter as fewer rows are left out), plus slack.
  const reserve = tail(0).join('\n').length + 64;
  let used = parts.reduce((n, p) => n + p.length + 1, 0);
  let shown = 0;
  for (const row of table.rows) {
    const line = table.line(row);
    if (used + line.length + 1 + reserve > TEXT_CHAR_LIMIT) break;
    parts.push(line);
    used += line.length + 1;
    shown++;
  }
  const text = [...parts, ...tail(shown)].join('\n');
  return { text: text.length <= TEXT_CHAR_LIMIT ? text : `${text.slice(0, TEXT_CHAR_LIMIT - 1)}…`, shown };
}
