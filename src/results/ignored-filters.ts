/**
 * Filters a service may ignore (docs/travel-meaning.md, "Parameters the service may
 * ignore"): for transactions whose parameters the service does not document (FindBookings,
 * TicketsIssuedByNumber take free-form parameters), a filter it ignored still returns
 * records, and "2,010 records, complete" would read as 2,010 SMITHs. A sent value that few of
 * the records returned hold anywhere is named, with the counts.
 */
import type { TransactionDef } from '../catalog/types.js';
import { formatNumber } from './values.js';

/** Parameters the server itself sends (scope, caller), not filters a caller chose. */
const OWN = new Set(['owningcompanycode', 'username', 'requestconsultantid']);
/** A filter applied holds its value in (nearly) every record; past this share it is taken as applied. */
const APPLIED_SHARE = 0.9;
/** Records read for the check: enough to tell a filter applied from one ignored. */
const SAMPLE = 20_000;

export function ignoredFilterNotes(
  def: TransactionDef,
  query: Readonly<Record<string, string>>,
  records: readonly Record<string, unknown>[],
): string[] {
  if (!def.freeForm || !records.length) return [];
  const sample = records.length > SAMPLE ? records.slice(0, SAMPLE) : records;
  let texts: string[] | undefined;
  const notes: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (name in def.params || OWN.has(name.toLowerCase())) continue;
    // Dates are sent as YYYYMMDD and held as ISO text; flags hold no value to find.
    if (/^\d{8}$/.test(value) || /^(true|false)$/i.test(value) || value.trim().length < 2) continue;
    texts ??= sample.map((r) => JSON.stringify(r).toLowerCase());
    const wanted = value
      .split(',')
      .map((v) => v.trim().toLowerCase())
      .filter(Boolean);
    const holding = texts.filter((t) => wanted.some((w) => t.includes(w))).length;
    if (holding >= sample.length * APPLIED_SHARE) continue;
    notes.push(
      `${name}=${value.slice(0, 60)}: only ${formatNumber(holding)} of ${formatNumber(sample.length)} ` +
        `records returned hold "${value.slice(0, 60)}" anywhere: the service appears to have ignored this filter ` +
        `(${def.transaction} does not document its parameters). Filter the held records with query_report where ` +
        `instead, and check the parameter's name.`,
    );
  }
  return notes;
}
