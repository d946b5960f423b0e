/**
 * The file name of an export: a stem (the report's tool name, or a name the caller gives)
 * and the day in REPORTS_TIMEZONE, e.g. `ticket_coupons_by_status_code-2026-11-23.xlsx`.
 * Every part is checked so that the name can only ever denote a file directly inside
 * REPORTS_EXPORT_DIR: no separators, no `..`, no control characters, no leading dot.
 */
import { invalidInput } from '../errors.js';

/** Letters and digits of any script, space and - _ . ( ); 1 to 80 characters. */
const STEM = /^[\p{L}\p{N}_\-. ()]{1,80}$/u;
// C0, DEL and C1 controls, and the Unicode line and paragraph separators.
const CONTROL = /\p{Cc}|[\u2028\u2029]/u;

/** Checks a stem for the file name; `param` names the input it came from. */
export function checkStem(stem: string, param: string): string {
  if (CONTROL.test(stem))
    throw invalidInput(param, JSON.stringify(stem), 'holds control characters; expected a plain file name stem');
  if (stem.includes('/') || stem.includes('\\') || stem.includes('..'))
    throw invalidInput(
      param,
      stem,
      "holds a path ('/', '\\' or '..'); expected a plain file name stem: files are written only directly inside REPORTS_EXPORT_DIR",
    );
  if (!STEM.test(stem) || stem.startsWith('.') || stem.trim() !== stem)
    throw invalidInput(
      param,
      stem,
      'is not a usable file name stem; expected 1 to 80 letters, digits, spaces or - _ . ( ), not starting with a dot or a space',
    );
  return stem;
}

/** `YYYY-MM-DD` of `now` in the given IANA zone. */
export function dayStamp(now: Date, timeZone: string): string {
  // en-CA formats dates as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
}

/** Candidate names in order: `stem-day.ext`, then `stem-day-2.ext`, `-3`, ... */
export function fileNameCandidate(stem: string, day: string, ext: string, n: number): string {
  return n <= 1 ? `${stem}-${day}.${ext}` : `${stem}-${day}-${n}.${ext}`;
}
