/**
 * `explain_file(path)`: one model question about one file of the served repository, written on the kit
 * (docs/writing-tools.md). Served with `mcp-model-input serve --tool-module examples/explainFile.ts`.
 */
import { z } from 'zod';

import { defineModelTool } from '../src/entries/tool.js';

export default defineModelTool({
  name: 'explain_file',
  description: 'Explains what one file of the served repository does, for someone new to the code.',
  input: z.object({ path: z.string().min(1).describe('The file, relative to the served root') }),
  steps: { explain: { description: 'Explain the file', modelPreferences: { intelligencePriority: 0.8 } } },
  builtin: {
    // Deterministic, no network: the file's first lines, as a stand-in explanation.
    explain: (_request, { prompt }) => {
      const head = prompt.split('\n').slice(2, 7).join('\n');
      return { content: { type: 'text', text: `The file begins:\n${head}` } };
    },
  },
  async run({ path }, ctx) {
    // Read once per call: later rounds replay the journal instead of reading again.
    const source = await ctx.once('read', async () => (await ctx.repo?.readText(path, 12_000)) ?? null);
    if (source === null) {
      return { content: [{ type: 'text', text: `${path} is not a readable file of this repository.` }], isError: true };
    }
    await ctx.progress(1, 2, 'asking the model');
    const answer = await ctx.sample('explain', {
      systemPrompt: 'You explain source files to a developer who is new to the project. Be concise and concrete.',
      messages: [{ role: 'user', content: { type: 'text', text: `Explain ${path}.\n\n${source}` } }],
      maxTokens: 600,
    });
    return `${answer.text}\n\n(answered by: ${answer.route})`;
  },
});
