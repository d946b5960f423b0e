/**
 * A tool's zod input schema, built from its catalog entry. Strict: unknown keys are refused.
 * Every schema carries its own error function so that a bad value yields a message naming
 * the parameter, the value received and what is expected: the MCP SDK shows zod issues as
 * `${message} at ${path}`, and the assistant reads only that.
 *
 * The JSON Schema is what assistants pay for in tokens, so checks that only need to refuse
 * (date syntax, integer-ness) are refinements, which add nothing to it.
 */
import { z } from 'zod';
import { describeValue } from '../errors.js';
import { DEFAULT_ROW_LIMIT } from '../presentation/index.js';
import { acceptedParams, DATE_EXPRESSION, expectation } from './params.js';
import type { ParamSpec, TransactionDef } from './types.js';

export const CONTROL_NAMES = ['maxRecords', 'fields', 'rowLimit'] as const;
export const FREE_FORM_NAME = 'parameters';
/** Rows asked for beyond what fits are cut by the renderer at its token ceiling, with a count. */
export const MAX_ROW_LIMIT = 100_000;

export type InputSchema = z.ZodObject<Record<string, z.ZodType>, z.core.$strict>;

type ErrorFn = (iss: { input?: unknown }) => string;

/** `Name: <received> <problem>; <hint>`, or `Name: missing; required, <hint>` when absent. */
function errorFor(name: string, problem: string, hint: string): ErrorFn {
  return (iss) =>
    iss.input === undefined
      ? `${name}: missing; required, ${hint}`
      : `${name}: ${describeValue(iss.input)} ${problem}; ${hint}`;
}

function paramSchema(name: string, spec: ParamSpec): z.ZodType {
  const { problem, hint } = expectation(spec);
  const error = errorFor(name, problem, hint);
  let base: z.ZodType;
  switch (spec.kind) {
    case 'date':
      base = z.string({ error }).refine((v) => DATE_EXPRESSION.test(v), { error });
      break;
    case 'list':
      base = z.union([z.string(), z.array(z.string())], { error });
      break;
    case 'integer':
      base = z.number({ error }).refine(Number.isSafeInteger, { error });
      break;
    case 'boolean':
      base = z.boolean({ error });
      break;
    case 'enum':
      base = z.enum(spec.values as [string, ...string[]], { error });
      break;
    case 'string':
      base = z.string({ error });
      break;
  }
  const schema = spec.required ? base : base.optional();
  // The JSON type of a refined number is "number"; say "integer", which the refinement enforces.
  return spec.kind === 'integer'
    ? schema.meta({ description: spec.description, type: 'integer' })
    : schema.describe(spec.description);
}

function controlSchemas(): Record<(typeof CONTROL_NAMES)[number], z.ZodType> {
  const maxError = errorFor('maxRecords', 'is not a whole number of at least 1', 'e.g. 1000');
  const rowError = errorFor('rowLimit', `is not a whole number from 0 to ${MAX_ROW_LIMIT}`, 'e.g. 50');
  const fieldsError = errorFor('fields', 'is not a list of field names', 'use an array of strings');
  return {
    maxRecords: z
      .number({ error: maxError })
      .min(1, { error: maxError, abort: true })
      .refine(Number.isSafeInteger, { error: maxError })
      .optional()
      .meta({ description: 'Most records to fetch', type: 'integer' }),
    fields: z
      .array(z.string({ error: fieldsError }), { error: fieldsError })
      .optional()
      .describe('Columns shown in rows'),
    rowLimit: z
      .number({ error: rowError })
      .min(0, { error: rowError, abort: true })
      .max(MAX_ROW_LIMIT, { error: rowError, abort: true })
      .refine(Number.isSafeInteger, { error: rowError })
      .optional()
      .meta({ description: `Rows shown (default ${DEFAULT_ROW_LIMIT}; text is capped)`, type: 'integer' }),
  };
}

function freeFormSchema(): z.ZodType {
  const valueError = errorFor(FREE_FORM_NAME, 'is not a parameter value', 'use a string, number or boolean');
  const error = errorFor(FREE_FORM_NAME, 'is not an object', 'use {"Name": value}');
  return z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()], { error: valueError }), { error })
    .optional()
    .describe('Upstream query parameters, named exactly as the service spells them');
}

/** Every key the tool accepts, in the order of its JSON Schema. */
export function acceptedKeys(def: TransactionDef): string[] {
  return [...Object.keys(acceptedParams(def)), ...(def.freeForm ? [FREE_FORM_NAME] : []), ...CONTROL_NAMES];
}

/** The message for keys a tool does not take, with a case-insensitive "did you mean". */
export function unknownKeysMessage(keys: readonly string[], accepted: readonly string[]): string {
  const described = keys.map((k) => {
    const near = accepted.find((a) => a.toLowerCase() === k.toLowerCase());
    return near ? `'${k}' (did you mean ${near}?)` : `'${k}'`;
  });
  const noun = keys.length === 1 ? 'unknown parameter' : 'unknown parameters';
  return `${noun} ${described.join(', ')}; accepted: ${accepted.join(', ')}`;
}

const cache = new WeakMap<TransactionDef, InputSchema>();

/** The strict zod input schema of a report tool. */
export function inputSchema(def: TransactionDef): InputSchema {
  const cached = cache.get(def);
  if (cached) return cached;
  const shape: Record<string, z.ZodType> = {};
  for (const [name, spec] of Object.entries(acceptedParams(def))) shape[name] = paramSchema(name, spec);
  if (def.freeForm) shape[FREE_FORM_NAME] = freeFormSchema();
  Object.assign(shape, controlSchemas());
  const accepted = Object.keys(shape);
  const schema = z.strictObject(shape, {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? unknownKeysMessage(iss.keys, accepted)
        : `arguments: ${describeValue(iss.input)} is not an object; use {"Name": value}`,
  });
  cache.set(def, schema);
  return schema;
}
