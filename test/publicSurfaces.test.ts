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
  './tool': 'src/entries/tool.ts',
  './testing': 'src/entries/testing.ts',
  './host': 'src/entries/host.ts',
  './planner': 'src/plan/index.ts',
};

interface Export {
  surface: string;
  name: string;
  /** Where the exported thing is declared: file and position of its first declaration. */
  origin: string;
}

/**
 * A program of src/ alone: what a surface exports and where each export is declared are decided by the
 * project's own files (nothing in src/ re-exports a package: checked below), so the compiler is not shown
 * node_modules or the default library, which would be most of its work (the type check is `npm run typecheck`).
 */
function srcProgram(): ts.Program {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    noEmit: true,
    noLib: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (file) => !file.includes('/node_modules/') && fileExists(file);
  return ts.createProgram(Object.values(SURFACES), options, host);
}

const program = srcProgram();

function surfaceExports(): Export[] {
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

  it('the surfaces are read from src/ alone, and no file of src/ re-exports a package', () => {
    const files = program.getSourceFiles().map((file) => file.fileName);
    expect(files.length).toBeGreaterThan(Object.keys(SURFACES).length);
    expect(files.filter((file) => !/(^|\/)src\//.test(file))).toEqual([]);
    // A re-export from a package would be declared in node_modules, which this program does not load.
    const reExportsOfPackages = program.getSourceFiles().flatMap((file) =>
      file.statements
        .filter(ts.isExportDeclaration)
        .map((statement) => statement.moduleSpecifier)
        .filter((specifier) => specifier !== undefined && ts.isStringLiteral(specifier))
        .map((specifier) => (specifier as ts.StringLiteral).text)
        .filter((target) => !target.startsWith('.'))
        .map((target) => `${file.fileName}: ${target}`),
    );
    expect(reExportsOfPackages).toEqual([]);
    // Nor through a local import: every export resolves to a declaration in src/.
    expect(exports.filter((entry) => !/(^|\/)src\//.test(entry.origin))).toEqual([]);
  });

  it('the summarize surface runs the main job', async () => {
    const summarize = await import('../src/entries/summarize.js');
    expect(typeof summarize.runLocalSummarize).toBe('function');
    expect(summarize.summarizeRepoOutput.safeParse({}).success).toBe(false);
  });
});
