import { isStandingNote } from './days.js';

/**
 * The fields the server derives from a record (src/results/derived.ts) and the notes that say
 * what the numbers mean, for tests that compare held records with what the sandbox sent:
 * those compare the service's own fields, and the derived ones are checked on their own.
 */
export const DERIVED_FIELDS = [
  'SegmentState',
  'BoardCity',
  'OffCity',
  'BoardCountry',
  'OffCountry',
  'EstimatedCost',
  'EstimatedCostCurrency',
  'CostBasis',
  'NightsInWindow',
  'EstimatedCostInWindow',
  'Travelling',
  'Partner',
  'FailureReason',
  'ReportName',
] as const;

const DERIVED = new Set<string>(DERIVED_FIELDS);

/** A copy of `value` without the derived fields, at every depth. */
export function withoutDerived<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutDerived) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !DERIVED.has(k))
      .map(([k, v]) => [k, withoutDerived(v)]),
  ) as T;
}

/** A note that says what a report's numbers mean (segment states, rates, a ticket's fare, the
 *  stays NightsInWindow leaves out). */
export function isMeaningNote(note: string): boolean {
  return (
    /^NightsInWindow counts nights from \d{8} to \d{8} of the stays here, /.test(note) ||
    note.startsWith('Segment states: ') ||
    /^Of the [\d,]+ matched: /.test(note) ||
    / segments? (is|are) confirmed \(SegmentState\)\.$/.test(note) ||
    / is a rate per .*, not a cost: /.test(note) ||
    / repeated on every coupon: totals count each /.test(note) ||
    / hold no air, hotel or car segment \(passive lines only/.test(note) ||
    / (is|are) the service's own totals?: it does not say /.test(note)
  );
}

/** The notes of an answer other than those that say what its numbers mean, which date its
 *  window filtered on, and which fields are days (helpers/days.ts). */
export function otherNotes(notes: unknown): string[] {
  return (notes as string[]).filter((note) => !isMeaningNote(note) && !isStandingNote(note));
}
