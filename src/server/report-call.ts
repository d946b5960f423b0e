/** What a report tool's call does: resolve the arguments, enforce the scope, fetch, present. */
import { resolveInput } from '../catalog/resolve.js';
import type { TransactionDef } from '../catalog/types.js';
import { presentReport } from '../presentation/index.js';
import { progressReporter, type ToolExtra } from './progress.js';
import { runReport } from './run-report.js';
import { callSignal, type Runtime } from './runtime.js';
import { enforceScope } from './scope.js';

export async function callReport(rt: Runtime, def: TransactionDef, args: Record<string, unknown>, extra: ToolExtra) {
  const { query, controls } = resolveInput(def, args, {
    timeZone: rt.config.timeZone,
    now: rt.now(),
    defaultUserName: rt.config.userName,
    pinnedCompanyCodes: rt.config.owningCompanyCodes,
    fixedUserName: rt.fixedUserName,
  });
  const notes: string[] = [];
  let maxRecords = controls.maxRecords ?? rt.config.maxRecords;
  if (maxRecords > rt.config.maxRecords) {
    notes.push(
      `maxRecords ${maxRecords} is above this server's limit ` +
        `REPORTS_MAX_RECORDS=${rt.config.maxRecords}; ${rt.config.maxRecords} was used.`,
    );
    maxRecords = rt.config.maxRecords;
  }
  await enforceScope(rt, def, query, callSignal(rt, extra.signal));
  const stored = await runReport(rt, def, query, {
    maxRecords,
    signal: callSignal(rt, extra.signal),
    onProgress: progressReporter(extra, def.tool),
  });
  return presentReport(stored, { rowLimit: controls.rowLimit, fields: controls.fields, extraNotes: notes });
}
