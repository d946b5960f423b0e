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
import { programPath } from '../helpers/programs.js';

const ROOT = join(import.meta.dirname, '..', '..');
const SERVER = join(ROOT, 'dist', 'src', 'index.js');
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

/** Text of every cell of the view's table, row by row. */
function tableCells(): Promise<string[][]> {
  return view.$$eval('#table tbody tr', (trs) =>
    trs.map((tr) => Array.from(tr.querySelectorAll('td'), (td) => td.textContent ?? '')),
  );
}

function tableHeader(): Promise<string[]> {
  return view.$$eval('#table thead button.sort', (bs) => bs.map((b) => (b as HTMLElement).dataset.field ?? ''));
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

function screenshot(name: string): Promise<unknown> {
  return page.screenshot({ path: join(ARTIFACTS, `${name}.png`) as `${string}.png`, fullPage: true });
}

/** A host page in a new tab that loads the view and hands it a tool's input and result. */
async function openView(toolInput: Rec, toolResult: CallToolResult): Promise<{ page: Page; frame: Frame }> {
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
  });
  const frame = (await (await tab.waitForSelector('iframe#view'))!.contentFrame())!;
  await frame.waitForSelector('svg.bars g.bar', { timeout: 20_000 });
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
    env: { ...env, REPORTS_TIMEZONE: 'UTC' },
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

  it('shows the headline: the report, what was asked, and that it is complete', async () => {
    const head = report.structuredContent as { fetchedRecords: number; query: Record<string, string> };
    expect(await view.$eval('#headline h1', (e) => e.textContent)).toBe('ticket_coupons_by_status_code');
    const status = await view.$eval('#headline .status', (e) => e.textContent);
    expect(status).toBe(`Complete: ${head.fetchedRecords} of ${head.fetchedRecords} records demo data`);
    const asked = await view.$eval('#headline .query', (e) => e.textContent);
    expect(asked).toBe(
      Object.entries(head.query)
        .map(([k, v]) => `${k} ${v}`)
        .join(' · '),
    );
    expect(await view.$eval('#summary dl', (e) => e.textContent)).toContain('Account');
    await screenshot('result-view-light');
    // A small one for the README (docs/images/result-view.jpg is a copy of it).
    await page.setViewport({ width: 720, height: 1400 });
    await view.waitForFunction(() => Number(document.querySelector('svg.bars')?.getAttribute('width')) <= 720);
    await page.screenshot({
      path: join(ARTIFACTS, 'result-view-readme.jpg') as `${string}.jpeg`,
      type: 'jpeg',
      quality: 70,
      clip: { x: 0, y: 0, width: 720, height: 980 },
    });
    await page.setViewport({ width: 900, height: 1400 });
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
    await view.select('#chart-measure', 'FOPFare');
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
    await view.select('#chart-measure', 'count');
    await view.waitForFunction(() => document.getElementById('chart-title')?.textContent === 'Records per Account');
  });

  it("pages through every record: each page's rows are query_report's", async () => {
    const { rows, matched } = await query({ limit: 1000 });
    const columns = await tableHeader();
    expect(columns).toContain('TktNumber');
    const ticket = columns.indexOf('TktNumber');
    const fare = columns.indexOf('FOPFare');
    const seen: string[] = [];
    for (let offset = 0; offset < matched; offset += PAGE_SIZE) {
      const last = Math.min(offset + PAGE_SIZE, matched);
      await pageInfo(`Rows ${offset + 1}–${last} of ${matched}`);
      const cells = await tableCells();
      expect(cells).toHaveLength(last - offset);
      cells.forEach((cell, i) => {
        expect(cell[ticket]).toBe(String(rows![offset + i].TktNumber));
        expect(Number(cell[fare].replace(/,/g, ''))).toBe(Number(rows![offset + i].FOPFare));
      });
      seen.push(...cells.map((c) => c[ticket]));
      if (last < matched) await view.click('#next');
    }
    expect(matched).toBeGreaterThan(PAGE_SIZE);
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
      await opened.page.screenshot({
        path: join(ARTIFACTS, 'result-view-query-groups.png') as `${string}.png`,
        fullPage: true,
      });
    } finally {
      await opened.page.close();
    }
  });
});

// Keep spawnSync referenced for the chromium version line in the log (helps reading CI output).
if (CHROMIUM) console.error(spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? 'no chromium');
