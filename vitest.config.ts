import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // chromium and redis-server: found, or their suites skipped with one line (failed with CI set)
    globalSetup: ['test/helpers/system-programs.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    maxWorkers: 2,
    // A server a test starts with the environment passed on keeps its results here, never in
    // the user's cache folder (test helpers also set REPORTS_RESULTS_DIR to off or a folder of their own).
    env: { XDG_CACHE_HOME: join(tmpdir(), 'travel-reports-mcp-test-cache') },
  },
});
