import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Layers point one way (ARCHITECTURE.md): spec <- vm <- adapters <- guest (the in-VM orchestration) <- suites <- reports <- cli, and
 * the public root module (index.ts) on top, which nothing inside imports; bench beside them (it may use anything; nothing uses it). A module may import its own layer or a
 * lower one. Type-only imports count too: they are erased at run time, but a type from a higher
 * layer still ties the lower one to it.
 */
const LAYERS = ['spec', 'vm', 'adapters', 'guest', 'suites', 'reports', 'cli', 'index.ts'] as const;
const BESIDE = ['bench'];
const ROOT = process.cwd();

type Graph = Map<string, { target: string; typeOnly: boolean }[]>;

function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'build' ? [] : sources(path);
    return /\.(ts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every relative import and re-export of every source file, resolved to a repository path, with whether it is type-only. */
function importGraph(files: readonly string[]): Graph {
  const graph: Graph = new Map();
  for (const file of files) {
    const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, false);
    const edges: { target: string; typeOnly: boolean }[] = [];
    const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
      if (specifier === undefined || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) return;
      edges.push({ target: normalize(join(dirname(file), specifier.text)).replace(/\.js$/, '.ts'), typeOnly });
    };
    const visit = (node: ts.Node) => {
      if (ts.isImportDeclaration(node)) {
        const clause = node.importClause;
        const named = clause?.namedBindings;
        const allTypes = named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly) && clause?.name === undefined;
        add(node.moduleSpecifier, clause?.isTypeOnly === true || allTypes);
      } else if (ts.isExportDeclaration(node)) {
        add(node.moduleSpecifier, node.isTypeOnly);
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        add(node.arguments[0], false);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
    graph.set(file, edges);
  }
  return graph;
}

const layerOf = (file: string) => file.split('/')[0] ?? '';
const rank = (layer: string) => (LAYERS as readonly string[]).indexOf(layer);

/** Imports that run upward: from a layer to a higher one, or into bench from anywhere else. */
export function backEdges(graph: Graph): string[] {
  const found: string[] = [];
  for (const [file, edges] of graph) {
    for (const { target } of edges) {
      const from = layerOf(file);
      const to = layerOf(target);
      const upward = BESIDE.includes(to) ? !BESIDE.includes(from) : rank(from) !== -1 && rank(to) > rank(from);
      if (upward) found.push(`${file} -> ${target}`);
    }
  }
  return found;
}

/** Cycles of value imports (the ones that run at load time), each as the files on it. */
export function valueCycles(graph: Graph): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const { target, typeOnly } of graph.get(file) ?? []) {
      if (typeOnly) continue;
      if (state.get(target) === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target].join(' -> '));
      else if (!state.has(target)) visit(target);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('the layers', () => {
  const files = ['index.ts', ...[...LAYERS.slice(0, -1), ...BESIDE].flatMap((dir) => sources(dir))];
  const graph = importGraph(files);

  it('read the whole tree', () => {
    expect(files.length).toBeGreaterThan(250);
    expect([...graph.values()].flat().length).toBeGreaterThan(1000);
    for (const edges of graph.values()) for (const { target } of edges) expect(relative(ROOT, join(ROOT, target)).startsWith('..')).toBe(false);
  });

  it('point one way: no module imports a higher layer', () => {
    expect(backEdges(graph)).toEqual([]);
  });

  it('have no cycle of value imports', () => {
    expect(valueCycles(graph)).toEqual([]);
  });

  it('are checked by a walk that does find a back-edge and a cycle', () => {
    const made: Graph = new Map([
      ['spec/a.ts', [{ target: 'cli/b.ts', typeOnly: true }]],
      ['cli/b.ts', [{ target: 'adapters/c.ts', typeOnly: false }]],
      ['adapters/c.ts', [{ target: 'adapters/d.ts', typeOnly: false }]],
      ['adapters/d.ts', [{ target: 'adapters/c.ts', typeOnly: false }, { target: 'bench/x.ts', typeOnly: false }]],
    ]);
    expect(backEdges(made)).toEqual(['spec/a.ts -> cli/b.ts', 'adapters/d.ts -> bench/x.ts']);
    expect(valueCycles(made)).toEqual(['adapters/c.ts -> adapters/d.ts -> adapters/c.ts']);
  });
});
