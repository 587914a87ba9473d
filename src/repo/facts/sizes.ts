/**
 * The size pass of the facts: one `lstat` per file on an ordinary tree; on a large one, an evenly spread
 * sample of {@link MAX_SIZED} files, so the cost stays bounded whatever the size of the tree.
 */
import { lstat } from 'node:fs/promises';

import type { Limiter } from '../limit.js';
import { absoluteOf } from '../paths.js';
import type { SizeSample } from './languageMix.js';

/** At most this many sizes are read per run. */
export const MAX_SIZED = 5000;

/** `paths` are root-relative; the sample is keyed by `key(path)` (the base-relative path). */
export async function measureSizes(
  root: string,
  paths: readonly string[],
  limit: Limiter,
  key: (path: string) => string,
): Promise<SizeSample> {
  const complete = paths.length <= MAX_SIZED;
  const step = complete ? 1 : paths.length / MAX_SIZED;
  const chosen: string[] = [];
  const count = Math.min(paths.length, MAX_SIZED);
  for (let k = 0; k < count; k++) chosen.push(paths[Math.floor(k * step)] as string);
  const sizes = new Map<string, number>();
  await Promise.all(
    chosen.map((path) =>
      limit(() => lstat(absoluteOf(root, path))).then(
        (stats) => {
          if (stats.isFile() || stats.isSymbolicLink()) sizes.set(key(path), stats.size);
        },
        () => undefined,
      ),
    ),
  );
  return { sizes, complete: complete && sizes.size === paths.length };
}
