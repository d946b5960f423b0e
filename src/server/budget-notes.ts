/** The notes an answer holding a result gives on the memory budget (results/budget-note.ts). */
import { overBudgetNote } from '../results/budget-note.js';
import type { StoredResult } from '../results/store.js';
import type { Runtime } from './runtime.js';

export function budgetNotes(rt: Runtime, stored: StoredResult): string[] {
  const note = overBudgetNote(rt.store.memoryBudget, stored.bytes, stored.report);
  return note ? [note] : [];
}
