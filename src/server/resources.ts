import { type McpServer, ResourceTemplate } from '@modelcontextprotocol/server';
import { cutText, describeValue, ReportsError } from '../errors.js';
import { resultUri } from '../presentation/result-uri.js';
import { coverageOf, incompleteLine } from '../results/coverage.js';
import type { OwnedResults } from '../results/held-results.js';
import { recordsIn } from '../upstream/paging/intervals.js';
import { invalidParams, resourceNotFound } from './lookups.js';

function pageUri(resultId: string, page: number, csv = false): string {
  return `${resultUri(resultId)}${csv ? '.csv' : ''}${page > 1 ? `?page=${page}` : ''}`;
}

/**
 * Resources: every held result as `reports://results/{resultId}` (JSON pages of its records,
 * each naming the next) and `reports://results/{resultId}.csv` (CSV pages), listed by
 * resources/list. Every page keeps its resources/read answer under 1 MB (results/pages.ts).
 */
export function registerResultResources(server: McpServer, store: OwnedResults): void {
  server.registerResource(
    'report-result',
    new ResourceTemplate('reports://results/{resultId}', {
      list: async () => ({
        resources: (await store.list()).map((r) => ({
          uri: resultUri(r.id),
          name: `${r.report} ${r.id}`,
          description:
            `${recordsIn(r.held)} records of ${r.report}${r.complete ? '' : ' (incomplete)'}, ` +
            `fetched ${new Date(r.createdAt).toISOString()}`,
          mimeType: 'application/json',
        })),
      }),
    }),
    {
      title: 'Report result (JSON pages)',
      description:
        'All fetched records of a report result as JSON pages: {resultId, records, page, pages, next, csv}; read ' +
        '`next` until it is null. Append .csv for CSV pages. The resultId comes from a report tool.',
      mimeType: 'application/json',
    },
    async (uri) => {
      try {
        return await readResultPage(store, uri);
      } catch (err) {
        throw asJsonRpcError(err, uri.href);
      }
    },
  );
}

/**
 * A ReportsError as the JSON-RPC error resources/read answers, with the store's words (which
 * of the two, how to get it again), not -32603 (internal error): an unknown or gone result is
 * resource-not-found and a bad page invalid params. Both are -32602 under SDK v2; the page's
 * data names what was expected, so no client reads it as not-found. lookups.ts answers every
 * other URI.
 */
function asJsonRpcError(err: unknown, uri: string): unknown {
  if (!(err instanceof ReportsError) || (err.kind !== 'not_found' && err.kind !== 'invalid_input')) return err;
  if (err.kind === 'not_found') return resourceNotFound(uri, err.message);
  return invalidParams(err.message, { uri: cutText(uri, 200), expected: 'a page number of this result' });
}

/** One JSON or CSV page of a held result, as resources/read answers it. */
async function readResultPage(store: OwnedResults, uri: URL) {
  const { id, csv, rawPage } = parseResultUri(uri.href);
  // An unknown result is not found whatever page is asked for: looked up before the page is read.
  const stored = await store.get(id);
  const page = pageNumber(rawPage);
  // Every page says whether the result is complete, and when not, how much it covers.
  const incomplete = incompleteLine(coverageOf(stored));
  const coverage = { complete: stored.complete, ...(incomplete ? { incomplete } : {}) };
  if (csv) {
    const [{ csvPages }, { recordsToCsv }] = await Promise.all([
      import('../results/pages.js'),
      import('../results/csv.js'),
    ]);
    const { columns, pages } = csvPages(stored.records);
    const n = checkPage(page, pages.length, uri.href);
    return {
      contents: [
        {
          uri: uri.href,
          mimeType: 'text/csv',
          text: recordsToCsv(pages[n - 1], columns),
          _meta: {
            page: n,
            pages: pages.length,
            next: n < pages.length ? pageUri(id, n + 1, true) : null,
            ...coverage,
          },
        },
      ],
    };
  }
  const { jsonPages } = await import('../results/pages.js');
  const pages = jsonPages(stored.records);
  const n = checkPage(page, pages.length, uri.href);
  const body = {
    resultId: id,
    records: pages[n - 1],
    page: n,
    pages: pages.length,
    next: n < pages.length ? pageUri(id, n + 1) : null,
    csv: pageUri(id, 1, true),
    ...coverage,
  };
  return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body) }] };
}

/** `reports://results/{id}[.csv][?page=N]` -> its parts. */
function parseResultUri(href: string): { id: string; csv: boolean; rawPage: string | null } {
  const rest = href.slice('reports://results/'.length);
  const q = rest.indexOf('?');
  let id = q === -1 ? rest : rest.slice(0, q);
  const params = new URLSearchParams(q === -1 ? '' : rest.slice(q + 1));
  const csv = id.endsWith('.csv');
  if (csv) id = id.slice(0, -4);
  return { id, csv, rawPage: params.get('page') };
}

/** The page asked for: 1 without `?page`. */
function pageNumber(raw: string | null): number {
  const page = raw === null ? 1 : /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(page) || page < 1) {
    throw new ReportsError(
      'invalid_input',
      `page: ${describeValue(raw)} is not a page number; use ?page=2 and on, or no page for the first`,
      { param: 'page' },
    );
  }
  return page;
}

function checkPage(page: number, pages: number, href: string): number {
  if (page > pages) {
    throw new ReportsError(
      'invalid_input',
      `page: ${page} is past the last page of ${describeValue(href.replace(/\?.*$/, ''))}, which has ${pages} ` +
        `page${pages === 1 ? '' : 's'}`,
      { param: 'page' },
    );
  }
  return page;
}
