/**
 * The pinned company scope on every tool (README, REPORTS_OWNING_COMPANY_CODES): while
 * REPORTS_OWNING_COMPANY_CODES is set, each tool either sends the codes (transactions that take
 * OwningCompanyCode: resolve.ts applies them), verifies first that the booking it reads belongs
 * to the scope (pnr_segments), or is refused naming the variable. Whatever a tool sends, the
 * records it gets back are filtered: one whose OwningCompanyCode is outside the scope is dropped,
 * and a note says how many.
 */
import type { TransactionDef } from '../catalog/types.js';
import { quote, ReportsError } from '../errors.js';
import type { Runtime } from './runtime.js';

export type ScopeRule = 'send' | 'verify-booking' | 'refuse';

export function scopeRule(def: TransactionDef): ScopeRule {
  if (def.marks.company || 'OwningCompanyCode' in def.params || def.freeForm) return 'send';
  if (def.tool === 'pnr_segments') return 'verify-booking';
  return 'refuse';
}

/** Before any request of a tool call: refuses or verifies as the tool's rule says. */
export async function enforceScope(
  rt: Runtime,
  def: TransactionDef,
  query: Record<string, string>,
  signal?: AbortSignal,
): Promise<void> {
  const pinned = rt.config.owningCompanyCodes;
  if (!pinned?.length) return;
  const rule = scopeRule(def);
  if (rule === 'refuse') {
    throw new ReportsError(
      'configuration',
      `${def.tool} cannot be kept within REPORTS_OWNING_COMPANY_CODES (${pinned.join(', ')}): the service takes ` +
        `no company codes for it and its records carry none, so it is refused while the scope is pinned. Nothing was sent.`,
    );
  }
  if (rule === 'verify-booking') await verifyBooking(rt, query, pinned, signal);
}

/** The booking must be found by BookingDetails within the pinned codes before its segments are read. */
async function verifyBooking(
  rt: Runtime,
  query: Record<string, string>,
  pinned: readonly string[],
  signal?: AbortSignal,
): Promise<void> {
  const probe: Record<string, string> = { RecordLocator: query.RecordLocator ?? '' };
  if (query.PNRCreationDate) probe.PNRCreationDate = query.PNRCreationDate;
  probe.OwningCompanyCode = pinned.join(',');
  const page = await rt.upstream.getPage({
    path: '/BookingDetails',
    query: probe,
    offset: 0,
    limit: rt.config.pageSize,
    envelope: 'collection',
    signal,
  });
  const inScope = page.records.some((r) => isInScope(r, pinned));
  if (!inScope) {
    throw new ReportsError(
      'not_found',
      `RecordLocator ${quote(probe.RecordLocator)} is not a booking of the companies ` +
        `REPORTS_OWNING_COMPANY_CODES pins (${pinned.join(', ')}): BookingDetails finds no such booking for ` +
        `them, so its segments were not fetched.`,
      { param: 'RecordLocator' },
    );
  }
}

/** A record without an OwningCompanyCode is the service's answer to a scoped request: kept. */
function isInScope(record: Record<string, unknown>, pinned: readonly string[]): boolean {
  const code = record.OwningCompanyCode;
  if (code === undefined || code === null || code === '') return true;
  return pinned.some((p) => p.toLowerCase() === String(code).toLowerCase());
}

/**
 * Drops records whose OwningCompanyCode is outside the pinned scope, page by page, and counts
 * them for the note. (The walk keeps each page's span of upstream positions, so
 * continue_report still knows which windows were read.)
 */
export class ScopeFilter {
  private dropped = 0;

  constructor(private readonly pinned: readonly string[] | undefined) {}

  keep(records: Record<string, unknown>[]): Record<string, unknown>[] {
    const pinned = this.pinned;
    if (!pinned?.length) return records;
    const kept = records.filter((r) => isInScope(r, pinned));
    this.dropped += records.length - kept.length;
    // The page itself when nothing is dropped (the service filtered): its records are then held,
    // counted and measured as the fetch walked them (run-report.ts).
    return kept.length === records.length ? records : kept;
  }

  notes(): string[] {
    const n = this.dropped;
    if (!n || !this.pinned) return [];
    return [
      `${n.toLocaleString('en-US')} record${n === 1 ? '' : 's'} whose OwningCompanyCode is outside ` +
        `REPORTS_OWNING_COMPANY_CODES (${this.pinned.join(', ')}) ${n === 1 ? 'was' : 'were'} dropped; the ` +
        `service answered beyond the codes it was sent.`,
    ];
  }
}
