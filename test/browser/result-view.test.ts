/**
 * The result view in a real browser (Debian's chromium driven by puppeteer-core): a host page
 * using ext-apps' AppBridge loads the view from the BUILT server's ui:// resource (the server
 * spawned in demo mode over stdio), hands it the answer to the demo's "open coupons per
 * account" question, and relays the view's query_report calls to that server. The test reads
 * what a person sees (headline, table cells, chart bars) and compares it with query_report.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { build } from 'esbuild';
import puppeteer, { type Browser, type Frame, type Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_SERVER as SERVER } from '../helpers/built-server.js';
import { programPath } from '../helpers/programs.js';

const ROOT = join(import.meta.dirname, '..', '..');
/** Debian's chromium on PATH; '' when missing, and then this file is skipped (test/helpers/system-programs.ts). */
const CHROMIUM = programPath('chromium');
const ARTIFACTS = join(ROOT, 'test', 'artifacts');
// The demo tour's question: tickets with open coupons expiring in the next 60 days.
const COUPONS = { DateStart: 'today', DateEnd: 'today+60', CouponCodeGroup: 'OPEN', DateTracker: 'E', rowLimit: 5 };
const SLOW_MS = 120_000;
/** Rows the view shows per page. */
const PAGE_SIZE = 20;

type Rec = Record<string, unknown>;

let client: Client;
let serverPid: number | undefined;
let browser: Browser | undefined;
let userDataDir: string;
let page: Page;
let view: Frame;
let report: CallToolResult;
let resultId: string;
let tools: Tool[];
let viewHtml: string;

async function query(args: Rec): Promise<{ rows?: Rec[]; groups?: Rec[]; matched: number; groupCount?: number }> {
  const r = (await client.callTool({ name: 'query_report', arguments: { resultId, ...args } })) as CallToolResult;
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return r.structuredContent as { rows?: Rec[]; groups?: Rec[]; matched: number; groupCount?: number };
}

async function hostPage(): Promise<string> {
  const bundle = await build({
    entryPoints: [join(import.meta.dirname, 'host-page.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
    logLevel: 'warning',
  });
  const script = bundle.outputFiles[0].text.replace(/<\/script/gi, '<\\/script');
  return `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0}iframe{border:0;width:100%;height:1400px}</style></head><body><script>${script}</script></body></html>`;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** '20261124' or '2026-11-24…' -> '24 Nov 2026', as the view writes a day. */
function dayWords(value: string): string {
  const [, y, m, d] = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(value)!;
  return `${Number(d)} ${MONTHS[Number(m) - 1]} ${y}`;
}

/** The asked days in words, as the headline writes them: '1–31 Oct 2026', '24 Nov – 1 Dec 2026'. */
function rangeWords(start: string, end: string): string {
  const [a, b] = [dayWords(start).split(' '), dayWords(end).split(' ')];
  if (a[2] !== b[2]) return `${a.join(' ')} – ${b.join(' ')}`;
  if (a[1] !== b[1]) return `${a[0]} ${a[1]} – ${b.join(' ')}`;
  return a[0] === b[0] ? b.join(' ') : `${a[0]}–${b.join(' ')}`;
}

/** Every day from start to end (YYYYMMDD), as ISO days. */
function isoDays(start: string, end: string): string[] {
  const iso = (v: string) => `${v.slice(0, 4)}-${v.slice(4, 6)}-${v.slice(6, 8)}`;
  const out: string[] = [];
  for (let t = Date.parse(iso(start)); t <= Date.parse(iso(end)); t += 86_400_000)
    out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

/** Text of every cell of the view's table, record by record (opened rows' details left out). */
function tableCells(frame: Frame = view): Promise<string[][]> {
  return frame.$$eval('#table tbody tr.record', (trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')),
  );
}

function tableHeader(frame: Frame = view): Promise<string[]> {
  return frame.$$eval('#table thead button.sort', (bs) => bs.map((b) => (b as HTMLElement).dataset.field ?? ''));
}

/** Waits until the page info reads the given text (the view answered the host's call). */
async function pageInfo(text: string): Promise<void> {
  try {
    await view.waitForFunction(
      (want) => document.getElementById('page-info')?.textContent === want && !document.body.classList.contains('busy'),
      { timeout: 20_000 },
      text,
    );
  } catch (err) {
    const shown = await view.evaluate(() => [
      document.getElementById('page-info')?.textContent,
      document.getElementById('error')?.textContent,
    ]);
    throw new Error(`waited for '${text}'; the view shows ${JSON.stringify(shown)} (${String(err)})`);
  }
}

/** A full-page PNG of `of` (the shared host page unless another tab is named) in test/artifacts. */
function screenshot(name: string, of: Page = page): Promise<unknown> {
  return of.screenshot({ path: join(ARTIFACTS, `${name}.png`) as `${string}.png`, fullPage: true });
}

/** A host page in a new tab that loads the view and hands it a tool's input and result. */
async function openView(
  toolInput: Rec,
  toolResult: CallToolResult,
  ready = 'svg.bars g.bar',
  displayMode: 'inline' | 'fullscreen' = 'fullscreen',
): Promise<{ page: Page; frame: Frame }> {
  const tab = await browser!.newPage();
  await tab.setViewport({ width: 900, height: 1400 });
  // Anything the page tries to fetch from the network is a failure: the view is self-contained.
  const requests: string[] = [];
  tab.on('request', (r) => {
    if (!r.url().startsWith('about:') && !r.url().startsWith('data:')) requests.push(r.url());
  });
  await tab.exposeFunction('mcpCallTool', (params: { name: string; arguments?: Rec }) => client.callTool(params));
  await tab.setContent(await hostPage());
  await tab.evaluate((opts) => (window as unknown as { startHost(o: unknown): Promise<void> }).startHost(opts), {
    html: viewHtml,
    toolInput,
    toolResult,
    theme: 'light',
    displayMode,
  });
  const frame = (await (await tab.waitForSelector('iframe#view'))!.contentFrame())!;
  await frame.waitForSelector(ready, { timeout: 20_000 });
  expect(requests).toEqual([]);
  return { page: tab, frame };
}

beforeAll(async () => {
  if (!CHROMIUM) return; // skipped, said once by the global setup
  if (!existsSync(SERVER)) throw new Error(`${SERVER} is missing: run npm run build (npm test does it first).`);
  mkdirSync(ARTIFACTS, { recursive: true });

  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('REPORTS_')) env[k] = v;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, '--demo'],
    // Held results in memory only: a test never writes into the user's cache folder.
    env: { ...env, REPORTS_TIMEZONE: 'UTC', REPORTS_RESULTS_DIR: 'off' },
    stderr: 'pipe',
  });
  client = new Client({ name: 'browser-test-host', version: '1.0.0' });
  await client.connect(transport);
  serverPid = transport.pid ?? undefined;

  tools = (await client.listTools()).tools;
  report = (await client.callTool({ name: 'ticket_coupons_by_status_code', arguments: COUPONS })) as CallToolResult;
  expect(report.isError).toBeFalsy();
  resultId = (report.structuredContent as { resultId: string }).resultId;
  const meta = tools.find((t) => t.name === 'ticket_coupons_by_status_code')!._meta!;
  const uri = (meta.ui as { resourceUri: string }).resourceUri;
  const read = await client.readResource({ uri });
  viewHtml = (read.contents[0] as { text: string }).text;

  userDataDir = mkdtempSync(join(tmpdir(), 'chromium-profile-'));
  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    userDataDir,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  ({ page, frame: view } = await openView(COUPONS, report));
}, SLOW_MS);

afterAll(async () => {
  await browser?.close().catch(() => {});
  const browserPid = browser?.process()?.pid;
  if (browserPid) killIfAlive(browserPid);
  await client?.close().catch(() => {});
  if (serverPid) killIfAlive(serverPid);
  if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
});

function killIfAlive(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

describe.skipIf(!CHROMIUM)('the result view of "open coupons per account", in chromium', () => {
  it('is declared on the report tools and query_report, as one self-contained text/html;profile=mcp-app page', async () => {
    const uri = 'ui://travel-reports/result-view.html';
    for (const name of ['ticket_coupons_by_status_code', 'hotel_segments', 'query_report', 'continue_report'])
      expect((tools.find((t) => t.name === name)?._meta?.ui as { resourceUri?: string })?.resourceUri, name).toBe(uri);
    expect(tools.find((t) => t.name === 'diagnose_connection')?._meta?.ui).toBeUndefined();
    const read = await client.readResource({ uri });
    expect(read.contents[0].mimeType).toBe('text/html;profile=mcp-app');
    // Nothing loaded from elsewhere: no external script, stylesheet or import.
    expect(viewHtml).not.toMatch(/<script[^>]+src=|<link[^>]+href=|@import/i);
    console.error(`result view HTML: ${Buffer.byteLength(viewHtml).toLocaleString('en-US')} bytes`);
  });

  it('shows the headline: the report in words, the days asked in words, the rest asked, complete', async () => {
    const head = report.structuredContent as { fetchedRecords: number; query: Record<string, string> };
    const { DateStart, DateEnd, ...rest } = head.query;
    expect(await view.$eval('#headline h1', (e) => e.textContent)).toBe(
      `Ticket coupons, ${rangeWords(DateStart, DateEnd)}`,
    );
    const status = await view.$eval('#headline .status', (e) => e.textContent);
    expect(status).toBe(`Complete: ${head.fetchedRecords} of ${head.fetchedRecords} records demo data`);
    const asked = await view.$eval('#headline .query', (e) => e.textContent);
    expect(asked).toBe('CouponCodeGroup OPEN · DateTracker E');
    expect(Object.keys(rest)).toEqual(['CouponCodeGroup', 'DateTracker']);
    expect(await view.$eval('#summary dl', (e) => e.textContent)).toContain('Account');
    await screenshot('result-view-light');
  });

  it("draws one bar per account, equal to query_report's count per Account", async () => {
    const { groups, groupCount } = await query({ groupBy: ['Account'], aggregates: [{ fn: 'count' }], limit: 30 });
    const bars = await view.$$eval('svg.bars g.bar', (gs) =>
      gs.map((g) => ({
        label: g.querySelector('text.label')?.textContent ?? '',
        value: g.querySelector('text.value')?.textContent ?? '',
        width: Number(g.querySelector('rect')?.getAttribute('width')),
      })),
    );
    expect(groups!.length).toBe(groupCount);
    expect(bars.map((b) => b.label)).toEqual(groups!.map((g) => String((g.key as Rec).Account)));
    expect(bars.map((b) => Number(b.value))).toEqual(groups!.map((g) => g.count));
    // Longer bars for larger counts.
    for (let i = 1; i < bars.length; i++)
      if (Number(bars[i].value) < Number(bars[i - 1].value)) expect(bars[i].width).toBeLessThan(bars[i - 1].width);
    expect(await view.$eval('#chart-title', (e) => e.textContent)).toBe('Records per Account');
  });

  it('switches the chart to the sum of FOPFare per Account', async () => {
    await view.select('#chart-measure', 'sum:FOPFare');
    await view.waitForFunction(
      () => document.getElementById('chart-title')?.textContent === 'Sum of FOPFare per Account',
    );
    await view.waitForFunction(() => !document.body.classList.contains('busy'));
    const { groups } = await query({
      groupBy: ['Account'],
      aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'FOPFare' }],
      limit: 30,
    });
    const bars = await view.$$eval('svg.bars g.bar', (gs) =>
      gs.map((g) => [g.getAttribute('data-label'), Number(g.getAttribute('data-value'))]),
    );
    expect(bars).toEqual(groups!.map((g) => [String((g.key as Rec).Account), g.sum_FOPFare]));
    // These coupons state no currency for FOPFare: the chart says so beside its sums.
    expect(await view.$eval('#chart-note', (e) => e.textContent)).toContain(
      'Sums of FOPFare: currency not stated by the service.',
    );
    await view.select('#chart-measure', 'count');
    await view.waitForFunction(() => document.getElementById('chart-title')?.textContent === 'Records per Account');
  });

  it("pages through every record: each page's rows are query_report's", async () => {
    const { rows, matched } = await query({ limit: 1000 });
    const columns = await tableHeader();
    expect(columns).toContain('TktNumber');
    const ticket = columns.indexOf('TktNumber');
    const fare = columns.indexOf('FOPFare');
    const serviceRef = columns.indexOf('ServiceRef');
    const issued = columns.indexOf('VndIssueDt');
    const seen: string[] = [];
    for (let offset = 0; offset < matched; offset += PAGE_SIZE) {
      const last = Math.min(offset + PAGE_SIZE, matched);
      await pageInfo(`Rows ${offset + 1}–${last} of ${matched}`);
      const cells = await tableCells();
      expect(cells).toHaveLength(last - offset);
      cells.forEach((cell, i) => {
        expect(cell[ticket]).toBe(String(rows![offset + i].TktNumber));
        expect(Number(cell[fare].replace(/,/g, ''))).toBe(Number(rows![offset + i].FOPFare));
        // An identifier is never formatted as a quantity: "7105601", not "7,105,601".
        expect(cell[serviceRef]).toBe(String(rows![offset + i].ServiceRef));
        // A timestamp in words, in the record's own time: "26 Nov 2025 20:34".
        const at = String(rows![offset + i].VndIssueDt);
        expect(cell[issued]).toBe(
          at.slice(11, 19) === '00:00:00' ? dayWords(at) : `${dayWords(at)} ${at.slice(11, 16)}`,
        );
      });
      seen.push(...cells.map((c) => c[ticket]));
      if (last < matched) await view.click('#next');
    }
    expect(matched).toBeGreaterThan(PAGE_SIZE);
    expect(typeof rows![0].ServiceRef).toBe('number');
    expect(seen).toEqual(rows!.map((r) => String(r.TktNumber)));
    expect(await view.$eval('#next', (b) => (b as HTMLButtonElement).disabled)).toBe(true);
  });

  it("sorts by a column, both ways, as query_report's orderBy", async () => {
    const columns = await tableHeader();
    const ticket = columns.indexOf('TktNumber');
    for (const direction of ['asc', 'desc'] as const) {
      await view.click('#table thead button.sort[data-field="FOPFare"]');
      const { rows, matched } = await query({ orderBy: [{ field: 'FOPFare', direction }], limit: PAGE_SIZE });
      await pageInfo(`Rows 1–${Math.min(PAGE_SIZE, matched)} of ${matched}`);
      await view.waitForFunction(
        (d) =>
          document.querySelector('#table thead button.sort[data-field="FOPFare"]')?.textContent ===
          `FOPFare ${d === 'asc' ? '▲' : '▼'}`,
        {},
        direction,
      );
      const cells = await tableCells();
      expect(cells.map((c) => c[ticket])).toEqual(rows!.map((r) => String(r.TktNumber)));
    }
  });

  it('filters the table and the chart together', async () => {
    const { rows, matched } = await query({ where: [{ field: 'Account', op: 'eq', value: 'ACME' }], limit: PAGE_SIZE });
    expect(matched).toBeGreaterThan(0);
    await view.select('#filter-field', 'Account');
    await view.select('#filter-op', 'eq');
    await view.type('#filter-value', 'ACME');
    await view.click('#filter-apply');
    await pageInfo(`Rows 1–${matched} of ${matched}`);
    const columns = await tableHeader();
    const cells = await tableCells();
    const sorted = [...rows!].sort((a, b) => Number(b.FOPFare) - Number(a.FOPFare));
    expect(cells.map((c) => c[columns.indexOf('TktNumber')])).toEqual(sorted.map((r) => String(r.TktNumber)));
    await view.waitForFunction(() => document.querySelectorAll('svg.bars g.bar').length === 1);
    expect(
      await view.$eval('svg.bars g.bar', (g) => [g.getAttribute('data-label'), g.getAttribute('data-value')]),
    ).toEqual(['ACME', String(matched)]);
    await view.click('#filter-clear');
    await view.waitForFunction(() => document.querySelectorAll('svg.bars g.bar').length > 1);
  });

  it('follows the host into dark mode, and stays usable at a phone width', async () => {
    const light = await view.$eval('body', (b) => getComputedStyle(b).backgroundColor);
    await page.evaluate(() => (window as unknown as { setTheme(t: string): void }).setTheme('dark'));
    await view.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    const dark = await view.$eval('body', (b) => getComputedStyle(b).backgroundColor);
    expect(light).toBe('rgb(255, 255, 255)');
    expect(dark).toBe('rgb(22, 25, 29)');
    expect(await view.$eval('body', (b) => getComputedStyle(b).color)).toBe('rgb(230, 232, 235)');
    await screenshot('result-view-dark');

    await page.setViewport({ width: 360, height: 1400 });
    await view.waitForFunction(() => document.documentElement.clientWidth <= 360);
    // Nothing wider than the screen but the table, which scrolls inside its own box.
    const overflow = await view.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    // The chart is redrawn to the narrow width: every bar and its value inside the screen.
    await view.waitForFunction(() => Number(document.querySelector('svg.bars')?.getAttribute('width')) <= 360);
    const rightmost = await view.$$eval('svg.bars text.value', (ts) =>
      Math.max(...ts.map((t) => (t as SVGGraphicsElement).getBoundingClientRect().right)),
    );
    expect(rightmost).toBeLessThanOrEqual(360);
    const wrap = await view.$eval('.table-wrap', (e) => [e.scrollWidth > e.clientWidth, getComputedStyle(e).overflowX]);
    expect(wrap).toEqual([true, 'auto']);
    await screenshot('result-view-narrow-dark');
    await page.evaluate(() => (window as unknown as { setTheme(t: string): void }).setTheme('light'));
    await page.setViewport({ width: 900, height: 1400 });
  });
});

describe.skipIf(!CHROMIUM)('the result view of a grouped query_report answer', () => {
  it('charts the groups the assistant asked for, and pages the records under them', async () => {
    const args = {
      resultId,
      groupBy: ['Account'],
      aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'FOPFare' }],
      limit: 10,
    };
    const answer = (await client.callTool({ name: 'query_report', arguments: args })) as CallToolResult;
    const groups = (answer.structuredContent as { groups: Rec[]; groupCount: number }).groups;
    const opened = await openView(args, answer);
    try {
      const frame = opened.frame;
      expect(await frame.$eval('#chart-title', (e) => e.textContent)).toBe('Sum of FOPFare per Account');
      const bars = await frame.$$eval('svg.bars g.bar', (gs) =>
        gs.map((g) => [g.getAttribute('data-label'), Number(g.getAttribute('data-value'))]),
      );
      expect(bars).toEqual(groups.map((g) => [String((g.key as Rec).Account), g.sum_FOPFare]));
      expect(await frame.$eval('#chart-note', (e) => e.textContent)).toBe(
        `Groups 1–10 of ${(answer.structuredContent as { groupCount: number }).groupCount}.`,
      );
      // No group or measure pickers: the chart is the answer's own.
      expect(await frame.$eval('#chart-controls', (e) => getComputedStyle(e).display)).toBe('none');
      await frame.waitForFunction(() =>
        /^Rows 1–20 of \d+$/.test(document.getElementById('page-info')?.textContent ?? ''),
      );
      await screenshot('result-view-query-groups', opened.page);
    } finally {
      await opened.page.close();
    }
  });
});

describe.skipIf(!CHROMIUM)('the result view of an incomplete air segments result, charted per day', () => {
  it('says how many of how many records it holds and what fetches the rest; the days span the asked window', async () => {
    const args = { DateStart: 'today-1', DateEnd: 'today+6', maxRecords: 30, rowLimit: 5 };
    const result = (await client.callTool({ name: 'air_segments_by_date', arguments: args })) as CallToolResult;
    const head = result.structuredContent as {
      resultId: string;
      complete: boolean;
      fetchedRecords: number;
      totalRecords: number;
      query: Record<string, string>;
    };
    expect(head.complete).toBe(false);
    expect(head.fetchedRecords).toBe(30);
    const opened = await openView(args, result);
    try {
      const frame = opened.frame;
      const { DateStart, DateEnd } = head.query;
      expect(await frame.$eval('#headline h1', (e) => e.textContent)).toBe(
        `Flights, ${rangeWords(DateStart, DateEnd)}`,
      );
      expect(await frame.$eval('#headline .status', (e) => e.textContent)).toBe(
        `Incomplete: 30 of ${head.totalRecords} records. ` +
          `Ask for continue_report to fetch the other ${head.totalRecords - 30}. demo data`,
      );
      expect(await frame.$('#headline .query')).toBeNull();

      await frame.select('#chart-group', 'DepartureDate');
      await frame.waitForFunction(
        () => document.getElementById('chart-title')?.textContent === 'Records per day of DepartureDate',
      );
      await frame.waitForFunction(() => !document.body.classList.contains('busy'));
      const r = (await client.callTool({
        name: 'query_report',
        arguments: { resultId: head.resultId, groupBy: ['DepartureDate:day'], aggregates: [{ fn: 'count' }] },
      })) as CallToolResult;
      const counts = new Map(
        (r.structuredContent as { groups: Rec[] }).groups.map((g) => [
          String((g.key as Rec)['DepartureDate:day']),
          Number(g.count),
        ]),
      );
      const days = isoDays(DateStart, DateEnd);
      const bars = await frame.$$eval('svg.bars g.bar', (gs) =>
        gs.map((g) => [g.querySelector('text.label')?.textContent, Number(g.getAttribute('data-value'))]),
      );
      // One bar per asked day, the first and last the window's own, days without records as 0.
      expect(bars).toEqual(days.map((d) => [dayWords(d), counts.get(d) ?? 0]));
      expect(bars[0][0]).toBe(dayWords(DateStart));
      expect(bars[bars.length - 1][0]).toBe(dayWords(DateEnd));
      expect(bars.reduce((n, b) => n + Number(b[1]), 0)).toBe(30);
      expect(await frame.$eval('#chart-note', (e) => e.textContent)).toBe(`${days.length} days.`);
      await screenshot('result-view-per-day', opened.page);
    } finally {
      await opened.page.close();
    }
  });
});

describe.skipIf(!CHROMIUM)('the result view of a PNR: its segments as tables, not JSON', () => {
  it('opens the one record and shows each segment list as a table, one row per segment', async () => {
    const air = (await client.callTool({
      name: 'air_segments_by_date',
      arguments: { DateStart: 'today-1', DateEnd: 'today+6', rowLimit: 1 },
    })) as CallToolResult;
    const locator = String((air.structuredContent as { rows: Rec[] }).rows[0].RecordLocator);
    const args = { RecordLocator: locator };
    const result = (await client.callTool({ name: 'pnr_segments', arguments: args })) as CallToolResult;
    const { resultId: pnrId } = result.structuredContent as { resultId: string };
    const held = (await client.callTool({ name: 'query_report', arguments: { resultId: pnrId } })) as CallToolResult;
    const record = (held.structuredContent as { rows: Rec[] }).rows[0] as {
      Segments: Record<string, Rec[]>;
    };
    const airSegments = record.Segments.AirSegments;
    expect(airSegments.length).toBeGreaterThan(1);
    const opened = await openView(args, result, 'tr.detail:not([hidden]) table.sub-table');
    try {
      const frame = opened.frame;
      expect(await frame.$eval('#headline h1', (e) => e.textContent)).toBe('PNR segments');
      expect(await frame.$eval('#headline .query', (e) => e.textContent)).toBe(`RecordLocator ${locator}`);
      // The list's profile counts what it holds, in words and plurals.
      const summary = await frame.$$eval('#summary dt', (dts) =>
        dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]),
      );
      expect(summary).toContainEqual(['Segments.AirSegments', `${airSegments.length} air segments in 1 record`]);
      expect(summary).toContainEqual(['Summary.AirlineReferences', '1 airline reference in 1 record']);
      expect(summary).toContainEqual(['Summary.RecordLocator', locator]);
      expect(JSON.stringify(summary)).not.toContain('items in all');
      // The record's row: its lists as counts that open it, never JSON.
      const columns = await tableHeader(frame);
      const cells = (await tableCells(frame))[0];
      expect(cells[columns.indexOf('Summary.RecordLocator')]).toBe(locator);
      expect(cells[columns.indexOf('Segments.AirSegments')]).toBe(`${airSegments.length} air segments`);
      expect(cells.join(' ')).not.toContain('{');
      // The air segments' table: one row per segment, its fields as columns.
      const sub = await frame.$eval('section.sub[data-field="Segments.AirSegments"]', (s) => ({
        title: s.querySelector('h3')?.textContent,
        header: Array.from(s.querySelectorAll('thead th'), (th) => th.textContent),
        rows: Array.from(s.querySelectorAll('table.sub-table > tbody > tr'), (tr) =>
          Array.from(tr.querySelectorAll('td'), (td) => td.textContent),
        ),
      }));
      expect(sub.title).toBe(`Segments.AirSegments: ${airSegments.length} air segments`);
      expect(sub.header).toEqual([...new Set(airSegments.flatMap((s) => Object.keys(s)))]);
      expect(sub.rows).toHaveLength(airSegments.length);
      const col = (name: string) => sub.header.indexOf(name);
      sub.rows.forEach((row, i) => {
        const seg = airSegments[i] as Rec & { SeatingData: Array<{ SeatLocation: string; SeatStatusCode: string }> };
        expect(row[col('AirSegmentNbr')]).toBe(String(seg.AirSegmentNbr));
        expect(row[col('CarrierCode')]).toBe(seg.CarrierCode);
        expect(row[col('FlightNbr')]).toBe(seg.FlightNbr);
        expect(row[col('BoardPoint')]).toBe(seg.BoardPoint);
        expect(row[col('OffPoint')]).toBe(seg.OffPoint);
        expect(row[col('DepartureDate')]).toBe(dayWords(String(seg.DepartureDate)));
        expect(row[col('DepartureTime')]).toBe(seg.DepartureTime);
        // A list inside a segment (its seats) as its values, not JSON.
        expect(row[col('SeatingData')]).toBe(
          seg.SeatingData.map((x) => `${x.SeatLocation} ${x.SeatStatusCode}`).join(', '),
        );
      });
      // Every other non-empty segment list has its table too, with as many rows.
      for (const [list, items] of Object.entries(record.Segments)) {
        const rows = await frame.$$eval(
          `section.sub[data-field="Segments.${list}"] table.sub-table > tbody > tr`,
          (trs) => trs.length,
        );
        expect(rows, list).toBe(items.length);
      }
      // Closing and reopening the row.
      await frame.click('td button.open');
      expect(await frame.$eval('tr.detail', (tr) => (tr as HTMLElement).hidden)).toBe(true);
      await frame.click('td button.open');
      expect(await frame.$eval('tr.detail', (tr) => (tr as HTMLElement).hidden)).toBe(false);

      await screenshot('result-view-pnr', opened.page);
      // The README's picture (docs/images/result-view.jpg is a copy of it): a nested record.
      await opened.page.setViewport({ width: 720, height: 1400 });
      await frame.waitForFunction(() => document.documentElement.clientWidth <= 720);
      await opened.page.screenshot({
        path: join(ARTIFACTS, 'result-view-readme.jpg') as `${string}.jpeg`,
        type: 'jpeg',
        quality: 70,
        clip: { x: 0, y: 0, width: 720, height: 900 },
      });
    } finally {
      await opened.page.close();
    }
  });
});

describe.skipIf(!CHROMIUM)(
  'the result view of a booking: passengers and itinerary as tables, the formatted itinerary whole',
  () => {
    it('opens the booking and shows its lists as tables and its long text uncut', async () => {
      const air = (await client.callTool({
        name: 'air_segments_by_date',
        arguments: { DateStart: 'today-1', DateEnd: 'today+6', rowLimit: 1 },
      })) as CallToolResult;
      const locator = String((air.structuredContent as { rows: Rec[] }).rows[0].RecordLocator);
      const args = { RecordLocator: locator };
      const result = (await client.callTool({ name: 'booking_details', arguments: args })) as CallToolResult;
      const { resultId: bookingId } = result.structuredContent as { resultId: string };
      const held = (await client.callTool({
        name: 'query_report',
        arguments: { resultId: bookingId },
      })) as CallToolResult;
      const booking = (held.structuredContent as { rows: Rec[] }).rows[0] as {
        ServiceRef: number;
        Passengers: Array<Rec & { LastName: string; FirstName: string }>;
        Itinerary: Array<Rec & { BoardPoint?: string; OffPoint?: string }>;
        ItineraryFormatted: string;
      };
      expect(typeof booking.ServiceRef).toBe('number');
      expect(booking.ItineraryFormatted.length).toBeGreaterThan(120);
      const opened = await openView(args, result, 'tr.detail:not([hidden]) table.sub-table');
      try {
        const frame = opened.frame;
        expect(await frame.$eval('#headline h1', (e) => e.textContent)).toBe('Booking details');
        // One booking: no chart of one bar.
        expect(await frame.$eval('#chart-section', (e) => (e as HTMLElement).hidden)).toBe(true);
        const columns = await tableHeader(frame);
        const cells = (await tableCells(frame))[0];
        expect(cells[columns.indexOf('ServiceRef')]).toBe(String(booking.ServiceRef));
        expect(cells[columns.indexOf('Passengers')]).toBe(
          `${booking.Passengers.length} passenger${booking.Passengers.length === 1 ? '' : 's'}`,
        );
        expect(cells[columns.indexOf('Itinerary')]).toBe(`${booking.Itinerary.length} itinerary items`);
        const sub = (field: string) =>
          frame.$eval(`section.sub[data-field="${field}"]`, (s) => ({
            header: Array.from(s.querySelectorAll('thead th'), (th) => th.textContent ?? ''),
            rows: Array.from(s.querySelectorAll('table.sub-table > tbody > tr'), (tr) =>
              Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? ''),
            ),
            text: s.querySelector('pre')?.textContent,
          }));
        const passengers = await sub('Passengers');
        expect(
          passengers.rows.map((r) => [
            r[passengers.header.indexOf('LastName')],
            r[passengers.header.indexOf('FirstName')],
          ]),
        ).toEqual(booking.Passengers.map((p) => [p.LastName, p.FirstName]));
        const itinerary = await sub('Itinerary');
        expect(
          itinerary.rows.map((r) => [
            r[itinerary.header.indexOf('BoardPoint')],
            r[itinerary.header.indexOf('OffPoint')],
          ]),
        ).toEqual(booking.Itinerary.map((i) => [i.BoardPoint ?? '', i.OffPoint ?? '']));
        // The formatted itinerary, cut in its cell, is whole once the row is open.
        expect((await sub('ItineraryFormatted')).text).toBe(booking.ItineraryFormatted);
        await screenshot('result-view-booking', opened.page);
      } finally {
        await opened.page.close();
      }
    });
  },
);

describe.skipIf(!CHROMIUM)('the result view of hotel stays in many currencies', () => {
  it("sums an amount per currency only: the chart of EstimatedCost in USD per Account is query_report's, and a rate is no measure", async () => {
    const args = { DateStart: 'today-55', DateEnd: 'today-25', rowLimit: 5 };
    const result = (await client.callTool({ name: 'hotel_segments', arguments: args })) as CallToolResult;
    const head = result.structuredContent as {
      resultId: string;
      query: Record<string, string>;
      summary: {
        fields: Record<
          string,
          { sumByCurrency?: { field: string; sums: Array<{ currency: string }>; notConfirmed?: number } }
        >;
      };
    };
    const byCurrency = head.summary.fields.EstimatedCost.sumByCurrency!;
    // Stays not all confirmed (the sandbox's window moves with the day): the chart sums the
    // confirmed ones, as the summary does.
    const confirmed = byCurrency.notConfirmed !== undefined;
    expect(byCurrency.field).toBe('EstimatedCostCurrency');
    expect(byCurrency.sums.map((s) => s.currency)).toContain('USD');
    const opened = await openView(args, result);
    try {
      const frame = opened.frame;
      expect(await frame.$eval('#headline h1', (e) => e.textContent)).toBe(
        `Hotel stays, ${rangeWords(head.query.DateStart, head.query.DateEnd)}`,
      );
      // One measure per currency, never one sum across them; a rate per night is never summed.
      const values = await frame.$$eval('#chart-measure option', (os) => os.map((o) => (o as HTMLOptionElement).value));
      expect(values.filter((v) => v.startsWith('sum:RateAmount'))).toEqual([]);
      const measures = values.filter((v) => v.startsWith('sum:EstimatedCost:'));
      expect(measures).toEqual(byCurrency.sums.map((s) => `sum:EstimatedCost:${s.currency}`));
      await frame.select('#chart-measure', 'sum:EstimatedCost:USD');
      const title = `Sum of EstimatedCost in USD${confirmed ? ', confirmed' : ''} per Account`;
      await frame.waitForFunction((t) => document.getElementById('chart-title')?.textContent === t, {}, title);
      await frame.waitForFunction(() => !document.body.classList.contains('busy'));
      const r = (await client.callTool({
        name: 'query_report',
        arguments: {
          resultId: head.resultId,
          where: [
            { field: 'EstimatedCostCurrency', op: 'eq', value: 'USD' },
            ...(confirmed ? [{ field: 'SegmentState', op: 'eq', value: 'confirmed' }] : []),
          ],
          groupBy: ['Account'],
          aggregates: [{ fn: 'count' }, { fn: 'sum', field: 'EstimatedCost' }],
          limit: 30,
        },
      })) as CallToolResult;
      const groups = (r.structuredContent as { groups: Rec[] }).groups;
      const bars = await frame.$$eval('svg.bars g.bar', (gs) =>
        gs.map((g) => [g.getAttribute('data-label'), Number(g.getAttribute('data-value'))]),
      );
      expect(bars).toEqual(groups.map((g) => [String((g.key as Rec).Account), g.sum_EstimatedCost]));
      expect(bars.length).toBeGreaterThan(1);
    } finally {
      await opened.page.close();
    }
  });
});

// Keep spawnSync referenced for the chromium version line in the log (helps reading CI output).
if (CHROMIUM) console.error(spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? 'no chromium');

/** Height of the view's content (the iframe is taller: a host sizes it to this). */
function contentHeight(frame: Frame): Promise<number> {
  return frame.$eval('main', (m) => Math.ceil(m.getBoundingClientRect().height));
}

/** Elements that scroll up and down inside the view (a nested scroll), named. */
function verticalScrollers(frame: Frame): Promise<string[]> {
  return frame.$$eval('main, main *', (els) =>
    els
      .filter((e) => {
        const y = getComputedStyle(e).overflowY;
        return (y === 'auto' || y === 'scroll') && e.scrollHeight > e.clientHeight + 1;
      })
      .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ''}.${e.className}`),
  );
}

/**
 * WCAG 2.x AA contrast of every piece of visible text in the view: its colour (an SVG text's
 * fill) against the background it is drawn on (the nearest ancestor's background colour, alpha
 * blended down to the page's), at least 4.5:1, or 3:1 for large text (24 px, or 18.66 px bold).
 * Disabled controls are exempt, as WCAG says. Computed in the page, from what it renders.
 */
function contrastFailures(frame: Frame): Promise<string[]> {
  return frame.evaluate(() => {
    const parse = (c: string): number[] => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return [0, 0, 0, 0];
      const p = m[1]
        .split(/[ ,/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0], p[1], p[2], p[3] ?? 1];
    };
    const over = (top: number[], under: number[]): number[] => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1);
    };
    const luminance = (c: number[]) => {
      const [r, g, b] = c.slice(0, 3).map((v) => {
        const s = v / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    const background = (el: Element): number[] => {
      const layers: number[][] = [];
      for (let e: Element | null = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] >= 1) break;
      }
      let out = [255, 255, 255, 1];
      for (const layer of layers.reverse()) out = over(layer, out);
      return out;
    };
    const failures: string[] = [];
    const seen = new Set<Element>();
    const walker = document.createTreeWalker(document.querySelector('main')!, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement;
      if (!el || seen.has(el) || !n.textContent?.trim()) continue;
      seen.add(el);
      const rect = el.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) continue;
      if (el.closest('button:disabled, select:disabled, input:disabled')) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      const inSvg = el instanceof SVGElement;
      const bg = background(inSvg ? (el.closest('svg')?.parentElement ?? el) : el);
      let fg = parse(inSvg ? style.fill : style.color);
      fg = over([fg[0], fg[1], fg[2], fg[3] * Number(style.opacity)], bg);
      const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
      const ratio = (l1 + 0.05) / (l2 + 0.05);
      const size = Number.parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        failures.push(
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} '${n.textContent.trim().slice(0, 30)}' ${ratio.toFixed(2)}:1`,
        );
    }
    return failures;
  });
}

describe.skipIf(!CHROMIUM)('the view inline in a conversation, as directories ask', () => {
  it('is at most 500 px high with nothing scrolling inside it, each part, in light and dark', async () => {
    const opened = await openView(COUPONS, report, '#table tbody tr.record', 'inline');
    try {
      const frame = opened.frame;
      await frame.waitForFunction(() =>
        /^Rows 1–5 of \d+$/.test(document.getElementById('page-info')?.textContent ?? ''),
      );
      expect(await tableCells(frame)).toHaveLength(5);
      for (const theme of ['light', 'dark'] as const) {
        await opened.page.evaluate((t) => (window as unknown as { setTheme(t: string): void }).setTheme(t), theme);
        await frame.waitForFunction((t) => (document.documentElement.dataset.theme ?? 'light') === t, {}, theme);
        for (const tab of ['records', 'chart', 'summary']) {
          await frame.click(`#tabs button[data-tab="${tab}"]`);
          if (tab === 'chart') await frame.waitForSelector('svg.bars g.bar', { visible: true });
          const height = await contentHeight(frame);
          expect(height, `${tab}, ${theme}`).toBeLessThanOrEqual(500);
          expect(await verticalScrollers(frame), `${tab}, ${theme}`).toEqual([]);
          expect(await contrastFailures(frame), `${tab}, ${theme}`).toEqual([]);
          await opened.page.screenshot({
            path: join(ARTIFACTS, `inline-${tab}-${theme}.png`) as `${string}.png`,
            clip: { x: 0, y: 0, width: 900, height },
          });
        }
      }
    } finally {
      await opened.page.close();
    }
  });

  it('the full view meets AA contrast too, in light and dark, with nothing scrolling up and down inside it', async () => {
    const opened = await openView(COUPONS, report);
    try {
      for (const theme of ['light', 'dark'] as const) {
        await opened.page.evaluate((t) => (window as unknown as { setTheme(t: string): void }).setTheme(t), theme);
        await opened.frame.waitForFunction((t) => (document.documentElement.dataset.theme ?? 'light') === t, {}, theme);
        expect(await verticalScrollers(opened.frame), theme).toEqual([]);
        expect(await contrastFailures(opened.frame), theme).toEqual([]);
      }
    } finally {
      await opened.page.close();
    }
  });
});
