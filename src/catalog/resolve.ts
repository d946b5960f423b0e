/**
 * Arguments of a report tool -> the upstream query (docs/architecture.md, "Arguments"): dates
 * resolved to YYYYMMDD in the configured zone, lists comma-joined, booleans true/false, the
 * default UserName and the pinned company scope applied. Throws ReportsError invalid_input
 * before anything is sent.
 *
 * Types, ranges, unknown keys and limits are the tool's zod schema's job (schema.ts): the
 * arguments are parsed with it first, so a direct call gets the very messages an MCP client
 * gets. What is left here is what zod cannot know: real calendar dates, relative dates, date
 * ranges, the company scope, blank values meaning "not given", and the free-form names the
 * server owns (their messages reach the client like every other refusal of this file).
 */
import { cutText, invalidInput, ReportsError } from '../errors.js';
import { CONTROL_NAMES } from './controls.js';
import { acceptedParams, DATE_EXPRESSION, DATE_FORMS_LONG, expectation, userNameParam } from './params.js';
import { FREE_FORM_NAME, inputSchema } from './schema.js';
import type { ParamSpec, TransactionDef } from './types.js';

/**
 * Free-form keys the caller never controls (compared in lower case): paging (the server pages
 * itself, and a Skip/Take would silently shift its windows), the response format (format,
 * callback, jsconfig change the envelope), debugging and ordering (a ServiceStack service
 * reads these on every path; a changed order between pages loses and repeats records).
 */
const RESERVED_FREE_FORM = [
  'offset',
  'limit',
  'skip',
  'take',
  'totalrecords',
  'responserecords',
  'format',
  'callback',
  'jsconfig',
  'debug',
  'orderby',
  'orderbydesc',
  'sort',
  'sortby',
  'sortorder',
];
const UPSTREAM_NAME = /^[A-Za-z][A-Za-z0-9]{0,63}$/;
/** Longest value sent upstream: a URL of megabytes is refused by servers and proxies alike
 *  (and says nothing a report filter needs). */
export const MAX_VALUE_CHARS = 2_000;

export interface DateContext {
  /** IANA zone in which today/yesterday/tomorrow/today±N resolve. */
  timeZone: string;
  now: Date;
}

export interface ResolveContext extends DateContext {
  /** REPORTS_USER_NAME: sent as UserName (Username) when the tool takes it and none is given. */
  defaultUserName?: string;
  /** REPORTS_OWNING_COMPANY_CODES: sent by default; codes outside it are refused. */
  pinnedCompanyCodes?: readonly string[];
  /** An HTTP person's UserName: sent on every transaction that takes it; another is refused. */
  fixedUserName?: string;
}

export interface ReportControls {
  maxRecords?: number;
  fields?: string[];
  rowLimit?: number;
  /** Fetch again rather than answer from an identical call's result (server/joined-calls.ts). */
  fresh?: boolean;
}

export interface ResolvedInput {
  /** Upstream query parameters in a stable order: def.params, then scope, then free-form. */
  query: Record<string, string>;
  controls: ReportControls;
}

export function resolveInput(
  def: TransactionDef,
  args: Record<string, unknown> | undefined,
  ctx: ResolveContext,
): ResolvedInput {
  const input = parseArguments(def, args);

  const params = acceptedParams(def);
  const userParam = userNameParam(def);
  const pinned = ctx.pinnedCompanyCodes?.length ? ctx.pinnedCompanyCodes : undefined;
  const query: Record<string, string> = {};

  for (const [name, spec] of Object.entries(params)) {
    let value = resolveValue(name, spec, input[name], ctx);
    if (value === undefined && name === userParam && ctx.defaultUserName) value = ctx.defaultUserName;
    if (name === 'OwningCompanyCode' && pinned) value = applyPinnedScope(value, pinned);
    if (value !== undefined && value.length > MAX_VALUE_CHARS) throw tooLong(name, value);
    if (value === undefined) {
      if (spec.required) {
        throw invalidInput(name, undefined, `required, ${expectation(spec).hint}`);
      }
      continue;
    }
    query[name] = value;
  }

  checkRanges(params, query, input);

  if (def.freeForm && input[FREE_FORM_NAME] !== undefined) {
    const freeForm = input[FREE_FORM_NAME] as Record<string, string | number | boolean>;
    Object.assign(query, resolveFreeForm(freeForm, query, ctx, pinned));
  }
  // A pinned scope holds for the tools whose parameters are unpublished too: the scope is
  // sent unless the call narrowed it (a ServiceStack service ignores parameters it lacks).
  if (def.freeForm && pinned && !Object.keys(query).some((k) => k.toLowerCase() === 'owningcompanycode')) {
    query.OwningCompanyCode = applyPinnedScope(undefined, pinned);
  }
  if (ctx.fixedUserName) fixUserName(query, ctx.fixedUserName, userParam ?? (def.freeForm ? 'UserName' : undefined));

  return { query, controls: resolveControls(input) };
}

/** The arguments as the tool's zod schema parses them; its first complaint as invalid_input. */
function parseArguments(def: TransactionDef, args: Record<string, unknown> | undefined): Record<string, unknown> {
  const parsed = inputSchema(def).safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const param = issue.code === 'unrecognized_keys' ? issue.keys[0] : issue.path.join('.') || 'arguments';
  // Named as the SDK's validation names it: the path, then the problem.
  const message = issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
  throw new ReportsError('invalid_input', message, { param });
}

/** A parsed argument -> its upstream text; undefined when blank (blank means "not given"). */
function resolveValue(name: string, spec: ParamSpec, raw: unknown, ctx: DateContext): string | undefined {
  if (raw === undefined) return undefined;
  switch (spec.kind) {
    case 'date':
      return resolveDate(raw as string, ctx, name);
    case 'list': {
      const items = listItems(raw as string | string[]);
      if (items.length === 0) return undefined;
      return (spec.items ? items.map((item) => vocabularyItem(name, item, spec.items!)) : items).join(',');
    }
    case 'string': {
      const text = (raw as string).trim();
      return text === '' ? undefined : text;
    }
    case 'integer':
      return String(raw);
    case 'boolean':
      return raw ? 'true' : 'false';
    case 'enum':
      return raw as string;
  }
}

/** A comma string or an array of strings -> trimmed, non-empty items. */
function listItems(raw: string | readonly string[]): string[] {
  return (typeof raw === 'string' ? [raw] : raw)
    .flatMap((p) => p.split(','))
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

/** Matches an item of a fixed vocabulary case-insensitively and returns its spelling. */
function vocabularyItem(name: string, item: string, items: readonly string[]): string {
  const match = items.find((i) => i.toLowerCase() === item.toLowerCase());
  if (!match) throw invalidInput(name, item, `is not a known item; use any of: ${items.join(', ')}`);
  return match;
}

function applyPinnedScope(value: string | undefined, pinned: readonly string[]): string {
  if (value === undefined) return pinned.join(',');
  const allowed = new Map(pinned.map((c) => [c.toLowerCase(), c]));
  const codes = value.split(',');
  const outside = codes.filter((c) => !allowed.has(c.toLowerCase()));
  if (outside.length > 0) {
    throw new ReportsError(
      'invalid_input',
      `OwningCompanyCode: ${outside.map((c) => `'${c}'`).join(', ')} ${outside.length === 1 ? 'is' : 'are'} ` +
        `outside the configured company scope; allowed: ${pinned.join(', ')} (omit OwningCompanyCode for all of them)`,
      { param: 'OwningCompanyCode' },
    );
  }
  return [...new Set(codes.map((c) => allowed.get(c.toLowerCase())!))].join(',');
}

/** XStart/XEnd date pairs: the end must not be before the start. */
function checkRanges(params: Record<string, ParamSpec>, query: Record<string, string>, input: Record<string, unknown>) {
  for (const [name, spec] of Object.entries(params)) {
    if (spec.kind !== 'date' || !name.endsWith('Start')) continue;
    const endName = `${name.slice(0, -'Start'.length)}End`;
    if (params[endName]?.kind !== 'date') continue;
    const start = query[name];
    const end = query[endName];
    if (start === undefined || end === undefined || end >= start) continue;
    const rawEnd = input[endName];
    const rawStart = String(input[name]);
    const endShown = rawEnd === end ? '' : `(${end}) `;
    const startShown = rawStart === start ? `'${start}'` : `'${rawStart}' (${start})`;
    throw invalidInput(
      endName,
      rawEnd,
      `${endShown}is before ${name} ${startShown}; ${endName} must be on or after ${name}`,
    );
  }
}

/**
 * A person's UserName is the only one their calls send (the service runs a request with that
 * user's access rights). A free-form report whose parameters are unpublished gets it too: a
 * service ignores a parameter it lacks, and one that takes it must not run as someone else.
 */
function fixUserName(query: Record<string, string>, fixed: string, param: string | undefined): void {
  const given = Object.keys(query).filter((k) => k.toLowerCase() === 'username');
  for (const key of given) {
    if (query[key].toLowerCase() !== fixed.toLowerCase()) {
      throw invalidInput(
        key,
        query[key],
        `is not allowed: on this server your calls always run as your own UserName (${fixed}); leave ${key} out`,
      );
    }
    query[key] = fixed;
  }
  if (given.length === 0 && param) query[param] = fixed;
}

/** Free-form parameters (their value types were checked by zod) -> upstream text. */
function resolveFreeForm(
  raw: Record<string, string | number | boolean>,
  query: Record<string, string>,
  ctx: DateContext,
  pinned: readonly string[] | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(raw)) {
    const label = `${FREE_FORM_NAME}.${key}`;
    if (!UPSTREAM_NAME.test(key)) {
      throw invalidInput(
        `${FREE_FORM_NAME}.${cutText(key, 64)}`,
        key,
        'is not a parameter name; use up to 64 letters and digits, as the service spells it',
      );
    }
    if (RESERVED_FREE_FORM.includes(key.toLowerCase())) {
      throw invalidInput(
        label,
        value,
        'is not allowed: the server controls paging, format, debugging and order itself; use maxRecords to ' +
          'fetch fewer records and query_report orderBy to sort',
      );
    }
    if (key in query) throw invalidInput(label, value, `repeats ${key}; give it once`);
    let text = typeof value === 'string' ? value.trim() : String(value);
    // Dates in free-form parameters are resolved and checked like the named ones; other text passes through.
    if (typeof value === 'string' && /date/i.test(key) && DATE_EXPRESSION.test(text)) {
      text = resolveDate(text, ctx, label);
    }
    if (key.toLowerCase() === 'owningcompanycode' && pinned) {
      const codes = listItems(text);
      text = applyPinnedScope(codes.length > 0 ? codes.join(',') : undefined, pinned);
    }
    if (text.length > MAX_VALUE_CHARS) throw tooLong(label, text);
    out[key] = text;
  }
  return out;
}

function tooLong(name: string, value: string): ReportsError {
  return invalidInput(
    name,
    value,
    `is too long; at most ${MAX_VALUE_CHARS.toLocaleString('en-US')} characters are sent`,
  );
}

/** The controls (their types and limits were checked by zod); fields trimmed and deduplicated. */
function resolveControls(input: Record<string, unknown>): ReportControls {
  const controls: ReportControls = {};
  const [maxName, fieldsName, rowName] = CONTROL_NAMES;
  if (input[maxName] !== undefined) controls.maxRecords = input[maxName] as number;
  if (input[fieldsName] !== undefined) {
    const items = listItems(input[fieldsName] as string[]);
    if (items.length > 0) controls.fields = [...new Set(items)];
  }
  if (input[rowName] !== undefined) controls.rowLimit = input[rowName] as number;
  if (input.fresh === true) controls.fresh = true;
  return controls;
}

// --- Dates -------------------------------------------------------------------------------

const RELATIVE = /^(today|yesterday|tomorrow)(?:\s*([+-])\s*(\d{1,5}))?$/i;
const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * A date argument -> 'YYYYMMDD'. YYYYMMDD and YYYY-MM-DD must be real calendar dates;
 * today, yesterday, tomorrow and today±N (days) resolve in ctx.timeZone relative to ctx.now.
 */
export function resolveDate(raw: string, ctx: DateContext, param = 'date'): string {
  const text = raw.trim();
  const compact = /^(\d{4})(\d{2})(\d{2})$/.exec(text) ?? /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (compact) {
    const [y, m, d] = [Number(compact[1]), Number(compact[2]), Number(compact[3])];
    if (!isRealDate(y, m, d)) {
      throw invalidInput(param, raw, 'is not a real date; use YYYYMMDD, YYYY-MM-DD or today-N');
    }
    return `${compact[1]}${compact[2]}${compact[3]}`;
  }
  const relative = RELATIVE.exec(text);
  if (!relative || (relative[2] !== undefined && relative[1]!.toLowerCase() !== 'today')) {
    throw invalidInput(param, raw, `is not a date; use ${DATE_FORMS_LONG}`);
  }
  const word = relative[1]!.toLowerCase();
  let days = word === 'yesterday' ? -1 : word === 'tomorrow' ? 1 : 0;
  if (relative[2] !== undefined) days += (relative[2] === '-' ? -1 : 1) * Number(relative[3]);
  const [y, m, d] = localDate(ctx);
  const target = new Date(Date.UTC(y, m - 1, d + days));
  return formatYmd(target.getUTCFullYear(), target.getUTCMonth() + 1, target.getUTCDate());
}

/** The calendar date of ctx.now in ctx.timeZone. */
function localDate(ctx: DateContext): [number, number, number] {
  let fmt = formatters.get(ctx.timeZone);
  if (!fmt) {
    try {
      fmt = new Intl.DateTimeFormat('en-US', {
        timeZone: ctx.timeZone,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
      });
    } catch {
      throw new ReportsError(
        'configuration',
        `REPORTS_TIMEZONE: '${ctx.timeZone}' is not an IANA time zone; use e.g. Europe/London`,
      );
    }
    formatters.set(ctx.timeZone, fmt);
  }
  const parts = fmt.formatToParts(ctx.now);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return [part('year'), part('month'), part('day')];
}

function isRealDate(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const leap = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;
  return d <= days;
}

function formatYmd(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, '0')}${String(m).padStart(2, '0')}${String(d).padStart(2, '0')}`;
}
