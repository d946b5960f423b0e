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
import { sqlWords } from './statement-text.js';

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

const AGGREGATE_START = /\b(sum|avg|min|max|total)\s*\(/gi;
const TYPE_NAMES = new Set(['real', 'integer', 'int', 'numeric', 'text', 'float', 'double', 'decimal', 'blob']);
/** Where a GROUP BY or PARTITION BY list ends. */
const LIST_END = /\b(having|order|limit|union|except|intersect|window|select|from|where)\b|\)|;/i;

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
  for (const [verb, argument] of aggregates(text)) {
    const words = sqlWords(argument);
    for (const money of columns) {
      const names = [money.column, ...aliases(text, money.column)].map((n) => n.toLowerCase());
      if (!names.some((n) => words.has(n))) continue;
      if (!money.currencies.length) {
        notes.add(`${money.column}: ${CURRENCY_NOT_STATED}, so a total of it may mix currencies.`);
        continue;
      }
      if (money.currencies.some((c) => keepsApart(text, c))) continue;
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

/** The statement with comments and string literals blanked (their length kept). */
function plainSql(sql: string): string {
  return sql.replace(/--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|'(?:[^']|'')*'?/g, (m) =>
    m.startsWith("'") ? `'${' '.repeat(Math.max(0, m.length - 2))}'` : ' '.repeat(m.length),
  );
}

/** Each aggregate call's function and its whole argument (nested brackets included). */
function aggregates(text: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const m of text.matchAll(AGGREGATE_START)) {
    let depth = 1;
    let i = (m.index ?? 0) + m[0].length;
    const from = i;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')') depth--;
    }
    out.push([m[1].toLowerCase(), text.slice(from, i - 1)]);
  }
  return out;
}

/** Names the statement gives a column (`RateAmount AS x`, also inside a CTE), type names aside. */
function aliases(text: string, column: string): string[] {
  const out: string[] = [];
  const re = new RegExp(`\\b${column}\\b\\s*\\)*\\s+as\\s+([A-Za-z_][A-Za-z0-9_]*)`, 'gi');
  for (const m of text.matchAll(re)) if (!TYPE_NAMES.has(m[1].toLowerCase())) out.push(m[1]);
  return out;
}

/** Whether the statement groups or partitions by `currency`, or keeps to given currencies. */
function keepsApart(text: string, currency: string): boolean {
  const names = [currency, ...aliases(text, currency)];
  for (const m of text.matchAll(/\b(group|partition)\s+by\b/gi)) {
    const rest = text.slice((m.index ?? 0) + m[0].length);
    const end = LIST_END.exec(rest);
    const list = sqlWords(end ? rest.slice(0, end.index) : rest);
    if (names.some((n) => list.has(n.toLowerCase()))) return true;
  }
  return names.some((n) => new RegExp(`\\b${n}\\s*(?:==?|\\bin\\b)`, 'i').test(text));
}

function sqlName(path: string): string {
  return path.replace(/\./g, '_');
}
