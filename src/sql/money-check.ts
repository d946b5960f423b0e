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
      out.push({ column: leaf(amount), currencies: currencies.map(leaf) });
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

const AGGREGATE = /\b(sum|avg|min|max|total)\s*\(([^()]*)\)/gi;

/**
 * Refuses `sql` when it totals a money column without naming its currency column anywhere;
 * returns the notes for money it totals whose currency the service does not state.
 */
export function checkMoney(sql: string, reports: readonly string[]): string[] {
  const words = new Set((sql.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).map((w) => w.toLowerCase()));
  const notes = new Set<string>();
  for (const m of sql.matchAll(AGGREGATE)) {
    const argument = new Set((m[2].match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).map((w) => w.toLowerCase()));
    for (const money of moneyColumns(reports)) {
      if (!argument.has(money.column.toLowerCase())) continue;
      if (!money.currencies.length) {
        notes.add(`${money.column}: ${CURRENCY_NOT_STATED}, so a total of it may mix currencies.`);
        continue;
      }
      if (money.currencies.some((c) => words.has(c.toLowerCase()))) continue;
      const currency = money.currencies[0];
      throw invalidInput(
        'sql',
        sql,
        `${VERB[m[1].toLowerCase()]} ${money.column} without ${currency}: amounts in different currencies are never ` +
          `added or compared. Add ${currency} to the SELECT and GROUP BY, or keep one currency with ` +
          `WHERE ${currency} = '…'; nothing was run`,
      );
    }
  }
  return [...notes];
}

function sqlName(path: string): string {
  return path.replace(/\./g, '_');
}

function leaf(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}
