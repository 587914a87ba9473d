/**
 * Entry points and the root manifest by each language's conventions, on small trees in temporary directories:
 * what a manifest says (mix.exs `app`, .cabal `main-is`, shard.yml `targets`, composer `autoload`, csproj
 * `OutputType`, Package.swift products, Gradle `mainClass`), then the layout; the wrong manifests (tests, fuzzers,
 * plugins, helper packages) never win, and documents are never an entry point.
 */
import { afterAll, describe, expect, it } from 'vitest';

import { openRepository } from '../../../src/repo/index.js';
import type { RepoFacts } from '../../../src/repo/index.js';
import { TempDirs, writeTree } from '../fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

async function factsOf(files: Record<string, string>): Promise<RepoFacts> {
  const root = await temp.make('conventions-');
  await writeTree(root, files);
  const repo = await openRepository(root, { listing: 'walker' });
  const survey = await repo.survey(undefined, { candidateBytes: 0 });
  if (survey.facts === undefined) throw new Error('no facts');
  return survey.facts;
}

const code = (bytes: number): string => 'x'.repeat(bytes);
const entries = (facts: RepoFacts): string[] => facts.entryPoints.map((entry) => entry.path);

describe('entry points by language convention', () => {
  it('Elixir: lib/<app>.ex from mix.exs `app`, its description from a module attribute; a sub-project never wins', async () => {
    const facts = await factsOf({
      'mix.exs':
        'defmodule Plugin.MixProject do\n  @description "Compose web applications with functions"\n' +
        '  def project do\n    [app: :widget, description: @description]\n  end\nend\n',
      'lib/widget.ex': code(900),
      'lib/widget/conn.ex': code(3000),
      'lib/helpers.ex': code(800),
      'installer/mix.exs': 'defmodule New.MixProject do\n  def project do\n    [app: :widget_new]\n  end\nend\n',
      'installer/lib/widget_new.ex': code(500),
    });
    expect(facts.manifests[0]).toMatchObject({ path: 'mix.exs', kind: 'elixir', name: 'widget' });
    expect(facts.project.description?.value).toBe('Compose web applications with functions');
    expect(facts.entryPoints[0]).toEqual({ path: 'lib/widget.ex', via: 'mix.exs `app: :widget`' });
    const otp = await factsOf({
      'mix.exs': 'defmodule Shop.MixProject do\n  def project do\n    [app: :shop]\n  end\nend\n',
      'lib/shop/application.ex': code(400),
      'lib/shop/cart.ex': code(3000),
      'CONTRIBUTING.md': code(9000),
    });
    expect(otp.entryPoints[0]?.path).toBe('lib/shop/application.ex');
  });

  it('Crystal: shard.yml `targets` main, else src/<name>.cr; a block description', async () => {
    const declared = await factsOf({
      'shard.yml':
        'name: deps\ndescription: |\n  Resolves and installs\n  dependencies.\n\ntargets:\n  deps:\n    main: src/cli/main.cr\n',
      'src/cli/main.cr': code(500),
      'src/deps.cr': code(500),
      'src/solver.cr': code(3000),
    });
    expect(declared.manifests[0]).toMatchObject({ kind: 'crystal', language: 'Crystal', name: 'deps' });
    expect(declared.project.description?.value).toBe('Resolves and installs dependencies.');
    expect(entries(declared)).toEqual(['src/cli/main.cr', 'src/deps.cr']);
    const layout = await factsOf({
      'shard.yml': 'name: web\nversion: 1.0.0\n',
      'src/web.cr': code(500),
      'src/web/router.cr': code(3000),
      'CHANGELOG.md': code(9000),
    });
    expect(entries(layout)).toEqual(['src/web.cr']);
  });

  it('Haskell: the .cabal executable `main-is` under its hs-source-dirs, else app/Main.hs', async () => {
    const cabal = await factsOf({
      'lint.cabal':
        'name:          lint\nsynopsis:      Dockerfile linter\n\nlibrary\n  hs-source-dirs: src\n\n' +
        'executable lint\n  main-is:        Main.hs\n  hs-source-dirs: app\n',
      'app/Main.hs': code(300),
      'src/Lint.hs': code(5000),
      'AGENTS.md': code(4000),
    });
    expect(cabal.manifests[0]).toMatchObject({ path: 'lint.cabal', kind: 'haskell', name: 'lint' });
    expect(cabal.project.description?.value).toBe('Dockerfile linter');
    expect(cabal.entryPoints[0]).toEqual({ path: 'app/Main.hs', via: 'lint.cabal `executable lint` main-is' });
    const root = await factsOf({
      'Check.cabal': 'Name: Check\n\nexecutable check\n    main-is: check.hs\n',
      'check.hs': code(300),
      'src/Check/Analyzer.hs': code(5000),
    });
    expect(entries(root)[0]).toBe('check.hs');
    const layout = await factsOf({ 'stack.yaml': 'resolver: lts\n', 'x.cabal': 'name: x\n', 'app/Main.hs': code(300) });
    expect(entries(layout)).toEqual(['app/Main.hs']);
  });

  it('C#: the solution names the project; its Exe starts at Program.cs; tests, fuzzers and plugins never win', async () => {
    const facts = await factsOf({
      'Farm.slnx': '<Solution><Project Path="Farm/Farm.csproj" /></Solution>\n',
      'Farm.Plugins.Example/Farm.Plugins.Example.csproj': '<Project><PropertyGroup></PropertyGroup></Project>\n',
      'Farm.Plugins.Example/ExamplePlugin.cs': code(500),
      'Farm.Tests/Farm.Tests.csproj': '<Project></Project>\n',
      'Farm.Tests/BotTests.cs': code(500),
      'Farm/Farm.csproj':
        '<Project Sdk="Microsoft.NET.Sdk">\n  <PropertyGroup>\n    <OutputType>Exe</OutputType>\n' +
        '    <Description>Farms cards.</Description>\n  </PropertyGroup>\n</Project>\n',
      'Farm/Program.cs': code(800),
      'Farm/Bot.cs': code(9000),
    });
    expect(facts.manifests.map((manifest) => manifest.path)).toEqual(['Farm.slnx', 'Farm/Farm.csproj']);
    expect(facts.project.name?.value).toBe('Farm');
    expect(facts.project.description).toEqual({ value: 'Farms cards.', from: 'Farm/Farm.csproj description' });
    expect(facts.entryPoints[0]).toEqual({ path: 'Farm/Program.cs', via: 'Farm/Farm.csproj `OutputType` Exe' });
    const fuzz = await factsOf({
      'src/Json/Json.FuzzTests.csproj':
        '<Project><PropertyGroup><OutputType>Exe</OutputType></PropertyGroup></Project>\n',
      'src/Json/Json.csproj': '<Project></Project>\n',
      'src/Json/Json.cs': code(800),
      'src/Json/Program.cs': code(100),
    });
    expect(fuzz.manifests.map((manifest) => manifest.path)).toEqual(['src/Json/Json.csproj']);
    expect(fuzz.project.name?.value).toBe('Json');
    expect(entries(fuzz)).toEqual(['src/Json/Json.cs']);
  });

  it('Swift: an executable product starts at its target’s main.swift, a library at Sources/<target>/<target>.swift', async () => {
    const tool = await factsOf({
      'Package.swift':
        'let package = Package(\n  name: "Formatter",\n  products: [\n' +
        '    .executable(name: "format", targets: ["Tool"]),\n    .library(name: "Formatter", targets: ["Formatter"]),\n' +
        '  ],\n  targets: [\n    .executableTarget(\n      name: "Tool", dependencies: ["Formatter"], path: "Tool"\n    ),\n' +
        '    .target(name: "Formatter", path: "Sources"),\n' +
        '    .plugin(name: "FormatPlugin", dependencies: [.target(name: "Tool")]),\n  ]\n)\n',
      'Tool/main.swift': code(300),
      'Sources/Formatter.swift': code(3000),
      'Sources/Tokenizer.swift': code(9000),
    });
    expect(entries(tool)).toEqual(['Tool/main.swift', 'Sources/Formatter.swift']);
    expect(tool.entryPoints[0]?.via).toBe('Package.swift `.executable(format)`');
    const library = await factsOf({
      'Package.swift':
        'let package = Package(name: "Net",\n  products: [.library(name: "Net", targets: ["Net"])],\n' +
        '  targets: [.target(name: "Net"), .testTarget(name: "NetTests")])\n',
      'Sources/Net/Net.swift': code(300),
      'Sources/Net/Session.swift': code(9000),
    });
    expect(entries(library)).toEqual(['Sources/Net/Net.swift']);
  });

  it('Gradle: the application mainClass (or a jar Main-Class) of the module the root names, among many modules', async () => {
    const modules: Record<string, string> = {};
    for (const name of ['api', 'bom', 'docs-site', 'logger', 'reporter-json', 'reporter-plain', 'rules', 'ruleset']) {
      modules[`tool-${name}/build.gradle.kts`] = 'plugins { kotlin("jvm") }\n';
      modules[`tool-${name}/src/main/kotlin/tool/${name.replace(/-/g, '')}/Thing.kt`] = code(900);
    }
    const facts = await factsOf({
      'settings.gradle.kts': 'rootProject.name = "tool-root"\ninclude("tool-cli")\n',
      'build.gradle.kts': 'plugins { base }\n',
      ...modules,
      'tool-test/build.gradle.kts': 'application { mainClass.set("tool.test.RunnerKt") }\n',
      'tool-test/src/main/kotlin/tool/test/Runner.kt': code(100),
      'tool-cli/build.gradle.kts': 'tasks.jar { manifest { attributes("Main-Class" to "tool.cli.MainKt") } }\n',
      'tool-cli/src/main/kotlin/tool/cli/Main.kt': code(500),
    });
    expect(facts.project.name?.value).toBe('tool-root');
    expect(facts.manifests.map((manifest) => manifest.path)).toContain('tool-cli/build.gradle.kts');
    expect(facts.entryPoints[0]).toEqual({
      path: 'tool-cli/src/main/kotlin/tool/cli/Main.kt',
      via: 'tool-cli/build.gradle.kts main class `tool.cli.MainKt`',
    });
    const java = await factsOf({
      'settings.gradle': "rootProject.name = 'dex'\ninclude 'dex-core', 'dex-cli'\n",
      'dex-core/build.gradle': "plugins { id 'java-library' }\n",
      'dex-core/src/main/java/dex/core/Dex.java': code(900),
      'dex-cli/build.gradle': "plugins { id 'application' }\napplication {\n  mainClass = 'dex.cli.DexCli'\n}\n",
      'dex-cli/src/main/java/dex/cli/DexCli.java': code(500),
    });
    expect(entries(java)[0]).toBe('dex-cli/src/main/java/dex/cli/DexCli.java');
  });

  it('PHP: the class named after the autoloaded namespace, else a main class in a core directory; the name whole', async () => {
    const mailer = await factsOf({
      'composer.json': JSON.stringify({
        name: 'mailer/mailer',
        description: 'Sends mail',
        autoload: { 'psr-4': { 'Mailer\\Mailer\\': 'src/' } },
      }),
      'src/Mailer.php': code(9000),
      'src/Smtp.php': code(9000),
      'CHANGELOG.md': code(20000),
    });
    expect(mailer.project.name?.value).toBe('mailer/mailer');
    expect(mailer.entryPoints[0]).toEqual({
      path: 'src/Mailer.php',
      via: 'composer.json `autoload` Mailer\\Mailer\\ (class named after the namespace)',
    });
    const framework = await factsOf({
      'composer.json': JSON.stringify({
        name: 'acme/framework',
        autoload: { 'psr-4': { 'Acme\\': 'src/Acme/' }, files: ['src/Acme/Support/helpers.php'] },
      }),
      'src/Acme/Console/Application.php': code(900),
      'src/Acme/Contracts/Foundation/Application.php': code(100),
      'src/Acme/Foundation/Application.php': code(900),
      'src/Acme/Support/helpers.php': code(900),
      'config-stubs/app.php': code(300),
    });
    expect(framework.project.name?.value).toBe('acme/framework');
    expect(entries(framework)[0]).toBe('src/Acme/Foundation/Application.php');
  });

  it('Shell: the script named after the project, else the one top-level script; a plugin’s Makefile never wins', async () => {
    const named = await factsOf({
      'package.json': JSON.stringify({ name: 'nvx', description: 'Node version switcher' }),
      'install.sh': code(3000),
      'nvx.sh': code(9000),
      'test/fast/run.sh': code(500),
    });
    expect(entries(named)).toEqual(['nvx.sh']);
    const single = await factsOf({
      'acme.sh': code(9000),
      'dnsapi/dns_a.sh': code(3000),
      'dnsapi/dns_b.sh': code(3000),
      'plugins/notify/Makefile': 'all: notify\n\nnotify: notify.c\n\tcc -o notify notify.c\n',
      'plugins/notify/notify.c': code(100),
      'LICENSE.md': code(1000),
    });
    expect(single.manifests).toEqual([]);
    expect(entries(single)).toEqual(['acme.sh']);
  });

  it('never names a document as an entry point, whatever a manifest declares', async () => {
    const facts = await factsOf({
      'package.json': JSON.stringify({ name: 'site', main: 'README.md', bin: { site: 'wasm/index.html' } }),
      'README.md': '# site\n',
      'AGENTS.md': code(300),
      'CHANGELOG.md': code(300),
      'wasm/index.html': code(300),
      LICENSE: code(300),
    });
    expect(facts.entryPoints).toEqual([]);
  });
});

describe('the main package of a monorepo', () => {
  it('is the one the root manifest names, not the first in sort order nor the create-<name>-app helper', async () => {
    const facts = await factsOf({
      'package.json': JSON.stringify({ name: '@rocket/monorepo', private: true, workspaces: ['packages/*'] }),
      'packages/create-rocket-app/package.json': JSON.stringify({ name: 'create-rocket-app', bin: 'cli.js' }),
      'packages/create-rocket-app/cli.js': code(300),
      'packages/adapter/package.json': JSON.stringify({ name: '@rocket/adapter', main: 'index.js' }),
      'packages/adapter/index.js': code(300),
      'packages/rocket/package.json': JSON.stringify({ name: 'rocket', description: 'Launches things' }),
      'packages/rocket/src/index.ts': code(300),
    });
    expect(facts.manifests.map((manifest) => manifest.path).slice(0, 2)).toEqual([
      'package.json',
      'packages/rocket/package.json',
    ]);
    expect(facts.project.name).toEqual({ value: 'rocket', from: 'packages/rocket/package.json name' });
    expect(facts.entryPoints[0]?.path).toBe('packages/rocket/src/index.ts');
  });

  it('is the one the root README names when the root manifest names nothing, and describes the project', async () => {
    const facts = await factsOf({
      'package.json': JSON.stringify({ private: true, workspaces: ['packages/*'] }),
      'README.md': '# org/core [![npm](https://img.shields.io/npm/v/vue.svg)](https://npmjs.com/package/vue)\n',
      'packages/compiler/package.json': JSON.stringify({ name: '@vue/compiler', main: 'index.js' }),
      'packages/compiler/index.js': code(300),
      'packages/vue/package.json': JSON.stringify({ name: 'vue', description: 'The progressive framework' }),
      'packages/vue/src/index.ts': code(300),
    });
    expect(facts.project.name?.value).toBe('vue');
    expect(facts.project.description?.value).toBe('The progressive framework');
    expect(facts.entryPoints[0]?.path).toBe('packages/vue/src/index.ts');
  });

  it('describes the project by its main package when the root only describes the monorepo', async () => {
    const facts = await factsOf({
      'package.json': JSON.stringify({ name: 'kit-monorepo', description: 'monorepo for kit and friends' }),
      'packages/kit/package.json': JSON.stringify({ name: 'kit', description: 'Builds web apps' }),
      'packages/kit/src/index.js': code(300),
    });
    expect(facts.project.name?.value).toBe('kit');
    expect(facts.project.description?.value).toBe('Builds web apps');
  });

  it('keeps the root’s name when the root is a project of its own, not a workspace root', async () => {
    const facts = await factsOf({
      'package.json': JSON.stringify({ name: 'packer', description: 'Packs a repository', bin: 'bin/packer.js' }),
      'bin/packer.js': code(300),
      'browser/package.json': JSON.stringify({ name: 'packer', description: 'The browser extension' }),
      'browser/src/index.ts': code(300),
    });
    expect(facts.project.name).toEqual({ value: 'packer', from: 'package.json name' });
    expect(facts.project.description?.value).toBe('Packs a repository');
    expect(facts.entryPoints[0]?.path).toBe('bin/packer.js');
  });
});
