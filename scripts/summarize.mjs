// `npm run summarize -- DIR`: the main job from a checkout. It builds first only when the build is missing or some
// source is newer than it (src/, package.json, tsconfig.json, the bundling script), so a second run starts at once;
// then it runs dist/cli.js summarize with the arguments given. The build's output goes to stderr: stdout carries
// only the summary.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Written last by `npm run build` (scripts/bundleCli.mjs): its time is the build's. */
const STAMP = 'dist/cli-chunks/modules.json';
const INPUTS = ['src', 'package.json', 'tsconfig.json', 'scripts/bundleCli.mjs'];

function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The newest file under `path` (a file or a directory), as [path, mtime]; undefined when there is none. */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return undefined;
  }
  if (!stat.isDirectory()) return [path, stat.mtimeMs];
  let found;
  for (const entry of readdirSync(path)) {
    const candidate = newest(join(path, entry));
    if (candidate !== undefined && (found === undefined || candidate[1] > found[1])) found = candidate;
  }
  return found;
}

/** Why `root` needs a build before dist/cli.js can run, or undefined when the build is up to date. */
export function staleReason(root) {
  const built = mtimeOf(join(root, STAMP));
  if (built === undefined) return 'no build yet';
  const cli = mtimeOf(join(root, 'dist/cli.js'));
  if (cli === undefined || cli > built) return 'dist/cli.js was rewritten after the last build';
  for (const input of INPUTS) {
    const found = newest(join(root, input));
    if (found !== undefined && found[1] > built) {
      return `${found[0]
        .slice(root.length)
        .replace(/^[\\/]/, '')
        .replaceAll('\\', '/')} is newer than the build`;
    }
  }
  return undefined;
}

function main() {
  const root = fileURLToPath(new globalThis.URL('..', import.meta.url));
  const reason = staleReason(root);
  if (reason !== undefined) {
    process.stderr.write(`npm run summarize: building first (${reason})\n`);
    // npm runs this script and says where it is; a direct `node scripts/summarize.mjs` uses npm from the PATH.
    const npm = process.env['npm_execpath'];
    const [command, args] = npm === undefined ? ['npm', ['run', 'build']] : [process.execPath, [npm, 'run', 'build']];
    const build = spawnSync(command, args, {
      cwd: root,
      stdio: ['ignore', process.stderr, 'inherit'],
      shell: npm === undefined && process.platform === 'win32',
    });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const run = spawnSync(process.execPath, [join(root, 'dist/cli.js'), 'summarize', ...process.argv.slice(2)], {
    stdio: 'inherit',
  });
  process.exit(run.status ?? 1);
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) main();
