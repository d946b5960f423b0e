/**
 * travellers_at's reading of the candidate bookings: one booking_details (Passengers,
 * Itinerary, Emails, Phones) per booking, all at once within the process-wide limiter (REPORTS_CONCURRENCY),
 * each through the report tools' fetch (run-report.ts) within what is left of the call's budget.
 * A booking that fails or is not found is counted and named (the caller reads it from its
 * routing record instead); the others are still read.
 */
import { resolveInput } from '../catalog/resolve.js';
import type { TransactionDef } from '../catalog/types.js';
import { ReportsError } from '../errors.js';
import { type Candidate, candidateKey } from '../results/traveller-bookings.js';
import { progressReporter, type ToolContext } from './progress.js';
import { type FetchedRecords, fetchRecords } from './run-report.js';
import type { Runtime } from './runtime.js';

type Rec = Record<string, unknown>;

/** What travellers_at reads of a booking: who travels, where, and their own contacts where the booking holds them. */
export const LOAD_OPTIONS = 'Passengers,Itinerary,Emails,Phones';

export interface BookingsRead {
  /** BookingDetail per candidateKey. */
  found: Map<string, Rec>;
  failed: Array<{ locator: string; why: string }>;
  /** Bookings BookingDetails did not return (outside the pinned scope, or gone). */
  missing: string[];
  incomplete: number;
  requests: number;
}

/** Each candidate's BookingDetail (passengers and itinerary), all at once within the process-wide limiter. */
export async function readBookings(
  rt: Runtime,
  def: TransactionDef,
  candidates: readonly Candidate[],
  ctx: Parameters<typeof resolveInput>[2],
  call: { signal: AbortSignal; left: () => number; toolCtx: ToolContext },
): Promise<BookingsRead> {
  const read: BookingsRead = { found: new Map(), failed: [], missing: [], incomplete: 0, requests: 0 };
  const progress = progressReporter(call.toolCtx, 'travellers_at');
  let done = 0;
  await Promise.all(
    candidates.map(async (c) => {
      const args: Rec = { RecordLocator: c.recordLocator, LoadOptions: LOAD_OPTIONS };
      if (c.created) args.PNRCreationDate = c.created;
      try {
        const query = resolveInput(def, args, ctx).query;
        const got: FetchedRecords = await fetchRecords(rt, def, query, {
          maxRecords: 10,
          signal: call.signal,
          budgetMs: call.left(),
        });
        read.requests += got.requests;
        if (!got.complete) read.incomplete++;
        const detail = got.records.find((r) => String(r.RecordLocator ?? '').toUpperCase() === c.recordLocator);
        if (detail) read.found.set(candidateKey(c.routing)!, detail);
        else read.missing.push(c.recordLocator);
      } catch (err) {
        if (err instanceof ReportsError && err.kind === 'cancelled') throw err;
        read.failed.push({ locator: c.recordLocator, why: err instanceof Error ? err.message : String(err) });
      }
      progress?.(++done, candidates.length);
    }),
  );
  return read;
}
