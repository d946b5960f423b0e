/**
 * What a client receives as structuredContent, declared once: the report result (every report
 * tool and continue_report) and the query result (query_report). The tools register these as
 * their output schemas and the TypeScript types below are inferred from them, so the schema
 * a client reads and the object the code builds cannot drift apart (docs/architecture.md).
 */
import { z } from 'zod';

const row = z.record(z.string(), z.unknown());

export const reportResultSchema = z.object({
  report: z.string(),
  source: z.enum(['live', 'demo']),
  query: z.record(z.string(), z.string()).describe('Upstream parameters actually sent'),
  totalRecords: z.number().int().nullable(),
  fetchedRecords: z.number().int(),
  complete: z.boolean(),
  notes: z.array(z.string()),
  resultId: z.string(),
  resourceUri: z.string(),
  summary: z.record(z.string(), z.unknown()),
  rows: z.array(row),
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

export type ReportResult = z.infer<typeof reportResultSchema>;
export type QueryResult = z.infer<typeof queryResultSchema>;
/** The part of a report result that both the text and structuredContent start from. */
export type ReportHead = Omit<ReportResult, 'summary' | 'rows'>;
