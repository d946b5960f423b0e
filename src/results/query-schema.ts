/**
 * The input of the query_report tool, as zod shapes the server
 * registers directly. Descriptions are read by the model on every tools/list: keep them short.
 * Every object refuses keys it does not know (a `negate` or `dir` dropped silently would change
 * the answer), and `limit` publishes the maximum it enforces.
 */
import { z } from 'zod';
import { describeValue, quote } from '../errors.js';

export const QUERY_OPS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'startsWith', 'exists'] as const;
export const AGGREGATE_FNS = ['count', 'sum', 'avg', 'min', 'max', 'countDistinct'] as const;
export const DEFAULT_QUERY_LIMIT = 50;
export const MAX_QUERY_LIMIT = 1000;

export type QueryOp = (typeof QUERY_OPS)[number];
export type AggregateFn = (typeof AGGREGATE_FNS)[number];

const scalar = z.union([z.string(), z.number(), z.boolean()]);

/** A strict object whose unknown keys are refused with the keys it takes. */
function strictItem<T extends z.ZodRawShape>(what: string, shape: T) {
  const accepted = Object.keys(shape).join(', ');
  return z.strictObject(shape, {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `unknown key${iss.keys.length === 1 ? '' : 's'} ${iss.keys.map((k) => quote(k, 40)).join(', ')} in ${what}; ` +
          `it takes ${accepted}`
        : `${what} is not an object; use {${accepted}}`,
  });
}

export const whereSchema = strictItem('a where filter', {
  field: z
    .string()
    .min(1)
    .describe('Field name; dot path for nested (Summary.RecordLocator; Passengers.LastName = any passenger).'),
  op: z
    .enum(QUERY_OPS)
    .describe(
      'eq/ne: text ignores case and outer spaces, numeric text compares as numbers; ' +
        'lt/lte/gt/gte: numbers, dates, else text; in: value is a list; ' +
        'contains/startsWith: text, ignoring case (on a list: any item); exists: value true/false.',
    ),
  value: z
    .union([scalar, z.array(scalar)])
    .optional()
    .describe(
      "Compared value. Dates: 'YYYY-MM-DD' or 'YYYYMMDD' = that calendar day as the record writes it; full ISO = an instant.",
    ),
});

export const aggregateSchema = strictItem('an aggregate', {
  fn: z.enum(AGGREGATE_FNS).describe('Output key is fn_field (sum_FOPFare) or count.'),
  field: z.string().optional().describe('Field to aggregate; omit for count of records.'),
});

export const orderSchema = strictItem('an orderBy item', {
  field: z.string().min(1).describe('A field; with groupBy a groupBy field, count or an aggregate key (sum_FOPFare).'),
  direction: z.enum(['asc', 'desc']).optional().describe('Default asc for fields, desc for count/aggregates.'),
});

function limitError(iss: { input?: unknown }): string {
  return (
    `${describeValue(iss.input)} is not a whole number from 1 to ${MAX_QUERY_LIMIT}, the most rows or groups one answer ` +
    'holds; page on with offset (nextOffset)'
  );
}

function offsetError(iss: { input?: unknown }): string {
  return `${describeValue(iss.input)} is not a whole number of at least 0; pass nextOffset to page`;
}

export const queryArgsShape = {
  resultId: z.string().min(1).describe('resultId of a report result (held for a while; rerun the report if gone).'),
  where: z.array(whereSchema).optional().describe('Filters; all must hold.'),
  groupBy: z
    .array(z.string().min(1))
    .optional()
    .describe(
      "Group by these fields; add ':day', ':month' or ':year' to a date field; a list field groups by its items " +
        'joined, Passengers by each traveller. Returns groups, not rows.',
    ),
  aggregates: z
    .array(aggregateSchema)
    .optional()
    .describe('Per group (or over all matches if no groupBy): count, sum, avg, min, max, countDistinct.'),
  orderBy: z
    .array(orderSchema)
    .optional()
    .describe('Sort keys in order. Groups default to count desc; rows to upstream order.'),
  unnest: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A list field (Segments.AirSegments, Itinerary, Passengers): one row per item, with its record's fields, " +
        'before filters, groups and sums.',
    ),
  fields: z.array(z.string().min(1)).optional().describe('Columns of the returned rows (default: whole records).'),
  offset: z
    .number({ error: offsetError })
    .int({ error: offsetError })
    .min(0, { error: offsetError })
    .optional()
    .describe('Rows or groups to skip; pass nextOffset to page.'),
  limit: z
    .number({ error: limitError })
    .int({ error: limitError })
    .min(1, { error: limitError })
    .max(MAX_QUERY_LIMIT, { error: limitError })
    .optional()
    .describe(`Rows or groups to return (default ${DEFAULT_QUERY_LIMIT}); page on with offset.`),
};

export const queryArgsSchema = z.object(queryArgsShape);

/** What runQuery needs (resultId is the server's business). */
export type QueryArgs = Omit<z.infer<typeof queryArgsSchema>, 'resultId'>;
export type WhereClause = z.infer<typeof whereSchema>;
