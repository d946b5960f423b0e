/**
 * The result view's words for numbers, dates and lists: what a person reads instead of
 * `20261001`, `2026-11-24T14:05:00.000+08:00` or `[4 items]`. Pure functions: no DOM, no host.
 */

const NUMBER = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function formatNumber(n: number): string {
  return NUMBER.format(n);
}

/** "1 record", "5,000 records": the noun follows the number. */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatNumber(n)} ${n === 1 ? singular : plural}`;
}

// ---------- dates ----------

/** A calendar day as the service and query_report write it: 20261124 or 2026-11-24. */
export interface Day {
  year: number;
  month: number;
  day: number;
}

export function parseDay(text: string): Day | undefined {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) return undefined;
  return { year, month, day };
}

export function dayText(d: Day): string {
  return `${d.day} ${MONTHS[d.month - 1]} ${d.year}`;
}

/** "24 Nov 2026", "1–31 Oct 2026", "24 Nov – 1 Dec 2026", "28 Dec 2026 – 3 Jan 2027". */
export function dayRangeText(from: Day, to: Day): string {
  if (from.year !== to.year) return `${dayText(from)} – ${dayText(to)}`;
  if (from.month !== to.month) return `${from.day} ${MONTHS[from.month - 1]} – ${dayText(to)}`;
  if (from.day !== to.day) return `${from.day}–${dayText(to)}`;
  return dayText(to);
}

/** ISO day key ("2026-11-24") of a Day: the form query_report's `:day` groups carry. */
export function dayKey(d: Day): string {
  return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
}

/** Every day from one to the other, both included (at most `max` of them). */
export function daysBetween(from: Day, to: Day, max = 400): string[] {
  const out: string[] = [];
  const t = Date.UTC(from.year, from.month - 1, from.day);
  const end = Date.UTC(to.year, to.month - 1, to.day);
  for (let ms = t; ms <= end && out.length < max; ms += 86_400_000) out.push(new Date(ms).toISOString().slice(0, 10));
  return out;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * An ISO date or timestamp as a person reads it, in the record's own local time (the offset
 * the service wrote, not the viewer's zone): "24 Nov 2026 14:05". A value at exactly
 * midnight is a date the service wrote as a timestamp ("24 Nov 2026"). Anything else: undefined.
 */
export function readableTimestamp(value: string): string | undefined {
  const m = ISO.exec(value);
  if (!m) return undefined;
  const day = parseDay(`${m[1]}${m[2]}${m[3]}`);
  if (!day) return undefined;
  const [hh, mm, ss] = [m[4] ?? '00', m[5] ?? '00', m[6] ?? '00'];
  return hh === '00' && mm === '00' && ss === '00' ? dayText(day) : `${dayText(day)} ${hh}:${mm}`;
}

/** The window a report was asked for: a `…Start`/`…End` pair of days in its query. */
export interface AskedWindow {
  startKey: string;
  endKey: string;
  from: Day;
  to: Day;
}

export function askedWindow(query: Record<string, string> | undefined): AskedWindow | undefined {
  for (const [startKey, start] of Object.entries(query ?? {})) {
    if (!startKey.endsWith('Start')) continue;
    const endKey = `${startKey.slice(0, -'Start'.length)}End`;
    const from = parseDay(String(start));
    const to = parseDay(String(query?.[endKey] ?? ''));
    if (from && to) return { startKey, endKey, from, to };
  }
  return undefined;
}

// ---------- lists ----------

/**
 * What the items of a list field are called, from its name: `Segments.AirSegments` -> air
 * segment(s), `Passengers` -> passenger(s), `Itinerary` -> itinerary item(s).
 */
export function itemNoun(path: string): { singular: string; plural: string } {
  const name = path.slice(path.lastIndexOf('.') + 1);
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase();
  if (/ies$/.test(words)) return { singular: words.replace(/ies$/, 'y'), plural: words };
  if (/[^s]s$/.test(words)) return { singular: words.slice(0, -1), plural: words };
  return { singular: `${words} item`, plural: `${words} items` };
}

/** "4 air segments", "1 passenger". */
export function countedItems(n: number, path: string): string {
  const noun = itemNoun(path);
  return counted(n, noun.singular, noun.plural);
}
