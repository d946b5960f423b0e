import type { Row } from '../stats.js';

/** What a case worker is given by the orchestrator. */
export interface CaseInput {
  /** Origin of the bench upstream (its child process). */
  origin: string;
  runs: number;
  /** Bytes of JSON the upstream serves per prepared report, keyed `variant/total`. */
  rawBytes: Record<string, number>;
  /** One run of the scale curve: its size and the JSON bytes served for it. */
  scale?: { total: number; json: number };
}

export interface CaseOutput {
  rows: Row[];
  /** Facts worth keeping in results.json beside the table. */
  details?: Record<string, unknown>;
}

export function baseUrl(origin: string, latencyMs: number, variant: number, total: number): string {
  return `${origin}/${latencyMs}/${variant}/${total}`;
}

export function structured(result: { structuredContent?: Record<string, unknown> }): Record<string, unknown> {
  if (!result.structuredContent) throw new Error('the result has no structuredContent');
  return result.structuredContent;
}

/** Throws unless the report result holds exactly `total` records, complete. */
export function expectComplete(result: { structuredContent?: Record<string, unknown> }, total: number): void {
  const s = structured(result);
  if (s.fetchedRecords !== total || s.complete !== true)
    throw new Error(
      `expected ${total} records complete, got ${s.fetchedRecords} (complete ${s.complete}): ${JSON.stringify(s.notes)}`,
    );
}
