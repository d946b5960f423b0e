/**
 * What a client receives as structuredContent, declared once: the report result (every report
 * tool and continue_report), the query result (query_report) and the SQL result (sql_query). The tools register these as
 * their output schemas and the TypeScript types below are inferred from them, so the schema
 * a client reads and the object the code builds cannot drift apart (docs/architecture.md).
 */
import { z } from 'zod';

/**
 * A field's value as JSON: text, a number, true/false, null, a list or a nested record of the
 * same. Declared (not `unknown`) so a published open object says what it holds: a client's
 * strict schema check sees `additionalProperties` with a schema, never `{}` (issue 31).
 */
// Typed `unknown` in the code (the inferred types below): what the code builds is checked
// against the published schema by the tests' client (test/helpers/checked-client.ts).
const jsonValue: z.ZodType<unknown> = z.json();
/** A record, a row of query_report or sql_query: field names to their values. */
const row = z.record(z.string(), jsonValue);

export const reportResultSchema = z.object({
  report: z.string(),
  source: z.enum(['live', 'demo']),
  query: z.record(z.string(), z.string()).describe('Upstream parameters actually sent'),
  totalRecords: z.number().int().nullable(),
  fetchedRecords: z.number().int(),
  complete: z.boolean(),
  notes: z.array(z.string()),
  resultId: z.string(),
  table: z.string().describe('Name of this result as a table for sql_query'),
  resourceUri: z.string(),
  summary: z.record(z.string(), jsonValue).describe('Profile of all fetched records: recordCount, fields, emptyFields'),
  rows: z.array(row),
  next: z
    .array(z.object({ say: z.string(), tool: z.string(), arguments: z.record(z.string(), jsonValue) }))
    .describe("Calls worth making next (the text's Next lines): what each answers, the tool, its arguments"),
});

export const queryResultSchema = z.object({
  resultId: z.string(),
  complete: z.boolean().describe("The held result's: false when it lacks records the service has (see notes)"),
  unnest: z.string().optional().describe('The list whose items are the rows'),
  matched: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  nextOffset: z.number().int().nullable(),
  rows: z.array(row).optional(),
  groups: z.array(row).optional(),
  groupCount: z.number().int().optional(),
  notes: z.array(z.string()).optional(),
});

export const sqlResultSchema = z.object({
  columns: z.array(z.string()).describe('Column names of the answer, in order (repeated names get _2, _3...)'),
  rows: z.array(row).describe('The rows that fit (all of them unless truncated)'),
  rowCount: z.number().int().describe('Rows the statement produced'),
  truncated: z.boolean().describe('True when rows holds fewer than rowCount: read resourceUri for every row'),
  tables: z
    .array(z.object({ table: z.string(), resultId: z.string(), report: z.string(), complete: z.boolean() }))
    .describe('The held results the statement read, and whether each holds every record the service reported'),
  resourceUri: z.string().optional().describe('Every row as JSON pages (append .csv for CSV), when not all fit'),
  notes: z.array(z.string()).optional(),
});

export type ReportResult = z.infer<typeof reportResultSchema>;
export type QueryResult = z.infer<typeof queryResultSchema>;
export type SqlResult = z.infer<typeof sqlResultSchema>;
/** The part of a report result that both the text and structuredContent start from. */
export type ReportHead = Omit<ReportResult, 'summary' | 'rows' | 'next'>;
