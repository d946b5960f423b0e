import type { McpServer } from '@modelcontextprotocol/server';
import { inputSchema } from '../catalog/schema.js';
import { TRANSACTIONS } from '../catalog/transactions.js';
import { reportResultSchema } from '../presentation/shapes.js';
import { RESULT_VIEW_TOOL_META } from '../view/resource.js';
import { guard } from './boundary.js';
import { lazy } from './lazy.js';
import type { ToolContext } from './progress.js';
import type { Runtime } from './runtime.js';

const reportCall = lazy(() => import('./report-call.js'));

export const READ_ONLY_ANNOTATIONS = { readOnlyHint: true, openWorldHint: true, idempotentHint: true } as const;

/**
 * Registers one MCP tool per catalog entry; the catalog is the only list of reports. What a
 * call does lives in report-call.ts, loaded with the first call: start-up (to the first
 * tools/list) loads only schemas and descriptions.
 */
export function registerReportTools(server: McpServer, rt: Runtime): void {
  for (const def of TRANSACTIONS) {
    server.registerTool(
      def.tool,
      {
        title: def.title,
        description: def.description,
        inputSchema: inputSchema(def),
        outputSchema: reportResultSchema,
        annotations: { title: def.title, ...READ_ONLY_ANNOTATIONS },
        _meta: RESULT_VIEW_TOOL_META,
      },
      guard(
        def.tool,
        rt.secrets,
        rt.log,
        async (args: Record<string, unknown>, ctx: ToolContext) => (await reportCall()).callReport(rt, def, args, ctx),
        rt.redact.text,
      ),
    );
  }
}
