/**
 * What the result view knows about a held result, read from a tool's structuredContent: the
 * report head (report, query, complete or why not), the summary's field profiles, and the
 * query_report answers it asks for. Pure functions: no DOM, no host.
 */

// The server's own rule for quoting a top value that would read wrong in a list.
import { mustQuote } from '../src/presentation/top-item.js';
// The server's own minor units (ISO 4217's list), so the view writes an amount as the text
// answer does.
import { formatMoney } from '../src/results/money.js';
// The summary's shapes are the server's own (type-only).
import type { FieldProfile, Summary } from '../src/results/summarize.js';
// The server's own rule for identifier names (ServiceRef, TktNumber…), so the view never
// formats one as a quantity.
import { isIdField } from '../src/results/values.js';
import {
  type AskedWindow,
  counted,
  countedItems,
  type Day,
  dayKey,
  dayRangeText,
  daysBetween,
  dayText,
  formatNumber,
  parseDay,
  readableTimestamp,
} from './words.js';

export type { FieldProfile, Summary };
export { formatNumber };

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
  /** The held result's own `complete` (CONTRACT section 5: every derived answer carries it). */
  complete?: boolean;
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

/** What a chart measures: records, or the sum of an amount in one currency (never across). */
export interface Measure {
  /** The option's value in the measure picker. */
  id: string;
  label: string;
  /** The amount summed; absent for a count of records. */
  field?: string;
  /** The currency the sum is kept to: its field and value (a filter added to the chart's query). */
  currency?: { field: string; value: string };
  /** Said beside the sum: its currency is not stated by the service. */
  note?: string;
  /** Summed over confirmed segments only (a filter added to the chart's query), as the
   *  summary sums segments not all confirmed. */
  confirmedOnly?: true;
}

export const COUNT: Measure = { id: 'count', label: 'Records' };

export interface ChartChoice {
  /** A field, grouped by its values, or a date field grouped per day. */
  groupBy: string;
  perDay: boolean;
  measure: Measure;
}

export function isReportHead(x: unknown): x is ReportHead {
  const o = x as Partial<ReportHead> | undefined;
  return !!o && typeof o.report === 'string' && typeof o.resultId === 'string' && !!o.summary;
}

export function isQueryAnswer(x: unknown): x is QueryAnswer {
  const o = x as Partial<QueryAnswer> | undefined;
  return !!o && typeof o.resultId === 'string' && typeof o.matched === 'number';
}

/** Fields a chart can group by: categories with 2 to 200 values, booleans and dates with 2 or more. */
export function groupableFields(summary: Summary | undefined): string[] {
  if (!summary) return [];
  return (
    Object.entries(summary.fields)
      // One value (a booking looked up by its locator) makes a chart of one bar: nothing to compare.
      .filter(
        ([, f]) =>
          ((f.kind === 'date' || f.kind === 'boolean') && (f.distinct ?? 2) >= 2) ||
          (f.kind === 'categorical' && !f.unique && (f.distinct ?? 0) >= 2 && (f.distinct ?? 0) <= 200),
      )
      .map(([name]) => name)
  );
}

/**
 * What a chart can measure: the count, and each amount the summary sums, kept to one
 * currency: an amount in one currency (or with no currency field) once, an amount in
 * several currencies once per currency the summary lists ("RateAmount in USD").
 */
export function measuresOf(summary: Summary | undefined): Measure[] {
  const out: Measure[] = [COUNT];
  for (const [field, f] of Object.entries(summary?.fields ?? {})) {
    // A rate is never summed as if it were spend (EstimatedCost is the spend).
    if (f.kind !== 'numeric' || f.rate) continue;
    if (typeof f.sum === 'number') {
      const currency = f.currency ? ` in ${f.currency.value}` : '';
      out.push({
        id: `sum:${field}`,
        label: `Sum of ${field}${currency}${f.confirmed ? ', confirmed' : ''}`,
        field,
        currency: f.currency,
        ...(f.currencyNote ? { note: f.currencyNote } : {}),
        ...(f.confirmed ? { confirmedOnly: true as const } : {}),
      });
    } else if (f.sumByCurrency) {
      const by = f.sumByCurrency;
      // Summed over confirmed segments as the summary does, when segments are not all confirmed.
      const confirmed = by.notConfirmed !== undefined;
      for (const s of by.sums)
        out.push({
          id: `sum:${field}:${s.currency}`,
          label: `Sum of ${field} in ${s.currency}${confirmed ? ', confirmed' : ''}`,
          field,
          currency: { field: by.field, value: s.currency },
          ...(confirmed ? { confirmedOnly: true as const } : {}),
        });
    }
  }
  return out;
}

const PREFERRED_GROUPS = ['Account', 'AccountName', 'CompanyName', 'Vendor', 'VendorCode', 'Carrier', 'PCC'];

/** The chart a person most likely wants first: counts per account, else per the first category. */
export function defaultChart(summary: Summary | undefined): ChartChoice | undefined {
  const fields = groupableFields(summary);
  if (!fields.length) return undefined;
  const byName = PREFERRED_GROUPS.find((p) => fields.includes(p));
  const firstCategory = fields.find((f) => summary!.fields[f].kind === 'categorical');
  const groupBy = byName ?? firstCategory ?? fields[0];
  return { groupBy, perDay: summary!.fields[groupBy].kind === 'date', measure: COUNT };
}

/**
 * query_report arguments for a chart choice. A sum is asked for its one currency only: the
 * records kept to that currency, and the currency in the group key too, as query_report
 * asks of any sum of an amount (one group per currency; here there is only one).
 */
export function chartQuery(resultId: string, chart: ChartChoice, where: Where[]): Record<string, unknown> {
  const key = chart.perDay ? `${chart.groupBy}:day` : chart.groupBy;
  const { field, currency, confirmedOnly } = chart.measure;
  const all = [
    ...where,
    ...(currency ? [{ field: currency.field, op: 'eq', value: currency.value }] : []),
    ...(confirmedOnly ? [{ field: 'SegmentState', op: 'eq', value: 'confirmed' }] : []),
  ];
  return {
    resultId,
    ...(all.length ? { where: all } : {}),
    groupBy: currency && currency.field !== chart.groupBy ? [key, currency.field] : [key],
    aggregates: field ? [{ fn: 'count' }, { fn: 'sum', field }] : [{ fn: 'count' }],
    // Days read left to right in time; categories largest first.
    orderBy: chart.perDay ? [{ field: key, direction: 'asc' }] : undefined,
    limit: chart.perDay ? 366 : 30,
  };
}

export interface Bar {
  label: string;
  value: number;
}

export interface Bars {
  bars: Bar[];
  /** Per day: records on days outside the span drawn, and the first and last such day. */
  outside?: { records: number; from: Day; to: Day };
}

/**
 * The days a per-day chart spans: the window the report was asked for, when the field's
 * dates fall in it (a departure-date search charted by departure day); otherwise the
 * field's own first to last day (a creation date, months before the asked window).
 */
export function daySpan(profile: FieldProfile | undefined, window: AskedWindow | undefined): [Day, Day] | undefined {
  const min = parseDay(String(profile?.min ?? '').slice(0, 10));
  const max = parseDay(String(profile?.max ?? '').slice(0, 10));
  if (window && (!min || !max || (dayKey(min) <= dayKey(window.to) && dayKey(max) >= dayKey(window.from))))
    return [window.from, window.to];
  return min && max ? [min, max] : undefined;
}

/**
 * The bars of a grouped answer: the group's key and its count or sum. Per day, one bar for
 * every day of the span, days without records as zero, none outside it.
 */
export function barsOf(answer: QueryAnswer, chart: ChartChoice, span?: [Day, Day]): Bars {
  const key = chart.perDay ? `${chart.groupBy}:day` : chart.groupBy;
  const measure = chart.measure.field ? `sum_${chart.measure.field}` : 'count';
  const groups = answer.groups ?? [];
  const keyOf = (g: (typeof groups)[number]) =>
    g.key[key] === null || g.key[key] === undefined ? '(empty)' : String(g.key[key]);
  if (!chart.perDay || !span) return { bars: groups.map((g) => ({ label: keyOf(g), value: Number(g[measure] ?? 0) })) };
  const days = daysBetween(span[0], span[1]);
  const inSpan = new Set(days);
  const byDay = new Map(groups.map((g) => [keyOf(g), Number(g[measure] ?? 0)]));
  const bars = days.map((d) => ({ label: dayText(parseDay(d)!), value: byDay.get(d) ?? 0 }));
  const outsideGroups = groups.filter((g) => !inSpan.has(keyOf(g)));
  if (!outsideGroups.length) return { bars };
  const outsideDays = outsideGroups.map(keyOf).sort();
  return {
    bars,
    outside: {
      records: outsideGroups.reduce((n, g) => n + g.count, 0),
      from: parseDay(outsideDays[0]) ?? span[0],
      to: parseDay(outsideDays[outsideDays.length - 1]) ?? span[1],
    },
  };
}

/**
 * A cell as a person reads it: numbers grouped (identifiers never: "7107800"), dates in
 * words in the record's local time, lists as a count of what they hold ("4 air segments":
 * the rows open them as tables), objects as short "name value" text, long text cut.
 */
export function cellText(value: unknown, field = '', max = 120): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return isIdField(field) ? String(value) : formatNumber(value);
  if (typeof value === 'boolean') return String(value);
  let text: string;
  if (typeof value === 'string') text = readableTimestamp(value) ?? value;
  else if (Array.isArray(value)) {
    if (!value.length) return '';
    text = value.every((v) => v === null || typeof v !== 'object')
      ? value.map((v) => cellText(v, field, max)).join(', ')
      : countedItems(value.length, field);
  } else
    text = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== null && v !== undefined && v !== '')
      .map(([k, v]) => `${k} ${cellText(v, k, max)}`)
      .join(' · ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One line per profiled field: what the summary says about it. */
export function summaryLines(summary: Summary): Array<{ field: string; text: string }> {
  const out: Array<{ field: string; text: string }> = [];
  for (const [field, f] of Object.entries(summary.fields)) {
    let text: string;
    if (f.kind === 'numeric') {
      // An amount in a known currency in that currency's minor units (1,250.50 NZD), as the text
      // answer writes it; any other number as a cell.
      const number = (v: unknown, currency = f.currency?.value) =>
        typeof v === 'number' && currency !== undefined ? formatMoney(v, currency) : cellText(v, field);
      const range = `${number(f.min)} – ${number(f.max)}`;
      const note = f.currencyNote ? `, ${f.currencyNote}` : '';
      const unit = f.currency ? ` ${f.currency.value}` : '';
      if (typeof f.sum === 'number' && f.confirmed)
        // Travel counts confirmed segments: the sum over every state is said beside it.
        text =
          `sum ${number(f.confirmed.sum)}${unit} confirmed; ${number(f.sum)} over every state, ` +
          `${counted(f.confirmed.notConfirmed, 'segment', 'segments')} not confirmed (${range}${note})`;
      else if (typeof f.sum === 'number') text = `sum ${number(f.sum)}${unit} (${range}${note})`;
      else if (f.sumByCurrency) {
        // Never one range across currencies: each currency's own.
        const by = f.sumByCurrency;
        const more = by.currencies > by.sums.length ? `, … (${counted(by.currencies, 'currency', 'currencies')})` : '';
        // A rate (per night, per rental period) has no sum: never spend, only its range.
        const each = by.sums.map((s) => {
          const range = `${number(s.min, s.currency)} – ${number(s.max, s.currency)}`;
          if (s.sum === undefined) return `${s.currency} ${range}`;
          if (s.confirmedSum !== undefined && s.confirmedSum !== s.sum)
            return `${number(s.confirmedSum, s.currency)} ${s.currency} (${number(s.sum, s.currency)} over every state)`;
          return `${number(s.sum, s.currency)} ${s.currency}${s.min === undefined ? '' : ` (${range})`}`;
        });
        // Travel counts confirmed segments: their sums first, as for an amount in one currency.
        const notConfirmed =
          by.notConfirmed === undefined ? '' : `; ${counted(by.notConfirmed, 'segment', 'segments')} not confirmed`;
        text = f.rate
          ? `a rate ${f.rate}, not spend: ${each.join(', ')}${more}`
          : `sums${notConfirmed ? ' confirmed' : ''} ${each.join(', ')}${more}${notConfirmed}`;
      } else if (f.notSummed) text = `${range} (${f.notSummed})`;
      else text = `${range}${note ? ` (${f.currencyNote})` : ''}`;
    } else if (f.kind === 'date') {
      const [from, to] = [parseDay(String(f.min).slice(0, 10)), parseDay(String(f.max).slice(0, 10))];
      text = from && to ? dayRangeText(from, to) : `${String(f.min)} – ${String(f.max)}`;
    } else if (f.kind === 'list' && f.items) {
      const holding = summary.recordCount - f.nulls;
      text = `${countedItems(f.items.total, field)} in ${counted(holding, 'record')}`;
      if (f.items.min !== f.items.max) text += ` (${f.items.min}–${f.items.max} each)`;
    } else if (f.travellers) {
      const { distinct, several, top } = f.travellers;
      text =
        `${counted(distinct, 'traveller')} named (${counted(several, 'record')} name several); by records ` +
        `naming each: ${top
          .slice(0, 3)
          .map((t) => topItem(t, field))
          .join(', ')}${distinct > 3 ? ', …' : ''}`;
    } else if (f.distinct === 1 && f.top?.length === 1) {
      const value = cellText(f.top[0].value, field, 40);
      text = summary.recordCount - f.nulls > 1 ? `${value} in all ${formatNumber(f.top[0].count)}` : value;
    } else if (f.unique) text = `${formatNumber(f.distinct ?? 0)} distinct, all different`;
    else if (f.top?.length)
      text = `${formatNumber(f.distinct ?? 0)} distinct: ${f.top
        .slice(0, 3)
        .map((t) => topItem(t, field))
        .join(', ')}${(f.distinct ?? 0) > 3 ? ', …' : ''}`;
    else if (f.sample !== undefined) text = `text, e.g. “${cellText(f.sample, field, 60)}”`;
    else text = f.kind;
    if (f.nulls) text += ` · ${formatNumber(f.nulls)} empty`;
    out.push({ field, text });
  }
  return out;
}

/** A top value and its count, the value quoted when it would read wrong in the list (top-item.ts). */
function topItem(t: { value: string; count: number }, field: string): string {
  const shown = cellText(t.value, field, 40);
  return `${mustQuote(shown) ? `“${shown}”` : shown} ${formatNumber(t.count)}`;
}
