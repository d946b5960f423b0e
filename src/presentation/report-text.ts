/**
 * The text an assistant reads for a report result: a headline, the profile of all records,
 * the first rows as a pipe table and what to call next. Whatever rowLimit or fields ask, the
 * text stays under TEXT_CHAR_LIMIT: rows are cut on row boundaries and the text says how many
 * were left out.
 */
import { DEFAULT_ROW_LIMIT } from '../catalog/controls.js';
import { dateBasisWords } from '../catalog/date-basis.js';
import { findTransaction } from '../catalog/transactions.js';
import { formatMoney } from '../results/money.js';
import { collectPaths, resolveField } from '../results/paths.js';
import type { FieldProfile, Summary, TopValue } from '../results/summarize.js';
import { truncate } from '../results/values.js';
import { reportColumns } from './columns.js';
import { objectListPaths, withNestedLines } from './nested-lines.js';
import { nextCalls } from './next-steps.js';
import type { ReportHead } from './shapes.js';
import { fit, makeTable, n, num, shortDate, TEXT_CHAR_LIMIT } from './text-fit.js';
import { mustQuote } from './top-item.js';

/** Cell width of default columns; free-text ones (a log message, a comment) get more. */
const CELL = 40;
const TEXT_CELL = 160;
/** Room kept for the head and tail when a named field is shown whole. */
const WHOLE_FIELD_SLACK = 4_000;

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
  /** Every note whole (default: the first 10, each cut at 400 characters). */
  wholeNotes?: boolean;
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
  const notFound = lookupMiss(view);
  if (notFound)
    return {
      text: [notFound, ...view.notes.slice(0, 10).map((x) => `Note: ${truncate(x, 400)}`)].join('\n'),
      rowsShown: 0,
    };
  const head: string[] = [headline(view)];
  // Which date the window filtered on, right under the headline (and first of the notes).
  const def = findTransaction(view.report);
  const basis = def ? dateBasisWords(def, view.query) : undefined;
  if (basis) head.push(basis);
  const others = view.notes.filter((x) => x !== basis);
  const notes = options.wholeNotes ? others : others.slice(0, 10);
  for (const note of notes) head.push(`Note: ${options.wholeNotes ? note : truncate(note, 400)}`);
  head.push(`resultId: ${resultId}`);
  if (view.table) {
    head.push(`SQL table: ${view.table} (for sql_query; lists inside records are ${view.table}__<List_Path>)`);
  }
  head.push('');

  const explicit = !!options.fields?.length;
  const columns = !explicit
    ? reportColumns(summary, view.report)
    : records.length
      ? options.fields!.map((f) => resolveField(f, collectPaths(records), 'fields'))
      : options.fields!;
  if (summary.recordCount > 0) {
    head.push(
      summary.recordCount === 1 ? 'Summary of the record:' : `Summary of all ${n(summary.recordCount)} records:`,
    );
    // When every record is listed below, "N distinct (all unique)" says nothing the rows don't.
    const allListed = records.length <= rowLimit;
    for (const [path, p] of Object.entries(summary.fields)) {
      // Only a column of the rows below: a field the rows do not show is named here.
      if (allListed && p.unique && columns.includes(path)) continue;
      head.push(`- ${truncate(profileLine(path, p), PROFILE_LINE_CHARS)}`);
    }
    if (summary.emptyFields.length)
      head.push(`Empty in every record: ${truncate(summary.emptyFields.join(', '), 600)}`);
    if (summary.otherFields?.length) head.push(`Not profiled: ${truncate(summary.otherFields.join(', '), 600)}`);
    for (const d of summary.derived ?? []) head.push(`Derived by this server: ${d.field}: ${truncate(d.how, 300)}`);
    head.push('');
  }

  const wanted = Math.min(rowLimit, records.length);
  const textLimit = options.textLimit ?? TEXT_CHAR_LIMIT;
  // A field the caller names is shown whole, up to what the text can hold.
  const widths = explicit
    ? columns.map(() => Math.max(CELL, Math.floor((textLimit - WHOLE_FIELD_SLACK) / columns.length)))
    : columns.map((c) => (summary.fields[c]?.kind === 'text' ? TEXT_CELL : CELL));
  const shownRecords = wanted ? records.slice(0, wanted) : [];
  const table = withNestedLines(
    makeTable(columns, shownRecords, widths),
    nestedPaths(view, shownRecords, explicit ? columns : undefined),
    resultId,
  );

  const cut = (shown: number): string[] => {
    const tail: string[] = [];
    if (shown < wanted) {
      tail.push(
        `${n(wanted - shown)} of the ${n(wanted)} requested rows were left out to keep this text under ` +
          `${n(textLimit / 4)} tokens. Read them with query_report {"resultId":"${resultId}","offset":${shown}} ` +
          `or all records at ${view.resourceUri}.`,
      );
    }
    const steps = nextSteps(view);
    if (steps.length) tail.push('', ...steps);
    return tail;
  };
  const rowsTitle =
    wanted === 0
      ? records.length
        ? `Rows not shown (rowLimit 0); ${n(records.length)} held.`
        : 'No records match these parameters at the service.'
      : `${wanted < records.length ? `First ${n(wanted)} of ${n(records.length)}` : `All ${n(records.length)}`} ` +
        `rows (columns: ${table.names}):`;
  head.push(rowsTitle);
  const { text, shown } = fit(head, table, cut, textLimit);
  return { text, rowsShown: shown };
}

/**
 * The lists written under each row: those the caller named in `fields` (a list is shown as its
 * items, not as a count), else those the catalog names, or all of them for a few records.
 */
function nestedPaths(view: ResultView, shown: readonly Record<string, unknown>[], named?: readonly string[]): string[] {
  if (!shown.length) return [];
  const lists = objectListPaths(shown);
  if (named) return named.filter((p) => lists.includes(p));
  const declared = findTransaction(view.report)?.answer.nested;
  if (declared) return declared.filter((p) => lists.includes(p));
  return shown.length <= 3 ? lists : [];
}

/** A lookup (one booking, one ticket) that found nothing, said in words: no rows, no next step. */
function lookupMiss(view: ResultView): string | undefined {
  const lookup = findTransaction(view.report)?.answer.lookup;
  if (!lookup || view.fetchedRecords > 0 || !view.complete) return undefined;
  const by = lookup.params.find((p) => view.query[p]);
  if (!by) return undefined;
  const source = view.source === 'demo' ? ' (demo data)' : '';
  return (
    `No ${lookup.noun} ${truncate(view.query[by], 120)} found at the service${source}: ${view.report} by ${by}. ` +
    'Check the value, or search by another field.'
  );
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

/** A top value and its count in a list of them, the value quoted when it would read wrong (top-item.ts). */
function topItem(t: TopValue): string {
  return `${mustQuote(t.value) ? JSON.stringify(t.value) : t.value} ${n(t.count)}`;
}

/** Characters of a summary line: a field's profile, cut past it with the marker. */
const PROFILE_LINE_CHARS = 220;

function profileLine(path: string, p: FieldProfile): string {
  const empty = p.nulls ? `; ${n(p.nulls)} empty` : '';
  switch (p.kind) {
    case 'categorical':
    case 'boolean': {
      if (p.travellers) {
        const { distinct, several, top } = p.travellers;
        return (
          `${path}: ${n(distinct)} travellers named (${n(several)} records name several); top, by records naming each: ` +
          `${top.map(topItem).join(', ')}${distinct > top.length ? '…' : ''}${empty}`
        );
      }
      if (p.unique) return `${path}: ${n(p.distinct ?? 0)} distinct (all unique)${empty}`;
      const top = (p.top ?? []).map(topItem).join(', ');
      const more = (p.distinct ?? 0) > (p.top?.length ?? 0) ? '…' : '';
      return p.kind === 'boolean'
        ? `${path}: ${top}${empty}`
        : `${path}: ${n(p.distinct ?? 0)} distinct; top ${top}${more}${empty}`;
    }
    case 'numeric': {
      const name = p.rate ? `${path} (a rate ${p.rate}, not spend)` : p.notSummed ? `${path} (${p.notSummed})` : path;
      const grain = p.grain ? ` (${p.grain})` : '';
      if (p.sumByCurrency) {
        const { field, sums, currencies, notConfirmed } = p.sumByCurrency;
        // Amounts in their currency's minor units (GBP 2,016.90, JPY 215,010).
        const each = ({ currency, sum, confirmedSum, min, max }: (typeof sums)[number]) => {
          const m = (v: number) => formatMoney(v, currency);
          if (sum === undefined) return `${currency} ${m(min)} to ${m(max)}`;
          if (confirmedSum === undefined || confirmedSum === sum) return `${currency} ${m(sum)}`;
          return `${currency} ${m(confirmedSum)} (${m(sum)})`;
        };
        // Travel is the confirmed segments: their sum first, every state's in brackets where the
        // two differ (a cancelled stay carries no EstimatedCost: its sums are equal).
        const head =
          notConfirmed === undefined
            ? `${name}: ${p.rate ? 'range' : 'sum'} per ${field} (never ${p.rate ? 'compared' : 'added'} across ` +
              `currencies)${grain}: `
            : `${name}: confirmed sum per ${field}, never added across currencies (in brackets where it ` +
              `differs: over every state, ${n(notConfirmed)} not confirmed)${grain}: `;
        // As many whole amounts as the line holds, then how many currencies are left: an amount
        // cut by the line's end (INR 290,7…) could be read as a smaller one.
        const items = sums.map(each);
        const fitsWhole =
          items.length === currencies && head.length + items.join(', ').length + empty.length <= PROFILE_LINE_CHARS;
        const shown = fitsWhole ? items : fittedItems(items, head.length + empty.length);
        const left = currencies - shown.length;
        return `${head}${shown.join(', ')}${left > 0 ? ` and ${n(left)} more currencies` : ''}${empty}`;
      }
      const unit = p.currency ? ` ${p.currency.value}` : '';
      const write = moneyWriter(p);
      const range = p.min === p.max ? `all ${write(p.min)}${unit}` : `${write(p.min)} to ${write(p.max)}${unit}`;
      const every = p.confirmed
        ? ` confirmed (${write(p.sum ?? 0)}${unit} over every state, ${n(p.confirmed.notConfirmed)} not confirmed)`
        : '';
      const sum = p.sum !== undefined ? `sum ${write(p.confirmed?.sum ?? p.sum)}${unit}${every}${grain}; ` : '';
      return `${name}: ${sum}${range}${p.currencyNote ? ` (${p.currencyNote})` : ''}${empty}`;
    }
    case 'date':
      return `${path}: ${shortDate(String(p.min))} → ${shortDate(String(p.max))}${empty}`;
    case 'text':
      return `${path}: free text, ${n(p.distinct ?? 0)} distinct, e.g. "${truncate(p.sample ?? '', 60)}"${empty}`;
    case 'list': {
      const { min = 0, max = 0, total = 0 } = p.items ?? {};
      return (
        `${path}: list, ${min === max ? min : `${min}–${max}`} item${min === max && max === 1 ? '' : 's'} per ` +
        `record, ${n(total)} item${total === 1 ? '' : 's'} in all${empty}`
      );
    }
  }
}

/** The first items that fit a summary line after `used` characters, with room left to say how
 *  many more there are; one at least. */
function fittedItems(items: readonly string[], used: number): string[] {
  const shown: string[] = [];
  let length = used + ' and 999 more currencies'.length;
  for (const item of items) {
    if (shown.length > 0 && length + 2 + item.length > PROFILE_LINE_CHARS) break;
    shown.push(item);
    length += 2 + item.length;
  }
  return shown;
}

/**
 * How a numeric field's figures are written. Money in a stated currency: its minor units
 * (GBP 2,016.90, JPY 215,010). Money whose currency the records do not state: every figure
 * of the line with as many decimals as its most precise one (208.70 to 27,425.35, not 208.7
 * beside 27,425.35), no unit claimed. Other numbers as they are.
 */
function moneyWriter(p: FieldProfile): (v: unknown) => string {
  if (p.currency) {
    const currency = p.currency.value;
    return (v) => (typeof v === 'number' ? formatMoney(v, currency) : num(v));
  }
  if (!p.currencyNote) return num;
  const figures = [p.min, p.max, p.sum, p.confirmed?.sum].filter((v): v is number => typeof v === 'number');
  const digits = Math.min(6, Math.max(0, ...figures.map(decimalsOf)));
  return (v) =>
    typeof v === 'number'
      ? v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
      : num(v);
}

/** Digits after the point as a number is written (1e-7 as 0.0000001: 7). */
function decimalsOf(v: number): number {
  const [mantissa, exponent = '0'] = String(Math.abs(v)).split('e');
  const fraction = mantissa.split('.')[1]?.length ?? 0;
  return Math.max(0, fraction - Number(exponent));
}

function nextSteps(view: ResultView): string[] {
  const steps: string[] = [];
  for (const call of nextCalls(view)) {
    steps.push(
      call.tool === 'continue_report'
        ? `${call.tool} ${JSON.stringify(call.arguments)} ${call.say}.`
        : `Next, ${call.say}: ${call.tool} ${JSON.stringify(call.arguments)}`,
    );
  }
  if (!view.complete && view.totalRecords !== null && view.totalRecords - view.fetchedRecords <= 0)
    steps.push(
      'Every record was fetched but the data changed while it was read (see notes): run the report again for a consistent result.',
    );
  if (view.fetchedRecords > 0) steps.push(`All records as JSON: ${view.resourceUri}`);
  return steps;
}
