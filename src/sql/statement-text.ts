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

/** Where a GROUP BY or PARTITION BY list ends. */
const LIST_END = /\b(having|order|limit|union|except|intersect|window|select|from|where)\b|\)|;/i;

/**
 * The items of every GROUP BY list in `text` (plainSql's), and of every PARTITION BY list
 * when `partitions`, as written (`Account`, `substr(x, 1, 3)` split at its comma). A number
 * in a GROUP BY is a position, read as its SELECT's column at that position (`GROUP BY 2`);
 * in a PARTITION BY, SQLite reads it as a constant.
 */
export function groupedItems(text: string, partitions = false): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(partitions ? /\b(group|partition)\s+by\b/gi : /\bgroup\s+by\b/gi)) {
    const at = (m.index ?? 0) + m[0].length;
    const rest = text.slice(at);
    const end = LIST_END.exec(rest);
    const positions = /^group/i.test(m[0]);
    let selected: string[] | undefined;
    for (const written of (end ? rest.slice(0, end.index) : rest).split(',')) {
      const item = written.trim();
      if (!positions || !/^\d+$/.test(item)) out.push(item);
      else out.push((selected ??= selectList(selectScope(text, at)))[Number(item) - 1] ?? '');
    }
  }
  return out;
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

/** The items of a SELECT's column list (its subqueries already blanked). */
function selectList(scope: string): string[] {
  const m = /\bselect\b(?:\s+(?:distinct|all)\b)?([\s\S]*?)(?:\bfrom\b|$)/i.exec(scope);
  return m ? m[1].split(',').map((x) => x.trim()) : [];
}

/**
 * The SELECT that the text at `index` belongs to: the bracket level it is at (a subquery's,
 * or the statement's), with deeper brackets blanked and only the part between the compound
 * operators (UNION, INTERSECT, EXCEPT) around `index`.
 */
export function selectScope(text: string, index: number): string {
  let start = 0;
  let depth = 0;
  const opens: number[] = [];
  for (let i = 0; i < index; i++) {
    if (text[i] === '(') opens.push(i);
    else if (text[i] === ')') opens.pop();
  }
  if (opens.length) start = opens[opens.length - 1] + 1;
  let end = text.length;
  let out = '';
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '(') depth++;
    else if (c === ')') {
      if (depth === 0) {
        end = i;
        break;
      }
      depth--;
    }
    out += depth > 0 && !(c === '(' && depth === 1) ? ' ' : c;
  }
  const offset = index - start;
  let from = 0;
  let to = out.length;
  for (const m of out.slice(0, end - start).matchAll(/\b(union|intersect|except)\b/gi)) {
    const at = m.index ?? 0;
    if (at < offset) from = at + m[0].length;
    else if (at < to) to = at;
  }
  return out.slice(from, to);
}
