/** In a test file: the path of a system program found by the global setup, '' when missing. */
import { inject } from 'vitest';
import type { Program } from './system-programs.js';

export function programPath(name: Program): string {
  return inject('programs')?.[name] ?? '';
}
