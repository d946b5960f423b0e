/**
 * Comments and messages cite the repository's own documents (docs/), never files outside it
 * that a reader of the repository cannot open; and every docs/ file cited exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
// Spelled in pieces so that this file does not cite them itself.
const OUTSIDE = new RegExp(['CONTRACT\\.md', 'DESIGN\\.md', 'spec/inter' + 'face', 'upstream' + '-notes'].join('|'));

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : /\.(ts|md)$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

const sources = [...files(join(ROOT, 'src')), ...files(join(ROOT, 'test')), ...files(join(ROOT, 'docs'))];

describe('citations', () => {
  it('no source, test or doc cites a document outside the repository', () => {
    const hits = sources.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (OUTSIDE.test(line) ? [`${relative(ROOT, f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it('every docs/*.md cited exists', () => {
    const cited = new Set(
      sources.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/docs\/([\w-]+\.md)/g)].map((m) => m[1])),
    );
    expect([...cited].filter((name) => !existsSync(join(ROOT, 'docs', name)))).toEqual([]);
    expect(cited).toContain('architecture.md');
    expect(cited).toContain('upstream.md');
    expect(cited).toContain('adding-a-transaction.md');
  });
});
