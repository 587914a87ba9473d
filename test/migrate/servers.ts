/**
 * Small MCP servers written for the migrate tests (none copied from another project), as file maps to lay out in a
 * temporary directory: each has the shape of a real server with one concern the codemod must handle.
 */
export type FileMap = Record<string, string>;

/** SDK v1: one tool, one sampling call through mcpServer.server.createMessage. */
export const V1_ONE_TOOL: FileMap = {
  'src/server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'release-notes', version: '1.2.0' });

server.registerTool(
  'draft_release_note',
  {
    title: 'Draft a release note',
    description: 'Turns a list of merged changes into a short release note',
    inputSchema: { changes: z.array(z.string()).describe('one line per merged change'), audience: z.string().optional() },
  },
  async ({ changes, audience }) => {
    const note = await server.server.createMessage({
      systemPrompt: 'You write release notes.',
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: \`Audience: \${audience ?? 'users'}\\n\${changes.join('\\n')}\` },
        },
      ],
      maxTokens: 300,
      modelPreferences: { intelligencePriority: 0.7, hints: [{ name: 'sonnet' }] },
    });
    const text = note.content.type === 'text' ? note.content.text : '';
    return { content: [{ type: 'text', text }] };
  },
);

export async function main(): Promise<void> {
  await server.connect(new StdioServerTransport());
}
`,
};

/** SDK v1: two samples in sequence (extra.sendRequest) and one in a bounded loop. */
export const V1_SEQUENCE_AND_LOOP: FileMap = {
  'server.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CreateMessageResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

export const server = new McpServer({ name: 'reviewer', version: '0.3.0' });

function textOf(content: { type: string; text?: string }): string {
  return content.type === 'text' ? (content.text ?? '') : '';
}

server.registerTool(
  'review_diff',
  { description: 'Reviews a diff: first the risks, then a verdict', inputSchema: { diff: z.string() } },
  async ({ diff }, extra) => {
    const risks = await extra.sendRequest(
      {
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: \`List the risks:\\n\${diff}\` } }], maxTokens: 400 },
      },
      CreateMessageResultSchema,
    );
    const verdict = await extra.sendRequest(
      {
        method: 'sampling/createMessage',
        params: {
          messages: [{ role: 'user', content: { type: 'text', text: \`Risks: \${textOf(risks.content)}\\nApprove or reject?\` } }],
          maxTokens: 50,
        },
      },
      CreateMessageResultSchema,
    );
    return { content: [{ type: 'text', text: textOf(verdict.content) }] };
  },
);

server.registerTool(
  'refine_title',
  { description: 'Improves a title in up to three passes', inputSchema: { title: z.string() } },
  async ({ title }) => {
    let current = title;
    for (let pass = 0; pass < 3; pass++) {
      const better = await server.server.createMessage({
        messages: [{ role: 'user', content: { type: 'text', text: \`Improve this title, or repeat it if it is good: \${current}\` } }],
        maxTokens: 40,
      });
      const next = textOf(better.content).trim();
      if (next === current) break;
      current = next;
    }
    return { content: [{ type: 'text', text: current }] };
  },
);
`,
};

/** SDK v2: ctx.mcpReq.requestSampling, with the request's abort signal passed on. */
export const V2_REQUEST_SAMPLING: FileMap = {
  'server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

export const server = new McpServer({ name: 'glossary', version: '2.0.0' });

async function lookUp(term: string, signal: AbortSignal): Promise<string> {
  return signal.aborted ? '' : \`(no entry for \${term})\`;
}

server.registerTool(
  'explain_term',
  { description: 'Explains a term for a newcomer', inputSchema: z.object({ term: z.string().min(1) }) },
  async ({ term }, ctx) => {
    const known = await lookUp(term, ctx.mcpReq.signal);
    const explanation = await ctx.mcpReq.requestSampling({
      messages: [{ role: 'user', content: { type: 'text', text: \`Explain \${term} in two sentences. Known: \${known}\` } }],
      maxTokens: 120,
    });
    return {
      content: [{ type: 'text', text: explanation.content.type === 'text' ? explanation.content.text : '' }],
    };
  },
);
`,
};

/** A handler that writes a file and counts calls before it samples (wrapped), and one that writes in a loop (flagged). */
export const WRITES_BEFORE_SAMPLING: FileMap = {
  'server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import { appendFile, writeFile } from 'node:fs/promises';
import * as z from 'zod';

export const server = new McpServer({ name: 'journal', version: '1.0.0' });
let calls = 0;

server.registerTool(
  'file_entry',
  { description: 'Files a journal entry and titles it', inputSchema: z.object({ entry: z.string() }) },
  async ({ entry }, ctx) => {
    calls++;
    await writeFile('journal/latest.txt', entry);
    const heading = await ctx.mcpReq.requestSampling({
      messages: [{ role: 'user', content: { type: 'text', text: \`A five-word title for: \${entry}\` } }],
      maxTokens: 20,
    });
    return { content: [{ type: 'text', text: heading.content.type === 'text' ? heading.content.text : '' }] };
  },
);

server.registerTool(
  'file_entries',
  { description: 'Files several entries, then summarizes them', inputSchema: z.object({ entries: z.array(z.string()) }) },
  async ({ entries }, ctx) => {
    for (const entry of entries) {
      await appendFile('journal/all.txt', \`\${entry}\\n\`);
    }
    const summary = await ctx.mcpReq.requestSampling({
      messages: [{ role: 'user', content: { type: 'text', text: entries.join('\\n') } }],
      maxTokens: 200,
    });
    return { content: [{ type: 'text', text: summary.content.type === 'text' ? summary.content.text : '' }] };
  },
);
`,
};

/** Date.now() inside the prompt. */
export const CLOCK_IN_PROMPT: FileMap = {
  'server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

export const server = new McpServer({ name: 'standup', version: '1.0.0' });

server.registerTool(
  'standup_note',
  { description: 'Writes a stand-up note for today', inputSchema: z.object({ done: z.string() }) },
  async ({ done }, ctx) => {
    const note = await ctx.mcpReq.requestSampling({
      messages: [
        { role: 'user', content: { type: 'text', text: \`Today is \${new Date(Date.now()).toDateString()}. Done: \${done}\` } },
      ],
      maxTokens: 100,
    });
    return { content: [{ type: 'text', text: note.content.type === 'text' ? note.content.text : '' }] };
  },
);
`,
};

/** A file that does not parse, beside one that does and has nothing to migrate. */
export const BROKEN_FILE: FileMap = {
  'broken.ts': `import { McpServer } from '@modelcontextprotocol/server';
const server = new McpServer({ name: 'broken', version: '1.0.0' });
server.registerTool('x', { description: 'x' }, async (ctx) => {
  const r = await ctx.mcpReq.requestSampling({ messages: [], maxTokens: 1 );
  return r;
};
`,
  'fine.ts': `export const answer = 42;\n`,
};

/** A hand-built MRTR state machine: reported, not rewritten. */
export const HAND_BUILT_MRTR: FileMap = {
  'server.ts': `import { McpServer, inputRequired } from '@modelcontextprotocol/server';
import * as z from 'zod';

export const server = new McpServer({ name: 'mrtr', version: '1.0.0' });

server.registerTool('ask', { description: 'Asks the host model', inputSchema: z.object({ q: z.string() }) }, async ({ q }, ctx) => {
  const answered = ctx.mcpReq.inputResponses?.answer;
  if (answered === undefined) {
    return inputRequired({
      inputRequests: {
        answer: inputRequired.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: q } }], maxTokens: 50 }),
      },
    });
  }
  return { content: [{ type: 'text', text: JSON.stringify(answered) }] };
});
`,
};

/** A monorepo: two packages, each with its own server. */
export const MONOREPO: FileMap = {
  'package.json': JSON.stringify({ name: 'tools-monorepo', private: true, workspaces: ['packages/*'] }, null, 2) + '\n',
  'packages/alpha/src/index.ts': V1_ONE_TOOL['src/server.ts'] as string,
  'packages/beta/src/index.ts': V2_REQUEST_SAMPLING['server.ts'] as string,
  'packages/beta/node_modules/ignored/index.ts': `export const ignored = 'never read';\n`,
};

/** Tools in sampling (SEP-1577): the server runs the tool loop, bounded by six rounds. */
export const TOOL_LOOP: FileMap = {
  'server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import type { SamplingMessage } from '@modelcontextprotocol/server';
import * as z from 'zod';

export const server = new McpServer({ name: 'triage', version: '0.9.0' });

const TOOLS = [
  { name: 'search_issues', description: 'Search older issues', inputSchema: { type: 'object' as const } },
  { name: 'read_file', description: 'Read a file of the repository', inputSchema: { type: 'object' as const } },
];

server.registerTool(
  'triage_issue',
  {
    description: 'Labels an issue after looking around',
    inputSchema: z.object({ issue: z.string(), repository: z.string().optional() }),
  },
  async ({ issue }, ctx) => {
    const messages: SamplingMessage[] = [{ role: 'user', content: { type: 'text', text: issue } }];
    for (let round = 0; round < 6; round++) {
      const step = await ctx.mcpReq.requestSampling({
        messages,
        maxTokens: 500,
        tools: [
          { name: 'search_issues', inputSchema: { type: 'object' } },
          { name: 'read_file', inputSchema: { type: 'object' } },
        ],
        modelPreferences: { costPriority: 0.8 },
      });
      if (step.stopReason !== 'toolUse') {
        return { content: [{ type: 'text', text: JSON.stringify(step.content) }] };
      }
      messages.push({ role: 'assistant', content: step.content });
      messages.push({ role: 'user', content: [] });
    }
    return { content: [{ type: 'text', text: 'no label' }], isError: true };
  },
);
void TOOLS;
`,
};

/** Shapes the codemod reads but does not rewrite, and SDK v1's server.tool(...) which it does. */
export const SHAPES: FileMap = {
  'server.ts': `import { McpServer } from '@modelcontextprotocol/server';
import * as z from 'zod';

export const server = new McpServer({ name: 'shapes', version: '1.0.0' });

async function askModel(question: string) {
  return server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens: 10 });
}

server.registerTool('with_options', { description: 'd', inputSchema: z.object({ q: z.string() }) }, async ({ q }, ctx) => {
  const r = await ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: q } }], maxTokens: 5 }, { timeout: 1000 });
  return { content: [{ type: 'text', text: String(r.model) }] };
});

server.registerTool('in_callback', { description: 'd', inputSchema: z.object({ qs: z.array(z.string()) }) }, async ({ qs }, ctx) => {
  const all = await Promise.all(qs.map(async (q) => ctx.mcpReq.requestSampling({ messages: [{ role: 'user', content: { type: 'text', text: q } }], maxTokens: 5 })));
  return { content: [{ type: 'text', text: String(all.length) }] };
});

server.registerTool('with_meta', { description: 'd', _meta: { owner: 'docs' } }, async (ctx) => {
  const r = await ctx.mcpReq.requestSampling({ messages: [], maxTokens: 5 });
  return { content: [{ type: 'text', text: String(r.model) }] };
});

server.registerTool('logs', { description: 'd' }, async (ctx) => {
  await ctx.mcpReq.log('info', 'asking', 'shapes');
  const r = await ctx.mcpReq.requestSampling({ messages: [], maxTokens: 5 });
  return { content: [{ type: 'text', text: String(r.model) }] };
});

server.registerTool('no_schema', { description: 'Asks without arguments', annotations: { readOnlyHint: true } }, async (ctx) => {
  await ctx.mcpReq.log('debug', 'asking');
  const r = await ctx.mcpReq.requestSampling({ messages: [], maxTokens: 5 });
  return { content: [{ type: 'text', text: String(r.model) }] };
});

server.registerTool('helper', { description: 'd' }, async () => {
  const r = await askModel('hi');
  return { content: [{ type: 'text', text: String(r.model) }] };
});
`,
  'legacy.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'legacy', version: '1.0.0' });

server.tool('haiku', 'Writes a haiku', { topic: z.string() }, async ({ topic }) => {
  const poem = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: topic } }], maxTokens: 60 });
  return { content: [{ type: 'text', text: poem.content.type === 'text' ? poem.content.text : '' }] };
});
`,
  'streamable.ts': `import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const server = new McpServer({ name: 'http', version: '1.0.0' });
export const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => 'fixed' });

server.registerTool('echo_model', { description: 'd', inputSchema: { q: z.string() } }, async ({ q }) => {
  const r = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: q } }], maxTokens: 5 });
  return { content: [{ type: 'text', text: String(r.model) }] };
});
`,
};
