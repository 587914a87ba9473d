/**
 * The TypeScript files under a directory, loaded into one ts-morph project for syntax-only analysis (no type
 * checker, no module resolution): dependency folders, build output and hidden folders are skipped, declaration
 * files too. A file that does not parse is reported with its first syntax error and never touched.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

import { Project, ts, type SourceFile } from 'ts-morph';

import { ModelInputError } from '../errors.js';
import type { FileProblem } from './types.js';

const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', 'out', 'coverage']);
const SOURCE_FILE = /\.(ts|mts|cts|tsx)$/;
/** A project larger than this is not one this command should walk in one go. */
const MAX_FILES = 20_000;

export interface LoadedSources {
  root: string;
  project: Project;
  /** Files that parse, by relative path. */
  files: Map<string, SourceFile>;
  problems: FileProblem[];
}

/** Relative paths (with `/`) of the TypeScript sources under root, sorted. */
export async function listSourceFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) await walk(path);
      } else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !/\.d\.[mc]?ts$/.test(entry.name)) {
        found.push(relative(root, path).split(sep).join('/'));
        if (found.length > MAX_FILES) {
          throw new ModelInputError(
            'usage',
            `more than ${MAX_FILES} TypeScript files under ${root}: give a smaller DIR`,
          );
        }
      }
    }
  };
  await walk(root);
  return found.sort();
}

/** A project for syntax only: nothing resolved, no lib, no checker. */
export function syntaxProject(): Project {
  return new Project({
    useInMemoryFileSystem: true,
    skipLoadingLibFiles: true,
    compilerOptions: { noResolve: true, noLib: true, allowJs: false, jsx: ts.JsxEmit.Preserve },
  });
}

/** The first syntax error of a file, if it has one. */
export function syntaxProblem(project: Project, file: SourceFile, path: string): FileProblem | undefined {
  const [first] = project.getProgram().compilerObject.getSyntacticDiagnostics(file.compilerNode);
  if (first === undefined) return undefined;
  const { line, character } = file.compilerNode.getLineAndCharacterOfPosition(first.start ?? 0);
  return {
    file: path,
    line: line + 1,
    column: character + 1,
    reason: `does not parse: ${ts.flattenDiagnosticMessageText(first.messageText, ' ')}`,
  };
}

export async function loadSources(root: string): Promise<LoadedSources> {
  const project = syntaxProject();
  const files = new Map<string, SourceFile>();
  for (const path of await listSourceFiles(root)) {
    const text = await readFile(join(root, path), 'utf8');
    files.set(path, project.createSourceFile(`/${path}`, text, { overwrite: true }));
  }
  const problems: FileProblem[] = [];
  for (const [path, file] of files) {
    const problem = syntaxProblem(project, file, path);
    if (problem !== undefined) {
      problems.push(problem);
      files.delete(path);
    }
  }
  return { root, project, files, problems };
}
