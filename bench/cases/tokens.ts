/**
 * Case 6. Tokens at 4 characters a token: tools/list as assistants pay it (name,
 * description, inputSchema of every tool; output schemas apart), and what a 50,000-record
 * report costs at default settings (text, structuredContent) against its raw JSON.
 */
import { startOurs } from '../ours.js';
import { row } from '../stats.js';
import { baseUrl, type CaseInput, type CaseOutput, expectComplete, structured } from './context.js';

export const TOKENS = { variant: 4, total: 50_000, pageSize: 500 };

const tokens = (chars: number) => Math.ceil(chars / 4);

export async function tokensCase(input: CaseInput): Promise<CaseOutput> {
  const ours = await startOurs(baseUrl(input.origin, 0, TOKENS.variant, TOKENS.total));
  try {
    const { tools } = await ours.client.listTools();
    const listed = tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
    const outputSchemas = tools.map((t) => t.outputSchema ?? null);
    const result = await ours.report();
    expectComplete(result, TOKENS.total);
    const text = result.content
      .filter((c) => c.type === 'text')
      .map((c) => (c as { text: string }).text)
      .join('\n');
    const structuredChars = JSON.stringify(structured(result)).length;
    const raw = input.rawBytes[`${TOKENS.variant}/${TOKENS.total}`];
    const c = '6 tokens';
    return {
      rows: [
        row(
          c,
          `tools/list (${tools.length} tools: name, description, inputSchema)`,
          'tokens',
          [tokens(JSON.stringify(listed).length)],
          9000, // CONTRACT section 4 with sql_query: at most 9,000
        ),
        row(c, 'output schemas, apart', 'tokens', [tokens(JSON.stringify(outputSchemas).length)]),
        row(c, '50,000-record report: raw JSON', 'tokens', [tokens(raw)]),
        row(c, '50,000-record report: text', 'tokens', [tokens(text.length)], 4000),
        row(c, '50,000-record report: structuredContent', 'tokens', [tokens(structuredChars)], 8000),
        row(c, 'raw JSON / text', 'x', [raw / text.length]),
        row(c, 'raw JSON / structuredContent', 'x', [raw / structuredChars]),
      ],
    };
  } finally {
    await ours.close();
  }
}
