/**
 * Shared parameter specs, defined once with their model-facing descriptions
 * (docs/adding-a-transaction.md). transactions.ts composes them; schema.ts turns them into zod;
 * resolve.ts turns arguments into upstream query values.
 */
import type { ParamSpec, TransactionDef } from './types.js';

export interface ParamOptions {
  required?: boolean;
}

/** The date forms a tool accepts, as the descriptions and messages spell them. */
export const DATE_FORMS = 'YYYYMMDD, today±N';
export const DATE_FORMS_LONG = 'YYYYMMDD, YYYY-MM-DD, today, yesterday, tomorrow or today±N';

/** Syntax of a date argument; whether it is a real calendar date is checked in resolve.ts. */
export const DATE_EXPRESSION = /^\s*(?:\d{8}|\d{4}-\d{2}-\d{2}|today|yesterday|tomorrow|today\s*[+-]\s*\d{1,5})\s*$/i;

export function date(description: string, opts: ParamOptions = {}): ParamSpec {
  return { kind: 'date', description: `${description} (${DATE_FORMS})`, required: opts.required ?? false };
}

/** `${prefix}Start` and `${prefix}End`, in that order (resolve.ts checks end >= start). */
export function dateRange(prefix: string, what: string, opts: ParamOptions = {}): Record<string, ParamSpec> {
  // "Date from" says nothing "From" does not (the answer says which date was filtered).
  const say = what === 'Date' ? '' : `${what} `;
  return {
    [`${prefix}Start`]: date(`${say}from`, opts),
    [`${prefix}End`]: date(`${say}to`, opts),
  };
}

export function list(description: string, opts: ParamOptions & { items?: readonly string[] } = {}): ParamSpec {
  const spec: ParamSpec = { kind: 'list', description: `${description}, comma list`, required: opts.required ?? false };
  if (opts.items) spec.items = opts.items;
  return spec;
}

export function string(description: string, opts: ParamOptions = {}): ParamSpec {
  return { kind: 'string', description, required: opts.required ?? false };
}

export function integer(description: string, opts: ParamOptions = {}): ParamSpec {
  return { kind: 'integer', description, required: opts.required ?? false };
}

export function boolean(description: string, opts: ParamOptions = {}): ParamSpec {
  return { kind: 'boolean', description, required: opts.required ?? false };
}

export function enumOf(values: readonly string[], description: string, opts: ParamOptions = {}): ParamSpec {
  return { kind: 'enum', description, values, required: opts.required ?? false };
}

/** A string flag holding "0" or "1" (WithNotepad, IsPassive, ...: docs/upstream.md, "Parameters worth knowing"). */
export function flag01(description: string, opts: ParamOptions = {}): ParamSpec {
  return enumOf(['0', '1'], description, opts);
}

// --- Shared parameters -----------------------------------------------------------------

export const accounts = list('Accounts');
export const pccs = list('PCCs (agency location IDs)');
export const recordLocator = string('Booking record locator (PNR), e.g. ABC123');
export const requestConsultantId = string('Sign-on of the requesting consultant');

/** The company-scope pair (docs/upstream.md, "Requests"), added to every C-marked transaction. */
export const companyScope = {
  OwningCompanyCode: list('Owning company codes'),
  UserName: string('Run as this company user (e-mail)'),
} as const satisfies Record<string, ParamSpec>;

export const dateSearchTypeTC = enumOf(['T', 'C'], 'Search dates by T segment start, C booking creation');
export const hotelDateSearchType = enumOf(
  ['A', 'C', 'S'],
  'Search dates by A arrival, C booking creation, S segment creation',
);
export const dateTracker = enumOf(['I', 'T', 'E'], 'Dates are I issue, T travel, E expiry dates', {
  required: true,
});
export const itineraryFormatting = enumOf(['0', '1', '2'], '0 none (default), 1 HTML, 2 charting');

export const LOAD_OPTIONS = [
  'Passengers',
  'Itinerary',
  'DiEntries',
  'Phones',
  'Notepads',
  'VendorRemarks',
  'Tickets',
  'Versions',
  'VendorLocators',
  'CustomFields',
  'Emails',
  'AccountValue',
  'EventDetails',
  'EmailTrails',
  'All',
] as const;
/** What each LoadOptions value brings, as the service answers (docs/upstream.md): the list of
 *  its name, but AccountValue (AccountLocations); All also adds three lists no option names. */
export const loadOptions = list(
  `Lists: ${LOAD_OPTIONS.slice(0, -1)
    .map((o) => (o === 'AccountValue' ? `${o} (AccountLocations)` : o))
    .join(', ')}; All adds ServiceWarnings, AirlineTicketingDues, CarbonEmissions`,
  { items: LOAD_OPTIONS },
);

// --- What a definition accepts ---------------------------------------------------------

/** Every upstream parameter a tool accepts: its own, then the company scope if C-marked. */
export function acceptedParams(def: TransactionDef): Record<string, ParamSpec> {
  return def.marks.company ? { ...def.params, ...withoutOwn(def, companyScope) } : def.params;
}

function withoutOwn(def: TransactionDef, extra: Record<string, ParamSpec>): Record<string, ParamSpec> {
  const out: Record<string, ParamSpec> = {};
  for (const [name, spec] of Object.entries(extra)) if (!(name in def.params)) out[name] = spec;
  return out;
}

/** The name under which a definition takes the caller's UserName (`Username` on AppUsersActivity). */
export function userNameParam(def: TransactionDef): string | undefined {
  const names = Object.keys(acceptedParams(def));
  return names.find((n) => n === 'UserName') ?? names.find((n) => n === 'Username');
}

// --- How a bad value is described (zod messages and resolve errors share these) --------

/** `${problem}; ${hint}` follows the received value; `missing; required, ${hint}` when absent. */
export function expectation(spec: ParamSpec): { problem: string; hint: string } {
  switch (spec.kind) {
    case 'date':
      return { problem: 'is not a date', hint: `use ${DATE_FORMS_LONG}` };
    case 'list':
      return {
        problem: 'is not a list',
        hint: spec.items
          ? `use a comma-separated string or an array of: ${spec.items.join(', ')}`
          : 'use a comma-separated string or an array of strings',
      };
    case 'integer':
      return { problem: 'is not an integer', hint: 'use a whole number, unquoted' };
    case 'boolean':
      return { problem: 'is not a boolean', hint: 'use true or false' };
    case 'enum':
      return { problem: 'is not allowed', hint: `use one of: ${(spec.values ?? []).map((v) => `'${v}'`).join(', ')}` };
    case 'string':
      return { problem: 'is not a string', hint: `use text: ${spec.description}` };
  }
}
