/**
 * The text an assistant reads for a query_report answer: what matched, the rows or groups of
 * this page as a pipe table, and how to page on; always under TEXT_CHAR_LIMIT.
 */
import { formatMoney } from '../results/money.js';
import type { QueryOutput } from '../results/query.js';
import type { QueryArgs } from '../results/query-schema.js';
import { summarize } from '../results/summarize.js';
import { truncate } from '../results/values.js';
import { defaultColumns, reportColumns } from './columns.js';
import { fit, makeTable, n, type Table, TEXT_CHAR_LIMIT } from './text-fit.js';

export interface QueryRenderContext {
  resultId: string;
  /** Tool name of the report the result came from. */
  report?: string;
  /** Records held by the result. */
  heldRecords?: number;
  args?: QueryArgs;
  resourceUri?: string;
  /** Lines said before the rows: an incomplete result, a currency joined to the groups. */
  notes?: readonly string[];
  /** Aggregates of money -> the key field holding their currency (QueryOutput.money). */
  money?: Readonly<Record<string, string>>;
}

export function renderQuery(output: QueryOutput, context: QueryRenderContext): string {
  const { resultId, args = {} } = context;
  const where = (args.where ?? []).map(
    (w) => `${w.field} ${w.op}${w.value === undefined ? '' : ` ${JSON.stringify(w.value)}`}`,
  );
  const of = args.unnest
    ? ` ${truncate(args.unnest, 80)} items (one row each) of ${n(context.heldRecords ?? 0)} held records`
    : context.heldRecords === undefined
      ? ' records'
      : ` of ${n(context.heldRecords)} held records`;
  const head: string[] = [
    `query_report on ${resultId}${context.report ? ` (${context.report})` : ''}: ${n(output.matched)}${of} match` +
      (where.length ? ` ${truncate(where.join(' and '), 600)}.` : ' (no filter).'),
  ];
  for (const note of context.notes ?? []) head.push(`Note: ${truncate(note, 600)}`);

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
    const rows = output.groups.map((g) => withMoney({ ...g.key, ...g, key: undefined }, g.key, context.money));
    table = makeTable(columns, rows, 60);
    total = output.groupCount ?? output.groups.length;
    unit = 'groups';
    head.push(
      keyNames.length
        ? `${n(total)} groups by ${keyNames.map((k) => truncate(k, 60)).join(', ')}${range(output, output.groups.length, total)}:`
        : 'Totals over the matching records:',
    );
  } else {
    const rows = output.rows ?? [];
    const explicit = !!args.fields?.length && rows.length > 0;
    // Whole records: the report's own columns (those of its list items when unnested).
    const profile = explicit ? undefined : summarize(rows);
    columns = explicit
      ? Object.keys(rows[0])
      : context.report && !args.unnest
        ? reportColumns(profile!, context.report)
        : defaultColumns(profile!);
    // A field the caller names is shown whole, up to what the text can hold; free text wider.
    const widths = explicit
      ? columns.map(() => Math.max(40, Math.floor((TEXT_CHAR_LIMIT - 4_000) / columns.length)))
      : columns.map((c) => (profile!.fields[c]?.kind === 'text' ? 160 : 40));
    table = makeTable(columns, rows, widths);
    total = output.matched;
    unit = 'rows';
    head.push(
      rows.length ? `Rows${range(output, rows.length, total)} (columns: ${table.names}):` : 'No matching rows.',
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

/** A group's money written with its currency's minor units and thousands (1,552.70 EUR, 215,010
 *  JPY), as the report's summary writes money: a number alone (1552.7) reads as an amount cut short. */
function withMoney(
  row: Record<string, unknown>,
  key: Record<string, unknown>,
  money: Readonly<Record<string, string>> | undefined,
): Record<string, unknown> {
  if (!money) return row;
  for (const [column, currency] of Object.entries(money)) {
    const v = row[column];
    if (typeof v === 'number' && Number.isFinite(v)) row[column] = formatMoney(v, key[currency]);
  }
  return row;
}

function range(output: QueryOutput, shown: number, total: number): string {
  if (shown === total) return '';
  return `, showing ${n(output.offset + 1)}–${n(output.offset + shown)} of ${n(total)}`;
}
