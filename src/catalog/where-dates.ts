/**
 * Relative dates in query_report and export_report filters: a `where` value of `today`,
 * `yesterday`, `tomorrow` or `today±N` means the day a report tool's date parameter would
 * (catalog/resolve.ts, in REPORTS_TIMEZONE), written YYYY-MM-DD as held dates are, and the
 * answer echoes what it became. Compared as text, `"today"` matched nothing.
 */
import { type DateContext, resolveDate } from './resolve.js';

const RELATIVE_WORD = /^\s*(today|yesterday|tomorrow)\b/i;

interface Clause {
  field: string;
  op: string;
  value?: unknown;
}

export function resolveWhereDates<T extends Clause>(
  where: readonly T[] | undefined,
  ctx: DateContext,
): { where: T[] | undefined; notes: string[] } {
  if (!where?.length) return { where: where ? [...where] : undefined, notes: [] };
  const notes: string[] = [];
  const out = where.map((w, i) => {
    const one = (v: unknown): unknown => {
      if (typeof v !== 'string' || !RELATIVE_WORD.test(v)) return v;
      const ymd = resolveDate(v, ctx, `where[${i}].value`);
      const day = `${ymd.slice(0, 4)}-${ymd.slice(4, 6)}-${ymd.slice(6, 8)}`;
      notes.push(`where[${i}].value "${v.trim()}" is ${day} (${ctx.timeZone}).`);
      return day;
    };
    if (w.value === undefined) return w;
    return { ...w, value: Array.isArray(w.value) ? w.value.map(one) : one(w.value) };
  });
  return { where: out, notes };
}
