/**
 * What the result view knows about a held result, read from a tool's structuredContent: the
 * report head (report, query, complete or why not), the summary's field profiles, and the
 * query_report answers it asks for. Pure functions: no DOM, no host.
 */

// The summary's shapes are the server's own (type-only: nothing of the server is bundled).
import type { FieldProfile, Summary } from '../src/results/summarize.js';

export type { FieldProfile, Summary };

/** structuredContent of a report tool or continue_report. */
export interface ReportHead {
  report: string;
  source: 'live' | 'demo';
  query: Record<string, string>;
  totalRecords: number | null;
  fetchedRecords: number;
  complete: boolean;
  notes: string[];
  resultId: string;
  summary: Summary;
  rows: Record<string, unknown>[];
}

/** structuredContent of query_report. */
export interface QueryAnswer {
  resultId: string;
  matched: number;
  offset: number;
  limit: number;
  nextOffset: number | null;
  rows?: Record<string, unknown>[];
  groups?: Array<{ key: Record<string, unknown>; count: number; [aggregate: string]: unknown }>;
  groupCount?: number;
  notes?: string[];
}

export interface Where {
  field: string;
  op: 'contains' | 'eq' | 'ne' | 'gt' | 'lt' | 'startsWith';
  value: string;
}

export interface ChartChoice {
  /** A field, grouped by its values, or a date field grouped per day. */
  groupBy: string;
  perDay: boolean;
  /** 'count' or the amount field summed. */
  measure: string;
}

export function isReportHead(x: unknown): x is ReportHead {
  const o = x as Partial<ReportHead> | undefined;
  return !!o && typeof o.report === 'string' && typeof o.resultId === 'string' && !!o.summary;
}

export function isQueryAnswer(x: unknown): x is QueryAnswer {
  const o = x as Partial<QueryAnswer> | undefined;
  return !!o && typeof o.resultId === 'string' && typeof o.matched === 'number';
}

/** Fields a chart can group by: categories with 2 to 200 values, booleans, and dates. */
export function groupableFields(summary: Summary | undefined): string[] {
  if (!summary) return [];
  return Object.entries(summary.fields)
    .filter(
      ([, f]) =>
        f.kind === 'date' ||
        f.kind === 'boolean' ||
        (f.kind === 'categorical' && !f.unique && (f.distinct ?? 0) >= 2 && (f.distinct ?? 0) <= 200),
    )
    .map(([name]) => name);
}

/** Amount fields a chart can sum: those the summary sums (one currency, never mixed). */
export function summableFields(summary: Summary | undefined): string[] {
  if (!summary) return [];
  return Object.entries(summary.fields)
    .filter(([, f]) => f.kind === 'numeric' && typeof f.sum === 'number')
    .map(([name]) => name);
}

const PREFERRED_GROUPS = ['Account', 'AccountName', 'CompanyName', 'Vendor', 'VendorCode', 'Carrier', 'PCC'];

/** The chart a person most likely wants first: counts per account, else per the first category. */
export function defaultChart(summary: Summary | undefined): ChartChoice | undefined {
  const fields = groupableFields(summary);
  if (!fields.length) return undefined;
  const byName = PREFERRED_GROUPS.find((p) => fields.includes(p));
  const firstCategory = fields.find((f) => summary!.fields[f].kind === 'categorical');
  const groupBy = byName ?? firstCategory ?? fields[0];
  return { groupBy, perDay: summary!.fields[groupBy].kind === 'date', measure: 'count' };
}

/** query_report arguments for a chart choice. */
export function chartQuery(resultId: string, chart: ChartChoice, where: Where[]): Record<string, unknown> {
  const key = chart.perDay ? `${chart.groupBy}:day` : chart.groupBy;
  return {
    resultId,
    ...(where.length ? { where } : {}),
    groupBy: [key],
    aggregates: chart.measure === 'count' ? [{ fn: 'count' }] : [{ fn: 'count' }, { fn: 'sum', field: chart.measure }],
    // Days read left to right in time; categories largest first.
    orderBy: chart.perDay ? [{ field: key, direction: 'asc' }] : undefined,
    limit: chart.perDay ? 366 : 30,
  };
}

export interface Bar {
  label: string;
  value: number;
}

/** The bars of a grouped answer: the group's key and its count or sum. */
export function barsOf(answer: QueryAnswer, chart: ChartChoice): Bar[] {
  const key = chart.perDay ? `${chart.groupBy}:day` : chart.groupBy;
  const measure = chart.measure === 'count' ? 'count' : `sum_${chart.measure}`;
  return (answer.groups ?? []).map((g) => ({
    label: g.key[key] === null || g.key[key] === undefined ? '(empty)' : String(g.key[key]),
    value: Number(g[measure] ?? 0),
  }));
}

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** A cell as a person reads it: numbers grouped, lists and objects as short JSON, long text cut. */
export function cellText(value: unknown, max = 120): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return NUMBER.format(value);
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function formatNumber(n: number): string {
  return NUMBER.format(n);
}

/** One line per profiled field: what the summary says about it. */
export function summaryLines(summary: Summary): Array<{ field: string; text: string }> {
  const out: Array<{ field: string; text: string }> = [];
  for (const [field, f] of Object.entries(summary.fields)) {
    let text: string;
    if (f.kind === 'numeric') {
      const range = `${formatNumber(Number(f.min))} – ${formatNumber(Number(f.max))}`;
      if (typeof f.sum === 'number')
        text = `sum ${formatNumber(f.sum)}${f.currency ? ` ${f.currency.value}` : ''} (${range})`;
      else if (f.sumByCurrency)
        text = `sums ${f.sumByCurrency.sums.map((s) => `${formatNumber(s.sum)} ${s.currency}`).join(', ')} (${range})`;
      else text = range;
    } else if (f.kind === 'date') text = `${String(f.min).slice(0, 10)} → ${String(f.max).slice(0, 10)}`;
    else if (f.unique) text = `${formatNumber(f.distinct ?? 0)} distinct, all different`;
    else if (f.top?.length)
      text = `${formatNumber(f.distinct ?? 0)} distinct: ${f.top
        .slice(0, 3)
        .map((t) => `${cellText(t.value, 40)} ${formatNumber(t.count)}`)
        .join(', ')}${(f.distinct ?? 0) > 3 ? ', …' : ''}`;
    else if (f.kind === 'list' && f.items) text = `${formatNumber(f.items.total)} items in all`;
    else if (f.sample !== undefined) text = `text, e.g. “${cellText(f.sample, 60)}”`;
    else text = f.kind;
    if (f.nulls) text += ` · ${formatNumber(f.nulls)} empty`;
    out.push({ field, text });
  }
  return out;
}
