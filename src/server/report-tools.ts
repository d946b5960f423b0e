import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { resolveInput } from '../catalog/resolve.js';
import { inputSchema } from '../catalog/schema.js';
import { TRANSACTIONS } from '../catalog/transactions.js';
import type { TransactionDef } from '../catalog/types.js';
import { presentReport, reportResultSchema } from '../presentation/index.js';
import { RESULT_VIEW_TOOL_META } from '../view/resource.js';
import { guard } from './boundary.js';
import { progressReporter, type ToolExtra } from './progress.js';
import { runReport } from './run-report.js';
import { callSignal, type Runtime } from './runtime.js';
import { enforceScope } from './scope.js';

export const READ_ONLY_ANNOTATIONS = { readOnlyHint: true, openWorldHint: true, idempotentHint: true } as const;

/** Registers one MCP tool per catalog entry; the catalog is the only list of reports. */
export function registerReportTools(server: McpServer, rt: Runtime): void {
  for (const def of TRANSACTIONS) {
    server.registerTool(
      def.tool,
      {
        title: def.title,
        description: def.description,
        inputSchema: inputSchema(def),
        outputSchema: reportResultSchema.shape,
        annotations: { title: def.title, ...READ_ONLY_ANNOTATIONS },
        _meta: RESULT_VIEW_TOOL_META,
      },
      guard(
        def.tool,
        rt.secrets,
        rt.log,
        (args: Record<string, unknown>, extra: ToolExtra) => callReport(rt, def, args, extra),
        rt.redact.text,
      ),
    );
  }
}

async function callReport(rt: Runtime, def: TransactionDef, args: Record<string, unknown>, extra: ToolExtra) {
  const { query, controls } = resolveInput(def, args, {
    timeZone: rt.config.timeZone,
    now: rt.now(),
    defaultUserName: rt.config.userName,
    pinnedCompanyCodes: rt.config.owningCompanyCodes,
    fixedUserName: rt.fixedUserName,
  });
  const notes: string[] = [];
  let maxRecords = controls.maxRecords ?? rt.config.maxRecords;
  if (maxRecords > rt.config.maxRecords) {
    notes.push(
      `maxRecords ${maxRecords} is above this server's limit ` +
        `REPORTS_MAX_RECORDS=${rt.config.maxRecords}; ${rt.config.maxRecords} was used.`,
    );
    maxRecords = rt.config.maxRecords;
  }
  await enforceScope(rt, def, query, callSignal(rt, extra.signal));
  const stored = await runReport(rt, def, query, {
    maxRecords,
    signal: callSignal(rt, extra.signal),
    onProgress: progressReporter(extra, def.tool),
  });
  return presentReport(stored, { rowLimit: controls.rowLimit, fields: controls.fields, extraNotes: notes });
}
