/**
 * How much of the service's answer a held result covers, said the same way in every answer
 * derived from it (query_report, sql_query, exports, resource pages, the view): an incomplete
 * result never reads as final (docs/architecture.md, "Incomplete stays visible").
 */
import { formatNumber } from './values.js';

export interface Coverage {
  id: string;
  /** The tool whose answer this is: derived answers are completed differently from reports. */
  report: string;
  complete: boolean;
  totalRecords: number | null;
  /** Records held. */
  fetched: number;
}

/** One line for an incomplete result: how many of how many records, and what completes it. */
export function incompleteLine(c: Coverage): string | undefined {
  if (c.complete) return undefined;
  const derived = DERIVED[c.report];
  if (derived) return `INCOMPLETE: ${derived}.`;
  const of = c.totalRecords === null ? 'an unknown number of' : formatNumber(c.totalRecords);
  const missing = c.totalRecords === null ? null : c.totalRecords - c.fetched;
  const fix =
    missing !== null && missing <= 0
      ? 'every record was fetched but the data changed while it was read: run the report again for a consistent result'
      : `continue_report {"resultId":"${c.id}"} fetches ${missing === null ? 'the rest' : `the ${formatNumber(missing)} missing`}`;
  return `INCOMPLETE: this covers ${formatNumber(c.fetched)} of ${of} records of the report; ${fix}.`;
}

/** Answers built from other answers: what made them incomplete is in their notes, not a count. */
const DERIVED: Record<string, string> = {
  travellers_at:
    'some service calls or bookings this answer rests on were incomplete or failed (its notes say which); ' +
    'call travellers_at again, with a narrower window or place if it read too many bookings',
  sql_query:
    'the statement read an incomplete result or produced more rows than are held (its notes say which); ' +
    'complete the results it read with continue_report, or add a LIMIT, and run it again',
};

export function coverageOf(stored: {
  id: string;
  report: string;
  complete: boolean;
  totalRecords: number | null;
  records: readonly unknown[];
}): Coverage {
  return {
    id: stored.id,
    report: stored.report,
    complete: stored.complete,
    totalRecords: stored.totalRecords,
    fetched: stored.records.length,
  };
}
