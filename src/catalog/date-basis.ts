/**
 * Which date a report's window filtered on, in words, from the catalog's `dates`
 * (docs/architecture.md, "Answers"): "QC findings in November" filtered on the booking's
 * creation date unless DateByComments=true, and nothing said so.
 */
import type { TransactionDef } from './types.js';

/** The window's parameters of a definition: its dates named ...Start and ...End. */
export function windowParams(def: TransactionDef): string[] {
  return Object.entries(def.params)
    .filter(([name, spec]) => spec.kind === 'date' && /(Start|End)$/.test(name))
    .map(([name]) => name);
}

/**
 * "Dates: DateStart–DateEnd filter by booking creation date (DateByComments=true: by comment
 * date)." for a query that sent a window; undefined when it sent none or the report has no
 * declared basis.
 */
export function dateBasisWords(def: TransactionDef, query: Readonly<Record<string, string>>): string | undefined {
  const basis = def.dates;
  if (!basis) return undefined;
  const window = windowParams(def);
  if (!window.some((name) => query[name])) return undefined;
  const range = window.join('–');
  if (!('param' in basis)) return `Dates: ${range} filter by ${basis.by}.`;
  const choices = Object.keys(basis.by);
  const sent = query[basis.param];
  const chosen = sent !== undefined && sent in basis.by ? sent : choices[0];
  const others = choices
    .filter((c) => c !== chosen)
    .map((c) => `${basis.param}=${c}: by ${basis.by[c]}`)
    .join('; ');
  const how = sent === undefined ? `${basis.param} not sent, so ${chosen}` : `${basis.param}=${chosen}`;
  return `Dates: ${range} filter by ${basis.by[chosen]} (${how}; ${others}).`;
}
