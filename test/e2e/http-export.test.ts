/**
 * export_report over HTTP: the built server in --http mode refuses it with the reason (the
 * server's disk is not the person's) and writes nothing into REPORTS_EXPORT_DIR.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, connectClient, killAll, startHttpServer } from '../helpers/http-server.js';
import { textOf } from '../helpers/mcp.js';

let root: string;
beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'http-export-'));
});
afterEach(killAll);
afterAll(() => rmSync(root, { recursive: true, force: true }));

it('refuses export_report in HTTP mode, naming the way to get the records instead', async () => {
  const dir = join(root, 'exports');
  const server = await startHttpServer({ env: { REPORTS_DEMO: 'true', REPORTS_EXPORT_DIR: dir } });
  const http = await connectClient(server.url);
  try {
    const report = await http.call('hotel_segments', { DateStart: 'today-30', DateEnd: 'today+30' });
    expect(report.isError).toBeFalsy();
    const resultId = String((report.structuredContent as { resultId: string }).resultId);
    const refused = await http.call('export_report', { resultId, format: 'xlsx' });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe(
      "export_report failed (configuration): export_report writes files on the server's own disk, so it works only in stdio mode, and this server runs in HTTP mode (REPORTS_HTTP). " +
        `Read the records as CSV from reports://results/${resultId}.csv instead.`,
    );
    expect(existsSync(dir)).toBe(false);
  } finally {
    await http.close();
  }
});
