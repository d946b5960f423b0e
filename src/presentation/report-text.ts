/**
 * The text an assistant reads for a report result: a headline, the profile of all records,
 * the first rows as a pipe table and what to call next. Whatever rowLimit or fields ask, the
 * text stays under TEXT_CHAR_LIMIT: rows are cut on row boundaries and the text says how many
 * were left out.
 */
import { DEFAULT_ROW_LIMIT } from '../catalog/controls.js';
import { collectPaths, resolveField } from '../results/paths.js';
import type { FieldProfile, Summary } from '../results/summarize.js';
import { isIdField, truncate } from '../results/values.js';
import { defaultColumns } from './columns.js';
import type { ReportHead } from './shapes.js';
import { fit, makeTable, n, num, shortDate, TEXT_CHAR_LIMIT } from './text-fit.js';

/** A report result as the renderer reads it: the head, the exact profile and all held records. */
export interface ResultView extends ReportHead {
  summary: Summary;
  /** All held records (the first rowLimit are shown). */
  records: readonly Record<string, unknown>[];
}

export interface RenderOptions {
  /** Rows shown (default DEFAULT_ROW_LIMIT); the text limit may show fewer and says so. */
  rowLimit?: number;
  /** Columns of the table (dot paths allowed); default: the ~8 most informative scalar fields. */
  fields?: string[];
  /** Most characters of text (default TEXT_CHAR_LIMIT); rows beyond it are cut with a count. */
  textLimit?: number;
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
  head.push(
    `resultId: ${resultId}`,
    `SQL table: ${view.table} (for sql_query; lists inside records are ${view.table}__<List_Path>)`,
    '',
  );

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

  const textLimit = options.textLimit ?? TEXT_CHAR_LIMIT;
  const cut = (shown: number): string[] => {
    const tail: string[] = [];
    if (shown < wanted) {
      tail.push(
        `${n(wanted - shown)} of the ${n(wanted)} requested rows were left out to keep this text under ` +
          `${n(textLimit / 4)} tokens. Read them with query_report {"resultId":"${resultId}","offset":${shown}} ` +
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
      : `${wanted < records.length ? `First ${n(wanted)} of ${n(records.length)}` : `All ${n(records.length)}`} ` +
        `rows (columns: ${table.names}):`;
  head.push(rowsTitle);
  const { text, shown } = fit(head, table, cut, textLimit);
  return { text, rowsShown: shown };
}

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
        return (
          `${path}: sum by ${field} (never added across ` +
          `currencies): ${sums.map((c) => `${c.currency} ${num(c.sum)}`).join(', ')}${more}${empty}`
        );
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
      return (
        `${path}: list, ${min === max ? min : `${min}–${max}`} item${min === max && max === 1 ? '' : 's'} per ` +
        `record, ${n(total)} in all${empty}`
      );
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
    `Next: query_report ${JSON.stringify(example)} filters, groups and totals all ${n(view.fetchedRecords)} held ` +
      `records without calling the service.`,
  ];
  if (!view.complete) {
    const missing = view.totalRecords === null ? null : view.totalRecords - view.fetchedRecords;
    steps.push(
      missing !== null && missing <= 0
        ? 'Every record was fetched but the data changed while it was read (see notes): run the report again for a consistent result.'
        : `continue_report {"resultId":"${view.resultId}"} fetches ${
            missing === null ? 'the rest' : `the ${n(missing)} records still missing`
          }.`,
    );
  }
  steps.push(`All records as JSON: ${view.resourceUri}`);
  return steps;
}
