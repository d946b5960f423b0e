import { redact } from './errors.js';

/**
 * Logs go to stderr only: stdout carries the MCP protocol (stdio transport). Every line
 * passes through redaction of the configured secrets.
 */
export type Logger = (line: string) => void;

export function stderrLogger(secrets: readonly string[], enabled = true): Logger {
  return (line) => {
    if (enabled) queueLine(`[travel-reports-mcp] ${redact(line, secrets)}\n`);
  };
}

/**
 * Lines wait for the end of the event loop's turn and are written together. Under a desktop
 * host stderr is a pipe, whose write Node makes synchronously on Linux: 0.13-0.16 ms on the
 * bench's machine, which a report call's line, written before its answer, added to every
 * answer. At 'exit' (a stop, process.exit, an uncaught error) what still waits is written, so
 * only a process ended outright (SIGKILL, V8 out of memory) loses the lines of its last turn,
 * as it loses the answer in progress.
 */
let waiting: string[] = [];
let exitListened = false;

function queueLine(text: string): void {
  if (waiting.length === 0) {
    setImmediate(writeWaiting);
    if (!exitListened) {
      exitListened = true;
      process.on('exit', writeWaiting);
    }
  }
  waiting.push(text);
}

function writeWaiting(): void {
  if (waiting.length === 0) return;
  const text = waiting.join('');
  waiting = [];
  process.stderr.write(text);
}
