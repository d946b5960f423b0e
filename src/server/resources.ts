import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { resultUri } from '../presentation/index.js';
import { recordsToCsv } from '../results/csv.js';
import type { ResultStore } from '../results/store.js';

/**
 * Resources: every held result as `reports://results/{resultId}` (a JSON array of all its
 * records) and `reports://results/{resultId}.csv`, listed by resources/list.
 */
export function registerResultResources(server: McpServer, store: ResultStore): void {
  server.registerResource(
    'report-result',
    new ResourceTemplate('reports://results/{resultId}', {
      list: async () => ({
        resources: store.list().map((r) => ({
          uri: resultUri(r.id),
          name: `${r.report} ${r.id}`,
          description: `${r.records.length} records of ${r.report}${r.complete ? '' : ' (incomplete)'}, fetched ${new Date(r.createdAt).toISOString()}`,
          mimeType: 'application/json',
        })),
      }),
    }),
    {
      title: 'Report result (JSON)',
      description: 'All fetched records of a report result, as a JSON array. The resultId comes from a report tool.',
      mimeType: 'application/json',
    },
    async (uri, variables) => {
      const id = String(variables.resultId);
      if (id.endsWith('.csv')) return csvContents(uri.href, store, id.slice(0, -4));
      const stored = store.get(id);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(stored.records) }] };
    },
  );
}

function csvContents(uri: string, store: ResultStore, id: string) {
  const stored = store.get(id);
  return { contents: [{ uri, mimeType: 'text/csv', text: recordsToCsv(stored.records) }] };
}
