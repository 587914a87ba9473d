/** A model tool as the server registers it: its descriptor, and each call run on the kit. */
import { defineTool, type AnyToolDefinition } from '../flows/tool.js';
import type { ModelKit } from './kit.js';
import type { ModelTool } from './modelTool.js';
import { runModelTool } from './runModelTool.js';

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
    run: (args, ctx) => runModelTool(tool, kit, args, ctx),
  });
}
