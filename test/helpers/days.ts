/**
 * What the server does to days without a time of day (CONTRACT section 5: a field whose values
 * are all midnight with no offset is written YYYY-MM-DD), written the plain way, for tests that
 * compare held records with the sandbox's own: every field, through lists and objects, whose
 * every non-empty value is `YYYY-MM-DDT00:00:00.000Z` loses its time.
 */
type Rec = Record<string, unknown>;

const MIDNIGHT = /^\d{4}-\d{2}-\d{2}T00:00:00\.000Z$/;

/** The dot paths (list items under their list's path) whose values are all days. */
export function dayPaths(records: readonly Rec[]): Set<string> {
  const verdicts = new Map<string, boolean>();
  const visit = (v: unknown, path: string) => {
    if (Array.isArray(v)) {
      for (const item of v) if (item !== null && typeof item === 'object') visit(item, path);
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) visit(x, path ? `${path}.${k}` : k);
    } else if (v !== null && v !== undefined && v !== '') {
      verdicts.set(path, (verdicts.get(path) ?? true) && typeof v === 'string' && MIDNIGHT.test(v));
    }
  };
  for (const r of records) visit(r, '');
  return new Set([...verdicts].filter(([, all]) => all).map(([p]) => p));
}

/** `records` with those fields written as days (a copy). */
export function withDays<T extends Rec>(records: readonly T[]): T[] {
  const days = dayPaths(records);
  const copy = (v: unknown, path: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => (x !== null && typeof x === 'object' ? copy(x, path) : x));
    if (v !== null && typeof v === 'object')
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, copy(x, path ? `${path}.${k}` : k)]));
    return typeof v === 'string' && days.has(path) ? v.slice(0, 10) : v;
  };
  return records.map((r) => copy(r, '') as T);
}

/** The notes every answer may carry on top of its own: the date basis and the days note. */
export function isStandingNote(note: string): boolean {
  return note.startsWith('Dates: ') || note.startsWith('Days without a time of day');
}
