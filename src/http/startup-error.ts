/** A refusal to start in HTTP mode: index.ts prints its message as one line and exits 2. */
export class StartupError extends Error {
  override readonly name = 'StartupError';
}
