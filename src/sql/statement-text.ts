/**
 * What can be told from a statement's text before the engine sees it: that it starts as a
 * read (SELECT or WITH; anything else is refused with what was received), and which of the
 * caller's tables it names, so only those are built. SQLite itself decides the rest
 * (engine-check.ts): one statement, and no write hidden behind WITH.
 */
import { invalidInput } from '../errors.js';

/** Longest statement accepted (a statement is a question, not data). */
export const MAX_SQL_CHARS = 20_000;

const LEADING_COMMENTS = /^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/;

/** Throws invalid_input unless `sql` starts with SELECT or WITH (after comments and blanks). */
export function checkStartsAsRead(sql: string): void {
  const body = sql.replace(LEADING_COMMENTS, '');
  const word = /^[A-Za-z_]+/.exec(body)?.[0]?.toUpperCase();
  if (word === 'SELECT' || word === 'WITH') return;
  throw invalidInput(
    'sql',
    body.length ? body : sql,
    word
      ? `starts with ${word}, which is not a read; send one SELECT or WITH statement (ATTACH, PRAGMA, VACUUM, ` +
          'CREATE, INSERT, UPDATE, DELETE and the like are refused; nothing was run)'
      : 'is not a statement; send one SELECT or WITH statement in SQLite syntax',
  );
}

/** The tables among `tables` that `sql` names, itself or one of its child tables (`<table>__...`). */
export function namedTables<T extends { table: string }>(sql: string, tables: readonly T[]): T[] {
  const words = sqlWords(sql);
  const named = (table: string) => {
    const t = table.toLowerCase();
    for (const w of words) if (w === t || w.startsWith(`${t}__`)) return true;
    return false;
  };
  // A result held before tables were named (Redis, an older replica) has none.
  return tables.filter((t) => typeof t.table === 'string' && named(t.table));
}

/** The identifiers and keywords of a statement, lower case. */
export function sqlWords(sql: string): Set<string> {
  return new Set((sql.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []).map((w) => w.toLowerCase()));
}

/** The statement with comments and string literals blanked (their length kept). */
export function plainSql(sql: string): string {
  return sql.replace(/--[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|'(?:[^']|'')*'?/g, (m) =>
    m.startsWith("'") ? `'${' '.repeat(Math.max(0, m.length - 2))}'` : ' '.repeat(m.length),
  );
}

/**
 * Each call of one of the aggregate functions `names` (lower case) in `text` (plainSql's):
 * the function, its whole argument (nested brackets included), where the call starts and
 * where its closing bracket ends.
 */
export function aggregates(text: string, names: readonly string[]): Array<[string, string, number, number]> {
  const out: Array<[string, string, number, number]> = [];
  for (const m of text.matchAll(new RegExp(`\\b(${names.join('|')})\\s*\\(`, 'gi'))) {
    let depth = 1;
    let i = (m.index ?? 0) + m[0].length;
    const from = i;
    for (; i < text.length && depth > 0; i++) {
      if (text[i] === '(') depth++;
      else if (text[i] === ')') depth--;
    }
    out.push([m[1].toLowerCase(), text.slice(from, i - 1), m.index ?? 0, i]);
  }
  return out;
}

/** What ends a GROUP BY or PARTITION BY list (a window's frame too), at its own bracket level. */
const LIST_END = /\b(?:having|order|limit|union|except|intersect|window|select|from|where|rows|range)\b/iy;

/**
 * One SELECT's text (see scopeAt): `blanked`, with everything inside its brackets blanked
 * (subqueries, function arguments), to read its structure from; `plain`, the same characters
 * as written, to read its items from. Both are as long as each other.
 */
export interface Scope {
  blanked: string;
  plain: string;
}

/**
 * The items of every GROUP BY list in `text` (plainSql's), as written (`Account`,
 * `upper(CurrencyCode)`). A number is a position and a name may be one the SELECT gives a
 * column: each is read as that column's expression (`GROUP BY 2`, `GROUP BY cur` after
 * `SELECT Account, coalesce(CurrencyCode, '?') AS cur`).
 */
export function groupedItems(text: string): string[] {
  const out: string[] = [];
  // A SELECT has one GROUP BY at most: the scope of each is the SELECT it belongs to.
  for (const m of text.matchAll(/\bgroup\s+by\b/gi)) out.push(...scopeGroupedItems(scopeAt(text, m.index ?? 0)));
  return out;
}

/**
 * The items of the GROUP BY lists of one SELECT (`scope`, scopeAt's), and of its PARTITION BY
 * lists when `partitions`, as written, positions read as in groupedItems. A number in a
 * PARTITION BY is a constant to SQLite, not a position.
 */
export function scopeGroupedItems(scope: Scope, partitions = false): string[] {
  const out: string[] = [];
  let selected: string[] | undefined;
  for (const m of scope.blanked.matchAll(partitions ? /\b(?:group|partition)\s+by\b/gi : /\bgroup\s+by\b/gi)) {
    const positions = /^group/i.test(m[0]);
    const items = listItems(scope, (m.index ?? 0) + m[0].length).map((item) => {
      if (!positions) return item;
      selected ??= selectList(scope);
      if (/^\d+$/.test(item)) return withoutAlias(selected[Number(item) - 1] ?? '');
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(item)) return item;
      const named = selected.find((column) => aliasOf(column) === item.toLowerCase());
      return named === undefined ? item : withoutAlias(named);
    });
    out.push(...items);
  }
  return out;
}

/** The name a select list's column gives itself (`x AS name`, lower case), if any. */
function aliasOf(column: string): string | undefined {
  return /\bas\s+([A-Za-z_][A-Za-z0-9_]*)$/i.exec(column)?.[1]?.toLowerCase();
}

/** A select list's column without the name it gives itself (`coalesce(x, '?') AS cur`: `coalesce(x, '?')`). */
function withoutAlias(column: string): string {
  return column.replace(/\s+as\s+[A-Za-z_][A-Za-z0-9_]*$/i, '');
}

/**
 * The items of the list that starts at `from` in `scope`, as written: split at its own commas,
 * ended at its own level by a clause's keyword, the bracket closing around it or `;`.
 */
function listItems(scope: Scope, from: number): string[] {
  const { blanked, plain } = scope;
  const items: string[] = [];
  let depth = 0;
  let item = from;
  let i = from;
  for (; i < blanked.length; i++) {
    const c = blanked[i];
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) break;
      depth--;
    } else if (depth === 0) {
      if (c === ';') break;
      if (c === ',') {
        items.push(plain.slice(item, i).trim());
        item = i + 1;
        continue;
      }
      LIST_END.lastIndex = i;
      if (/\w/.test(c) && !/\w/.test(blanked[i - 1] ?? '') && LIST_END.test(blanked)) break;
    }
  }
  items.push(plain.slice(item, i).trim());
  return items;
}

/** Type names, which follow AS in CAST(x AS REAL) and are not aliases. */
const TYPE_NAMES = new Set(['real', 'integer', 'int', 'numeric', 'text', 'float', 'double', 'decimal', 'blob']);

/**
 * The names `column` goes by in `text`, lower case: its own and those the statement gives it
 * (`RateAmount AS x`, also inside a CTE), type names aside (`CAST(x AS REAL)`).
 */
export function columnNames(text: string, column: string): string[] {
  const out = [column.toLowerCase()];
  const re = new RegExp(`\\b${column}\\b\\s*\\)*\\s+as\\s+([A-Za-z_][A-Za-z0-9_]*)`, 'gi');
  for (const m of text.matchAll(re)) if (!TYPE_NAMES.has(m[1].toLowerCase())) out.push(m[1].toLowerCase());
  return out;
}

/** The items of a SELECT's column list, as written, split at its own commas. */
function selectList(scope: Scope): string[] {
  const m = /\bselect\b(?:\s+(?:distinct|all)\b)?([\s\S]*?)(?:\bfrom\b|$)/di.exec(scope.blanked);
  if (!m?.indices?.[1]) return [];
  const [from, to] = m.indices[1];
  const items: string[] = [];
  let item = from;
  // Commas inside brackets are blanked: each one left separates two columns.
  for (let i = from; i < to; i++) {
    if (scope.blanked[i] !== ',') continue;
    items.push(scope.plain.slice(item, i).trim());
    item = i + 1;
  }
  items.push(scope.plain.slice(item, to).trim());
  return items;
}

/**
 * The SELECT that the text at `index` belongs to: the bracket level it is at (a subquery's,
 * or the statement's), only the part between the compound operators (UNION, INTERSECT,
 * EXCEPT) around `index`; blanked (deeper brackets' insides) and as written.
 */
export function scopeAt(text: string, index: number): Scope {
  const opens: number[] = [];
  for (let i = 0; i < index; i++) {
    if (text[i] === '(') opens.push(i);
    else if (text[i] === ')') opens.pop();
  }
  const start = opens.length ? opens[opens.length - 1] + 1 : 0;
  let end = text.length;
  for (let i = start, depth = 0; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')') {
      if (depth === 0) {
        end = i;
        break;
      }
      depth--;
    }
  }
  const out = blankNested(text, start, end);
  const offset = index - start;
  let from = 0;
  let to = out.length;
  for (const m of out.matchAll(/\b(union|intersect|except)\b/gi)) {
    const at = m.index ?? 0;
    if (at < offset) from = at + m[0].length;
    else if (at < to) to = at;
  }
  return { blanked: out.slice(from, to), plain: text.slice(start + from, start + to) };
}

/** A window's text (`PARTITION BY x ORDER BY y`) as a scope of its own. */
export function windowScope(window: string): Scope {
  return { blanked: blankNested(window, 0, window.length), plain: window };
}

/** text[start, end) with the insides of its brackets blanked (the brackets themselves kept). */
function blankNested(text: string, start: number, end: number): string {
  let out = '';
  let depth = 0;
  for (let i = start; i < end; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') depth--;
    out += depth > 0 && !(c === '(' && depth === 1) ? ' ' : c;
  }
  return out;
}
