import { findTransaction } from '../catalog/transactions.js';
import type { FieldProfile, Summary } from '../results/summarize.js';
import { isIdField } from '../results/values.js';

/** Columns picked when the caller names none. */
export const DEFAULT_COLUMNS = 8;

/**
 * The columns that answer what the report is for, as its catalog entry names them (those the
 * records have); for a report without them, the most informative fields.
 */
export function reportColumns(summary: Summary, report: string): string[] {
  const declared = findTransaction(report)?.answer.columns ?? [];
  const present = declared.filter((c) => c in summary.fields);
  return present.length ? present : defaultColumns(summary);
}

/**
 * The summary with the report's lead fields first, then the others, and identifiers
 * (ServiceRef, ...Id, ...Nbr, values unique to each record) last.
 */
export function leadingSummary(summary: Summary, report: string): Summary {
  const lead = (findTransaction(report)?.answer.lead ?? []).filter((f) => f in summary.fields);
  const first: [string, FieldProfile][] = lead.map((f) => [f, summary.fields[f]]);
  const rest = Object.entries(summary.fields).filter(([path]) => !lead.includes(path));
  const identifier = ([path, p]: [string, FieldProfile]) => isIdField(path) || !!p.unique;
  const fields = Object.fromEntries([
    ...first,
    ...rest.filter((e) => !identifier(e)),
    ...rest.filter((e) => identifier(e)),
  ]);
  return { ...summary, fields };
}

/** The most informative scalar fields, in record order: RecordLocator, Account, travellers,
 *  statuses, two dates, two amounts, then other categories; constants, mostly-empty fields and
 *  free text left out. */
export function defaultColumns(summary: Summary, max = DEFAULT_COLUMNS): string[] {
  const entries = Object.entries(summary.fields);
  const locator = entries.find(([path]) => /RecordLocator$/.test(path))?.[0];
  const scored = entries
    .map(([path, p], order) => ({
      path,
      order,
      group: columnGroup(p),
      score: path === locator ? 100 : columnScore(path, p, summary.recordCount),
    }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score || a.order - b.order);
  const caps: Record<string, number> = { date: 2, amount: 2 };
  const picked: typeof scored = [];
  const deferred: typeof scored = [];
  for (const c of scored) {
    if (c.group in caps && caps[c.group]-- <= 0) deferred.push(c);
    else picked.push(c);
  }
  const chosen = [...picked, ...deferred].slice(0, max);
  if (chosen.length < 2) {
    // Nested reports (PNRSegments): list sizes rather than an empty table.
    entries.forEach(([path, p], order) => {
      if (p.kind === 'list' && chosen.length < max) chosen.push({ path, order, group: 'list', score: 0 });
    });
  }
  return chosen.sort((a, b) => a.order - b.order).map((c) => c.path);
}

function columnGroup(p: FieldProfile): string {
  return p.kind === 'date' ? 'date' : p.sum !== undefined ? 'amount' : p.kind;
}

function columnScore(path: string, p: FieldProfile, count: number): number {
  if (p.kind === 'text' || p.kind === 'list') return 0;
  const leaf = path.slice(path.lastIndexOf('.') + 1);
  const distinct = p.distinct ?? 0;
  let score: number;
  if (leaf === 'Account') score = 50;
  else if (/^(Passenger|PaxList|PrimaryPax|Traveller)$/.test(leaf)) score = 8;
  else if (p.kind === 'date' || p.sum !== undefined || /Status/.test(leaf)) score = 6;
  else if (p.kind === 'categorical') score = p.unique || isIdField(leaf) ? 3 : distinct <= 50 ? 5 : 4;
  else score = 2; // plain numbers, booleans
  if (count > 1 && distinct === 1) score -= 10;
  if (p.nulls > count / 2) score -= 4;
  if (path.includes('.')) score -= 1;
  return score;
}
