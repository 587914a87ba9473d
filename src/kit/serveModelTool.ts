/**
 * A model tool as the server registers it: its descriptor, and each call run on the kit. The replay engine (and the
 * repository reader, the redactor behind it) is imported at the first call, so a server answers `server/discover` and
 * `tools/list` without loading it.
 */
import { defineTool, type AnyToolDefinition } from '../flows/tool.js';
import { loadOnce } from '../loadOnce.js';
import type { ModelKit } from './kit.js';
import type { ModelTool } from './modelTool.js';
import type { runModelTool } from './runModelTool.js';

const loadEngine = loadOnce((): Promise<{ runModelTool: typeof runModelTool }> => import('./runModelTool.js'));

/** Title from the name when the author gave none: `explain_file` -> `Explain file`. */
function titleOf(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function modelToolDefinition(tool: ModelTool, kit: ModelKit): AnyToolDefinition {
  return defineTool({
    name: tool.name,
    title: tool.title ?? titleOf(tool.name),
    description: tool.description,
    inputSchema: tool.input,
    ...(tool.output !== undefined && { outputSchema: tool.output }),
    ...(tool.annotations !== undefined && { annotations: tool.annotations }),
    // A kit tool runs as a task for a request that declares the extension unless it says otherwise (docs/tasks.md).
    task: tool.task ?? 'optional',
    async run(args, ctx) {
      const loaded = await loadEngine();
      return loaded.runModelTool(tool, kit, args, ctx);
    },
  });
}
