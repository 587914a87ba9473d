/**
 * The built-in model on real trees, end to end through `summarize` (server-owned built-in model): the cases
 * the issue reported — a section heading taken for the name, "mostly Makefile", a TypeScript repository read
 * with two files, build outputs as entry points, Makefiles and templates picked before the manifest.
 */
import { afterAll, describe, expect, it } from 'vitest';

import { runLocalSummarize } from '../../../../src/app/localSummarize.js';
import { silentLogger } from '../../../../src/logger.js';
import { TempDirs, writeTree } from '../../../repo/fixture.js';

const temp = new TempDirs();
afterAll(() => temp.cleanup());

async function summarize(files: Record<string, string>, maxFiles = 3): Promise<{ text: string; picked: string[] }> {
  const root = await temp.make('builtin-');
  await writeTree(root, files);
  const result = await runLocalSummarize({ root, args: { maxFiles }, logger: silentLogger });
  const structured = result.structuredContent as { summary: string; picked: string[] };
  return { text: structured.summary, picked: structured.picked };
}

const FZF_README = [
  '<div align="center">',
  '  <img src="https://example.invalid/logo.png" alt="tool - a fuzzy finder">',
  '  <a href="https://github.com/sponsors/x"><img src="https://img.shields.io/github/sponsors/x" alt="Sponsors"></a>',
  '</div>',
  '',
  '[![Build](https://ci.example/badge.svg)](https://ci.example)',
  '',
  'Show your love for tool -- T-shirts, mugs, and stickers now available!',
  '',
  'tool is a general-purpose command-line fuzzy finder. It is fast.',
  '',
  '## Using Homebrew',
  '',
  '```sh',
  'brew install tool',
  '```',
].join('\n');

describe('built-in model on real trees', () => {
  it('names a Go module after go.mod, not a README section, and counts the whole tree', async () => {
    const files: Record<string, string> = {
      'README.md': FZF_README,
      'go.mod': 'module github.com/example/tool\n\ngo 1.22\n',
      'main.go': 'package main\n\nfunc main() {}\n',
      Makefile: 'build:\n\tgo build\n',
      Gemfile: "source 'https://rubygems.org'\n",
      '.pre-commit-config.yaml': 'repos: []\n',
      '.github/pull_request_template.md': '## What\n',
    };
    for (let i = 0; i < 30; i++) files[`src/part${i}.go`] = `package src\n\n// part ${i}\n`;
    const { text, picked } = await summarize(files);
    expect(picked).toEqual(['README.md', 'go.mod', 'main.go']);
    expect(text).toContain('- Name: **tool** (from go.mod module)');
    expect(text).toContain(
      '- Purpose: tool is a general-purpose command-line fuzzy finder. (from README.md first sentence)',
    );
    expect(text).toMatch(/- Main language: \*\*Go\*\* \(\d+% of the code by bytes\)/);
    expect(text).not.toMatch(/Using Homebrew|mostly Makefile|T-shirts|sponsors/i);
    expect(text).toContain('not by a language model');
  });

  it('reads a TypeScript repository through two files and never points at a build output', async () => {
    const files: Record<string, string> = {
      'readme.md': '# widget\n\n> Tiny and elegant widgets\n',
      'package.json': JSON.stringify({
        name: 'widget',
        exports: { types: './dist/index.d.ts', default: './dist/index.js' },
        main: './dist/index.js',
      }),
      'tsconfig.json': '{}',
    };
    for (let i = 0; i < 269; i++) files[`source/part${i}.ts`] = `export const part${i} = ${i};\n`;
    files['source/index.ts'] = "export * from './part0.js';\n";
    const { text, picked } = await summarize(files, 2);
    expect(picked).toEqual(['readme.md', 'package.json']);
    expect(text).toContain('- Main language: **TypeScript**');
    expect(text).toContain('start at `source/index.ts`');
    expect(text).toContain('- `source/` 270 files (source, TypeScript)');
    expect(text).not.toContain('dist/index.js`');
    expect(text).not.toContain('no source language recognised');
  });

  it('picks the Cargo manifest and binary, and the Python manifest and package, before other build files', async () => {
    const rust = await summarize({
      'README.md': '# finder\n\nfinder finds files fast.\n',
      'Cargo.toml': '[package]\nname = "finder"\ndescription = "A simple, fast alternative to find"\n',
      'src/main.rs': 'fn main() {}\n',
      'src/walk.rs': 'pub fn walk() {}\n',
      Makefile: 'install:\n\tcargo install --path .\n',
      'CHANGELOG.md': '# Changes\n',
    });
    expect(rust.picked).toEqual(['README.md', 'Cargo.toml', 'src/main.rs']);
    expect(rust.text).toContain('- Name: **finder** (from Cargo.toml name)');
    expect(rust.text).toContain('- Purpose: A simple, fast alternative to find (from Cargo.toml description)');
    const python = await summarize({
      'README.md': '# Sniff\n\nSniff reads packets.\n',
      'pyproject.toml': '[project]\nname = "sniff"\n\n[project.scripts]\nsniff = "sniff.__main__:main"\n',
      'src/sniff/__init__.py': '',
      'src/sniff/__main__.py': 'def main(): pass\n',
      'setup.cfg': '[metadata]\nname = sniff\n',
      'tox.ini': '[tox]\n',
    });
    expect(python.picked).toEqual(['README.md', 'pyproject.toml', 'src/sniff/__main__.py']);
    expect(python.text).toContain('- Name: **Sniff** (from pyproject.toml name)');
  });

  it('names a gem, a composer package and a maven project after their manifests, not a README section', async () => {
    const gem = await summarize({
      'README.md': '# Installation\n\ngem install shiny\n',
      'shiny.gemspec':
        'Gem::Specification.new do |spec|\n  spec.name = "shiny"\n  spec.summary = "Polishes Ruby objects"\n' +
        '  spec.bindir = "exe"\n  spec.executables = ["shiny"]\nend\n',
      Gemfile: 'source "https://rubygems.org"\ngemspec\n',
      'lib/shiny.rb': 'module Shiny; end\n',
      'lib/shiny/polish.rb': 'module Shiny; class Polish; end; end\n',
      'exe/shiny': '#!/usr/bin/env ruby\nrequire "shiny"\n',
    });
    expect(gem.text).toContain('- Name: **shiny** (from shiny.gemspec name)');
    expect(gem.text).toContain('- Purpose: Polishes Ruby objects (from shiny.gemspec summary)');
    expect(gem.text).toContain('- Main language: **Ruby**');
    expect(gem.picked).toEqual(['README.md', 'shiny.gemspec', 'exe/shiny']);
    const php = await summarize({
      'README.md': '# Overview\n\nFetcher fetches.\n',
      'composer.json': JSON.stringify({
        name: 'acmehttp/fetcher',
        description: 'A PHP HTTP client',
        bin: ['bin/fetch'],
      }),
      'bin/fetch': '#!/usr/bin/env php\n<?php\n',
      'src/Client.php': '<?php\nclass Client {}\n',
    });
    expect(php.text).toContain('- Name: **acmehttp/fetcher** (from composer.json name)');
    expect(php.text).toContain('- Purpose: A PHP HTTP client (from composer.json description)');
    expect(php.picked).toEqual(['README.md', 'composer.json', 'bin/fetch']);
    const java = await summarize({
      'README.md': '# Features\n\n- fast\n',
      'pom.xml':
        '<project><parent><artifactId>oss-parent</artifactId></parent><artifactId>parsely-parent</artifactId>' +
        '<description>Parsely HTML parser</description><modules><module>core</module></modules></project>\n',
      'src/main/java/org/acme/parsely/Parsely.java': 'package org.acme.parsely;\npublic class Parsely {}\n',
    });
    expect(java.text).toContain('- Name: **parsely** (from pom.xml artifactId)');
    expect(java.text).toContain('- Purpose: Parsely HTML parser (from pom.xml description)');
    expect(java.picked).toEqual(['README.md', 'pom.xml', 'src/main/java/org/acme/parsely/Parsely.java']);
  });

  it('reports a vendor/name or @scope/name package id whole, or the README title that names the same thing', async () => {
    const whole = await summarize({
      'README.md': '# Health score\n\nAcme is a web application framework with expressive syntax.\n',
      'composer.json': JSON.stringify({ name: 'acme/framework', autoload: { 'psr-4': { 'Acme\\': 'src/' } } }),
      'src/Foundation/Application.php': '<?php\nclass Application {}\n',
    });
    expect(whole.text).toContain('- Name: **acme/framework** (from composer.json name)');
    expect(whole.text).toContain('start at `src/Foundation/Application.php`');
    const scoped = await summarize({
      'README.md': '# Overview\n\nThe SDK talks to the Acme API from TypeScript programs.\n',
      'package.json': JSON.stringify({ name: '@acme/sdk', main: 'src/index.ts' }),
      'src/index.ts': 'export {};\n',
    });
    expect(scoped.text).toContain('- Name: **@acme/sdk** (from package.json name)');
    const titled = await summarize({
      'README.md': '# Acme TypeScript SDK\n\nThe SDK talks to the Acme API from TypeScript programs.\n',
      'package.json': JSON.stringify({ name: '@acme/sdk', main: 'src/index.ts' }),
      'src/index.ts': 'export {};\n',
    });
    expect(titled.text).toContain('- Name: **Acme TypeScript SDK** (from README.md title)');
  });

  it('says documentation only for a repository without code, and keeps its size bounded at any scale', async () => {
    const docs = await summarize({
      'readme.md': '<div align="center"><img src="media/logo.svg" alt="Awesome"></div>\n\n## Contents\n\n- [A](a.md)\n',
      'awesome.md': '# The manifesto\n\nAn awesome list is a list of awesome things curated by the community.\n',
      'contributing.md': 'Please note the code of conduct.\n',
    });
    expect(docs.text).toContain('- Name: **Awesome** (from readme.md title)');
    expect(docs.text).toContain('- Main language: **Markdown** (documentation only, no code)');
    const big: Record<string, string> = { 'README.md': '# big\n\nBig does many things.\n' };
    for (let i = 0; i < 60; i++) big[`dir${i}/sub/file${i}.${['ts', 'go', 'py', 'rs', 'c', 'rb'][i % 6]}`] = 'x\n';
    const { text } = await summarize(big);
    expect(text.length).toBeLessThanOrEqual(4000);
    expect(text).toContain('- 48 more directories with 48 files\n- 1 file at the top level');
  });
});
