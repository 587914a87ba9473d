/**
 * Whole-repository facts on real trees in temporary directories: the language mix by files and bytes with
 * vendored, generated and documentation files apart, the layout's roles, manifests and entry points checked
 * against the listing.
 */
import { afterAll, describe, expect, it } from 'vitest';

import { openRepository } from '../../../src/repo/index.js';
import type { RepoFacts } from '../../../src/repo/index.js';
import { MAX_SIZED } from '../../../src/repo/facts/index.js';
import { TempDirs, writeTree } from '../fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

async function factsOf(files: Record<string, string>, subPath?: string): Promise<RepoFacts> {
  const root = await temp.make('facts-');
  await writeTree(root, files);
  const repo = await openRepository(root, { listing: 'walker' });
  const survey = await repo.survey(subPath, { candidateBytes: 0 });
  if (survey.facts === undefined) throw new Error('no facts');
  return survey.facts;
}

const code = (bytes: number): string => 'x'.repeat(bytes);

describe('repository facts', () => {
  it('counts a Go module: languages by bytes, vendored and docs apart, roles, go.mod name, main packages, make targets', async () => {
    const facts = await factsOf({
      'README.md': '# tool\n',
      'go.mod': 'module github.com/example/tool\n\ngo 1.22\n',
      'main.go': code(3000),
      'cmd/helper/main.go': code(2000),
      'internal/engine/engine.go': code(9000),
      'internal/engine/engine_test.go': code(1000),
      'scripts/release.sh': code(500),
      'docs/guide.md': code(40000),
      'vendor/github.com/dep/dep.go': code(90000),
      Makefile: 'build:\n\tgo build\n\ninstall: build\n\tgo install\n\n.PHONY: build\n',
      '.github/workflows/ci.yml': 'on: push\n',
    });
    expect(facts.mix.main).toEqual({ language: 'Go', of: 'code' });
    const go = facts.mix.languages.find((share) => share.language === 'Go');
    // Vendored Go (90 kB) and the documentation (40 kB) are not in the code's bytes.
    expect(go).toEqual({ language: 'Go', files: 4, bytes: 15000 });
    expect(facts.mix.vendored).toBe(1);
    expect(facts.mix.documentation.files).toBe(2);
    expect(facts.mix.bytes).toBe('measured');
    const roles = Object.fromEntries(facts.layout.directories.map((entry) => [entry.dir, entry.role]));
    expect(roles).toMatchObject({
      'internal/': 'source',
      'cmd/': 'source',
      'docs/': 'docs',
      'scripts/': 'scripts',
      'vendor/': 'vendored',
      '.github/': 'ci',
    });
    expect(facts.manifests[0]).toMatchObject({ path: 'go.mod', kind: 'go', name: 'github.com/example/tool' });
    expect(facts.project.name).toEqual({ value: 'github.com/example/tool', from: 'go.mod module' });
    expect(facts.entryPoints.map((entry) => entry.path)).toEqual(['main.go', 'cmd/helper/main.go']);
    expect(facts.commands.map((command) => command.command)).toEqual(['make build', 'make install']);
  });

  it("finds each Go command's main package under cmd/: main.go, else the file named after the command", async () => {
    const facts = await factsOf({
      'go.mod': 'module example.com/cluster\n',
      'cmd/ctl/ctl.go': code(100),
      'cmd/ctl/flags.go': code(100),
      'cmd/agent/main.go': code(100),
      'cmd/agent/agent.go': code(100),
      'cmd/tools/helper.go': code(100),
      'pkg/api/api.go': code(100),
    });
    expect(facts.entryPoints).toEqual([
      { path: 'cmd/agent/main.go', via: 'Go command under cmd/' },
      { path: 'cmd/ctl/ctl.go', via: 'Go command under cmd/' },
    ]);
  });

  it('maps a declared build output absent from the checkout to its source, and drops what has none', async () => {
    const facts = await factsOf({
      'package.json': JSON.stringify({
        name: 'widget',
        description: 'Makes widgets',
        exports: { '.': { types: './dist/index.d.ts', import: './dist/index.js' } },
        bin: { widget: './dist/cli.js', ghost: './dist/ghost.js' },
        scripts: { build: 'tsc', test: 'vitest' },
      }),
      'tsconfig.json': '{}',
      'src/index.ts': code(400),
      'src/cli.ts': code(300),
      'test/index.test.ts': code(100),
    });
    expect(facts.manifests[0]).toMatchObject({ path: 'package.json', kind: 'npm', language: 'TypeScript' });
    expect(facts.project).toEqual({
      name: { value: 'widget', from: 'package.json name' },
      description: { value: 'Makes widgets', from: 'package.json description' },
    });
    expect(facts.entryPoints).toEqual([
      { path: 'src/cli.ts', via: 'package.json `bin.widget`', declared: './dist/cli.js' },
      { path: 'src/index.ts', via: 'package.json `exports`', declared: './dist/index.js' },
    ]);
    expect(facts.commands.map((command) => command.command)).toEqual(['npm run build', 'npm test']);
  });

  it('resolves [project.scripts] to the module file in the src layout and names the package', async () => {
    const facts = await factsOf({
      'pyproject.toml':
        '[project]\nname = "sniff"\ndescription = "Sniffs packets"\n\n[project.scripts]\nsniff = "sniff.cli:main"\n',
      'src/sniff/__init__.py': code(100),
      'src/sniff/cli.py': code(200),
      'tests/test_cli.py': code(50),
    });
    expect(facts.mix.main).toEqual({ language: 'Python', of: 'code' });
    expect(facts.entryPoints).toEqual([
      { path: 'src/sniff/cli.py', via: 'pyproject.toml `[project.scripts]` sniff', declared: 'sniff.cli:main' },
      { path: 'src/sniff/__init__.py', via: 'Python package `__init__`' },
    ]);
  });

  it('gives each top directory a role: tests, examples, build configuration, packages, assets, other', async () => {
    const facts = await factsOf({
      'tests/test_a.py': code(10),
      'tests/test_b.py': code(10),
      'examples/demo.py': code(10),
      'cmake/Find.cmake': code(10),
      'packages/a/index.js': code(10),
      'assets/site.css': code(10),
      'data/table.csv': code(10),
      'lib/core.py': code(10),
    });
    expect(Object.fromEntries(facts.layout.directories.map((entry) => [entry.dir, entry.role]))).toEqual({
      'tests/': 'tests',
      'examples/': 'examples',
      'cmake/': 'build',
      'packages/': 'packages',
      'assets/': 'assets',
      'data/': 'other',
      'lib/': 'source',
    });
    expect(facts.layout.directories[0]).toEqual({ dir: 'tests/', files: 2, role: 'tests', language: 'Python' });
  });

  it('reads Cargo [[bin]] paths and a workspace, and never names a path that is not listed', async () => {
    const facts = await factsOf({
      'Cargo.toml':
        '[package]\nname = "finder"\ndescription = "Finds things"\n\n[[bin]]\nname = "fd"\npath = "crates/core/main.rs"\n\n' +
        '[[bin]]\nname = "gone"\npath = "src/bin/gone.rs"\n\n[workspace]\nmembers = ["crates/*"]\n',
      'crates/core/main.rs': code(1000),
      'crates/walk/Cargo.toml': '[package]\nname = "walk"\n',
      'crates/walk/src/lib.rs': code(500),
    });
    expect(facts.manifests.map((manifest) => [manifest.path, manifest.workspace === true])).toEqual([
      ['Cargo.toml', true],
      ['crates/walk/Cargo.toml', false],
    ]);
    expect(facts.entryPoints.map((entry) => entry.path)).toEqual(['crates/core/main.rs', 'crates/walk/src/lib.rs']);
  });

  it('puts the workspace member that carries the project first', async () => {
    const mono = await factsOf({
      'package.json': JSON.stringify({ name: '@acme/rocket-monorepo', private: true, workspaces: ['packages/*'] }),
      'packages/create-rocket/package.json': JSON.stringify({
        name: 'create-rocket',
        bin: { 'create-rocket': 'index.js' },
      }),
      'packages/create-rocket/index.js': code(100),
      'packages/rocket/package.json': JSON.stringify({ name: 'rocket', bin: { rocket: 'bin/rocket.js' } }),
      'packages/rocket/bin/rocket.js': code(100),
    });
    expect(mono.manifests.map((manifest) => manifest.path)).toEqual([
      'package.json',
      'packages/rocket/package.json',
      'packages/create-rocket/package.json',
    ]);
    expect(mono.entryPoints[0]?.path).toBe('packages/rocket/bin/rocket.js');
    const virtual = await factsOf({
      'Cargo.toml': '[workspace]\nmembers = ["web", "web-core", "web-extra"]\n',
      'web-core/Cargo.toml': '[package]\nname = "web-core"\n',
      'web-core/src/lib.rs': code(100),
      'web-extra/Cargo.toml': '[package]\nname = "web-extra"\n',
      'web-extra/src/lib.rs': code(100),
      'web/Cargo.toml': '[package]\nname = "web"\n',
      'web/src/lib.rs': code(100),
    });
    expect(virtual.project).toEqual({});
    expect(virtual.entryPoints[0]?.path).toBe('web/src/lib.rs');
  });

  it('settles .h by the repository: C++ when C++ sources outnumber C', async () => {
    const cpp = await factsOf({
      'include/lib.h': code(100),
      'src/a.cpp': code(10),
      'src/b.cc': code(10),
      'src/c.c': code(10),
    });
    expect(cpp.mix.languages.map((share) => share.language)).toEqual(['C++', 'C']);
    const c = await factsOf({ 'include/lib.h': code(100), 'src/a.c': code(10) });
    expect(c.mix.languages.map((share) => share.language)).toEqual(['C']);
  });

  it('says documentation only when there is no code, and counts CI configuration apart', async () => {
    const facts = await factsOf({
      'readme.md': '# Awesome\n',
      'contributing.md': 'Be nice.\n',
      'guide/one.md': 'text',
      '.github/workflows/check.sh': 'echo hi\n',
    });
    expect(facts.mix.languages).toEqual([]);
    expect(facts.mix.main).toEqual({ language: 'Markdown', of: 'documentation' });
  });

  it('judges a sub-path on its own, and gives paths from the root as the candidates do', async () => {
    const facts = await factsOf(
      {
        'README.md': '# mono\n',
        'packages/app/package.json': JSON.stringify({ name: 'app', main: 'index.js' }),
        'packages/app/index.js': code(100),
        'packages/app/docs/a.md': 'a',
      },
      'packages/app',
    );
    expect(facts.files).toBe(3);
    expect(facts.manifests.map((manifest) => manifest.path)).toEqual(['packages/app/package.json']);
    expect(facts.entryPoints).toEqual([{ path: 'packages/app/index.js', via: 'packages/app/package.json `main`' }]);
    // `docs/` of the sub-path is its documentation: the roles are judged relative to it.
    expect(facts.layout.directories).toEqual([{ dir: 'packages/app/docs/', files: 1, role: 'docs' }]);
    expect(facts.mix.documentation.files).toBe(1);
  });

  it('estimates bytes from an evenly spread sample on a large tree', async () => {
    const files: Record<string, string> = { 'big.py': code(10) };
    for (let i = 0; i < MAX_SIZED + 200; i++) files[`src/m${i}.js`] = code(20);
    const facts = await factsOf(files);
    expect(facts.mix.bytes).toBe('estimated');
    expect(facts.mix.sampled).toBe(MAX_SIZED);
    const js = facts.mix.languages.find((share) => share.language === 'JavaScript');
    expect(js?.files).toBe(MAX_SIZED + 200);
    // Every sampled JavaScript file has 20 bytes: the estimate is exact here.
    expect(js?.bytes).toBe((MAX_SIZED + 200) * 20);
  }, 30_000);
});
