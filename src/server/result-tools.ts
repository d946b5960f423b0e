import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { TRANSACTIONS } from '../catalog/transactions.js';
import { ReportsError } from '../errors.js';
import { runQuery } from '../results/query.js';
import { queryArgsShape } from '../results/query-schema.js';
import { renderQuery } from '../results/render.js';
import { guard } from './boundary.js';
import { queryOutputShape, reportOutputShape } from './output-schemas.js';
import { presentReport } from './present.js';
import { progressReporter, type ToolExtra } from './progress.js';
import { READ_ONLY_ANNOTATIONS } from './report-tools.js';
import { resultUri } from './resources.js';
import { fitRows, leftOutNote } from './row-budget.js';
import { continueReport } from './run-report.js';
import type { Runtime } from './runtime.js';

const resultId = z.string().min(1).describe('resultId from a report tool');

/** query_report and continue_report: questions to a held result, and filling it in. */
export function registerResultTools(server: McpServer, rt: Runtime): void {
  const secrets = rt.secrets;

  server.registerTool(
    'query_report',
    {
      title: 'Query a report result',
      description:
        'Filter, group, aggregate, sort and page the records of a result a report tool returned, without calling the service. ' +
        'Use it for every question about the records (counts per Account, sums of fares, who is where): it covers ALL fetched records, not just the rows shown. ' +
        'Fields are record field names; dot paths reach nested objects (Summary.RecordLocator).',
      inputSchema: z.object(queryArgsShape).strict(),
      outputSchema: queryOutputShape,
      annotations: { title: 'Query a report result', ...READ_ONLY_ANNOTATIONS, openWorldHint: false },
    },
    guard('query_report', secrets, rt.log, async (args) => {
      const { resultId: id, ...query } = args;
      const stored = rt.store.get(id);
      const output = runQuery(stored.records, query);
      // Rows beyond the structured budget are paged, not dropped: nextOffset points at them.
      const notes: string[] = [];
      if (output.rows) {
        const { rows, leftOut } = fitRows(output.rows);
        if (leftOut > 0) {
          notes.push(leftOutNote(leftOut, rows.length, 'asked for', 'rows'));
          output.rows = rows;
          output.nextOffset = output.offset + rows.length;
        }
      }
      if (output.groups) {
        const { rows: groups, leftOut } = fitRows(output.groups);
        if (leftOut > 0) {
          notes.push(leftOutNote(leftOut, groups.length, 'asked for', 'groups'));
          output.groups = groups;
          output.nextOffset = output.offset + groups.length;
        }
      }
      const text = renderQuery(output, {
        resultId: id,
        report: stored.report,
        heldRecords: stored.records.length,
        args: query,
        resourceUri: resultUri(id),
      });
      return {
        structuredContent: { ...output, resultId: id, ...(notes.length ? { notes } : {}) },
        content: [{ type: 'text', text }],
      };
    }),
  );

  server.registerTool(
    'continue_report',
    {
      title: 'Continue an incomplete report',
      description:
        'Fetch the records an incomplete result is missing (cap, time budget or failed pages), without refetching what it holds; updates the same resultId and answers like the report tool.',
      inputSchema: z
        .object({
          resultId,
          maxRecords: z
            .number()
            .int()
            .min(1)
            .optional()
            .describe('Most records to fetch in this call; default REPORTS_MAX_RECORDS'),
          rowLimit: z.number().int().min(0).max(100_000).optional().describe('Rows to show; default 20'),
          fields: z.array(z.string()).optional().describe('Columns for the rows shown'),
        })
        .strict(),
      outputSchema: reportOutputShape,
      annotations: { title: 'Continue an incomplete report', ...READ_ONLY_ANNOTATIONS },
    },
    guard('continue_report', secrets, rt.log, async (args, extra: ToolExtra) => {
      const stored = rt.store.get(args.resultId);
      const def = TRANSACTIONS.find((t) => t.tool === stored.report);
      if (!def)
        throw new ReportsError('not_found', `Result ${stored.id} belongs to an unknown report '${stored.report}'.`);
      const maxRecords = Math.min(args.maxRecords ?? rt.config.maxRecords, rt.config.maxRecords);
      const updated = await continueReport(rt, def, stored, {
        maxRecords,
        signal: extra.signal,
        onProgress: progressReporter(extra, 'continue_report'),
      });
      const nothingFetched = updated === stored;
      return presentReport(updated, {
        rowLimit: args.rowLimit,
        fields: args.fields,
        extraNotes: !nothingFetched
          ? []
          : stored.complete
            ? ['This result was already complete; nothing was fetched.']
            : [
                'Nothing is missing to fetch: every record was read, but the data changed while it was read (see notes). Run the report again for a consistent result.',
              ],
      });
    }),
  );
}
