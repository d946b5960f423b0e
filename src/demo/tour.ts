/**
 * `npm run demo`: a scripted tour. A real MCP client starts the built server in demo mode
 * over stdio (as Claude Desktop would), lists the tools, asks the questions a consultant
 * asks, and prints each tool call and the text the assistant receives.
 */

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { openCouponsOfTravellersSql } from './open-coupons-sql.js';

// The shipped server (npm run build's bundle), as the bin runs it.
const SERVER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'server', 'index.mjs');
const SHOW_LINES = 30;
const bold = (s: string) => (process.stdout.isTTY ? `\x1b[1m${s}\x1b[0m` : s);
const dim = (s: string) => (process.stdout.isTTY ? `\x1b[2m${s}\x1b[0m` : s);

function heading(step: number, title: string): void {
  process.stdout.write(`\n${bold(`── ${step}. ${title} ${'─'.repeat(Math.max(0, 66 - title.length))}`)}\n`);
}

function show(text: string, lines = SHOW_LINES): void {
  const all = text.split('\n');
  for (const line of all.slice(0, lines)) process.stdout.write(`  │ ${line}\n`);
  if (all.length > lines)
    process.stdout.write(dim(`  │ … ${all.length - lines} more lines the assistant also receives\n`));
}

async function ask(
  client: Client,
  question: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<CallToolResult> {
  process.stdout.write(`  ${bold('User:')} ${question}\n`);
  process.stdout.write(`  ${bold('Assistant calls')} ${tool} ${JSON.stringify(args)}\n`);
  const started = Date.now();
  const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
  const text = result.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');
  process.stdout.write(
    `  ${bold('Assistant receives')} ${dim(
      `(${Date.now() - started} ms, ${Math.ceil(text.length / 4)} tokens of ` +
        `text${result.isError ? ', isError' : ''})`,
    )}\n`,
  );
  show(text);
  if (result.isError) throw new Error(`${tool} failed: ${text}`);
  return result;
}

async function main(): Promise<void> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [SERVER, '--demo'],
    env: { ...(process.env as Record<string, string>), REPORTS_DEMO: 'true' },
    stderr: 'ignore',
  });
  const client = new Client({ name: 'demo-tour', version: '1.0.0' });
  const started = Date.now();
  await client.connect(transport);
  try {
    process.stdout.write(
      bold("travel-reports-mcp demo: an assistant answering from a travel agency's booking reports\n"),
    );
    process.stdout.write(
      dim(
        'The server runs in demo mode: an embedded sandbox serves synthetic agency data, signed and paged like the real service.\n',
      ),
    );

    heading(1, 'The tools the assistant sees');
    const { tools } = await client.listTools();
    const cost = Math.ceil(
      JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema })))
        .length / 4,
    );
    process.stdout.write(`  ${tools.length} tools, ${cost} tokens of definitions:\n`);
    for (let i = 0; i < tools.length; i += 3) {
      process.stdout.write(
        `  ${tools
          .slice(i, i + 3)
          .map((t) => t.name.padEnd(48))
          .join('')
          .trimEnd()}\n`,
      );
    }

    heading(2, 'Duty of care: who is in Singapore this week?');
    const sin = await ask(client, 'Which of our travellers are in Singapore this week?', 'travellers_at', {
      place: 'SIN',
      from: 'today',
      to: 'today+6',
    });
    const { resultId: sinId, table: sinTable } = sin.structuredContent as { resultId: string; table: string };
    await ask(client, '…leaving out those based there: how many per status?', 'query_report', {
      resultId: sinId,
      where: [{ field: 'Status', op: 'ne', value: 'based here' }],
      groupBy: ['Status'],
      aggregates: [{ fn: 'count' }, { fn: 'countDistinct', field: 'RecordLocator' }],
    });

    heading(3, 'Open coupons expiring within a year, per account');
    const coupons = await ask(
      client,
      'Which tickets with open coupons expire within a year?',
      'ticket_coupons_by_status_code',
      {
        DateStart: 'today',
        DateEnd: 'today+365',
        CouponCodeGroup: 'OPEN',
        DateTracker: 'E',
        rowLimit: 5,
      },
    );
    const { resultId: couponsId, table: couponsTable } = coupons.structuredContent as {
      resultId: string;
      table: string;
    };
    await ask(client, 'Per account, how many and what credit value?', 'query_report', {
      resultId: couponsId,
      groupBy: ['Account'],
      aggregates: [{ fn: 'count' }, { fn: 'countDistinct', field: 'TktNumber' }, { fn: 'sum', field: 'CreditValue' }],
      limit: 10,
    });

    heading(4, 'Across two reports: who in Singapore holds open coupons?');
    await ask(client, 'Which of the travellers in Singapore this week hold open coupons?', 'sql_query', {
      sql: openCouponsOfTravellersSql(sinTable, couponsTable),
    });

    heading(5, "What went wrong in yesterday's failed submissions?");
    const failed = await ask(client, "What went wrong in yesterday's failed submissions?", 'check_failed_submissions', {
      LogDateStart: 'yesterday',
      LogDateEnd: 'yesterday',
      rowLimit: 5,
    });
    const failedId = (failed.structuredContent as { resultId: string }).resultId;
    await ask(client, 'Group them by message', 'query_report', {
      resultId: failedId,
      groupBy: ['LogMessage'],
      aggregates: [{ fn: 'count' }],
      limit: 10,
    });

    heading(6, 'Checking the connection');
    await ask(client, 'Is the connection to the reporting service healthy?', 'diagnose_connection', {});

    process.stdout.write(
      `\n${bold('Done')} in ${((Date.now() - started) / 1000).toFixed(1)} s. Install it in Claude Desktop or your IDE: see README.md.\n`,
    );
  } finally {
    await client.close();
  }
}

main().catch((err) => {
  process.stderr.write(`demo failed: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
