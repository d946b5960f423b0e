import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { renderReadme } from '../../src/docs/readme-tables.js';

describe('README.md', () => {
  it('has the configuration and tool tables the code generates (run `npm run docs` if not)', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const expected = await renderReadme(readme);
    expect(readme).toBe(expected);
    // The tables are really there: every tool and every variable appears in a row.
    expect(readme).toMatch(/\| `air_segments_by_date` \| .+ \| `DateStart`, `DateEnd` \|/);
    expect(readme).toMatch(/\| `REPORTS_API_KEY` \| `--api-key` \| none \|/);
    expect(readme).toContain('npm install && npm run demo');
  });
});
