import { z } from 'zod';

/** structuredContent of every report tool and of continue_report (CONTRACT.md section 5). */
export const reportOutputShape = {
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
  rows: z.array(z.record(z.string(), z.unknown())),
};

export const queryOutputShape = {
  resultId: z.string(),
  matched: z.number().int(),
  offset: z.number().int(),
  limit: z.number().int(),
  nextOffset: z.number().int().nullable(),
  rows: z.array(z.record(z.string(), z.unknown())).optional(),
  groups: z.array(z.record(z.string(), z.unknown())).optional(),
  groupCount: z.number().int().optional(),
  notes: z.array(z.string()).optional(),
};

export const diagnoseOutputShape = {
  verdict: z.enum(['ok', 'problem']),
  source: z.enum(['live', 'demo']),
  checks: z.array(z.object({ check: z.string(), ok: z.boolean(), detail: z.string(), fix: z.string().optional() })),
};
