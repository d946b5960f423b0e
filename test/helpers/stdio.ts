/**
 * Ends a server a test started over stdio: the client closes (which ends the child), then the
 * child is ended by its own PID in case it is still there.
 */
export async function closeStdio(
  client: { close(): Promise<void> } | undefined,
  pid: number | undefined,
): Promise<void> {
  await client?.close();
  if (!pid) return;
  try {
    process.kill(pid);
  } catch {
    // already gone: closing the client ended it
  }
}
