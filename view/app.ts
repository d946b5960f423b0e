/**
 * The result view (an MCP App): the host hands it a report tool's (or query_report's) result;
 * it shows the headline, the summary, a bar chart of counts or sums per group or per day, and
 * a table that sorts, filters and pages through ALL held records by calling query_report on
 * the server through the host. Everything it shows comes from the server's answers.
 */
import { App, applyDocumentTheme, applyHostStyleVariables } from '@modelcontextprotocol/ext-apps';
import { drawBars } from './chart.js';
import { renderHeadline } from './headline.js';
import {
  barsOf,
  type ChartChoice,
  COUNT,
  cellText,
  chartQuery,
  daySpan,
  defaultChart,
  formatNumber,
  groupableFields,
  isQueryAnswer,
  isReportHead,
  type Measure,
  measuresOf,
  type QueryAnswer,
  type ReportHead,
  summaryLines,
  type Where,
} from './model.js';
import { displayColumns, renderRecordTable } from './record-table.js';
import type { HostTool } from './titles.js';
import { askedWindow, counted, dayRangeText } from './words.js';

/** Rows per page: in a host's full view, and inline in a conversation, where the whole view
 *  stays within 500 px with nothing scrolling inside it (README.md, "Seeing a result"). */
const PAGE_SIZE = 20;
const INLINE_PAGE_SIZE = 5;
/** Bars drawn inline (the others in the full view, which the note offers). */
const INLINE_BARS = 8;

/** Inline unless the host says it shows the view in full (fullscreen or picture-in-picture). */
function inline(): boolean {
  return document.documentElement.dataset.display === 'inline';
}
const pageSize = () => (inline() ? INLINE_PAGE_SIZE : PAGE_SIZE);

interface State {
  resultId?: string;
  head?: ReportHead;
  where: Where[];
  orderBy?: { field: string; direction: 'asc' | 'desc' };
  offset: number;
  chart?: ChartChoice;
  measures: Measure[];
  /** The record fields asked of query_report, in the rows' key order. */
  columns: string[];
  /** The columns shown: `columns`, with fields holding objects spread into the fields inside. */
  shown: string[];
}

const state: State = { where: [], offset: 0, columns: [], shown: [], measures: [COUNT] };
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const app = new App({ name: 'travel-reports result view', version: '1.0.0' }, {}, { autoResize: true });

app.ontoolresult = (result) => {
  if (result.isError) {
    showError(textOf(result.content) || 'The tool call failed.');
    return;
  }
  void show(result.structuredContent);
};
app.onhostcontextchanged = (ctx) => applyTheme(ctx);

async function start(): Promise<void> {
  wireControls();
  await app.connect();
  applyTheme(app.getHostContext());
}

type HostContext = ReturnType<App['getHostContext']>;

function applyTheme(ctx: HostContext): void {
  if (ctx?.theme) applyDocumentTheme(ctx.theme);
  if (ctx?.styles?.variables) applyHostStyleVariables(ctx.styles.variables);
  // A change may carry only what changed: the mode last known stands when it says none.
  const displayMode = ctx?.displayMode ?? app.getHostContext()?.displayMode;
  const mode =
    displayMode === 'fullscreen' ? 'full' : displayMode ? 'inline' : document.documentElement.dataset.display;
  if (mode && document.documentElement.dataset.display !== mode) {
    document.documentElement.dataset.display = mode;
    // The page and the bars fit the new room.
    state.offset = Math.floor(state.offset / pageSize()) * pageSize();
    if (state.resultId) void Promise.all([loadPage(), loadChart()]);
  }
  const modes = ctx?.availableDisplayModes ?? app.getHostContext()?.availableDisplayModes;
  const canExpand = modes?.includes('fullscreen') ?? false;
  $('expand').hidden = mode === 'full' || !canExpand;
}

/** Inline, one part at a time: the table, the chart or the summary. */
function showTab(tab: string): void {
  $('main').dataset.tab = tab;
  for (const b of document.querySelectorAll<HTMLButtonElement>('#tabs button[data-tab]'))
    b.setAttribute('aria-pressed', String(b.dataset.tab === tab));
}

/** A report result (head, summary, first rows) or a query_report answer on a held result. */
async function show(content: unknown): Promise<void> {
  if (isReportHead(content)) {
    state.head = content;
    state.resultId = content.resultId;
    state.chart = defaultChart(content.summary);
    state.measures = measuresOf(content.summary);
    state.columns = columnsOf(content);
    state.shown = displayColumns(state.columns, content.rows);
  } else if (isQueryAnswer(content)) {
    state.resultId = content.resultId;
    state.head = undefined;
    state.chart = undefined;
    state.measures = [COUNT];
  } else {
    showError('This answer holds no result to show.');
    return;
  }
  renderHeadline($('headline'), state.head, state.resultId, hostTool());
  if (!state.head && isQueryAnswer(content) && content.complete === false) showIncompleteAnswer(content);
  renderSummary();
  renderChartControls();
  // A grouped query_report answer is charted as it stands: the groups the assistant asked for.
  if (isQueryAnswer(content) && content.groups?.length) drawAnswerGroups(content);
  await Promise.all([loadChart(), loadPage()]);
}

function drawAnswerGroups(answer: QueryAnswer): void {
  const groups = answer.groups ?? [];
  const keys = Object.keys(groups[0].key);
  const sum = Object.keys(groups[0]).find((k) => k.startsWith('sum_'));
  const measure = sum ?? 'count';
  const bars = groups.map((g) => ({
    // Group keys read as cells do: days in words, identifiers unformatted.
    label: keys
      .map((k) => (g.key[k] === null || g.key[k] === undefined || g.key[k] === '' ? '(empty)' : cellText(g.key[k], k)))
      .join(' · '),
    value: Number(g[measure] ?? 0),
  }));
  const name = sum ? `Sum of ${sum.slice(4)}` : 'Records';
  $('chart-section').hidden = false;
  $('chart-controls').hidden = true;
  $('chart-title').textContent = `${name} per ${keys.join(', ')}`;
  const total = answer.groupCount ?? bars.length;
  $('chart-note').textContent =
    total > bars.length
      ? `Groups ${answer.offset + 1}–${answer.offset + bars.length} of ${formatNumber(total)}.`
      : `${counted(bars.length, 'group')}.`;
  drawn = { bars, measure: name, width: $('chart').clientWidth };
  drawBars($('chart'), bars, name);
}

function columnsOf(head: ReportHead): string[] {
  const fromRows = [...new Set(head.rows.flatMap((r) => Object.keys(r)))];
  return fromRows.length ? fromRows : Object.keys(head.summary.fields).filter((f) => !f.includes('.'));
}

// ---------- headline and summary ----------

/** The tool the host says it called, whose title names a report the catalog does not list. */
function hostTool(): HostTool | undefined {
  const tool = app.getHostContext()?.toolInfo?.tool;
  return tool ? { name: tool.name, title: tool.title } : undefined;
}

/** A query_report answer on an incomplete result, shown alone: it says so, and what completes it. */
function showIncompleteAnswer(answer: QueryAnswer): void {
  const status = document.createElement('p');
  status.className = 'status incomplete';
  status.textContent = 'Incomplete: these answers cover only the records fetched so far.';
  const notes = (answer.notes ?? []).map((note) => {
    const p = document.createElement('p');
    p.className = 'note';
    p.textContent = note;
    return p;
  });
  $('headline').append(status, ...notes);
}

function renderSummary(): void {
  const el = $('summary');
  el.replaceChildren();
  const summary = state.head?.summary;
  if (!summary) {
    el.hidden = true;
    return;
  }
  el.hidden = false;
  const lines = summaryLines(summary);
  const list = document.createElement('dl');
  for (const [i, line] of lines.entries()) {
    const dt = document.createElement('dt');
    dt.textContent = line.field;
    const dd = document.createElement('dd');
    dd.textContent = line.text;
    if (i >= 8) dt.className = dd.className = 'more';
    list.append(dt, dd);
  }
  el.append(list);
  if (lines.length > 8) {
    const toggle = document.createElement('button');
    toggle.type = 'button';
    toggle.className = 'link';
    toggle.textContent = `All ${lines.length} fields`;
    toggle.onclick = () => {
      el.classList.toggle('expanded');
      toggle.textContent = el.classList.contains('expanded') ? 'Fewer fields' : `All ${lines.length} fields`;
    };
    el.append(toggle);
  }
}

// ---------- chart ----------

function renderChartControls(): void {
  const summary = state.head?.summary;
  const groupSelect = $<HTMLSelectElement>('chart-group');
  const measureSelect = $<HTMLSelectElement>('chart-measure');
  const groups = groupableFields(summary);
  $('chart-section').hidden = !state.chart;
  $('chart-controls').hidden = false;
  groupSelect.replaceChildren(
    ...groups.map((f) => new Option(summary!.fields[f].kind === 'date' ? `${f} (per day)` : f, f)),
  );
  measureSelect.replaceChildren(
    ...state.measures.map((m) => new Option(m.field ? m.label.replace(/^Sum/, 'sum') : 'count', m.id)),
  );
  if (state.chart) {
    groupSelect.value = state.chart.groupBy;
    measureSelect.value = state.chart.measure.id;
  }
}

async function loadChart(): Promise<void> {
  if (!state.resultId || !state.chart) return;
  const chart = state.chart;
  const answer = await query(chartQuery(state.resultId, chart, state.where));
  if (!answer || state.chart !== chart) return;
  const span = chart.perDay
    ? daySpan(state.head?.summary.fields[chart.groupBy], askedWindow(state.head?.query))
    : undefined;
  const { bars: all, outside } = barsOf(answer, chart, span);
  const bars = inline() && !chart.perDay ? all.slice(0, INLINE_BARS) : all;
  const measure = chart.measure.label;
  $('chart-title').textContent = `${measure} per ${chart.perDay ? `day of ${chart.groupBy}` : chart.groupBy}`;
  const total = answer.groupCount ?? bars.length;
  const currencyNote = chart.measure.note ? ` Sums of ${chart.measure.field}: ${chart.measure.note}.` : '';
  $('chart-note').textContent =
    (chart.perDay
      ? `${counted(bars.length, 'day')}${
          outside
            ? `; ${counted(outside.records, 'record')} dated ${dayRangeText(outside.from, outside.to)}, ` +
              'outside the days asked for, not drawn'
            : ''
        }.`
      : total > bars.length
        ? `The first ${bars.length} of ${formatNumber(total)} groups${inline() ? ' (all of them in the full view)' : ''}.`
        : `${counted(bars.length, 'group')}.`) + currencyNote;
  drawn = { bars, measure, width: $('chart').clientWidth };
  drawBars($('chart'), bars, measure);
}

/** The bars last drawn, redrawn when the view's width changes (a narrow panel, a rotated phone). */
let drawn: { bars: ReturnType<typeof barsOf>['bars']; measure: string; width: number } | undefined;
new ResizeObserver(() => {
  const width = $('chart').clientWidth;
  if (!drawn || width === drawn.width) return;
  drawn.width = width;
  drawBars($('chart'), drawn.bars, drawn.measure);
}).observe(document.getElementById('chart')!);

// ---------- table ----------

async function loadPage(): Promise<void> {
  if (!state.resultId) return;
  const args: Record<string, unknown> = {
    resultId: state.resultId,
    offset: state.offset,
    limit: pageSize(),
    ...(state.where.length ? { where: state.where } : {}),
    ...(state.orderBy ? { orderBy: [state.orderBy] } : {}),
    ...(state.columns.length ? { fields: state.columns } : {}),
  };
  const answer = await query(args);
  if (!answer) return;
  renderTable(answer);
}

function renderTable(answer: QueryAnswer): void {
  const rows = answer.rows ?? [];
  if (!state.columns.length) state.columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  if (!state.shown.length) state.shown = displayColumns(state.columns, rows);
  renderRecordTable($<HTMLTableElement>('table'), state.shown, rows, {
    sortedBy: state.orderBy,
    onSort: (field) => {
      const current = state.orderBy?.field === field ? state.orderBy.direction : undefined;
      state.orderBy = { field, direction: current === 'asc' ? 'desc' : 'asc' };
      state.offset = 0;
      void loadPage();
    },
  });
  const first = rows.length ? answer.offset + 1 : 0;
  $('page-info').textContent =
    `Rows ${formatNumber(first)}–${formatNumber(answer.offset + rows.length)} of ${formatNumber(answer.matched)}`;
  $<HTMLButtonElement>('prev').disabled = answer.offset === 0;
  $<HTMLButtonElement>('next').disabled = answer.nextOffset === null;
  $<HTMLButtonElement>('next').dataset.offset = String(answer.nextOffset ?? '');
  const filterField = $<HTMLSelectElement>('filter-field');
  if (filterField.options.length !== state.shown.length) {
    const kept = filterField.value;
    filterField.replaceChildren(...state.shown.map((c) => new Option(c, c)));
    if (kept) filterField.value = kept;
  }
}

// ---------- controls ----------

function wireControls(): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>('#tabs button[data-tab]'))
    b.onclick = () => showTab(b.dataset.tab ?? 'records');
  $('expand').onclick = () => void app.requestDisplayMode({ mode: 'fullscreen' }).catch(() => {});
  $('prev').onclick = () => {
    state.offset = Math.max(0, state.offset - pageSize());
    void loadPage();
  };
  $('next').onclick = () => {
    const next = Number($('next').dataset.offset);
    if (Number.isFinite(next)) state.offset = next;
    void loadPage();
  };
  // Not a form: hosts sandbox the view, often without allow-forms, which blocks submitting.
  const applyFilter = () => {
    const field = $<HTMLSelectElement>('filter-field').value;
    const op = $<HTMLSelectElement>('filter-op').value as Where['op'];
    const value = $<HTMLInputElement>('filter-value').value.trim();
    state.where = field && value ? [{ field, op, value }] : [];
    state.offset = 0;
    $('filter-clear').hidden = !state.where.length;
    void Promise.all([loadPage(), loadChart()]);
  };
  $('filter-apply').onclick = applyFilter;
  $('filter-value').onkeydown = (e) => {
    if (e.key === 'Enter') applyFilter();
  };
  $('filter-clear').onclick = () => {
    state.where = [];
    state.offset = 0;
    $<HTMLInputElement>('filter-value').value = '';
    $('filter-clear').hidden = true;
    void Promise.all([loadPage(), loadChart()]);
  };
  const onChart = () => {
    const groupBy = $<HTMLSelectElement>('chart-group').value;
    const perDay = state.head?.summary.fields[groupBy]?.kind === 'date';
    const id = $<HTMLSelectElement>('chart-measure').value;
    state.chart = { groupBy, perDay, measure: state.measures.find((m) => m.id === id) ?? COUNT };
    void loadChart();
  };
  $('chart-group').onchange = onChart;
  $('chart-measure').onchange = onChart;
}

// ---------- server calls ----------

async function query(args: Record<string, unknown>): Promise<QueryAnswer | undefined> {
  setBusy(true);
  try {
    const result = await app.callServerTool({ name: 'query_report', arguments: args });
    if (result.isError) {
      showError(textOf(result.content) || 'query_report failed.');
      return undefined;
    }
    clearError();
    return result.structuredContent as unknown as QueryAnswer;
  } catch (err) {
    showError(`query_report could not be called: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  } finally {
    setBusy(false);
  }
}

let busy = 0;
function setBusy(on: boolean): void {
  busy += on ? 1 : -1;
  document.body.classList.toggle('busy', busy > 0);
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter((c): c is { type: 'text'; text: string } => c?.type === 'text')
    .map((c) => c.text)
    .join('\n');
}

function showError(message: string): void {
  const el = $('error');
  el.textContent = message;
  el.hidden = false;
}

function clearError(): void {
  $('error').hidden = true;
}

void start();
