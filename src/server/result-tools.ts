import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { controlSchemas, DEFAULT_ROW_LIMIT, resultIdSchema } from '../catalog/controls.js';
import { queryResultSchema, reportResultSchema } from '../presentation/shapes.js';
import { queryArgsShape } from '../results/query-schema.js';
import { RESULT_VIEW_TOOL_META } from '../view/resource.js';
import { guard } from './boundary.js';
import { lazy } from './lazy.js';
import type { ToolContext } from './progress.js';
import { READ_ONLY_ANNOTATIONS } from './report-tools.js';
import type { Runtime } from './runtime.js';

const resultCalls = lazy(() => import('./result-calls.js'));
const resultId = resultIdSchema('resultId from a report tool');
// The report tools' controls, described for what they mean here.
const continueControls = controlSchemas({
  maxRecords: 'Most records to fetch in this call; default REPORTS_MAX_RECORDS',
  fields: 'Columns for the rows shown',
  rowLimit: `Rows to show; default ${DEFAULT_ROW_LIMIT}`,
});

// Built once per process: every session's server registers these same schemas (plain-schemas.ts).
const queryInput = z.object(queryArgsShape).strict();
const continueInput = z
  .object({
    resultId,
    maxRecords: continueControls.maxRecords,
    rowLimit: continueControls.rowLimit,
    fields: continueControls.fields,
  })
  .strict();

/**
 * query_report and continue_report: questions to a held result, and filling it in. Their
 * calls live in result-calls.ts, loaded with the first call (see report-tools.ts).
 */
export function registerResultTools(server: McpServer, rt: Runtime): void {
  const secrets = rt.secrets;

  server.registerTool(
    'query_report',
    {
      title: 'Query a report result',
      description:
        'Filter, group, aggregate, sort and page the records of a result a report tool returned, without calling the service. ' +
        'Use it for every question about the records (counts per Account, sums of fares, who is where): it covers ' +
        'ALL fetched records, not just the rows shown. ' +
        'Fields are record field names; dot paths reach nested objects (Summary.RecordLocator).',
      inputSchema: queryInput,
      outputSchema: queryResultSchema,
      annotations: { title: 'Query a report result', ...READ_ONLY_ANNOTATIONS, openWorldHint: false },
      _meta: RESULT_VIEW_TOOL_META,
    },
    guard('query_report', secrets, rt.log, async (args) => (await resultCalls()).queryResult(rt, args)),
  );

  server.registerTool(
    'continue_report',
    {
      title: 'Continue an incomplete report',
      description:
        'Fetch the records an incomplete result is missing (cap, time budget or failed pages), without refetching ' +
        'what it holds; updates the same resultId and answers like the report tool.',
      inputSchema: continueInput,
      outputSchema: reportResultSchema,
      annotations: { title: 'Continue an incomplete report', ...READ_ONLY_ANNOTATIONS },
      _meta: RESULT_VIEW_TOOL_META,
    },
    guard(
      'continue_report',
      secrets,
      rt.log,
      async (args, ctx: ToolContext) => (await resultCalls()).continueResult(rt, args, ctx),
      rt.redact.text,
    ),
  );
}
