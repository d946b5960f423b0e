/**
 * The controls a report call takes besides the service's parameters (how many records to
 * fetch, which columns and how many rows to show), declared once: every report tool and
 * continue_report register these schemas, so limits and messages cannot drift apart.
 *
 * Every schema carries its own error function so that a bad value yields a message naming
 * the parameter, the value received and what is expected: the MCP SDK shows zod issues as
 * they are, and the assistant reads only that. Every range a refinement enforces is published
 * as minimum and maximum too (CONTRACT section 4: the published bound is the enforced one).
 * maxRecords goes up to the highest REPORTS_MAX_RECORDS; above this server's own setting the
 * setting is used and the answer's notes say so.
 */
import { z } from 'zod';
import { MAX_RECORDS_CEILING } from '../config.js';
import { describeValue } from '../errors.js';

export const CONTROL_NAMES = ['maxRecords', 'fields', 'rowLimit'] as const;
/** Rows shown when the call names no rowLimit. */
export const DEFAULT_ROW_LIMIT = 20;
/** Rows asked for beyond what fits are cut by the renderer at its text ceiling, with a count. */
export const MAX_ROW_LIMIT = 100_000;

export type ErrorFn = (iss: { input?: unknown; path?: PropertyKey[] }) => string;

/**
 * `<received> <problem>; <hint>`, or `missing; required, <hint>` when absent. The SDK writes
 * the parameter's name (its path) before it: `DateStart: 'soon' is not a date; use ...`. A
 * problem worded with a formatted number is a function: written when an error needs it, so
 * registering the tools does not load ICU's data (the first toLocaleString costs 10-15 ms).
 */
export function errorFor(problem: string | (() => string), hint: string): ErrorFn {
  return (iss) =>
    iss.input === undefined
      ? `missing; required, ${hint}`
      : `${describeValue(iss.input)} ${typeof problem === 'string' ? problem : problem()}; ${hint}`;
}

/** Model-facing descriptions, per tool where the meaning differs (continue_report). */
export interface ControlDescriptions {
  maxRecords: string;
  fields: string;
  rowLimit: string;
}

/** Short: they are published on every report tool, and assistants pay for them in tokens
 *  (CONTRACT section 4's budget of 9,000 for all the tool definitions). */
export const REPORT_CONTROL_DESCRIPTIONS: ControlDescriptions = {
  maxRecords: 'Record cap',
  fields: 'Columns of rows',
  rowLimit: `Rows shown, default ${DEFAULT_ROW_LIMIT}`,
};

export function controlSchemas(describe: ControlDescriptions = REPORT_CONTROL_DESCRIPTIONS) {
  const maxError = errorFor(`is not a whole number from 1 to ${MAX_RECORDS_CEILING}`, 'e.g. 1000');
  const rowError = errorFor(`is not a whole number from 0 to ${MAX_ROW_LIMIT}`, 'e.g. 50');
  const fieldsError = errorFor('is not a list of field names', 'use an array of strings');
  return {
    maxRecords: z
      .number({ error: maxError })
      .refine((v) => Number.isSafeInteger(v) && v >= 1 && v <= MAX_RECORDS_CEILING, { error: maxError })
      .optional()
      .meta({ description: describe.maxRecords, type: 'integer', minimum: 1, maximum: MAX_RECORDS_CEILING }),
    fields: z
      .array(z.string({ error: fieldsError }), { error: fieldsError })
      .optional()
      .describe(describe.fields),
    rowLimit: z
      .number({ error: rowError })
      .refine((v) => Number.isSafeInteger(v) && v >= 0 && v <= MAX_ROW_LIMIT, { error: rowError })
      .optional()
      .meta({ description: describe.rowLimit, type: 'integer', minimum: 0, maximum: MAX_ROW_LIMIT }),
  };
}

/**
 * `fresh`: report tools only. An identical call (same tool, parameters and controls) within the
 * last minute is answered from its result, and one still running is joined; this fetches anew.
 */
export function freshSchema() {
  const error = errorFor('is not true or false', 'use true to fetch again');
  return z.boolean({ error }).optional().describe('Fetch anew');
}

/** The handle of a held result, taken by query_report and continue_report. */
export function resultIdSchema(description: string): z.ZodString {
  return z.string().min(1).describe(description);
}
