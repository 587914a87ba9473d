import type { Stats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { ModelInputError } from '../errors.js';
import type { EntryVerdict, ScanContext } from './classify.js';
import { classifyEntry } from './classify.js';
import { IgnoreRules } from './ignoreRules.js';
import { absoluteOf } from './paths.js';
import { compareCodeUnits, SkipCollector } from './skips.js';
import type { RepoFile } from './types.js';

export type DirectoryScope = { kind: 'directory'; rules: IgnoreRules } | Exclude<EntryVerdict, { kind: 'directory' }>;

function childOf(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

async function lstatOrUndefined(ctx: ScanContext, relative: string): Promise<Stats | undefined> {
  try {
    return await ctx.limit(() => lstat(absoluteOf(ctx.root, relative)));
  } catch {
    return undefined;
  }
}

/**
 * The ignore rules in force inside `dir` (POSIX, relative to the root), built from the root down. Each ancestor
 * is classified exactly as the walk would, so a directory the walk would not enter (ignored, `.git`, a symlink,
 * missing) yields that verdict instead of rules.
 */
export async function scopeOf(ctx: ScanContext, dir: string): Promise<DirectoryScope | undefined> {
  let rules = await IgnoreRules.forRoot(ctx.root, ctx.limit);
  let current = '';
  for (const segment of dir === '' ? [] : dir.split('/')) {
    current = childOf(current, segment);
    const stats = await lstatOrUndefined(ctx, current);
    if (!stats) return undefined;
    const verdict = await classifyEntry(ctx, current, stats, rules);
    if (verdict.kind !== 'directory') return verdict;
    rules = await rules.forDirectory(ctx.root, current, ctx.limit);
  }
  return { kind: 'directory', rules };
}

export interface WalkResult {
  files: RepoFile[];
  skips: SkipCollector;
}

/**
 * Walks the subtree below `start` (whose own rules are `rules`): directories are entered only when they are real
 * and not ignored; every other entry becomes a file or a skip. Only the start directory being unreadable is fatal.
 */
export async function walk(ctx: ScanContext, start: string, rules: IgnoreRules): Promise<WalkResult> {
  const files: RepoFile[] = [];
  const skips = new SkipCollector();

  const visit = async (dir: string, dirRules: IgnoreRules): Promise<void> => {
    let names: string[];
    try {
      names = await ctx.limit(() => readdir(absoluteOf(ctx.root, dir)));
    } catch (error) {
      if (dir !== start) return skips.add('unreadable', `${dir}/`);
      throw new ModelInputError('repo_unreadable', 'The repository directory could not be read', { cause: error });
    }
    await Promise.all(
      names.map(async (name) => {
        const relative = childOf(dir, name);
        const stats = await lstatOrUndefined(ctx, relative);
        if (!stats) return skips.add('unreadable', relative);
        const verdict = await classifyEntry(ctx, relative, stats, dirRules);
        if (verdict.kind === 'file') files.push(verdict.file);
        else if (verdict.kind === 'skip') skips.add(verdict.reason, verdict.example);
        else await visit(relative, await dirRules.forDirectory(ctx.root, relative, ctx.limit));
      }),
    );
  };

  await visit(start, rules);
  files.sort((a, b) => compareCodeUnits(a.path, b.path));
  return { files, skips };
}
