/**
 * A result that alone occupies more memory than REPORTS_RESULTS_MAX_MB (results/budget-note.ts):
 * its answer says so, with what then happens to it, and that happens. Through a real MCP
 * client: in memory only (demo mode, in process), and kept on disk as on stdio (live mode
 * against the sandbox over loopback HTTP, in a temporary folder).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiskStore } from '../../src/results/disk-store.js';
import type { ResultStore } from '../../src/results/store.js';
import { type Sandbox, startSandbox } from '../../src/sandbox/service.js';
import { startKeptServer } from '../helpers/kept-server.js';
import { type InProcess, startInProcess } from '../helpers/mcp.js';

type Rec = Record<string, unknown>;
const MB = 1_048_576;
/** Bookings in the sandbox: a year of their air segments holds more than 1 MB (2,000 hold 0.8). */
const SIZE = 5000;
/** A year of air segments: more than 1 MB held. */
const YEAR = { DateStart: '20260101', DateEnd: '20261231' };
/** A week of them: well under it. */
const WEEK = { DateStart: '20260302', DateEnd: '20260308' };

function ok(r: CallToolResult): Rec {
  expect(r.isError, JSON.stringify(r.content).slice(0, 500)).toBeFalsy();
  return r.structuredContent as Rec;
}

const notesOf = (out: Rec) => out.notes as string[];
const budgetNotesOf = (out: Rec) => notesOf(out).filter((n) => n.includes('REPORTS_RESULTS_MAX_MB'));

/** The note, written out here from the result's own bytes and what the test expects to follow. */
function expectedNote(bytes: number, then: string): string {
  const held = Math.ceil(bytes / MB);
  return (
    `This result alone occupies ${held} MB of memory, more than REPORTS_RESULTS_MAX_MB (1 MB): it is held now, ` +
    `and leaves memory when another result is held or sql_query builds another one's tables; ${then}. ` +
    `To keep it in memory, set REPORTS_RESULTS_MAX_MB above ${held} (its sql_query tables count too).`
  );
}

describe('a result larger than REPORTS_RESULTS_MAX_MB, held in memory only', () => {
  let s: InProcess;
  beforeAll(async () => {
    s = await startInProcess({ env: { REPORTS_RESULTS_MAX_MB: '1' }, sandbox: { size: SIZE } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('says so in its answer, and its resultId answers not_found once another result is held', async () => {
    const answer = await s.call('air_segments_by_date', YEAR);
    const big = ok(answer);
    const id = String(big.resultId);
    const bytes = (s.rt.store as ResultStore).list().find((r) => r.id === id)?.bytes ?? 0;
    expect(bytes).toBeGreaterThan(MB);
    const note = expectedNote(bytes, 'its resultId then answers not_found: run air_segments_by_date again');
    expect(budgetNotesOf(big)).toEqual([note]);
    // Whole in the text too (a note there is cut past 400 characters).
    expect((answer.content as { text: string }[])[0].text).toContain(`Note: ${note}`);
    // Held now: it answers over every record.
    const count = ok(await s.call('query_report', { resultId: id, aggregates: [{ fn: 'count' }] }));
    expect(count.matched).toBe(big.fetchedRecords);

    // A result within the budget says nothing of it; holding it drops the large one, as said.
    const small = ok(await s.call('air_segments_by_date', WEEK));
    expect(budgetNotesOf(small)).toEqual([]);
    const gone = await s.call('query_report', { resultId: id });
    expect(gone.isError).toBe(true);
    expect((gone.content as { text: string }[])[0].text).toContain(`No result '${id}' is held`);
  });

  it('continue_report says so when the records it adds take the result past the budget', async () => {
    const first = ok(await s.call('air_segments_by_date', { ...YEAR, maxRecords: 500 }));
    expect(first.complete).toBe(false);
    expect(budgetNotesOf(first)).toEqual([]);
    const id = String(first.resultId);
    const whole = ok(await s.call('continue_report', { resultId: id }));
    expect(whole.complete).toBe(true);
    const bytes = (s.rt.store as ResultStore).list().find((r) => r.id === id)?.bytes ?? 0;
    expect(bytes).toBeGreaterThan(MB);
    expect(budgetNotesOf(whole)).toEqual([
      expectedNote(bytes, 'its resultId then answers not_found: run air_segments_by_date again'),
    ]);
  });
});

describe('a result larger than REPORTS_RESULTS_MAX_MB, kept on disk as on stdio', () => {
  const KEY = 'over-budget-key-0123456789';
  const USERNAME = 'over-budget-user';
  const NOW = new Date('2026-11-15T12:00:00Z');
  let sandbox: Sandbox;
  let folder: string;
  beforeAll(async () => {
    sandbox = await startSandbox({
      username: USERNAME,
      key: KEY,
      size: SIZE,
      now: () => NOW,
      dataNow: new Date('2026-11-15T00:00:00Z'),
    });
    folder = await mkdtemp(join(tmpdir(), 'over-budget-'));
  });
  afterAll(async () => {
    await sandbox?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('says its copy on disk is read back, and it is, with every record, after another result is held', async () => {
    const s = await startKeptServer({
      url: sandbox.url,
      username: USERNAME,
      key: KEY,
      now: NOW,
      dir: join(folder, 'results'),
      env: { REPORTS_RESULTS_MAX_MB: '1' },
    });
    try {
      const big = ok(await s.call('air_segments_by_date', YEAR));
      const id = String(big.resultId);
      const bytes = (await (s.rt.store as DiskStore).list()).find((r) => r.id === id)?.bytes ?? 0;
      expect(bytes).toBeGreaterThan(MB);
      expect(budgetNotesOf(big)).toEqual([
        expectedNote(
          bytes,
          'its copy on disk (REPORTS_RESULTS_DIR) is then read back on its next use, taking time again',
        ),
      ]);
      const small = ok(await s.call('air_segments_by_date', WEEK));
      expect(budgetNotesOf(small)).toEqual([]);
      // Out of memory now (the budget's log line), and read back from disk on its next use.
      expect(
        s.logs.some((l) => l.includes(`result ${id} (air_segments_by_date,`) && l.includes('evicted: budget')),
      ).toBe(true);
      const count = ok(await s.call('query_report', { resultId: id, aggregates: [{ fn: 'count' }] }));
      expect(count.matched).toBe(big.fetchedRecords);
    } finally {
      await s.close();
    }
  });
});
