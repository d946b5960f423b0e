/** What query_report and continue_report calls do (registered in result-tools.ts). */
import { TRANSACTIONS } from '../catalog/transactions.js';
import { resolveWhereDates } from '../catalog/where-dates.js';
import { ReportsError } from '../errors.js';
import { presentContinued, presentQuery } from '../presentation/index.js';
import type { QueryArgs } from '../results/query-schema.js';
import { budgetNotes } from './budget-notes.js';
import { isManyResult } from './many-call.js';
import { progressReporter, type ToolContext } from './progress.js';
import { continueReport } from './run-report.js';
import { callSignal, type Runtime } from './runtime.js';

export async function queryResult(rt: Runtime, args: QueryArgs & { resultId: string }) {
  const { resultId: id, ...query } = args;
  const dates = resolveWhereDates(query.where, { timeZone: rt.config.timeZone, now: rt.now() });
  return presentQuery(await rt.results.get(id), { ...query, where: dates.where }, dates.notes);
}

export interface ContinueArgs {
  resultId: string;
  maxRecords?: number;
  rowLimit?: number;
  fields?: string[];
}

export async function continueResult(rt: Runtime, args: ContinueArgs, ctx: ToolContext) {
  const stored = await rt.results.get(args.resultId);
  if (stored.report === 'travellers_at') {
    throw new ReportsError(
      'invalid_input',
      `resultId: ${stored.id} is a travellers_at answer, which each call makes whole: call travellers_at again ` +
        '(its notes say which service calls were incomplete)',
      { param: 'resultId' },
    );
  }
  if (stored.sentQueryWithheld && !stored.complete) {
    throw new ReportsError(
      'invalid_input',
      `resultId: ${stored.id} was read back from disk after a restart, and with REPORTS_REDACT_PII on the ` +
        `parameters naming a traveller are not kept there, so what is missing cannot be asked for again: run ` +
        `${stored.report} again for a new resultId`,
      { param: 'resultId' },
    );
  }
  const def = TRANSACTIONS.find((t) => t.tool === stored.report);
  if (!def) throw new ReportsError('not_found', `Result ${stored.id} belongs to an unknown report '${stored.report}'.`);
  if (isManyResult(def, stored.sentQuery))
    throw new ReportsError(
      'invalid_input',
      `resultId: ${stored.id} holds ${def.tool} for several ${def.many} values, fetched one by one and made whole ` +
        `by each call: call ${def.tool} again for the values its notes name`,
      { param: 'resultId' },
    );
  const { cappedMaxRecords } = await import('./report-call.js');
  const { maxRecords, notes } = cappedMaxRecords(args.maxRecords, rt.config.maxRecords);
  const updated = await continueReport(rt, def, stored, {
    maxRecords,
    signal: callSignal(rt, ctx.mcpReq.signal),
    onProgress: progressReporter(ctx, 'continue_report'),
  });
  return presentContinued(stored, updated, {
    rowLimit: args.rowLimit,
    fields: args.fields,
    extraNotes: [...notes, ...budgetNotes(rt, updated)],
  });
}
