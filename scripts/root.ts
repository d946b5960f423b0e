import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (these scripts run as scripts/*.ts under vitest and as dist/scripts/*.js). */
export const ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  return path.basename(path.dirname(from)) === 'dist' ? path.resolve(from, '..', '..') : path.resolve(from, '..');
}
