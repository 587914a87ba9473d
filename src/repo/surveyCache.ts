/**
 * Surveys kept between calls, so that a repeated first round on an unchanged repository costs the same on a
 * 12-file tree and a 100,000-file one. A kept survey is used only while a {@link TreeWatch} on its root has seen no
 * event since before the survey was made — a file added, removed, changed or newly ignored anywhere in the listed
 * tree, or a change to git's index, `HEAD`, history or `info/exclude`, makes the next call survey afresh.
 *
 * Bounded: at most `maxRoots` roots (least recently asked about dropped first), `maxSurveysPerRoot` surveys each
 * (one per sub-path and candidate budget), `maxDirectories` watched directories in all (a root whose tree needs more
 * is not cached), and a root not asked about for `idleMs` is dropped with its watches.
 */
import type { RepoListing, RepoSurvey, SurveyCache, SurveyRun } from './types.js';
import type { DirectoryBudget } from './treeWatch.js';
import { TreeWatch } from './treeWatch.js';

export interface SurveyCacheOptions {
  /** Roots kept at once. Default 4. */
  maxRoots?: number;
  /** Surveys kept per root (sub-paths, candidate budgets). Default 8. */
  maxSurveysPerRoot?: number;
  /** Directories watched across all roots. Default 50,000. */
  maxDirectories?: number;
  /** A root not asked about for this long is dropped. Default 10 minutes. */
  idleMs?: number;
}

interface Kept {
  generation: number;
  survey: RepoSurvey;
}

/**
 * A survey under way that was begun while the tree was fully watched: `survey` settles with a way to get its answer
 * (frozen, shared by whoever joined it), or with undefined if it failed.
 */
interface Running {
  generation: number;
  survey: Promise<(() => RepoSurvey) | undefined>;
}

interface RootEntry {
  watch: TreeWatch;
  surveys: Map<string, Kept>;
  /** Surveys under way that a call may join (one per key at most). */
  running: Map<string, Running>;
  /** Other values computed from the tree (`keep`), least recently made first. */
  values: Map<string, { generation: number; value: unknown }>;
  lastUsed: number;
}

/** Values kept per root by `keep` (explore tool results: each at most a few KiB). */
const MAX_VALUES_PER_ROOT = 512;

/**
 * Lets every event already signalled reach its watcher: two turns of the event loop include at least one poll
 * phase that starts after this call, which delivers what the kernel queued before it (inotify events are queued
 * synchronously with the change, so a change made before the request arrived is among them).
 */
async function settle(): Promise<void> {
  for (let turn = 0; turn < 2; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
}

function dirOf(relative: string): string {
  const slash = relative.lastIndexOf('/');
  return slash < 0 ? '' : relative.slice(0, slash);
}

/** The directories holding listed files (each once; paths are sorted, so most repeat the previous one). */
function* listedDirectories(listing: RepoListing): Iterable<string> {
  let previous: string | undefined;
  for (const path of listing.paths) {
    const dir = dirOf(path);
    if (dir !== previous) yield dir;
    previous = dir;
  }
}

/** A kept survey is shared by every call that uses it: frozen, so that none can change it for the others. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export type { SurveyCache, SurveyRun };

export function createSurveyCache(options: SurveyCacheOptions = {}): SurveyCache {
  const maxRoots = options.maxRoots ?? 4;
  const maxSurveys = options.maxSurveysPerRoot ?? 8;
  const idleMs = options.idleMs ?? 600_000;
  let directories = options.maxDirectories ?? 50_000;
  const budget: DirectoryBudget = {
    take: () => directories > 0 && directories-- > 0,
    give: (count) => (directories += count),
  };
  const entries = new Map<string, RootEntry>();
  let sweeper: NodeJS.Timeout | undefined;

  const drop = (key: string): void => {
    entries.get(key)?.watch.close();
    entries.delete(key);
    if (entries.size === 0 && sweeper !== undefined) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  const sweep = (): void => {
    const now = Date.now();
    for (const [key, entry] of entries) if (now - entry.lastUsed >= idleMs) drop(key);
  };

  const entryFor = (root: string, variant: string): RootEntry => {
    const key = `${root}\0${variant}`;
    let entry = entries.get(key);
    if (entry !== undefined) {
      // Most recently used last: Map keeps insertion order.
      entries.delete(key);
    } else {
      sweep();
      while (entries.size >= maxRoots) drop(entries.keys().next().value as string);
      entry = {
        watch: new TreeWatch(root, budget),
        surveys: new Map(),
        running: new Map(),
        values: new Map(),
        lastUsed: 0,
      };
    }
    entry.lastUsed = Date.now();
    entries.set(key, entry);
    sweeper ??= setInterval(sweep, Math.max(50, idleMs / 2)).unref();
    return entry;
  };

  return {
    async survey(root, variant, key, compute, options = {}) {
      const entry = entryFor(root, variant);
      const { watch } = entry;
      if (options.whenWatched === true) await watch.whenStarted();
      await settle();
      const kept = entry.surveys.get(key);
      if (kept !== undefined && watch.complete && kept.generation === watch.generation) {
        return kept.survey;
      }
      // The same survey under way, begun while the tree was fully watched, and no event since — the settle above
      // delivered every change made before this call: its answer is the tree as this call would find it. Joined.
      const running = entry.running.get(key);
      if (running !== undefined && watch.complete && running.generation === watch.generation) {
        const joined = await running.survey;
        if (joined !== undefined) return joined();
      }
      entry.surveys.delete(key);
      const complete = watch.complete;
      const generation = watch.generation;
      let share: (answer: (() => RepoSurvey) | undefined) => void = () => {};
      const own: Running = { generation, survey: new Promise((resolve) => (share = resolve)) };
      if (complete) entry.running.set(key, own);
      try {
        const run = await compute();
        // Watching begins after the first survey of a root, off the critical path; the next survey can be kept.
        if (!watch.broken) watch.start();
        await settle();
        let frozen: RepoSurvey | undefined;
        const copy = (): RepoSurvey => (frozen ??= deepFreeze(structuredClone(run.survey)));
        const unchanged = complete && watch.complete && watch.generation === generation;
        if (unchanged && watch.cover(listedDirectories(run.listing)) && entries.get(`${root}\0${variant}`) === entry) {
          while (entry.surveys.size >= maxSurveys) entry.surveys.delete(entry.surveys.keys().next().value as string);
          entry.surveys.set(key, { generation, survey: copy() });
        }
        share(copy);
        return run.survey;
      } catch (error) {
        share(undefined);
        throw error;
      } finally {
        if (entry.running.get(key) === own) entry.running.delete(key);
      }
    },
    async keep<T>(root: string, variant: string, key: string, compute: () => Promise<T>): Promise<T> {
      const entry = entryFor(root, variant);
      const { watch } = entry;
      await settle();
      const kept = entry.values.get(key);
      if (kept !== undefined && watch.complete && kept.generation === watch.generation) return kept.value as T;
      entry.values.delete(key);
      const complete = watch.complete;
      const generation = watch.generation;
      const value = await compute();
      await settle();
      if (complete && watch.complete && watch.generation === generation) {
        while (entry.values.size >= MAX_VALUES_PER_ROOT)
          entry.values.delete(entry.values.keys().next().value as string);
        entry.values.set(key, { generation, value: deepFreeze(value) });
      }
      return value;
    },
    get roots() {
      return entries.size;
    },
    close() {
      for (const key of [...entries.keys()]) drop(key);
    },
  };
}

let shared: SurveyCache | undefined;

/** The process's one survey cache, made on first use: its caps bound the whole process, whatever serves from it. */
export function sharedSurveyCache(): SurveyCache {
  return (shared ??= createSurveyCache());
}
