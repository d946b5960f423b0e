/**
 * Parameter validation as the service does it: a failure becomes an error envelope (HTTP 200,
 * StatusCode '400', as the spec's samples show 200 for everything). Unknown parameters are
 * ignored (a ServiceStack service binds what it knows). Names are matched case-as-written.
 * An empty value counts as absent.
 */
import { parseYmd } from './days.js';

export class SandboxError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly verbose: string,
    readonly statusCode = '400',
    /** HTTP status of the response carrying the envelope. */
    readonly httpStatus = 200,
  ) {
    super(message);
    this.name = 'SandboxError';
  }
}

export type ParamKind =
  | 'string' // trimmed text
  | 'list' // comma-delimited -> string[]
  | 'date' // YYYYMMDD -> day number
  | 'int' // integer
  | 'bool' // true/false (also 1/0)
  | 'flag' // "0"/"1" string flags (also true/false)
  | 'enum' // one of `values`, case-insensitive, canonical value returned
  | 'enumList'; // comma list of `values`

export interface ParamDef {
  kind: ParamKind;
  required?: boolean;
  values?: readonly string[];
  /** Accepted spellings mapped to a canonical value (enum kinds). */
  aliases?: Readonly<Record<string, string>>;
  /** Shown in messages: what the parameter expects. */
  hint?: string;
}

export type ParamDefs = Readonly<Record<string, ParamDef>>;

/** Parsed parameter values by name (absent parameters are missing). */
export type ParsedParams = Record<string, string | number | boolean | string[] | undefined>;

function quote(value: string): string {
  return value.length > 60 ? `'${value.slice(0, 60)}…'` : `'${value}'`;
}

function parseOne(transaction: string, name: string, def: ParamDef, raw: string): string | number | boolean | string[] {
  switch (def.kind) {
    case 'string':
      return raw;
    case 'list':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0);
    case 'date': {
      if (!/^\d{8}$/.test(raw)) {
        throw new SandboxError(
          'InvalidDate',
          `${name} must be a date in the form YYYYMMDD, got ${quote(raw)}`,
          `${transaction}: parameter ${name} ${quote(raw)} is not in the form YYYYMMDD (for example 20261115)`,
        );
      }
      const day = parseYmd(raw);
      if (day === undefined) {
        throw new SandboxError(
          'InvalidDate',
          `${name} is not a valid calendar date: ${quote(raw)}`,
          `${transaction}: parameter ${name} ${quote(raw)} names a day that does not exist`,
        );
      }
      return day;
    }
    case 'int':
      if (!/^-?\d{1,15}$/.test(raw)) {
        throw new SandboxError(
          'InvalidParameter',
          `${name} must be an integer, got ${quote(raw)}`,
          `${transaction}: parameter ${name} ${quote(raw)} is not an integer`,
        );
      }
      return Number(raw);
    case 'bool':
    case 'flag': {
      const v = raw.toLowerCase();
      if (v === 'true' || v === '1') return true;
      if (v === 'false' || v === '0') return false;
      throw new SandboxError(
        'InvalidParameter',
        `${name} must be ${def.kind === 'flag' ? '0 or 1' : 'true or false'}, got ${quote(raw)}`,
        `${transaction}: parameter ${name} ${quote(raw)} is not a ${def.kind === 'flag' ? '0/1 flag' : 'boolean'}`,
      );
    }
    case 'enum':
      return enumValue(transaction, name, def, raw);
    case 'enumList':
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0)
        .map((s) => enumValue(transaction, name, def, s));
  }
}

function enumValue(transaction: string, name: string, def: ParamDef, raw: string): string {
  const values = def.values ?? [];
  const upper = raw.trim().toUpperCase();
  const alias = def.aliases ? Object.entries(def.aliases).find(([k]) => k.toUpperCase() === upper) : undefined;
  if (alias) return alias[1];
  const hit = values.find((v) => v.toUpperCase() === upper);
  if (hit !== undefined) return hit;
  throw new SandboxError(
    'InvalidParameter',
    `${name} must be one of ${values.join(', ')}, got ${quote(raw)}`,
    `${transaction}: parameter ${name} ${quote(raw)} is not an allowed value${def.hint ? ` (${def.hint})` : ''}`,
  );
}

/**
 * Validates `raw` against `defs`: required first (in declaration order), then each value's
 * form, then each [start, end] pair's order. Returns only the known, present parameters.
 */
export function parseParams(
  transaction: string,
  defs: ParamDefs,
  ranges: ReadonlyArray<readonly [string, string]>,
  raw: Readonly<Record<string, string>>,
): ParsedParams {
  const present = (name: string): boolean => raw[name] !== undefined && raw[name].trim() !== '';
  for (const [name, def] of Object.entries(defs)) {
    if (def.required && !present(name)) {
      throw new SandboxError(
        'MissingParameter',
        `${name} is required`,
        `${transaction}: required parameter ${name} is missing${def.hint ? ` (${def.hint})` : ''}`,
      );
    }
  }
  const out: ParsedParams = {};
  for (const [name, def] of Object.entries(defs)) {
    if (!present(name)) continue;
    out[name] = parseOne(transaction, name, def, raw[name].trim());
  }
  for (const [start, end] of ranges) {
    const a = out[start];
    const b = out[end];
    if (typeof a === 'number' && typeof b === 'number' && b < a) {
      throw new SandboxError(
        'InvalidDateRange',
        `${end} ${raw[end].trim()} is before ${start} ${raw[start].trim()}`,
        `${transaction}: the date range ends (${end}) before it starts (${start})`,
      );
    }
  }
  return out;
}

export interface Paging {
  offset: number;
  limit: number;
}
export const DEFAULT_LIMIT = 100;

/** Offset (0-based, default 0) and Limit (page size, at least 1, default 100). */
export function parsePaging(transaction: string, raw: Readonly<Record<string, string>>): Paging {
  const read = (name: string, fallback: number, min: number): number => {
    const v = raw[name]?.trim();
    if (v === undefined || v === '') return fallback;
    if (!/^\d{1,9}$/.test(v) || Number(v) < min) {
      throw new SandboxError(
        'InvalidParameter',
        `${name} must be ${min > 0 ? 'a positive' : 'a non-negative'} integer, got ${quote(v)}`,
        `${transaction}: paging parameter ${name} ${quote(v)} is not ${min > 0 ? 'a positive' : 'a non-negative'} whole number`,
      );
    }
    return Number(v);
  };
  return { offset: read('Offset', 0, 0), limit: read('Limit', DEFAULT_LIMIT, 1) };
}

/** Paging values for request logs, never throwing (invalid values fall back to defaults). */
export function pagingForLog(raw: Readonly<Record<string, string>>): Paging {
  const o = Number(raw.Offset);
  const l = Number(raw.Limit);
  return {
    offset: Number.isInteger(o) && o >= 0 ? o : 0,
    limit: Number.isInteger(l) && l >= 1 ? l : DEFAULT_LIMIT,
  };
}
