/**
 * A report tool called with several values of its `many` parameter (booking_details and
 * pnr_segments with a list of locators, docs/architecture.md "Many bookings at once"): the
 * service takes one locator a request, so each is fetched on its own, all at once within the
 * process-wide limiter (REPORTS_CONCURRENCY), through the report tools' fetch and scope rules,
 * and the records are held as ONE result, in the order the locators were given. A locator the
 * service does not find, or whose request fails, is named in the notes; the others are kept.
 */
import { setMaxListeners } from 'node:events';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ReportControls } from '../catalog/resolve.js';
import type { TransactionDef } from '../catalog/types.js';
import { ReportsError } from '../errors.js';
import { presentReport } from '../presentation/index.js';
import { daysNote, writeDaysAsDates } from '../results/day-dates.js';
import { deriverFor, meaningNotes, withDerived } from '../results/derived.js';
import { summarize } from '../results/summarize.js';
import { budgetNotes } from './budget-notes.js';
import { progressReporter, type ToolContext } from './progress.js';
import { fetchRecords } from './run-report.js';
import type { Runtime } from './runtime.js';
import { enforceScope } from './scope.js';

type Rec = Record<string, unknown>;

/** Most values of one call: each is a request of its own. */
export const MAX_MANY = 100;

/** The values of `def.many` a query holds, when there are several (else undefined). */
export function manyValues(def: TransactionDef, query: Readonly<Record<string, string>>): string[] | undefined {
  if (!def.many) return undefined;
  const values = [...new Set((query[def.many] ?? '').split(',').map((v) => v.trim().toUpperCase()))].filter(Boolean);
  if (values.length <= 1) return undefined;
  if (values.length > MAX_MANY)
    throw new ReportsError(
      'invalid_input',
      `${def.many}: ${values.length} values; at most ${MAX_MANY} in one call (each is a request): split the list`,
      { param: def.many },
    );
  return values;
}

interface Part {
  value: string;
  records: Rec[];
  complete: boolean;
  totalRecords: number | null;
  notes: string[];
  failed?: string;
}

export async function callMany(
  rt: Runtime,
  def: TransactionDef,
  query: Record<string, string>,
  values: readonly string[],
  controls: ReportControls & { maxRecords: number; extraNotes: string[] },
  signal: AbortSignal,
  ctx: ToolContext,
): Promise<CallToolResult> {
  const param = def.many!;
  const started = Date.now();
  const left = () => Math.max(1, rt.config.callBudgetMs - (Date.now() - started));
  const progress = progressReporter(ctx, def.tool);
  let done = 0;
  // Each locator's fetch listens to the call's signal: up to 100 listeners (Node warns past 10).
  setMaxListeners(Math.max(10, values.length + 5), signal);
  const parts = await Promise.all(
    values.map(async (value): Promise<Part> => {
      const one = { ...query, [param]: value };
      try {
        await enforceScope(rt, def, one, signal);
        const got = await fetchRecords(rt, def, one, { maxRecords: controls.maxRecords, signal, budgetMs: left() });
        return { value, ...got };
      } catch (err) {
        if (err instanceof ReportsError && err.kind === 'cancelled') throw err;
        const why = err instanceof Error ? err.message : String(err);
        return { value, records: [], complete: false, totalRecords: null, notes: [], failed: why };
      } finally {
        progress?.(++done, values.length);
      }
    }),
  );
  const records = rt.redact.records(parts.flatMap((p) => p.records));
  const notes: string[] = [];
  const missing = parts.filter((p) => !p.failed && p.complete && p.records.length === 0).map((p) => p.value);
  if (missing.length) notes.push(`Not found at the service: ${param} ${missing.join(', ')}.`);
  for (const p of parts) {
    if (p.failed) notes.push(`${param} ${p.value} failed, so its records are missing: ${p.failed}`);
    for (const note of p.notes) notes.push(`${param} ${p.value}: ${note}`);
  }
  // The fields each fetch derived (FetchRequest.prepare), listed as a report's summary lists them.
  const derived = (await deriverFor(def.answer.meaning, query))?.fields ?? [];
  const summary = withDerived(summarize(records, { report: def.tool }), derived);
  notes.push(...meaningNotes(def.answer.meaning, records));
  const days = writeDaysAsDates(records, summary);
  if (days.length) notes.push(daysNote(days));
  const complete = parts.every((p) => p.complete && !p.failed);
  if (!complete) notes.push(`Incomplete: call ${def.tool} again for the ${param} values named above.`);
  const totals = parts.map((p) => p.totalRecords);
  const stored = await rt.results.put({
    report: def.tool,
    source: rt.source,
    query: rt.redact(query),
    sentQuery: query,
    totalRecords: totals.every((t) => t !== null) ? totals.reduce((a, b) => a! + b!, 0) : null,
    complete,
    notes: notes.map(rt.redact.text),
    records,
    held: [{ offset: 0, count: records.length }],
    summary,
  });
  rt.log(`${def.tool}: ${values.length} ${param} values, ${records.length} records, ${Date.now() - started} ms`);
  return presentReport(stored, {
    rowLimit: controls.rowLimit,
    fields: controls.fields,
    extraNotes: [...(controls.extraNotes ?? []), ...budgetNotes(rt, stored)],
  });
}

/** Whether a held result was made by callMany: continue_report cannot complete it (each call is whole). */
export function isManyResult(def: TransactionDef, sentQuery: Readonly<Record<string, string>>): boolean {
  return def.many !== undefined && (sentQuery[def.many] ?? '').includes(',');
}
