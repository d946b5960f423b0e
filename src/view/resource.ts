/**
 * The result view (README, "Seeing a result") as an MCP App: one `ui://` resource holding a
 * self-contained HTML page (built from view/ by scripts/build-view.mjs), which the report
 * tools, continue_report and query_report point at with `_meta.ui.resourceUri`. Hosts with
 * the MCP Apps extension render it beside the answer; others ignore the `_meta` and keep the
 * text and structuredContent, which are unchanged.
 */
import { RESOURCE_MIME_TYPE, RESOURCE_URI_META_KEY, registerAppResource } from '@modelcontextprotocol/ext-apps/server';
import type { McpServer } from '@modelcontextprotocol/server';

export const RESULT_VIEW_URI = 'ui://travel-reports/result-view.html';

/** `_meta` of every tool whose answer the view shows (the legacy key too, for older hosts). */
export const RESULT_VIEW_TOOL_META = {
  ui: { resourceUri: RESULT_VIEW_URI },
  [RESOURCE_URI_META_KEY]: RESULT_VIEW_URI,
} as const;

export function registerResultView(server: McpServer): void {
  registerAppResource(
    server,
    'Report result view',
    RESULT_VIEW_URI,
    {
      description:
        'A held report result as a table that sorts, filters and pages through query_report, and a chart of ' +
        'counts or sums per group or per day.',
    },
    async () => ({
      contents: [
        {
          uri: RESULT_VIEW_URI,
          mimeType: RESOURCE_MIME_TYPE,
          // The page (320 KB of source) is loaded when a host first reads it, not at start-up.
          text: (await import('./generated/result-view-html.js')).RESULT_VIEW_HTML,
          // Everything is inline: the page needs no network at all.
          _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } },
        },
      ],
    }),
  );
}
