/**
 * Values too long to show are cut, in rows, summaries and resource pages alike, with a
 * marker saying how long they were (docs/architecture.md, "Bounded output"). These are the helpers
 * every bounded output uses; cutText (src/errors.ts) writes the marker.
 */
import { cutText } from '../errors.js';

/** Deeper than this, a value is not walked (records are bounded in depth where they enter). */
const MAX_WALK_DEPTH = 64;

/** A copy of `value` with every string (and key) longer than `cap` cut. Unchanged parts are shared. */
export function capStrings<T>(value: T, cap: number, depth = 0): T {
  if (typeof value === 'string') return (value.length > cap ? cutText(value, cap) : value) as T;
  if (value === null || typeof value !== 'object' || depth > MAX_WALK_DEPTH) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const c = capStrings(v, cap, depth + 1);
      if (c !== v) changed = true;
      return c;
    });
    return (changed ? out : value) as T;
  }
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const key = k.length > cap ? cutText(k, cap) : k;
    const c = capStrings(v, cap, depth + 1);
    if (c !== v || key !== k) changed = true;
    out[key] = c;
  }
  return (changed ? out : value) as T;
}

/** Caps tried in turn until a value fits its budget. */
const CAPS = [100_000, 20_000, 4_000, 1_000, 200, 40];

/**
 * `value` cut until `size(value) <= budget`, the longest values first (the caps above); a
 * value that still does not fit at the smallest cap is returned at that cap.
 */
export function fitValue<T>(value: T, budget: number, size: (v: T) => number): T {
  if (size(value) <= budget) return value;
  let out = value;
  for (const cap of CAPS) {
    out = capStrings(value, cap);
    if (size(out) <= budget) return out;
  }
  return out;
}

/** UTF-8 bytes of `text` once it is itself written as a JSON string (quotes and escapes). */
export function jsonStringBytes(text: string): number {
  return Buffer.byteLength(JSON.stringify(text)) - 2;
}
