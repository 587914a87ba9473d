/** Small helpers over `node:util` parseArgs: one-line usage errors, validated numbers and paths. */
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

import { ModelInputError } from '../errors.js';

/**
 * Each command's flag table as its parser last saw it (command -> flag -> its parseArgs option). The CLI reference
 * test (test/cli/reference.test.ts) holds the help (src/cli/usage.ts) to exactly these flags, their values and
 * which ones repeat; the docs' code-block test (test/docs/codeBlocks.test.ts) parses the commands the docs show
 * with them, without running them.
 */
export const PARSED_FLAG_TABLES = new Map<string, OptionTable>();

/** What the reference test reads of a parseArgs option. */
export interface ParsedFlag {
  readonly type: 'string' | 'boolean';
  readonly multiple?: boolean | undefined;
  readonly short?: string | undefined;
}

/** A command's options as `parseArgs` takes them (node:util's own type for this is not exported). */
export type OptionTable = Readonly<
  Record<
    string,
    {
      type: 'string' | 'boolean';
      multiple?: boolean;
      short?: string;
      default?: string | boolean | string[] | boolean[];
    }
  >
>;

export function parseCommandArgs<T extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  argv: readonly string[],
  options: T,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: true; strict: true }>> {
  PARSED_FLAG_TABLES.set(command, options);
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new ModelInputError('usage', `${command}: ${(error as Error).message} (see --help)`);
  }
}

export function parseInteger(flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < min || number > max) {
    throw new ModelInputError('usage', `${flag} must be an integer from ${min} to ${max}, got '${value}'`);
  }
  return number;
}

export async function resolveDirectory(flag: string, value: string | undefined): Promise<string> {
  const path = resolve(value ?? '.');
  const info = await stat(path).catch(() => undefined);
  if (info === undefined || !info.isDirectory()) {
    throw new ModelInputError('usage', `${flag}: '${value ?? '.'}' is not a directory`);
  }
  return path;
}
