import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { resolveWhereDates } from '../catalog/where-dates.js';
import { invalidInput, ReportsError } from '../errors.js';
import { coverageOf, incompleteLine } from '../results/coverage.js';
import { queryArgsShape, whereSchema } from '../results/query-schema.js';
import { formatNumber } from '../results/values.js';
import { guard } from './boundary.js';
import type { Runtime } from './runtime.js';

/** structuredContent of export_report. */
export const exportOutputShape = {
  resultId: z.string(),
  report: z.string(),
  format: z.enum(['csv', 'xlsx']),
  path: z.string().describe('Absolute path of the file written'),
  fileName: z.string(),
  rows: z.number().int().describe('Records written (those matching where)'),
  columns: z.array(z.string()),
  bytes: z.number().int().describe('Size of the file in bytes'),
  complete: z.boolean().describe('Whether the result held every record the service reported'),
  notes: z.array(z.string()),
};

const RESULT_ID = /^[A-Za-z0-9_-]{1,64}$/;

// Built once per process: every session's server registers these same schemas (plain-schemas.ts).
const exportInput = z
  .object({
    resultId: z.string().min(1).describe('resultId from a report tool'),
    format: z.enum(['csv', 'xlsx']).describe('csv: UTF-8 with BOM; xlsx: typed cells, frozen filtered header'),
    where: z.array(whereSchema).optional().describe('Filters as in query_report; all must hold'),
    fields: z.array(z.string().min(1)).optional().describe('Columns (dot paths allowed); default every field'),
    unnest: queryArgsShape.unnest,
    name: z.string().optional().describe('File name stem instead of the report name; the date is appended'),
  })
  .strict();
const exportOutput = z.object(exportOutputShape);

/**
 * export_report: the matching records of a held result as a CSV or XLSX file in
 * REPORTS_EXPORT_DIR. It writes to the disk of the machine the server runs on, which in
 * HTTP mode is not the user's: there it is refused with that reason.
 */
export function registerExportTool(server: McpServer, rt: Runtime): void {
  server.registerTool(
    'export_report',
    {
      title: 'Export a report result to a file',
      description:
        'Write ALL records of a held result matching where (not only the rows shown) to a CSV or XLSX file in ' +
        'REPORTS_EXPORT_DIR; answers with the path, row count and size. ' +
        'For spreadsheets to keep or send on. Never overwrites: a second export of the day gets -2, -3.',
      inputSchema: exportInput,
      outputSchema: exportOutput,
      // It writes a file, so not read-only: hosts auto-approve read-only tools. Not destructive:
      // it never replaces a file (a second export of the day gets -2) and changes nothing at the
      // service. Idempotent as the contract words it: the same arguments export the same records.
      annotations: {
        title: 'Export a report result to a file',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: true,
        openWorldHint: false,
      },
    },
    guard(
      'export_report',
      rt.secrets,
      rt.log,
      async (args) => {
        if (rt.config.http)
          throw new ReportsError(
            'configuration',
            "export_report writes files on the server's own disk, so it works only in stdio mode, and this " +
              'server runs in HTTP mode (REPORTS_HTTP). ' +
              `Read the records as CSV from reports://results/${RESULT_ID.test(args.resultId) ? args.resultId : '{resultId}'}.csv instead.`,
          );
        if (!RESULT_ID.test(args.resultId))
          throw invalidInput(
            'resultId',
            JSON.stringify(args.resultId),
            "is not a resultId; expected the id a report tool returned (like 'r_AbC123…')",
          );
        const stored = await rt.results.get(args.resultId);
        // The exporters (and exceljs behind them) load with the first export, not at start-up.
        const { exportResult } = await import('../export/export.js');
        const dates = resolveWhereDates(args.where, { timeZone: rt.config.timeZone, now: rt.now() });
        const out = await exportResult(
          stored,
          { ...args, where: dates.where },
          {
            folder: rt.config.exportDir,
            now: rt.now(),
            timeZone: rt.config.timeZone,
          },
        );
        const { meaning, ...file } = out;
        const notes: string[] = [...dates.notes];
        const incomplete = incompleteLine(coverageOf(stored));
        if (incomplete) notes.push(`${incomplete} The file holds only what was fetched.`);
        notes.push(...meaning.map(rt.redact.text));
        if (out.format === 'xlsx')
          notes.push(
            'Dates are written as the time each record states, in its own UTC offset (spreadsheets keep no zone).',
          );
        const structured = {
          resultId: stored.id,
          report: stored.report,
          ...file,
          complete: stored.complete,
          notes,
        };
        const filters = args.where?.length ? `, ${args.where.length} filter${args.where.length > 1 ? 's' : ''}` : '';
        const text = [
          `Exported ${formatNumber(out.rows)} ${out.rows === 1 ? 'record' : 'records'} × ${out.columns.length} ` +
            `columns of ${stored.report} (${stored.id}${filters}) as ${out.format.toUpperCase()}.`,
          `File: ${out.path}`,
          `Size: ${formatNumber(out.bytes)} bytes.`,
          ...notes,
        ].join('\n');
        return { structuredContent: structured, content: [{ type: 'text', text }] };
      },
      rt.redact.text,
    ),
  );
}
