/**
 * Dot paths into records (`Summary.RecordLocator`, `Passengers.LastName`) and the list of
 * paths a result has, used to check the field names an assistant asks for.
 */
import { cutText, invalidInput, quote } from '../errors.js';

export type Getter = (record: Record<string, unknown>) => unknown;

/**
 * Reads a dot path. Through a list the path fans out: `Passengers.LastName` gives the list of
 * every passenger's LastName (one level flattened), so filters match "any passenger".
 */
export function compilePath(path: string): Getter {
  const parts = path.split('.');
  if (parts.length === 1) return (r) => r[path];
  return (r) => (path in r ? r[path] : walk(r, parts, 0));
}

function walk(value: unknown, parts: string[], i: number): unknown {
  if (i === parts.length) return value;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const el of value) {
      const v = walk(el, parts, i);
      if (Array.isArray(v)) out.push(...v);
      else if (v !== undefined) out.push(v);
    }
    return out;
  }
  if (value !== null && typeof value === 'object') {
    return walk((value as Record<string, unknown>)[parts[i]], parts, i + 1);
  }
  return undefined;
}

/** The last name of a dot path: `Segments.HotelSegments.Rate` -> `Rate`. */
export function leafName(path: string): string {
  return path.slice(path.lastIndexOf('.') + 1);
}

/** The value at `path` through nested objects only (not through lists): where a list lives. */
export function valueAt(record: Record<string, unknown>, path: string): unknown {
  let v: unknown = record;
  for (const part of path.split('.')) {
    if (v === null || typeof v !== 'object' || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

/** The paths of `records` (collectPaths) where some record holds a list that `keep` accepts. */
export function listPaths(
  records: readonly Record<string, unknown>[],
  keep: (list: unknown[]) => boolean = () => true,
): string[] {
  // Only paths at which collectPaths met a list can hold one: records without lists are
  // not read again, path by path.
  const lists = pathsOf(records).lists;
  return collectPaths(records).filter(
    (path) =>
      lists.has(path) &&
      records.some((r) => {
        const v = valueAt(r, path);
        return Array.isArray(v) && keep(v);
      }),
  );
}

export function getPath(record: Record<string, unknown>, path: string): unknown {
  return compilePath(path)(record);
}

const MAX_DEPTH = 4;
interface Paths {
  length: number;
  paths: string[];
  /** The paths at which some record holds a list. */
  lists: Set<string>;
}
const cache = new WeakMap<readonly object[], Paths>();

/** Every field path present in the records (top level, nested objects, fields of list items),
 *  in first-seen order. Cached per records array while its length is unchanged. */
export function collectPaths(records: readonly Record<string, unknown>[]): string[] {
  return pathsOf(records).paths;
}

/**
 * The paths of `records` as the fetch that walked them found them: their top-level keys in the
 * order first seen, none holding a list or object (upstream/paging/record-pass.ts). The first
 * query of a million held records then needs no walk of them for their paths (a second or
 * more of for-in over every record).
 */
export function notePaths(records: readonly Record<string, unknown>[], flatKeys: readonly string[]): void {
  cache.set(records, { length: records.length, paths: [...flatKeys], lists: new Set() });
}

function pathsOf(records: readonly Record<string, unknown>[]): Paths {
  const hit = cache.get(records);
  if (hit && hit.length === records.length) return hit;
  const seen = new Set<string>();
  const lists = new Set<string>();
  // A report's records nearly all have one layout of flat fields: a record with the keys of
  // the last one walked, in its order, and no list or object, adds no path, and is checked
  // without making a path text of each of its keys.
  let layout: string[] = [];
  for (const r of records) {
    if (sameFlatLayout(r, layout)) continue;
    addPaths(r, '', 1, seen, lists);
    layout = flatLayout(r);
  }
  const found = { length: records.length, paths: [...seen], lists };
  cache.set(records, found);
  return found;
}

/** Whether `r` has exactly the keys of `layout`, in its order, each holding a scalar. */
function sameFlatLayout(r: Record<string, unknown>, layout: readonly string[]): boolean {
  let i = 0;
  for (const key in r) {
    if (layout[i] !== key) return false;
    const v = r[key];
    if (v !== null && typeof v === 'object') return false;
    i++;
  }
  return i > 0 && i === layout.length;
}

/** The keys of `r` when every one holds a scalar; else none (no record matches it). */
function flatLayout(r: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const key in r) {
    const v = r[key];
    if (v !== null && typeof v === 'object') return [];
    keys.push(key);
  }
  return keys;
}

function addPaths(
  obj: Record<string, unknown>,
  prefix: string,
  depth: number,
  seen: Set<string>,
  lists: Set<string>,
): void {
  for (const key in obj) {
    const path = prefix + key;
    seen.add(path);
    const v = obj[key];
    if (v === null || typeof v !== 'object') continue;
    if (Array.isArray(v)) lists.add(path);
    if (depth >= MAX_DEPTH) continue;
    if (Array.isArray(v)) {
      for (const el of v) {
        if (el !== null && typeof el === 'object' && !Array.isArray(el)) {
          addPaths(el as Record<string, unknown>, `${path}.`, depth + 1, seen, lists);
        }
      }
    } else {
      addPaths(v as Record<string, unknown>, `${path}.`, depth + 1, seen, lists);
    }
  }
}

/**
 * The path as the records spell it: exact, else the one path equal ignoring case.
 * Otherwise an invalid_input error that names the field and lists the fields that exist.
 */
export function resolveField(name: string, known: readonly string[], param: string): string {
  if (known.includes(name)) return name;
  const lower = name.toLowerCase();
  const same = known.filter((k) => k.toLowerCase() === lower);
  if (same.length === 1) return same[0];
  throw unknownField(name, known, param);
}

function unknownField(name: string, known: readonly string[], param: string) {
  const lower = name.toLowerCase();
  const leaf = lower.slice(lower.lastIndexOf('.') + 1);
  const close = known.filter((k) => {
    const kl = k.toLowerCase();
    const kLeaf = kl.slice(kl.lastIndexOf('.') + 1);
    return (
      kl === lower ||
      kl.endsWith(`.${leaf}`) ||
      (leaf.length >= 3 && kl.includes(leaf)) ||
      (leaf.length >= 4 && editDistance(leaf, kLeaf) <= 2)
    );
  });
  const shown =
    known
      .slice(0, 80)
      .map((k) => cutText(k, 80))
      .join(', ') + (known.length > 80 ? `, … (+${known.length - 80} more)` : '');
  const hint = close.length
    ? ` Did you mean ${close
        .slice(0, 5)
        .map((c) => quote(c))
        .join(' or ')}?`
    : '';
  return invalidInput(
    param,
    name,
    known.length
      ? `is not a field of this result.${hint} Fields (dot paths reach nested objects and list items): ${shown}.`
      : 'cannot be used: this result holds no records.',
  );
}

/** Levenshtein distance, for "did you mean" on mistyped field names (short strings only). */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length];
}
