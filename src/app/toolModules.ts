/**
 * `serve --tool-module FILE` and `--tools a,b`: which tools a server serves. A module's default export is a model
 * tool or an array of them, recognised by shape and versioned marker (`isModelTool`): the module imports
 * `mcp-model-input` from its own `node_modules`, which need not be the copy this process runs. Every failure is a
 * start-up error (`usage`: exit 2) naming the module, never a half-started server.
 */
import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

import { ModelInputError } from '../errors.js';
import { isModelTool, MODEL_TOOL_MARKER, type ModelTool } from '../kit/modelTool.js';
import { printable } from '../protocol/sanitize.js';
import { SHIPPED_TOOLS, type ServedTool } from './modelInputServer.js';

function moduleError(file: string, why: string, cause?: unknown): ModelInputError<'usage'> {
  return new ModelInputError('usage', printable(`--tool-module ${file}: ${why}`), cause === undefined ? {} : { cause });
}

/** Why a default export is not a tool, for the start-up error. */
function notATool(value: unknown): string {
  if (value === undefined) return 'has no default export (export default defineModelTool({...}))';
  const marker = (value as Record<string, unknown> | null)?.[MODEL_TOOL_MARKER];
  if (typeof marker === 'string')
    return `exports a tool of another kit version (${marker}); this server takes model-tool@1`;
  return 'its default export is not a tool made with defineModelTool (nor an array of them)';
}

/** The tools a module's default export holds. */
export async function loadToolModule(file: string, cwd = process.cwd()): Promise<ModelTool[]> {
  const path = resolve(cwd, file);
  try {
    await access(path);
  } catch {
    throw moduleError(file, 'no such file');
  }
  let loaded: { default?: unknown };
  try {
    loaded = (await import(pathToFileURL(path).href)) as { default?: unknown };
  } catch (error) {
    const detail = error instanceof Error ? `${error.name}: ${error.message.split('\n')[0]}` : String(error);
    throw moduleError(file, `failed to load (${detail.slice(0, 300)})`, error);
  }
  const exported = loaded.default;
  const tools = Array.isArray(exported) ? exported : [exported];
  if (tools.length === 0) throw moduleError(file, 'its default export is an empty array');
  for (const tool of tools) if (!isModelTool(tool)) throw moduleError(file, notATool(tool));
  return tools as ModelTool[];
}

/** `--tools a,b` (shipped tools; default all when no module is given, none when one is) and `--tool-module`s. */
export async function servedToolsFrom(
  names: string | undefined,
  modules: readonly string[],
  cwd?: string,
): Promise<ServedTool[]> {
  const shipped =
    names === undefined
      ? modules.length === 0
        ? [...SHIPPED_TOOLS]
        : []
      : names
          .split(',')
          .map((name) => name.trim())
          .filter((name) => name !== '');
  for (const name of shipped) {
    if (!(SHIPPED_TOOLS as readonly string[]).includes(name)) {
      throw new ModelInputError(
        'usage',
        printable(`--tools: unknown tool '${name}' (shipped: ${SHIPPED_TOOLS.join(', ')})`),
      );
    }
  }
  const loaded: ModelTool[] = [];
  for (const file of modules) loaded.push(...(await loadToolModule(file, cwd)));
  const served = [...(shipped as ServedTool[]), ...loaded];
  if (served.length === 0) throw new ModelInputError('usage', '--tools: no tool to serve');
  return served;
}
