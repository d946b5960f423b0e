/** The note of a result larger than REPORTS_RESULTS_MAX_MB (results/budget-note.ts); the answers
 *  that give it are in test/integration/over-budget.test.ts. */
import { describe, expect, it } from 'vitest';
import { TRANSACTIONS } from '../../src/catalog/transactions.js';
import { overBudgetNote } from '../../src/results/budget-note.js';

const MB = 1_048_576;
const inMemory = { maxBytes: 256 * MB, keptOnDisk: false };
const onDisk = { maxBytes: 256 * MB, keptOnDisk: true };

describe('overBudgetNote', () => {
  it('says nothing of a result within the budget, at it, or where the budget is not this process (Redis)', () => {
    expect(overBudgetNote(inMemory, 12 * MB, 'air_segments_by_date')).toBeUndefined();
    expect(overBudgetNote(onDisk, 256 * MB, 'air_segments_by_date')).toBeUndefined();
    expect(overBudgetNote(undefined, 900 * MB, 'air_segments_by_date')).toBeUndefined();
  });

  it('gives the result’s size rounded up, the budget, what follows and the setting above the size', () => {
    expect(overBudgetNote(onDisk, 300 * MB + 1, 'air_segments_by_date')).toBe(
      'This result alone occupies 301 MB of memory, more than REPORTS_RESULTS_MAX_MB (256 MB): it is held now, ' +
        "and leaves memory when another result is held or sql_query builds another one's tables; its copy on disk " +
        '(REPORTS_RESULTS_DIR) is then read back on its next use, taking time again. To keep it in memory, set ' +
        'REPORTS_RESULTS_MAX_MB above 301 (its sql_query tables count too).',
    );
    expect(overBudgetNote(inMemory, 300 * MB + 1, 'hotel_segments')).toContain(
      '; its resultId then answers not_found: run hotel_segments again. To keep it in memory',
    );
  });

  it('fits the 400 characters a report’s text gives a note, for every report and a terabyte', () => {
    for (const def of TRANSACTIONS)
      for (const budget of [inMemory, onDisk]) {
        const note = overBudgetNote(budget, 1024 * 1024 * MB, def.tool) ?? '';
        expect(note.length, def.tool).toBeGreaterThan(300);
        expect(note.length, def.tool).toBeLessThanOrEqual(400);
      }
  });
});
