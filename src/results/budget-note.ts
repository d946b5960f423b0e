/**
 * What an answer says of a result that alone occupies more memory than held results may
 * (REPORTS_RESULTS_MAX_MB). The store holds the newest result whatever its size (store.ts,
 * fitBudget), so the answer works; but the result leaves memory as soon as another one is held,
 * or another one's sql_query tables are built: the answer says so while it can be acted on. A
 * year of an agency's air segments (about 1,000,000) holds about 320 MB against the 256 MB
 * default (docs/held-results.md, "A result larger than the budget").
 */
import type { MemoryBudget } from './store.js';

const MB = 1_048_576;

/** The note for a result of `bytes` held under `budget`; undefined when it fits, or when the
 *  budget is not this process's (Redis). */
export function overBudgetNote(budget: MemoryBudget | undefined, bytes: number, report: string): string | undefined {
  if (!budget || bytes <= budget.maxBytes) return undefined;
  const held = Math.ceil(bytes / MB);
  const then = budget.keptOnDisk
    ? 'its copy on disk (REPORTS_RESULTS_DIR) is then read back on its next use, taking time again'
    : `its resultId then answers not_found: run ${report} again`;
  // Within the 400 characters a report's text gives a note, whatever the report's name.
  return (
    `This result alone occupies ${held} MB of memory, more than REPORTS_RESULTS_MAX_MB ` +
    `(${Math.round(budget.maxBytes / MB)} MB): it is held now, and leaves memory when another result is held ` +
    `or sql_query builds another one's tables; ${then}. To keep it in memory, set REPORTS_RESULTS_MAX_MB above ` +
    `${held} (its sql_query tables count too).`
  );
}
