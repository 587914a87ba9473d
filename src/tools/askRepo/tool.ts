/**
 * `ask_repo({ question, maxFiles?, mode? })`: the model finds where the answer lives — choosing files from the
 * ranked candidates (`pick`), or listing and reading on its own (`explore`) — and answers, citing `path:lines`.
 * Every citation is checked against the lines actually shown; one never shown is removed and counted. Built only
 * on the public kit (`mcp-model-input/tool`); its built-in model is deterministic retrieval (builtin.ts).
 */
import { z } from 'zod';

import { defineModelTool, type ModelToolContext, type SampleRequest, type ToolRepo } from '../../entries/tool.js';
import { ASK_REPO_BUILTIN } from './builtin.js';
import { checkCitations } from './citations.js';
import {
  ANSWER,
  ANSWER_SYSTEM,
  answerPrompt,
  EXPLORE_ANSWER,
  EXPLORE_SYSTEM,
  explorePrompt,
  PICK_ANSWER,
  PICK_SYSTEM,
  pickPrompt,
} from './prompts.js';
import { rankForQuestion } from './rank.js';
import { formatRange, formatShown, shownFile, type ShownFile } from './shown.js';

export const DEFAULT_MAX_FILES = 6;
/** Bytes shown of one file, and turns of the explore loop. */
const FILE_BYTES = 12 * 1024;
export const MAX_EXPLORE_TURNS = 6;
/** Paths shown of one directory listing in explore mode. */
const LISTED_PATHS = 200;

const input = z.strictObject({
  question: z.string().trim().min(1).max(2000).describe('The question about the served repository'),
  maxFiles: z.number().int().min(1).max(20).optional().describe(`Files read at most (default ${DEFAULT_MAX_FILES})`),
  mode: z
    .enum(['pick', 'explore'])
    .optional()
    .describe('pick: the model chooses from ranked candidates (default); explore: it lists and reads on its own'),
});

type Answered = z.output<typeof ANSWER>;

/** Per call: model questions, bytes of model input, and the route each step took. */
interface Usage {
  modelCalls: number;
  inputBytes: number;
  routes: Array<{ step: string; route: string }>;
}

function requestBytes(request: SampleRequest): number {
  const texts = request.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [m.content]));
  const body = texts.reduce((sum, block) => sum + (block.type === 'text' ? Buffer.byteLength(block.text) : 0), 0);
  return body + Buffer.byteLength(request.systemPrompt ?? '');
}

function asker(ctx: ModelToolContext, usage: Usage) {
  return async (step: string, system: string, prompt: string, schema: z.ZodType, maxTokens: number) => {
    const request: SampleRequest = {
      systemPrompt: system,
      messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
      maxTokens,
      outputSchema: schema,
    };
    usage.modelCalls++;
    usage.inputBytes += requestBytes(request);
    const answer = await ctx.sample(step, request);
    usage.routes.push({ step, route: answer.route });
    return answer.data;
  };
}

async function readShown(repo: ToolRepo, paths: readonly string[], already: ReadonlySet<string>): Promise<ShownFile[]> {
  const files: ShownFile[] = [];
  for (const path of [...new Set(paths)]) {
    if (already.has(path)) continue;
    const content = await repo.readText(path, FILE_BYTES);
    if (content !== undefined) files.push(shownFile(path, content));
  }
  return files;
}

export const askRepo = defineModelTool({
  name: 'ask_repo',
  title: 'Ask the repository',
  description:
    'Answers a question about the served repository ("where is X handled?"), citing path:line-range for every ' +
    'claim; citations of lines never read are removed and counted.',
  input,
  annotations: { readOnlyHint: true, openWorldHint: false },
  steps: {
    pick: { description: 'Choose the files to read', modelPreferences: { speedPriority: 0.7 } },
    answer: { description: 'Answer from the files read', modelPreferences: { intelligencePriority: 0.8 } },
    explore: { description: 'One turn of the read-only explore loop', modelPreferences: { intelligencePriority: 0.8 } },
  },
  builtin: ASK_REPO_BUILTIN,
  async run({ question, maxFiles = DEFAULT_MAX_FILES, mode = 'pick' }, ctx) {
    const repo = ctx.repo;
    if (repo === undefined)
      return { content: [{ type: 'text', text: 'ask_repo: no repository is served.' }], isError: true };
    const usage: Usage = { modelCalls: 0, inputBytes: 0, routes: [] };
    const ask = asker(ctx, usage);
    const { ranked, total } = await ctx.once('rank', () => rankForQuestion(repo, question));
    await ctx.progress(1, 3, 'finding where the answer lives');
    let shown: ShownFile[];
    let answered: Answered;
    if (mode === 'pick') {
      const picked = (await ask(
        'pick',
        PICK_SYSTEM,
        pickPrompt(question, ranked, total, maxFiles),
        PICK_ANSWER,
        400,
      )) as {
        paths: string[];
      };
      shown = await readShown(repo, picked.paths.slice(0, maxFiles), new Set());
      // Nothing the model chose is readable: the best candidates instead.
      if (shown.length === 0)
        shown = await readShown(
          repo,
          ranked.slice(0, maxFiles).map((r) => r.path),
          new Set(),
        );
      await ctx.progress(2, 3, 'answering');
      answered = (await ask('answer', ANSWER_SYSTEM, answerPrompt(question, shown), ANSWER, 1500)) as Answered;
    } else {
      ({ shown, answered } = await explore(ask, repo, question, ranked, maxFiles));
    }
    const checked = checkCitations(answered.answer, answered.citations, shown);
    const structured = {
      answer: checked.answer,
      citations: checked.citations.map((c) => ({ path: c.path, lines: formatRange(c.lines), verified: c.verified })),
      removedCitations: checked.removed,
      filesRead: shown.map((file) => file.path),
      mode,
      routes: usage.routes,
      usage: { modelCalls: usage.modelCalls, inputBytes: usage.inputBytes },
    };
    const removedNote =
      checked.removed > 0 ? `\n\n(${checked.removed} citation(s) of lines never read were removed.)` : '';
    return { content: [{ type: 'text', text: checked.answer + removedNote }], structuredContent: structured };
  },
});

type Ask = ReturnType<typeof asker>;

async function explore(
  ask: Ask,
  repo: ToolRepo,
  question: string,
  ranked: Parameters<typeof explorePrompt>[1],
  maxFiles: number,
): Promise<{ shown: ShownFile[]; answered: Answered }> {
  const shown: ShownFile[] = [];
  const observations: string[] = [];
  for (let turn = 0; turn < MAX_EXPLORE_TURNS; turn++) {
    const prompt = explorePrompt(question, ranked, observations, MAX_EXPLORE_TURNS - turn, maxFiles - shown.length);
    const said = (await ask('explore', EXPLORE_SYSTEM, prompt, EXPLORE_ANSWER, 1500)) as z.output<
      typeof EXPLORE_ANSWER
    >;
    if (said.action === 'answer') return { shown, answered: { answer: said.answer, citations: said.citations } };
    if (said.action === 'list') {
      observations.push(await listing(repo, said.path));
      continue;
    }
    const room = maxFiles - shown.length;
    const files = room > 0 ? await readShown(repo, said.paths.slice(0, room), new Set(shown.map((f) => f.path))) : [];
    shown.push(...files);
    const unread = said.paths.filter((path) => !files.some((file) => file.path === path));
    observations.push(...files.map(formatShown));
    if (unread.length > 0)
      observations.push(`NOT READ (not a readable file of the repository, or over the limit): ${unread.join(', ')}`);
  }
  // The loop ran out of turns: one last question, with what was read.
  const answered = (await ask('answer', ANSWER_SYSTEM, answerPrompt(question, shown), ANSWER, 1500)) as Answered;
  return { shown, answered };
}

async function listing(repo: ToolRepo, path: string): Promise<string> {
  try {
    const listed = await repo.list(path === '' || path === '.' ? undefined : path);
    const more = listed.paths.length > LISTED_PATHS ? `\n… and ${listed.paths.length - LISTED_PATHS} more` : '';
    return `LISTING of ${path || '.'}:\n${listed.paths.slice(0, LISTED_PATHS).join('\n')}${more}`;
  } catch {
    return `LISTING of ${path}: not a directory of the repository`;
  }
}
