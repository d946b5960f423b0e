/**
 * Calendar helpers for the sandbox. A "day" is a whole number of days since 1970-01-01 (a
 * calendar date without a zone); a "ymd" is the same date as the number 20261115.
 * Local wall-clock instants are stored as UTC milliseconds plus the writer's offset.
 */
import { encodeServiceDate } from '../upstream/service-date.js';

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** The local calendar day of an instant written at `offsetMinutes` east of UTC. */
export function localDay(ms: number, offsetMinutes: number): number {
  return Math.floor((ms + offsetMinutes * MINUTE_MS) / DAY_MS);
}

export function dayToYmd(day: number): number {
  const d = new Date(day * DAY_MS);
  return d.getUTCFullYear() * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** `YYYY-MM-DD`. */
export function isoDay(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** GDS style `20NOV`. */
export function gdsDay(day: number): string {
  const d = new Date(day * DAY_MS);
  return `${String(d.getUTCDate()).padStart(2, '0')}${MONTHS[d.getUTCMonth()]}`;
}

/** `HH:MM` from minutes after midnight. */
export function hhmm(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** `YYYYMMDD` to a day, or undefined when malformed or impossible (20260230). */
export function parseYmd(text: string): number | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(text);
  if (!m) return undefined;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  if (y < 1 || mo < 1 || mo > 12 || d < 1 || d > 31) return undefined;
  const ms = Date.UTC(y, mo - 1, d);
  const back = new Date(ms);
  if (back.getUTCFullYear() !== y || back.getUTCMonth() !== mo - 1 || back.getUTCDate() !== d) return undefined;
  return Math.floor(ms / DAY_MS);
}

/** A calendar date as the service writes date-only datetimes: midnight, no offset. */
export function serviceDay(day: number): string {
  return encodeServiceDate(day * DAY_MS, 0);
}

/** An instant as the service writes it, in the writer's local offset. */
export function serviceInstant(ms: number, offsetMinutes: number): string {
  return encodeServiceDate(ms, offsetMinutes);
}

/** Local minutes after midnight of an instant at an offset. */
export function localMinutes(ms: number, offsetMinutes: number): number {
  const local = ms + offsetMinutes * MINUTE_MS;
  return Math.floor((((local % DAY_MS) + DAY_MS) % DAY_MS) / MINUTE_MS);
}
