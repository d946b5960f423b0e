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
 * currency column or keeping one currency (`WHERE Currency = 'EUR'`, `IN ('EUR')`); returns the
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
  const filters = filterClauses(scope);
  return names.some((n) => filters.some((filter) => keepsOne(filter, n)));
}

/**
 * Whether a `filter` (one of filterClauses') keeps the currency column named `name` to one
 * currency: it equals a text (`CurrencyCode = 'EUR'`, either way round) or is in a list of one
 * (`IN ('EUR')`), with no OR or NOT beside it. A list of several, a subquery or another column
 * keeps several.
 */
function keepsOne(filter: string, name: string): boolean {
  if (/\b(?:or|not)\b/i.test(filter)) return false;
  const bare = withoutTableNames(filter);
  const equals = new RegExp(`\\b${name}\\s*==?\\s*'|'\\s*==?\\s*${name}\\b`, 'i');
  return equals.test(bare) || new RegExp(`\\b${name}\\s+in\\s*\\(\\s*'[^']*'\\s*\\)`, 'i').test(bare);
}

/** `text` with the table names before its columns left out (`h.CurrencyCode`: `CurrencyCode`). */
function withoutTableNames(text: string): string {
  return text.replace(/[A-Za-z_][A-Za-z0-9_]*\s*\.\s*(?=[A-Za-z_"`[])/g, '');
}

/**
 * Functions that give distinct currency codes distinct values (their constants are blanked by
 * plainSql, as in coalesce(CurrencyCode, '?')): a group by one of them keeps currencies apart.
 */
const KEEPS_CODES = new Set(['upper', 'lower', 'trim', 'ltrim', 'rtrim', 'coalesce', 'ifnull', 'cast']);

/**
 * Words that make one value of several codes: a test (IS NULL, LIKE, IN, CASE WHEN), or a
 * cast to a number (CAST(CurrencyCode AS INTEGER) is 0 for every code).
 */
const MERGES_CODES = new Set([
  ...['is', 'null', 'not', 'case', 'when', 'then', 'else', 'end', 'like', 'glob', 'regexp', 'match'],
  ...['in', 'between', 'and', 'or', 'exists', 'integer', 'int', 'real', 'numeric', 'float', 'double', 'decimal'],
]);

/** An operator that compares or computes (`||`, which joins texts, aside). */
const MERGING_OPERATOR = /[=<>!+\-*/%&~]|(?<!\|)\|(?!\|)/;

/**
 * Whether a GROUP BY or PARTITION BY item keeps the currency's codes apart: it names the
 * currency (one of its `names`), itself or through functions that keep codes distinct, maybe
 * beside other columns (`Account || CurrencyCode`), and nothing that merges codes (substr,
 * length, IS NULL, a CASE, arithmetic). Table names before a column (`h.CurrencyCode`) are
 * read past.
 */
function groupsByCurrency(item: string, names: readonly string[]): boolean {
  const bare = withoutTableNames(item);
  const words = sqlWords(bare);
  if (!names.some((n) => words.has(n))) return false;
  for (const m of bare.matchAll(/([A-Za-z_][A-Za-z0-9_]*)\s*\(/g))
    if (!KEEPS_CODES.has(m[1].toLowerCase())) return false;
  for (const w of words) if (MERGES_CODES.has(w)) return false;
  return !MERGING_OPERATOR.test(bare);
}

/**
 * The filters of a SELECT (its WHERE, HAVING and join conditions) as written, string literals
 * blanked: there a currency compared with a text keeps one currency; elsewhere
 * (`GROUP BY CurrencyCode = 'EUR'`) the same words make a group of every other currency.
 */
function filterClauses(scope: Scope): string[] {
  const clause = /\b(where|having|on|group|order|limit|window|join|from)\b/gi;
  const out: string[] = [];
  let from = -1;
  for (const m of scope.blanked.matchAll(clause)) {
    if (from >= 0) out.push(scope.plain.slice(from, m.index));
    const word = m[1].toLowerCase();
    from = word === 'where' || word === 'having' || word === 'on' ? (m.index ?? 0) + m[0].length : -1;
  }
  if (from >= 0) out.push(scope.plain.slice(from));
  return out;
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
