/**
 * Money in SQL follows the rule of every other total (docs/architecture.md, "Amounts and
 * currencies"): a statement that sums, averages or compares a money column of a report whose
 * catalog names its currency must mention that currency column (to group or filter by it),
 * or it is refused before it runs, with the column to use; money whose record states no
 * currency is answered with the words saying so.
 */
import { findTransaction } from '../catalog/transactions.js';
import { invalidInput } from '../errors.js';
import { CURRENCY_NOT_STATED } from '../results/amounts.js';
import { leafName } from '../results/paths.js';
import {
  aggregates,
  columnNames,
  plainSql,
  type Scope,
  scopeAt,
  scopeGroupedItems,
  sqlWords,
  windowScope,
} from './statement-text.js';

/** A money column as SQL names it, and the column holding its currency (null: not stated). */
interface MoneyColumn {
  column: string;
  currencies: string[];
}

/** The money columns of the reports whose tables a statement reads. */
function moneyColumns(reports: readonly string[]): MoneyColumn[] {
  const out: MoneyColumn[] = [];
  for (const report of new Set(reports)) {
    const amounts = findTransaction(report)?.answer.amounts ?? {};
    for (const [amount, currencies] of Object.entries(amounts)) {
      // A child table's columns are its items' own fields; a nested object's are joined with _.
      out.push({ column: sqlName(amount), currencies: currencies.map(sqlName) });
      out.push({ column: leafName(amount), currencies: currencies.map(leafName) });
    }
  }
  return out;
}

const VERB: Record<string, string> = {
  sum: 'sums',
  total: 'totals',
  avg: 'averages',
  min: 'takes the least',
  max: 'takes the greatest',
};

const MONEY_AGGREGATES = ['sum', 'avg', 'min', 'max', 'total'];

/**
 * Refuses `sql` when it totals a money column (or an alias of one) without grouping by its
 * currency column or keeping one currency (`WHERE Currency = ...`, `IN (...)`); returns the
 * notes for money it totals whose currency the service does not state. Comments and string
 * literals are read as blanks, so a currency named only in them does not count.
 */
export function checkMoney(sql: string, reports: readonly string[]): string[] {
  const text = plainSql(sql);
  const notes = new Set<string>();
  const columns = moneyColumns(reports);
  if (!columns.length) return [];
  for (const [verb, argument, at, end] of aggregates(text, MONEY_AGGREGATES)) {
    const words = sqlWords(argument);
    for (const note of meaningOf(words, verb, reports)) notes.add(note);
    for (const money of columns) {
      const names = columnNames(text, money.column);
      if (!names.some((n) => words.has(n))) continue;
      if (!money.currencies.length) {
        notes.add(`${money.column}: ${CURRENCY_NOT_STATED}, so a total of it may mix currencies.`);
        continue;
      }
      // Kept apart where the total is taken: its own SELECT (a CTE grouped by currency does
      // not keep apart an outer total of it), or the window it runs over.
      const scope = scopeAt(text, at);
      const window = windowAfter(text, end);
      const windowed = window === undefined ? undefined : windowScope(window);
      if (money.currencies.some((c) => keepsApart(scope, c, text) || (windowed && keepsApart(windowed, c, text))))
        continue;
      const currency = money.currencies[0];
      throw invalidInput(
        'sql',
        sql,
        `${VERB[verb]} ${money.column} without ${currency}: amounts in different currencies are never ` +
          `added or compared. Add ${currency} to the SELECT and GROUP BY, or keep one currency with ` +
          `WHERE ${currency} = '…'; nothing was run`,
      );
    }
  }
  return [...notes];
}

/**
 * What a total of a rate or of a ticket's amount means (docs/travel-meaning.md): a rate summed
 * is not spend, and a ticket's fare summed over coupon rows counts it once per coupon.
 */
function meaningOf(words: ReadonlySet<string>, verb: string, reports: readonly string[]): string[] {
  const notes: string[] = [];
  if (verb !== 'sum' && verb !== 'total' && verb !== 'avg') return notes;
  for (const report of new Set(reports)) {
    const meaning = findTransaction(report)?.answer.meaning;
    for (const c of meaning?.costs ?? []) {
      if (!words.has(c.rate.toLowerCase())) continue;
      notes.push(
        `${c.rate} is a rate ${c.kind === 'hotel' ? 'per night' : 'per rental period'}, not spend: ` +
          'EstimatedCost (per EstimatedCostCurrency) is the cost of each stay or rental.',
      );
    }
    const grain = meaning?.ticketGrain;
    for (const amount of grain?.amounts ?? []) {
      if (!words.has(amount.toLowerCase())) continue;
      notes.push(
        `${amount} is the ticket's, repeated on each of its coupons: a total over coupon rows counts a ticket once ` +
          `per coupon; total it over SELECT DISTINCT ${grain?.ticket}, ${amount}, ... to count each ticket once.`,
      );
    }
  }
  return notes;
}

/**
 * Whether `scope` (one SELECT, or a window) groups or partitions by `currency` (by name, alias
 * or position in its select list, itself or as an expression that keeps codes apart: see
 * groupsByCurrency), or keeps to given currencies (at its own level: a CASE inside an aggregate
 * keeps nothing apart). Aliases are read in the whole statement `text`: a CTE's
 * `CurrencyCode AS cur` names it too.
 */
function keepsApart(scope: Scope, currency: string, text: string): boolean {
  const names = columnNames(text, currency);
  for (const item of scopeGroupedItems(scope, true)) if (groupsByCurrency(item, names)) return true;
  return names.some((n) => new RegExp(`\\b${n}\\s*(?:==?|\\bin\\b)`, 'i').test(scope.blanked));
}

/**
 * Functions that give distinct currency codes distinct values (and constants, which plainSql
 * has blanked, as in coalesce(CurrencyCode, '?')): a group by them keeps currencies apart.
 * Anything else of the code (substr, length, IS NULL, CASE) may put two currencies in one group.
 */
const KEEPS_CODES = new Set([
  'upper',
  'lower',
  'trim',
  'ltrim',
  'rtrim',
  'coalesce',
  'ifnull',
  'cast',
  'as',
  'text',
  'collate',
  'nocase',
]);

/** Whether a GROUP BY or PARTITION BY item is the currency (one of its `names`), or keeps its codes apart. */
function groupsByCurrency(item: string, names: readonly string[]): boolean {
  const words = sqlWords(item);
  if (!names.some((n) => words.has(n))) return false;
  for (const w of words) if (!names.includes(w) && !KEEPS_CODES.has(w)) return false;
  return true;
}

/** The window clause of an aggregate (`OVER (PARTITION BY ...)`) that ends at `end`, if any. */
function windowAfter(text: string, end: number): string | undefined {
  const m = /^\s*over\s*\(/i.exec(text.slice(end));
  if (!m) return undefined;
  const from = end + m[0].length;
  let depth = 1;
  let i = from;
  for (; i < text.length && depth > 0; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') depth--;
  }
  return text.slice(from, i - 1);
}

function sqlName(path: string): string {
  return path.replace(/\./g, '_');
}
