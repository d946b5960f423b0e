/** What a report tool's call does: resolve the arguments, enforce the scope, fetch, present. */
import { type ResolveContext, resolveInput } from '../catalog/resolve.js';
import type { TransactionDef } from '../catalog/types.js';
import { presentReport } from '../presentation/index.js';
import type { StoredResult } from '../results/store.js';
import { budgetNotes } from './budget-notes.js';
import type { Joined } from './joined-calls.js';
import { callMany, manyValues } from './many-call.js';
import { progressReporter, type ToolContext } from './progress.js';
import { runReport } from './run-report.js';
import { callSignal, type Runtime } from './runtime.js';
import { enforceScope } from './scope.js';

export async function callReport(rt: Runtime, def: TransactionDef, args: Record<string, unknown>, ctx: ToolContext) {
  const { query, controls } = resolveInput(def, args, resolveContext(rt));
  const { maxRecords, notes } = cappedMaxRecords(controls.maxRecords, rt.config.maxRecords);
  const signal = callSignal(rt, ctx.mcpReq.signal);
  const many = manyValues(def, query);
  if (many) return callMany(rt, def, query, many, { ...controls, maxRecords, extraNotes: notes }, signal, ctx);
  await enforceScope(rt, def, query, signal);
  const { fresh, ...shown } = controls;
  // One person's identical call (tool, query as sent, controls) joins a running or recent one.
  const key = JSON.stringify([rt.owner, def.tool, query, maxRecords, shown.fields ?? null, shown.rowLimit ?? null]);
  const { stored, joined } = await rt.calls.run(
    key,
    {
      fresh,
      signal,
      onProgress: progressReporter(ctx, def.tool),
      // A broken stream (not a cancel, nor the server stopping): the client will call again.
      streamBroke: () => !rt.stopping.aborted && !rt.cancelledByClient(ctx.mcpReq.id),
    },
    (shared, onProgress) => runReport(rt, def, query, { maxRecords, signal: shared, onProgress }),
    (id) => rt.results.get(id).catch(() => undefined),
  );
  return presentReport(stored, {
    rowLimit: controls.rowLimit,
    fields: controls.fields,
    extraNotes: [...notes, ...joinedNotes(joined, stored), ...budgetNotes(rt, stored)],
  });
}

/** What the answer says when it comes from another call's fetch. */
function joinedNotes(joined: Joined, stored: StoredResult): string[] {
  if (joined.kind === 'running')
    return ["An identical call was already fetching this report: this answer is that fetch's (one fetch for both)."];
  if (joined.kind === 'recent') {
    const seconds = Math.max(0, Math.round(joined.ageMs / 1000));
    return [
      `Answered from the result of an identical call completed ${seconds} s ago (${stored.id}), without fetching ` +
        'again; add fresh: true to fetch anew.',
    ];
  }
  return [];
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
