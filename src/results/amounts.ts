/**
 * Which fields of a result are money, and which field holds each one's currency: what every
 * total (the summary, query_report's sum/avg/min/max, the view) works per, so that amounts in
 * different currencies are never added together (docs/architecture.md, "Amounts and
 * currencies"). The catalog declares it per record type; records whose shape the service does
 * not publish (find_bookings, derived results) fall back to the field names.
 */
import { findTransaction } from '../catalog/transactions.js';
import { leafName } from './paths.js';
import { ID_LIKE } from './values.js';

/** Beside an amount whose record states no currency: every total of it says so. */
export const CURRENCY_NOT_STATED = 'currency not stated by the service';

/** Money field -> the field holding its currency, or null when the record states none. */
export type MoneyFields = ReadonlyMap<string, string | null>;

const CURRENCY_NAME = /curr/i;
const MONEY_NAME = /fare|tax|amt|amount|rate|value|credit|commission|price|cost/i;
/** A name that ends as an amount does (FareAmount, BaseFare, TaxAmt): what a published record's
 *  undeclared field must be called to count as money (not FareBasis, Commission, TaxRate). */
const AMOUNT_NAME = /(?:amount|amt|fare|price|cost|value)$/i;

/**
 * The money fields among `paths` (the field paths of the rows being totalled) for a result
 * of `report`; with `unnest`, the rows are the items of that list, their own fields without
 * the list's prefix.
 */
export function moneyFields(report: string, paths: readonly string[], unnest?: string): MoneyFields {
  const def = findTransaction(report);
  const declared = fromDeclared(def?.answer.amounts ?? {}, paths, unnest);
  // A published record type is declared whole, but for a field it does not publish: one
  // named as an amount beside a currency field (FareAmount by FareCurrency, or the record's
  // CurrencyCode) is money whatever the catalog knew, never added across currencies. An
  // unpublished one is declared as far as we know it.
  if (def && def.record !== 'unpublished') return new Map([...guessed(paths, true), ...declared]);
  return new Map([...guessed(paths), ...declared]);
}

function fromDeclared(
  declared: Readonly<Record<string, readonly string[]>>,
  paths: readonly string[],
  unnest: string | undefined,
): MoneyFields {
  const present = new Set(paths);
  const out = new Map<string, string | null>();
  const local = (path: string) => (unnest && path.startsWith(`${unnest}.`) ? path.slice(unnest.length + 1) : path);
  for (const [amount, currencies] of Object.entries(declared)) {
    const field = local(amount);
    if (!present.has(field)) continue;
    out.set(field, currencies.map(local).find((c) => present.has(c)) ?? null);
  }
  return out;
}

/**
 * Money by name, its currency the currency field sharing the longest prefix with it
 * (FOPFare/FOPCurrency), else the one general Currency/CurrencyCode field of its object.
 * `statedOnly`: only the fields named as amounts (AMOUNT_NAME) that have a currency field.
 */
function guessed(paths: readonly string[], statedOnly = false): MoneyFields {
  const out = new Map<string, string | null>();
  const currencies = paths.filter((p) => CURRENCY_NAME.test(leafName(p)));
  for (const path of paths) {
    const name = leafName(path);
    if (!MONEY_NAME.test(name) || ID_LIKE.test(name) || CURRENCY_NAME.test(name)) continue;
    if (statedOnly && !AMOUNT_NAME.test(name)) continue;
    const siblings = currencies.filter((c) => parent(c) === parent(path));
    const currency = pairedCurrency(name, siblings) ?? genericCurrency(siblings);
    if (currency || !statedOnly) out.set(path, currency);
  }
  return out;
}

/** The currency field sharing the longest prefix (over one letter) with the amount's name. */
function pairedCurrency(amount: string, siblings: readonly string[]): string | null {
  let best: string | null = null;
  let bestPrefix = 1;
  for (const c of siblings) {
    const name = leafName(c);
    let i = 0;
    while (i < amount.length && i < name.length && amount[i] === name[i]) i++;
    if (i > bestPrefix) [best, bestPrefix] = [c, i];
  }
  return best;
}

/** The one general currency field, if any: CreditCurrency says nothing about FOPFare. */
function genericCurrency(siblings: readonly string[]): string | null {
  const generic = siblings.filter((c) => /^(currency|currencycode)$/i.test(leafName(c)));
  return generic.length === 1 ? generic[0] : null;
}

function parent(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('.')));
}
