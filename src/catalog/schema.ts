/**
 * A tool's zod input schema, built from its catalog entry: the one place arguments are checked
 * for type, range, unknown keys and limits (resolve.ts parses with it before resolving).
 * Strict: unknown keys are refused. Each parameter's error function names the parameter, the
 * value received and what is expected (see controls.ts).
 *
 * The JSON Schema is what assistants pay for in tokens, so checks that only need to refuse
 * (date syntax, integer-ness) are refinements, which add nothing to it.
 */
import { z } from 'zod';
import { describeValue, quote } from '../errors.js';
import { controlSchemas, errorFor, freshSchema } from './controls.js';
import { acceptedParams, DATE_EXPRESSION, expectation } from './params.js';
import type { ParamSpec, TransactionDef } from './types.js';

export const FREE_FORM_NAME = 'parameters';

export type InputSchema = z.ZodObject<Record<string, z.ZodType>, z.core.$strict>;

function paramSchema(spec: ParamSpec): z.ZodType {
  const { problem, hint } = expectation(spec);
  const error = errorFor(problem, hint);
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
  if (spec.kind === 'integer') return schema.meta({ description: spec.description, type: 'integer' });
  // A list is published as the comma-list string the service takes (its description says
  // so): 57 characters fewer than the union's anyOf, on some 36 list parameters. An array of
  // strings is still accepted.
  if (spec.kind === 'list') return schema.meta({ description: spec.description, type: 'string', anyOf: undefined });
  return schema.describe(spec.description);
}

function freeFormSchema(): z.ZodType {
  const valueError = errorFor('is not a parameter value', 'use a string, number or boolean');
  const error = errorFor('is not an object', 'use {"Name": value}');
  return z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()], { error: valueError }), { error })
    .optional()
    .describe('Upstream query parameters, named exactly as the service spells them');
}

/** The message for keys a tool does not take, with a case-insensitive "did you mean". */
function unknownKeysMessage(keys: readonly string[], accepted: readonly string[]): string {
  const described = keys.map((k) => {
    const near = accepted.find((a) => a.toLowerCase() === k.toLowerCase());
    return near ? `${quote(k)} (did you mean ${near}?)` : quote(k);
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
  for (const [name, spec] of Object.entries(acceptedParams(def))) shape[name] = paramSchema(spec);
  if (def.freeForm) shape[FREE_FORM_NAME] = freeFormSchema();
  Object.assign(shape, controlSchemas(), { fresh: freshSchema() });
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
