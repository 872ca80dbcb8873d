import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Modules that import each other cannot be read or changed alone, and when the imports are of
 * values they load half-made (one sees the other's exports as undefined until both ran)
 * (docs/architecture.md, Boundaries). Type imports count too: a type borrowed back is the same
 * knot, only erased before running.
 */
const root = path.resolve('src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** The files of the project `file` imports from or re-exports, values and types alike. */
function imports(file: string): string[] {
  const code = readFileSync(file, 'utf8');
  const specs = [...code.matchAll(/^\s*(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]/gm), ...code.matchAll(/^\s*import\s+['"](\.[^'"]+)['"]/gm)];
  return specs.map((match) => path.resolve(path.dirname(file), match[1]!));
}

/** Every cycle of the graph, each once, as the files along it. */
function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (state.get(next) === 'open') found.push(stack.slice(stack.indexOf(next)).concat(next));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return found;
}

describe('import cycles', () => {
  it('finds a cycle when there is one', () => {
    const graph = new Map([
      ['games/service.ts', ['games/renewals.ts']],
      ['games/renewals.ts', ['credits/service.ts', 'games/service.ts']],
      ['credits/service.ts', []],
    ]);
    expect(cycles(graph)).toEqual([['games/service.ts', 'games/renewals.ts', 'games/service.ts']]);
  });

  it('has none among the modules of src: no module imports from one that imports it back', () => {
    const files = sources(root);
    const graph = new Map(files.map((file) => [file, imports(file).filter((target) => files.includes(target))]));
    const named = cycles(graph).map((cycle) => cycle.map((file) => path.relative(root, file)).join(' → '));
    expect(named).toEqual([]);
  });
});
