/**
 * The system programs some suites need (Debian's chromium for the result view in a browser,
 * redis-server for the shared store and limiter), looked up once per `npm test` run (vitest
 * globalSetup). A fresh machine with only Node and npm still passes: a suite whose program is
 * missing is skipped, and this prints one line naming the program and the command that
 * installs it. With CI set, a missing program fails the run instead (CI never skips silently).
 * Suites ask `programPath('chromium')`; '' means missing (and the suite skips).
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { TestProject } from 'vitest/node';

export const PROGRAMS = {
  chromium: { install: 'apt-get install -y chromium', needs: 'test/browser (the result view in a browser)' },
  'redis-server': {
    install: 'apt-get install -y redis-server',
    needs: 'the Redis suites (shared results, shared limiter, replicas)',
  },
} as const;
export type Program = keyof typeof PROGRAMS;

declare module 'vitest' {
  export interface ProvidedContext {
    programs: Record<Program, string>;
  }
}

/** The program's path on PATH, or undefined. */
export function findOnPath(name: string, path = process.env.PATH ?? ''): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** The line printed for a missing program (and the error with CI set). */
export function missingLine(name: Program, ci: boolean): string {
  const { install, needs } = PROGRAMS[name];
  return ci
    ? `${name} is not installed and CI is set, so ${needs} cannot be skipped: ${install}`
    : `skipped ${needs}: ${name} is not installed (${install})`;
}

export default function setup(project: TestProject): void {
  const found = {} as Record<Program, string>;
  const missing: Program[] = [];
  for (const name of Object.keys(PROGRAMS) as Program[]) {
    found[name] = findOnPath(name) ?? '';
    if (!found[name]) missing.push(name);
  }
  const ci = Boolean(process.env.CI);
  if (missing.length && ci) throw new Error(missing.map((m) => missingLine(m, true)).join('\n'));
  for (const m of missing) console.log(missingLine(m, false));
  project.provide('programs', found);
}
