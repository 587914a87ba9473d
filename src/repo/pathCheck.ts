/**
 * Whether a listing made now would hold one path, judged for that path alone: the directories from the root down
 * to it, their ignore files, and one `lstat` per segment — never a walk of the tree. This is how a picked path is
 * validated in the second round, so that round costs the same on a 12-file repository and a 100,000-file one, and
 * always sees the tree as it is now (a file removed or newly ignored since the pick prompt was made is refused).
 *
 * The verdict follows the listing's rules (walker.ts, gitListing.ts): `.git` anywhere, a missing segment, a
 * directory that is a symlink, special files, names with control characters and known binary extensions are not
 * listed; a path that the `extra`
 * layer ignores (or that lies below a directory it ignores) is not listed; one that only git's own rules ignore is
 * `git_ignored` — git still lists it if it is tracked, which the caller asks git about.
 */
import type { Stats } from 'node:fs';
import { lstatSync } from 'node:fs';
import { hasControls } from '../protocol/sanitize.js';
import { hasBinaryExtension } from './classify.js';
import { IgnoreRules } from './ignoreRules.js';
import { absoluteOf, VCS_DIR_NAME } from './paths.js';
import { childOf } from './walker.js';

export type PathVerdict = 'listed' | 'git_ignored' | 'unlisted';

function lstatOrUndefined(root: string, relative: string): Stats | undefined {
  try {
    return lstatSync(absoluteOf(root, relative));
  } catch {
    return undefined;
  }
}

/**
 * The ignore rules read for each directory (`''` for the root) during one pass over several paths (one pick): each
 * directory's ignore files are read once per pass, not once per path. A pass lasts one call; never keep one longer.
 */
export type RulesByDirectory = Map<string, IgnoreRules>;

/** The verdict for `relative` (normalized, POSIX, relative to the root, not empty). */
export function judgePath(root: string, relative: string, pass?: RulesByDirectory): PathVerdict {
  // A name with a control, separator or format character is never listed (listing.ts: `unsafe_name`).
  if (hasControls(relative)) return 'unlisted';
  const segments = relative.split('/');
  const rulesFor = (dir: string, make: () => IgnoreRules): IgnoreRules => {
    if (pass === undefined) return make();
    let kept = pass.get(dir);
    if (kept === undefined) pass.set(dir, (kept = make()));
    return kept;
  };
  let rules = rulesFor('', () => IgnoreRules.forRoot(root));
  let current = '';
  let gitIgnored = false;
  for (const [index, segment] of segments.entries()) {
    current = childOf(current, segment);
    const last = index === segments.length - 1;
    if (segment === VCS_DIR_NAME) return 'unlisted';
    const stats = lstatOrUndefined(root, current);
    if (stats === undefined) return 'unlisted';
    const isDirectory = stats.isDirectory();
    if (last ? !(stats.isFile() || stats.isSymbolicLink()) : !isDirectory) return 'unlisted';
    if (gitIgnored) {
      // Below a directory git's rules ignore, only a tracked file is listed, and the `extra` layer still applies.
      if (rules.extra.ignores(current, isDirectory)) return 'unlisted';
    } else {
      const layer = rules.ignoredBy(current, isDirectory);
      if (layer === 'extra') return 'unlisted';
      if (layer === 'git') gitIgnored = true;
    }
    if (!last) {
      const parent = rules;
      rules = rulesFor(current, () => parent.forDirectory(root, current));
    }
  }
  if (hasBinaryExtension(relative)) return 'unlisted';
  return gitIgnored ? 'git_ignored' : 'listed';
}
