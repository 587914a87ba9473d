/**
 * `migrate --check`: `tsc --noEmit` on the result, in memory. Each changed file is checked in the program of its
 * nearest tsconfig.json (up to the directory given; without one, strict NodeNext defaults), once with the original
 * texts and once with the rewritten ones; the errors the rewrite adds are reported, the ones the project already
 * had are only counted.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

import { Project, ts, type Diagnostic } from 'ts-morph';

import type { FileChange } from './migrateDirectory.js';
import type { TypeCheckReport } from './types.js';

const DEFAULT_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  skipLibCheck: true,
  noEmit: true,
};

function nearestConfig(root: string, path: string): string | undefined {
  let dir = dirname(join(root, path));
  for (;;) {
    const candidate = join(dir, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dir === root || !dir.startsWith(root)) return undefined;
    dir = dirname(dir);
  }
}

interface Found {
  key: string;
  text: string;
}

function describe(root: string, diagnostic: Diagnostic): Found {
  const message = ts.flattenDiagnosticMessageText(diagnostic.compilerObject.messageText, ' ');
  const file = diagnostic.getSourceFile();
  const where =
    file === undefined
      ? ''
      : `${relative(root, file.getFilePath()).split(sep).join('/')}:${diagnostic.getLineNumber() ?? 0}: `;
  const key = `${file === undefined ? '' : file.getFilePath()}|${diagnostic.getCode()}|${message}`;
  return { key, text: `${where}TS${diagnostic.getCode()}: ${message}` };
}

function errorsOf(root: string, project: Project): Found[] {
  return project
    .getPreEmitDiagnostics()
    .filter((diagnostic) => diagnostic.getCategory() === ts.DiagnosticCategory.Error)
    .map((diagnostic) => describe(root, diagnostic));
}

export function typeCheck(root: string, changes: readonly FileChange[]): TypeCheckReport {
  const groups = new Map<string, FileChange[]>();
  for (const change of changes) {
    const config = nearestConfig(root, change.path) ?? '';
    groups.set(config, [...(groups.get(config) ?? []), change]);
  }
  const errors: string[] = [];
  let preexisting = 0;
  for (const [config, group] of groups) {
    const project =
      config === ''
        ? new Project({ compilerOptions: DEFAULT_OPTIONS })
        : new Project({ tsConfigFilePath: config, compilerOptions: { noEmit: true } });
    if (config === '') for (const change of group) project.addSourceFileAtPath(join(root, change.path));
    const before = errorsOf(root, project);
    for (const change of group) {
      project.createSourceFile(join(root, change.path), change.after, { overwrite: true });
    }
    const remaining = new Map<string, number>();
    for (const found of before) remaining.set(found.key, (remaining.get(found.key) ?? 0) + 1);
    preexisting += before.length;
    for (const found of errorsOf(root, project)) {
      const left = remaining.get(found.key) ?? 0;
      if (left > 0) remaining.set(found.key, left - 1);
      else errors.push(found.text);
    }
  }
  return { ok: errors.length === 0, errors, preexisting };
}
