/** The `summarize_repo` wire schemas: arguments and the structured result. */
import { z } from 'zod';

export const TOOL_NAME = 'summarize_repo';
export const PICK_KEY = 'pick_files';
/** `model` of the result: the model's name as it reported itself, escaped and cut to this many characters. */
export const MAX_MODEL_NAME_CHARS = 200;
export const SUMMARY_KEY = 'summary';
/** The input key of every explore round (one model turn of the tool loop). */
export const EXPLORE_KEY = 'explore';

/** Strict: an unknown argument (`max_files`) is refused, and the published schema says `additionalProperties: false`. */
export const summarizeRepoInput = z.strictObject({
  audience: z
    .string()
    .max(200)
    .optional()
    .describe('Who the summary is for, e.g. "developer" (default) or "executive".'),
  path: z
    .string()
    .max(1024)
    .optional()
    .describe('A sub-directory of the served root to summarize instead of the whole root (relative path).'),
  maxFiles: z.number().int().min(1).max(8).default(3).describe('How many files the model may pick (1-8).'),
  mode: z
    .enum(['pick', 'explore'])
    .default('pick')
    .describe(
      '`pick` (default): the model picks files from a ranked list. `explore`: the model walks the repository with ' +
        'read-only tools (list_directory, read_file, search; tools in sampling) before it summarizes.',
    ),
});

export type SummarizeRepoArgs = z.output<typeof summarizeRepoInput>;

const skippedClass = z.object({
  reason: z.string(),
  count: z.number().int(),
  examples: z.array(z.string()),
});

const languageShare = z.object({ language: z.string(), files: z.number().int(), bytes: z.number().int() });

/** Whole-repository facts (src/repo/facts): computed from the listing, not from the files the model read. */
export const repoFactsSchema = z
  .object({
    files: z.number().int(),
    mix: z.object({
      languages: z.array(languageShare).describe('Code (programming and markup) by bytes, largest first.'),
      main: z.object({ language: z.string(), of: z.enum(['code', 'documentation']) }).optional(),
      documentation: z.object({ files: z.number().int(), languages: z.array(z.string()) }),
      vendored: z.number().int(),
      generated: z.number().int(),
      other: z.number().int(),
      bytes: z.enum(['measured', 'estimated']),
      sampled: z.number().int(),
    }),
    layout: z.object({
      directories: z.array(
        z.object({ dir: z.string(), files: z.number().int(), role: z.string(), language: z.string().optional() }),
      ),
      rest: z.object({ dirs: z.number().int(), files: z.number().int() }),
      rootFiles: z.number().int(),
    }),
    manifests: z.array(
      z.object({
        path: z.string(),
        kind: z.string(),
        language: z.string(),
        name: z.string().optional(),
        description: z.string().optional(),
        workspace: z.boolean().optional(),
      }),
    ),
    entryPoints: z.array(z.object({ path: z.string(), via: z.string(), declared: z.string().optional() })),
    commands: z.array(z.object({ command: z.string(), via: z.string() })),
    project: z.object({
      name: z.object({ value: z.string(), from: z.string() }).optional(),
      description: z.object({ value: z.string(), from: z.string() }).optional(),
    }),
  })
  .describe('Languages, layout, manifests and entry points of the whole repository (path-based heuristics).');

const exploreCall = z.object({
  tool: z.string(),
  target: z.string().describe('The path, the line window (`path:start+lines`) or the pattern and its scope.'),
  bytes: z.number().int().describe('Bytes of the result shown to the model.'),
  error: z.string().optional().describe('Why the call returned nothing (`outside_root`, `secret_file`, `repeated`…).'),
});

export const explorationSchema = z
  .object({
    calls: z.array(exploreCall),
    endedBy: z
      .enum(['model', 'tool_calls', 'rounds', 'bytes', 'time', 'repeats'])
      .describe('`model`: it answered on its own; otherwise the bound that made the server ask for the answer.'),
    rounds: z.number().int().describe('Model turns, the final answer included.'),
    bytes: z.number().int().describe('Bytes of tool results shown to the model in all.'),
    bounds: z.object({
      toolCalls: z.number().int(),
      rounds: z.number().int(),
      bytes: z.number().int(),
      timeMs: z.number().int(),
    }),
  })
  .describe('Explore mode: the tool calls the model made, and what ended the exploration.');

export const summarizeRepoOutput = z.object({
  mode: z.enum(['pick', 'explore']),
  summary: z.string(),
  picked: z.array(z.string()),
  dropped: z
    .array(z.string())
    .describe(
      'Entries of the model pick that were not candidate files; a secret-bearing file reads "<path> (secret file: never read)".',
    ),
  audience: z.string(),
  path: z.string(),
  model: z.string().describe('The model that wrote the summary, as it reported itself.'),
  candidates: z.object({ listed: z.number().int(), total: z.number().int() }),
  files: z.array(
    z.object({
      path: z.string(),
      size: z.number().int(),
      bytesShown: z.number().int(),
      truncated: z.boolean(),
      tokens: z.number().int().optional().describe('Estimated tokens of what the summary prompt showed of the file.'),
      encoding: z
        .enum(['utf16le', 'utf16be', 'replaced'])
        .optional()
        .describe('Present when the file is not plain UTF-8; `replaced`: invalid bytes were shown as U+FFFD.'),
    }),
  ),
  skipped: z
    .array(skippedClass)
    .describe('Files left out of the listing or the reading, by reason (`secret_file`: secret-bearing by name).'),
  redacted: z
    .array(z.object({ path: z.string(), kind: z.string(), count: z.number().int() }))
    .describe(
      'Secrets replaced by "[redacted: <kind>]" before any model saw them, per file (or prompt part) and kind.',
    ),
  pickedBy: z
    .enum(['model', 'builtin_ranking'])
    .describe("Who chose the files: the model, or the built-in ranking when a server-owned model's pick was unusable."),
  notes: z.array(z.string()).describe('Things the caller should know about how the result was made (e.g. a fallback).'),
  facts: repoFactsSchema.optional(),
  exploration: explorationSchema.optional(),
  usage: z
    .object({
      calls: z.number().int(),
      inputTokens: z.number().int(),
      outputTokens: z.number().int(),
      models: z.array(z.string()),
    })
    .describe("The server's own model calls for this tool call and their tokens (the host's model is not counted)."),
});

export type SummarizeRepoOutput = z.output<typeof summarizeRepoOutput>;
