/** Case 3's yardstick: a minimal MCP server on stdio with the same SDK and one tool. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'minimal', version: '1.0.0' });
server.registerTool(
  'echo',
  { description: 'Echoes its text.', inputSchema: { text: z.string().describe('Text to echo') } },
  async ({ text }) => ({ content: [{ type: 'text', text }] }),
);
await server.connect(new StdioServerTransport());
process.stdin.on('end', () => process.exit(0));
