/**
 * The calls a report answer proposes next, once for both forms of the answer: the text's
 * "Next" lines and structuredContent's `next` (clients show the model one or the other).
 */
import { findTransaction } from '../catalog/transactions.js';
import type { FollowUp } from '../catalog/types.js';
import type { Summary } from '../results/summarize.js';
import { n } from './text-fit.js';

/** One proposed call: what it answers, the tool and its arguments as they are to be sent. */
export interface NextCall {
  say: string;
  tool: string;
  arguments: Record<string, unknown>;
}

export interface NextView {
  report: string;
  resultId: string;
  fetchedRecords: number;
  totalRecords: number | null;
  complete: boolean;
  summary: Summary;
}

/** The follow-ups worth proposing, then the call that completes an incomplete result. */
export function nextCalls(view: NextView): NextCall[] {
  const calls: NextCall[] = [];
  if (view.fetchedRecords > 0) {
    for (const f of followUps(view)) {
      const { say, ...query } = f;
      calls.push({ say, tool: 'query_report', arguments: { resultId: view.resultId, ...query } });
    }
  }
  if (!view.complete) {
    const missing = view.totalRecords === null ? null : view.totalRecords - view.fetchedRecords;
    // Every record read, but the data changed while it was read: no call completes it.
    if (missing === null || missing > 0)
      calls.push({
        say: `fetches ${missing === null ? 'the rest' : `the ${n(missing)} records still missing`}`,
        tool: 'continue_report',
        arguments: { resultId: view.resultId },
      });
  }
  return calls;
}

/**
 * The catalog's follow-ups whose fields this result has (at most two): an unnest only when its
 * list holds items, its own fields then being the items'. Else per Account, when that groups
 * the records (fewer accounts than half the records: not one group per record).
 */
function followUps(view: NextView): FollowUp[] {
  const fields = view.summary.fields;
  const has = (f: string) => f.replace(/:(day|month|year)$/, '') in fields;
  const declared = findTransaction(view.report)?.answer.next;
  const usable = (declared ?? []).filter((f) =>
    f.unnest !== undefined
      ? fields[f.unnest]
        ? (fields[f.unnest].items?.total ?? 0) > 0
        : (view.summary.otherFields ?? []).includes(f.unnest)
      : [
          ...(f.groupBy ?? []),
          ...(f.aggregates ?? []).map((a) => a.field ?? 'Account'),
          ...(f.where ?? []).map((w) => w.field),
        ].every(has),
  );
  if (usable.length) return usable.slice(0, 2);
  const account = fields.Account;
  const distinct = account?.kind === 'categorical' ? (account.distinct ?? 0) : 0;
  if (distinct < 2 || distinct >= view.summary.recordCount / 2) return [];
  return [{ say: 'per account', groupBy: ['Account'] }];
}
