/**
 * The package's public surfaces (package.json "exports"): each is named exports only, no name means
 * two things across them, the package map points at each, and the main job runs from its own surface.
 */
import { readFileSync } from 'node:fs';

import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SURFACES: Record<string, string> = {
  '.': 'src/index.ts',
  './server': 'src/entries/server.ts',
  './summarize': 'src/entries/summarize.ts',
  './host': 'src/host/index.ts',
  './planner': 'src/plan/index.ts',
};

interface Export {
  surface: string;
  name: string;
  /** Where the exported thing is declared: file and position of its first declaration. */
  origin: string;
}

function surfaceExports(): Export[] {
  const program = ts.createProgram(Object.values(SURFACES), {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const found: Export[] = [];
  for (const [surface, file] of Object.entries(SURFACES)) {
    const source = program.getSourceFile(file);
    const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
    if (module === undefined) throw new Error(`no module symbol for ${file}`);
    for (const symbol of checker.getExportsOfModule(module)) {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const declaration = target.declarations?.[0];
      const origin =
        declaration === undefined ? '?' : `${declaration.getSourceFile().fileName}:${declaration.getStart()}`;
      found.push({ surface, name: symbol.getName(), origin });
    }
  }
  return found;
}

describe('public surfaces', () => {
  const exports = surfaceExports();

  it('the package map exports exactly these surfaces, built from these files', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { exports: Record<string, { default: string }> };
    expect(Object.keys(pkg.exports).sort()).toEqual(Object.keys(SURFACES).sort());
    for (const [surface, file] of Object.entries(SURFACES)) {
      expect(pkg.exports[surface]?.default).toBe(`./${file.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js')}`);
    }
  });

  it('each surface exports something, and no default export', () => {
    for (const surface of Object.keys(SURFACES)) {
      const names = exports.filter((entry) => entry.surface === surface).map((entry) => entry.name);
      expect(names.length, surface).toBeGreaterThan(0);
      expect(names, surface).not.toContain('default');
    }
  });

  it('a name exported by several surfaces means the same thing in each', () => {
    const byName = new Map<string, Set<string>>();
    for (const entry of exports) byName.set(entry.name, (byName.get(entry.name) ?? new Set()).add(entry.origin));
    const ambiguous = [...byName].filter(([, origins]) => origins.size > 1).map(([name]) => name);
    expect(ambiguous).toEqual([]);
  });

  it('the summarize surface runs the main job', async () => {
    const summarize = await import('../src/entries/summarize.js');
    expect(typeof summarize.runLocalSummarize).toBe('function');
    expect(summarize.summarizeRepoOutput.safeParse({}).success).toBe(false);
  });
});
