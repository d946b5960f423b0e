/**
 * Dates as dates (docs/architecture.md, "Memory of held results"): a field whose values the
 * service sent as midnight with no offset, in every record (a ticketing deadline, a departure
 * day), is a day without a time of day. Decoded as `2026-11-09T00:00:00.000Z` it reads as an
 * instant, and a client converting it to local time moves the day back west of UTC; so such
 * a field is written `2026-11-09`.
 *
 * The walk of each record decodes a date alone, without knowing its field's other values, so
 * this is a pass after the fetch over those values only: the top-level fields the summary found
 * to be dates, and the lists and objects (what a flat bulk report mostly lacks).
 */
import type { Summary } from './summarize.js';

type Rec = Record<string, unknown>;

/** How a decoded day without a time of day ends, after its `YYYY-MM-DD`. */
const MIDNIGHT_UTC = 'T00:00:00.000Z';
const DAY_LENGTH = 10;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** What a field's values were seen to be: all days so far, or something else too. */
const ALL_DAYS = 1;
const NOT_DAYS = 2;

/** A value's verdict: a day, not a day, or nothing to say (empty). */
function verdict(v: unknown): number {
  if (v === null || v === undefined || v === '') return 0;
  if (typeof v !== 'string') return NOT_DAYS;
  if (v.length === DAY_LENGTH + MIDNIGHT_UTC.length && v.endsWith(MIDNIGHT_UTC)) return ALL_DAYS;
  // A record held since an earlier call (continue_report) already holds the day.
  return v.length === DAY_LENGTH && DAY.test(v) ? ALL_DAYS : NOT_DAYS;
}

/**
 * Rewrites, in place, every field of `records` whose values are all days without a time of
 * day as `YYYY-MM-DD`, and the summary's earliest and latest of each; answers the fields'
 * paths (dot paths through lists and objects, as the summary writes them), in first-seen order.
 */
export function writeDaysAsDates(records: Rec[], summary: Summary | undefined): string[] {
  if (!records.length) return [];
  const profiles = summary?.fields ?? {};
  const dates: string[] = [];
  const containers = new Set<string>();
  for (const [path, p] of Object.entries(profiles)) {
    const dot = path.indexOf('.');
    if (dot > 0) containers.add(path.slice(0, dot));
    else if (p.kind === 'date') dates.push(path);
    else if (p.kind === 'list') containers.add(path);
  }
  // Without a summary (a masked or re-profiled result is always summarised) nothing is known.
  if (!dates.length && !containers.size) return [];
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
  const days = [...seen].filter(([, v]) => v === ALL_DAYS).map(([path]) => path);
  if (!days.length) return [];
  const top = days.filter((p) => !p.includes('.'));
  const nested = new Set(days.filter((p) => p.includes('.')));
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
  for (const path of days) {
    const p = profiles[path];
    if (p?.kind !== 'date') continue;
    if (typeof p.min === 'string') p.min = day(p.min);
    if (typeof p.max === 'string') p.max = day(p.max);
  }
  return days;
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
