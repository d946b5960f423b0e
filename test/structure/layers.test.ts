/**
 * The folders of src/ import downwards only, and no module imports itself round a circle
 * (docs/architecture.md, "Layers"). A new folder must be given a place in LAYERS before it
 * can be imported. Read from the source with TypeScript's own import scanner, type-only and
 * dynamic imports included: a type import still couples the two folders.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');

/** Low to high: a folder may import its own layer's folders and those below it. */
const LAYERS: readonly (readonly string[])[] = [
  ['errors', 'log', 'config', 'version'],
  ['upstream'],
  ['catalog'],
  ['results', 'sql'],
  ['presentation', 'export', 'view'],
  ['server'],
  // Entry points: the stdio/HTTP server, the README generator, the demo tour.
  ['http', 'docs', 'demo', 'index'],
];

/** The embedded sandbox stands beside the layers: it may use these, and only the demo path imports it. */
const SANDBOX_MAY_IMPORT = ['errors', 'upstream/sign.ts', 'upstream/service-date.ts'];
const SANDBOX_IMPORTERS = ['server/demo-upstream.ts'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** 'server/run-report.ts' for src/server/run-report.ts. */
const name = (file: string) => relative(SRC, file).split(sep).join('/');
/** 'server', or 'errors' for src/errors.ts. */
const folderOf = (file: string) => name(file).split('/')[0].replace(/\.ts$/, '');

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map((i) => i.fileName)
      // package.json (read by version.ts) is data, not a module of a layer.
      .filter((f) => f.startsWith('.') && !f.endsWith('.json'))
      .map((f) => name(join(dirname(file), f.replace(/\.js$/, '.ts'))));
    graph.set(name(file), [...new Set(targets)]);
  }
  return graph;
}

/** Every import circle, as the list of files on it (Tarjan's strongly connected components). */
function cycles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)?.includes(v)) out.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const layerOf = (folder: string) => LAYERS.findIndex((l) => l.includes(folder));

/** What is wrong with one import, or undefined when it is allowed. */
function brokenRule(from: string, to: string): string | undefined {
  const [a, b] = [from, to].map((f) => folderOf(`${SRC}/${f}`));
  if (a === b) return undefined;
  if (b === 'sandbox') {
    return SANDBOX_IMPORTERS.includes(from) ? undefined : `${from} imports the sandbox (only ${SANDBOX_IMPORTERS} may)`;
  }
  if (a === 'sandbox') {
    return SANDBOX_MAY_IMPORT.some((p) => to === p || to.startsWith(`${p}/`) || folderOf(`${SRC}/${to}`) === p)
      ? undefined
      : `the sandbox imports ${to} (it may import only ${SANDBOX_MAY_IMPORT.join(', ')})`;
  }
  for (const folder of [a, b]) {
    if (layerOf(folder) < 0) return `src/${folder} has no place in LAYERS (test/structure/layers.test.ts): give it one`;
  }
  return layerOf(b) <= layerOf(a) ? undefined : `${from} (layer ${a}) imports ${to} (layer ${b}, higher)`;
}

describe('import structure of src/', () => {
  const graph = importGraph();

  it('reads the whole tree (the scanner finds the imports)', () => {
    expect(graph.get('server/report-call.ts')).toContain('presentation/index.ts');
    // Dynamic imports count as imports: the calls load lazily but are still layered.
    expect(graph.get('server/report-tools.ts')).toContain('server/report-call.ts');
    expect(graph.get('server/runtime.ts')).toContain('server/demo-upstream.ts');
    expect(graph.size).toBe(sourceFiles(SRC).length);
  });

  it('has no import cycle', () => {
    expect(cycles(graph)).toEqual([]);
  });

  it('imports downwards only, and the sandbox only from the demo path', () => {
    const broken = [...graph].flatMap(([from, tos]) => tos.map((to) => brokenRule(from, to)).filter(Boolean));
    expect(broken).toEqual([]);
  });

  it('the checks catch what they are for', () => {
    expect(
      cycles(
        new Map([
          ['a.ts', ['b.ts']],
          ['b.ts', ['a.ts']],
          ['c.ts', ['a.ts']],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts']]);
    expect(brokenRule('upstream/client.ts', 'catalog/types.ts')).toMatch(/layer upstream.*layer catalog, higher/);
    expect(brokenRule('server/runtime.ts', 'sandbox/service.ts')).toMatch(/imports the sandbox/);
    expect(brokenRule('sandbox/data.ts', 'results/store.ts')).toMatch(/the sandbox imports results/);
    expect(brokenRule('sandbox/auth.ts', 'upstream/sign.ts')).toBeUndefined();
    expect(brokenRule('newfolder/x.ts', 'errors.ts')).toMatch(/src\/newfolder has no place in LAYERS/);
  });
});
