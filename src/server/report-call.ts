/** What a report tool's call does: resolve the arguments, enforce the scope, fetch, present. */
import { type ResolveContext, resolveInput } from '../catalog/resolve.js';
import type { TransactionDef } from '../catalog/types.js';
import { presentReport } from '../presentation/index.js';
import { callMany, manyValues } from './many-call.js';
import { progressReporter, type ToolExtra } from './progress.js';
import { runReport } from './run-report.js';
import { callSignal, type Runtime } from './runtime.js';
import { enforceScope } from './scope.js';

export async function callReport(rt: Runtime, def: TransactionDef, args: Record<string, unknown>, extra: ToolExtra) {
  const { query, controls } = resolveInput(def, args, resolveContext(rt));
  const { maxRecords, notes } = cappedMaxRecords(controls.maxRecords, rt.config.maxRecords);
  const signal = callSignal(rt, extra.signal);
  const many = manyValues(def, query);
  if (many) return callMany(rt, def, query, many, { ...controls, maxRecords, extraNotes: notes }, signal, extra);
  await enforceScope(rt, def, query, signal);
  const stored = await runReport(rt, def, query, {
    maxRecords,
    signal,
    onProgress: progressReporter(extra, def.tool),
  });
  return presentReport(stored, { rowLimit: controls.rowLimit, fields: controls.fields, extraNotes: notes });
}

/** What a call's arguments resolve against: this server's zone, clock, UserName and scope. */
export function resolveContext(rt: Runtime): ResolveContext {
  return {
    timeZone: rt.config.timeZone,
    now: rt.now(),
    defaultUserName: rt.config.userName,
    pinnedCompanyCodes: rt.config.owningCompanyCodes,
    fixedUserName: rt.fixedUserName,
  };
}

/** The records a call may fetch: what it asked, within REPORTS_MAX_RECORDS, saying so when capped (never silently). */
export function cappedMaxRecords(asked: number | undefined, limit: number): { maxRecords: number; notes: string[] } {
  if (asked === undefined || asked <= limit) return { maxRecords: asked ?? limit, notes: [] };
  return {
    maxRecords: limit,
    notes: [`maxRecords ${asked} is above this server's limit REPORTS_MAX_RECORDS=${limit}; ${limit} was used.`],
  };
}
