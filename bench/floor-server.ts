/**
 * Case 2's floor: a minimal MCP server on stdio, on the SDK ours runs on (v2's low-level Server,
 * no checks of its own), that answers one tool (our
 * report tool's name and schemas, as our tools/list gives them) by making the bench's raw
 * signed request of the same page (pass-through.ts) and returning a copy of our server's
 * answer to that call. What it adds over the raw request is what the protocol, the pipes and
 * an answer of that size cost any server: the part of our overhead that is not our own work.
 * argv[2]: the file holding { tool, result, pageUrl } (written by cases/small-call.ts).
 */
import { readFileSync } from 'node:fs';
import { type CallToolResult, Server, type Tool } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { passThroughAgent, rawRequest } from './pass-through.js';

/** Written as JSON by the bench's client side (SDK v1 types): read as the wire carries them. */
export interface FloorInput {
  tool: unknown;
  result: unknown;
  pageUrl: string;
  records: number;
}

const input = JSON.parse(readFileSync(process.argv[2], 'utf8')) as FloorInput;
const agent = passThroughAgent(1);
const server = new Server({ name: 'floor', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler('tools/list', async () => ({ tools: [input.tool as Tool] }));
server.setRequestHandler('tools/call', async () => {
  const page = await rawRequest(agent, input.pageUrl);
  if (page.records.length !== input.records) throw new Error(`floor: ${page.records.length} records`);
  return input.result as CallToolResult;
});
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
