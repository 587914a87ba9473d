/**
 * The explore tools as the model sees them (`tools` of each `sampling/createMessage`), and the reading of a
 * `tool_use` block's `input` into a validated call. Arguments are bounded (repo/explore EXPLORE_ARGUMENT_LIMITS):
 * what the model may ask for is small enough to be logged in the sealed state.
 */
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';

import { jsonBytes } from './callLog.js';

import {
  DEFAULT_EXPLORE_TOOL_LIMITS,
  EXPLORE_ARGUMENT_LIMITS,
  type ExploreCall,
  type ExploreToolName,
} from '../../../repo/explore/index.js';

export const EXPLORE_TOOL_NAMES: readonly ExploreToolName[] = ['list_directory', 'read_file', 'search'];
export const DEFAULT_READ_LINES = 200;

const bounded = (max: number) => z.string().refine((value) => jsonBytes(value) <= max);
const path = bounded(EXPLORE_ARGUMENT_LIMITS.pathBytes);
const schemas = {
  list_directory: z.strictObject({ path: path.optional() }),
  read_file: z.strictObject({
    path: path.refine((value) => value.length > 0),
    startLine: z.number().int().min(1).max(EXPLORE_ARGUMENT_LIMITS.startLine).optional(),
    maxLines: z.number().int().min(1).max(DEFAULT_EXPLORE_TOOL_LIMITS.maxLines).optional(),
  }),
  search: z.strictObject({
    pattern: bounded(EXPLORE_ARGUMENT_LIMITS.patternBytes).refine((value) => value.length > 0),
    regex: z.boolean().optional(),
    path: path.optional(),
  }),
} as const;

/** Each path argument's example names what that argument takes: a directory, or a file. */
const DIRECTORY_HELP = 'relative to the repository root, e.g. "src/lib"';
const FILE_HELP = 'relative to the repository root, e.g. "src/index.ts"';

/** The three tools offered in every explore request, in a fixed order. */
export const EXPLORE_TOOLS: Tool[] = [
  {
    name: 'list_directory',
    description:
      'List a directory of the repository: its sub-directories (with how many files each holds) and its files. ' +
      'Ignored, binary and secret-bearing files are never listed.',
    inputSchema: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          maxLength: EXPLORE_ARGUMENT_LIMITS.pathBytes,
          description: `Directory, ${DIRECTORY_HELP}; default the root.`,
        },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'read_file',
    description:
      'Read a window of lines of a text file. Results are capped in bytes; ask for another window with startLine.',
    inputSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', maxLength: EXPLORE_ARGUMENT_LIMITS.pathBytes, description: `File, ${FILE_HELP}.` },
        startLine: { type: 'integer', minimum: 1, description: 'First line to show (1-based); default 1.' },
        maxLines: {
          type: 'integer',
          minimum: 1,
          maximum: DEFAULT_EXPLORE_TOOL_LIMITS.maxLines,
          description: `How many lines; default ${DEFAULT_READ_LINES}.`,
        },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  {
    name: 'search',
    description:
      'Search the text files of the repository (and their paths) for a fixed string, or a regular expression in ' +
      'RE2 syntax when regex is true. Shows matching lines as path:line: text, capped.',
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', minLength: 1, maxLength: EXPLORE_ARGUMENT_LIMITS.patternBytes },
        regex: { type: 'boolean', description: 'Treat pattern as an RE2 regular expression; default false.' },
        path: {
          type: 'string',
          maxLength: EXPLORE_ARGUMENT_LIMITS.pathBytes,
          description: `Directory to search, ${DIRECTORY_HELP}; default the root.`,
        },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
];

/** A `tool_use` block's name and input as a validated call, or why it cannot be run. */
export function readToolCall(name: string, input: unknown, base: string): ExploreCall | { invalid: string } {
  switch (name) {
    case 'list_directory': {
      const parsed = schemas.list_directory.safeParse(input);
      if (!parsed.success) return { invalid: 'list_directory takes {"path": "<directory>"}' };
      return { tool: 'list_directory', path: parsed.data.path ?? base };
    }
    case 'read_file': {
      const parsed = schemas.read_file.safeParse(input);
      if (!parsed.success) {
        return {
          invalid:
            `read_file takes {"path": "<file>", "startLine": 1, "maxLines": ${DEFAULT_READ_LINES}} ` +
            `(path at most ${EXPLORE_ARGUMENT_LIMITS.pathBytes} bytes, maxLines at most ${DEFAULT_EXPLORE_TOOL_LIMITS.maxLines})`,
        };
      }
      return {
        tool: 'read_file',
        path: parsed.data.path,
        startLine: parsed.data.startLine ?? 1,
        maxLines: parsed.data.maxLines ?? DEFAULT_READ_LINES,
      };
    }
    case 'search': {
      const parsed = schemas.search.safeParse(input);
      if (!parsed.success) {
        return {
          invalid: `search takes {"pattern": "<text>", "regex": false, "path": "<directory>"} (pattern at most ${EXPLORE_ARGUMENT_LIMITS.patternBytes} bytes)`,
        };
      }
      return {
        tool: 'search',
        pattern: parsed.data.pattern,
        regex: parsed.data.regex ?? false,
        path: parsed.data.path ?? base,
      };
    }
    default:
      return {
        invalid: `there is no tool named ${JSON.stringify(name.slice(0, 40))}: use ${EXPLORE_TOOL_NAMES.join(', ')}`,
      };
  }
}

/** The `input` a call is shown with when the conversation is rebuilt (the normalized arguments). */
export function toolInput(call: ExploreCall): Record<string, unknown> {
  switch (call.tool) {
    case 'list_directory':
      return { path: call.path };
    case 'read_file':
      return { path: call.path, startLine: call.startLine, maxLines: call.maxLines };
    case 'search':
      return { pattern: call.pattern, regex: call.regex, path: call.path };
  }
}

/** What a call looked at, for the report: a path, or the pattern and its scope. */
export function targetOf(call: ExploreCall): string {
  switch (call.tool) {
    case 'list_directory':
      return call.path === '' ? '.' : call.path;
    case 'read_file':
      return `${call.path}:${call.startLine}+${call.maxLines}`;
    case 'search':
      return `${JSON.stringify(call.pattern)}${call.regex ? ' (regex)' : ''} in ${call.path === '' ? '.' : call.path}`;
  }
}
