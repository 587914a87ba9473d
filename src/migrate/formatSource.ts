/**
 * Formatting the rewritten files with the project's own Prettier settings: when a Prettier configuration applies
 * to the file and the project has Prettier installed (resolved from the directory given, never from this
 * package), the text goes through it; otherwise it stays as the rewrite printed it, and a note says why.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

interface PrettierApi {
  resolveConfig(fileUrlOrPath: string, options?: { editorconfig?: boolean }): Promise<Record<string, unknown> | null>;
  format(source: string, options: Record<string, unknown>): Promise<string>;
}

export interface Formatter {
  /** The text formatted with the Prettier settings that apply to the file, or as it is when none do. */
  format(path: string, text: string): Promise<string>;
  /** Why some output is not formatted with Prettier, once something was formatted. */
  notes(): string[];
}

async function loadPrettier(root: string): Promise<PrettierApi | undefined> {
  try {
    const resolved = createRequire(join(root, 'package.json')).resolve('prettier');
    const loaded = (await import(pathToFileURL(resolved).href)) as PrettierApi & { default?: PrettierApi };
    return typeof loaded.format === 'function' ? loaded : loaded.default;
  } catch {
    return undefined;
  }
}

/** A formatter for the files under root: Prettier with the project's settings, or the text as it is. */
export async function projectFormatter(root: string): Promise<Formatter> {
  const prettier = await loadPrettier(root);
  const unformatted: string[] = [];
  return {
    format: async (path, text) => {
      const file = join(root, path);
      const options = prettier === undefined ? null : await prettier.resolveConfig(file, { editorconfig: true });
      if (prettier === undefined || options === null) {
        unformatted.push(path);
        return text;
      }
      return prettier.format(text, { ...options, filepath: file });
    },
    notes: () =>
      unformatted.length === 0
        ? []
        : [
            `${unformatted.join(', ')}: ${
              prettier === undefined ? 'Prettier is not installed in the project' : 'no Prettier configuration applies'
            }, so the output is as the rewrite printed it`,
          ],
  };
}
