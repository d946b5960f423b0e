/**
 * Dates as dates (docs/architecture.md, "Memory of held results"): a field whose values the
 * service sent as midnight with no offset, in every record (a ticketing deadline, a departure
 * day), is a day without a time of day. Decoded as `2026-11-09T00:00:00.000Z` it reads as an
 * instant, and a client converting it to local time moves the day back west of UTC; so such
 * a field is written `2026-11-09`.
 *
 * A report's fetch holds a top-level field's dates as days as it walks them, while every value
 * of the field is a day (paging/record-pass.ts, `heldDays`): a pass over the records afterwards
 * took 25-30 ms of every 20,000 air segments' answer, most of it the writes. Those fields are
 * given here as written. This pass does the rest, over those values only: the other top-level
 * fields the summary found to be dates, and the lists and objects (what a flat bulk report
 * mostly lacks); and every fetch that does not hold days as it walks (continue_report, masked
 * results, calls of several reports).
 */
import { DAY_LENGTH, isMidnightUtc } from '../upstream/service-date.js';
import type { Summary } from './summarize.js';

type Rec = Record<string, unknown>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What a field's values were seen to be: all days so far, or something else too. */
const ALL_DAYS = 1;
const NOT_DAYS = 2;

/** A value's verdict: a day, not a day, or nothing to say (empty). */
function verdict(v: unknown): number {
  if (v === null || v === undefined || v === '') return 0;
  if (typeof v !== 'string') return NOT_DAYS;
  if (isMidnightUtc(v)) return ALL_DAYS;
  // A record held since an earlier call (continue_report) already holds the day.
  return v.length === DAY_LENGTH && DAY.test(v) ? ALL_DAYS : NOT_DAYS;
}

/**
 * Rewrites, in place, every field of `records` whose values are all days without a time of
 * day as `YYYY-MM-DD`, and the summary's earliest and latest of each; answers the fields'
 * paths (dot paths through lists and objects, as the summary writes them): `heldDays` first
 * (top-level fields the fetch's walk held as days already, FetchOutcome.dayFields), then the
 * others in first-seen order.
 */
export function writeDaysAsDates(
  records: Rec[],
  summary: Summary | undefined,
  heldDays: readonly string[] = [],
): string[] {
  if (!records.length) return [];
  const profiles = summary?.fields ?? {};
  const held = new Set(heldDays);
  const dates: string[] = [];
  const containers = new Set<string>();
  for (const [path, p] of Object.entries(profiles)) {
    const dot = path.indexOf('.');
    if (dot > 0) containers.add(path.slice(0, dot));
    else if (p.kind === 'date' && !held.has(path)) dates.push(path);
    else if (p.kind === 'list') containers.add(path);
  }
  // Without a summary (a masked or re-profiled result is always summarised) nothing is known.
  if (!dates.length && !containers.size) return [...heldDays];
  const seen = new Map<string, number>();
  // A top-level field, record by record: an instant's field stops at its first value.
  for (const f of dates) {
    let found = 0;
    for (let i = 0; i < records.length && found !== NOT_DAYS; i++) found = verdict(records[i][f]) || found;
    if (found) seen.set(f, found);
  }
  const note = (path: string, v: unknown) => {
    const was = seen.get(path);
    if (was === NOT_DAYS) return;
    const is = verdict(v);
    if (is) seen.set(path, is);
  };
  for (const c of containers) for (const r of records) walk(r[c], c, note);
  const found = [...seen].filter(([, v]) => v === ALL_DAYS).map(([path]) => path);
  if (!found.length) return [...heldDays];
  const top = found.filter((p) => !p.includes('.'));
  const nested = new Set(found.filter((p) => p.includes('.')));
  // One string per day, shared by the records that hold it; the records share their dates
  // (the walk's sharing), so the last one is most often the next one.
  const shared = new Map<string, string>();
  let lastSent = '';
  let lastDay = '';
  const day = (v: string): string => {
    if (v === lastSent) return lastDay;
    if (v.length === DAY_LENGTH) return v;
    let d = shared.get(v);
    if (d === undefined) {
      d = v.slice(0, DAY_LENGTH);
      shared.set(v, d);
    }
    lastSent = v;
    lastDay = d;
    return d;
  };
  const nestedRoots = [...new Set([...nested].map((p) => p.slice(0, p.indexOf('.'))))];
  for (const r of records) {
    for (const f of top) if (typeof r[f] === 'string') r[f] = day(r[f] as string);
    for (const c of nestedRoots) rewrite(r[c], c, nested, day);
  }
  for (const path of found) {
    const p = profiles[path];
    if (p?.kind !== 'date') continue;
    if (typeof p.min === 'string') p.min = day(p.min);
    if (typeof p.max === 'string') p.max = day(p.max);
  }
  return [...heldDays, ...found];
}

/**
 * `path.key`, made once per path and key: the items of a list repeat their keys, and a new
 * string per key and item (hashed again at each lookup) was most of the pass's time.
 */
const childPaths = new Map<string, Map<string, string>>();
function child(path: string, key: string): string {
  let children = childPaths.get(path);
  if (children === undefined) {
    if (childPaths.size > 4_096) childPaths.clear();
    children = new Map();
    childPaths.set(path, children);
  }
  let p = children.get(key);
  if (p === undefined) {
    p = `${path}.${key}`;
    children.set(key, p);
  }
  return p;
}

/** Every scalar under `value`, with its path (list items share their list's path). */
function walk(value: unknown, path: string, note: (path: string, v: unknown) => void, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > 8) return;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (item !== null && typeof item === 'object') walk(item, path, note, depth + 1);
    }
    return;
  }
  const obj = value as Rec;
  for (const key in obj) {
    const v = obj[key];
    if (v !== null && typeof v === 'object') walk(v, child(path, key), note, depth + 1);
    else note(child(path, key), v);
  }
}

function rewrite(value: unknown, path: string, days: Set<string>, day: (v: string) => string, depth = 0): void {
  if (value === null || typeof value !== 'object' || depth > 8) return;
  if (Array.isArray(value)) {
    for (const item of value) rewrite(item, path, days, day, depth + 1);
    return;
  }
  const obj = value as Rec;
  for (const key in obj) {
    const v = obj[key];
    if (v !== null && typeof v === 'object') rewrite(v, child(path, key), days, day, depth + 1);
    else if (typeof v === 'string' && days.has(child(path, key))) obj[key] = day(v);
  }
}

/** The note an answer carries once when some fields were written as days. */
export function daysNote(paths: readonly string[]): string {
  const shown = paths.slice(0, 8).join(', ');
  const more = paths.length > 8 ? ` and ${paths.length - 8} more` : '';
  return (
    `Days without a time of day are written YYYY-MM-DD (the service sent midnight with no offset in ` +
    `every value): ${shown}${more}.`
  );
}
