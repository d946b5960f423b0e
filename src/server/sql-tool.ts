import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { errorFor } from '../catalog/controls.js';
import { sqlResultSchema } from '../presentation/shapes.js';
import { MAX_SQL_CHARS } from '../sql/statement-text.js';
import { guard } from './boundary.js';
import { lazy } from './lazy.js';
import type { ToolContext } from './progress.js';
import { READ_ONLY_ANNOTATIONS } from './report-tools.js';
import { callSignal, type Runtime } from './runtime.js';

/**
 * sql_query: one read-only SQLite statement over the caller's held results (docs/sql.md).
 * What a call does lives in sql-call.ts, loaded with the first call (as report-tools.ts does).
 */
const sqlCall = lazy(() => import('./sql-call.js'));

const sqlError = errorFor(
  () => `is not a statement of 1 to ${MAX_SQL_CHARS.toLocaleString('en-US')} characters`,
  'send one SELECT or WITH statement in SQLite syntax',
);

// Built once per process: every session's server registers this same schema (plain-schemas.ts).
const sqlInput = z
  .object({
    sql: z
      .string({ error: sqlError })
      .min(1, { error: sqlError })
      .max(MAX_SQL_CHARS, { error: sqlError })
      .describe('One SELECT or WITH statement in SQLite syntax; quote odd names with "double quotes"'),
  })
  .strict();

export function registerSqlTool(server: McpServer, rt: Runtime): void {
  server.registerTool(
    'sql_query',
    {
      title: 'SQL over held results',
      description:
        'One read-only SELECT or WITH statement (SQLite) over your held results, without calling the service: ' +
        "joins ACROSS reports. Each result is a table named by its answer's `table` (e.g. air_segments_by_date_1); " +
        "each list inside records is a child table <table>__<List_Path> whose _parent is the parent row's _row. " +
        'Columns keep field names, nested ones joined by _ (Summary_RecordLocator); dates ISO text, booleans 0/1. ' +
        'The tables are TEMP: sqlite_temp_master lists them.',
      inputSchema: sqlInput,
      outputSchema: sqlResultSchema,
      annotations: { title: 'SQL over held results', ...READ_ONLY_ANNOTATIONS, openWorldHint: false },
    },
    guard(
      'sql_query',
      rt.secrets,
      rt.log,
      async (args, ctx: ToolContext) => (await sqlCall()).sqlQuery(rt, args, callSignal(rt, ctx.mcpReq.signal)),
      // An error may quote the statement, which may quote a traveller (REPORTS_REDACT_PII).
      rt.redact.text,
    ),
  );
}
