import { redact } from './errors.js';

/**
 * Logs go to stderr only: stdout carries the MCP protocol (stdio transport). Every line
 * passes through redaction of the configured secrets.
 */
export type Logger = (line: string) => void;

export function stderrLogger(secrets: readonly string[], enabled = true): Logger {
  return (line) => {
    if (enabled) process.stderr.write(`[travel-reports-mcp] ${redact(line, secrets)}\n`);
  };
}
