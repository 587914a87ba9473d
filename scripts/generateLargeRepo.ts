/**
 * Generates a deterministic monorepo-shaped git repository for the repository-scale benchmark:
 * `count` files (default 100,000) in nested package directories, with the things a real tree has — nested
 * `.gitignore` files with negations, directory-only and anchored patterns, a `.ignore`, a root
 * `.summarizeignore`, an ignored `node_modules/` and build output, binaries by extension and by content,
 * tracked files, a few recent commits, and untracked files. Nothing is fetched.
 *
 *   npx tsx scripts/generateLargeRepo.ts DIR [COUNT]
 *
 * The benchmark (bench/repoScale.ts) calls {@link ensureLargeRepo}, which reuses a finished tree in its data
 * directory (the system temp directory by default, outside the project) and only generates it once.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** Bump when the layout changes, so that a cached tree is regenerated. */
export const FIXTURE_VERSION = 1;

export interface GeneratedRepo {
  root: string;
  /** Files written, ignored and binary ones included. */
  written: number;
  commits: number;
}

/** git with no user or system configuration, fixed identity and dates: the same tree gives the same history. */
function git(cwd: string, args: string[], date: number): void {
  const stamp = `${1_767_225_600 + date * 3600} +0000`; // 2026-01-01 plus `date` hours
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], {
    cwd,
    stdio: 'ignore',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      PATH: process.env['PATH'] ?? '',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_DATE: stamp,
      GIT_COMMITTER_DATE: stamp,
    },
  });
}

/** A small deterministic pseudo-random generator (mulberry32). */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EXTENSIONS = ['ts', 'ts', 'ts', 'tsx', 'js', 'json', 'md', 'py', 'go', 'css'];

function sourceText(file: string, index: number, next: () => number): string {
  const lines = 2 + Math.floor(next() * 40);
  const body = Array.from({ length: lines }, (_, line) => `// ${file} line ${line}: value ${index * 31 + line}`);
  return `${body.join('\n')}\nexport const value${index} = ${index};\n`;
}

/** Writes files in bounded batches (so at most a few hundred are open at once). */
async function writeAll(root: string, files: Map<string, string | Buffer>): Promise<void> {
  const dirs = new Set<string>();
  for (const relative of files.keys()) dirs.add(path.dirname(relative));
  for (const dir of [...dirs].sort()) await mkdir(path.join(root, dir), { recursive: true });
  const entries = [...files.entries()];
  for (let start = 0; start < entries.length; start += 256) {
    await Promise.all(
      entries.slice(start, start + 256).map(([relative, content]) => writeFile(path.join(root, relative), content)),
    );
  }
}

/** Generates the tree into `root` (which must not exist yet, or be empty). */
export async function generateLargeRepo(root: string, count = 100_000): Promise<GeneratedRepo> {
  const next = random(count);
  const files = new Map<string, string | Buffer>();
  const add = (relative: string, content: string | Buffer): void => {
    if (files.size < count) files.set(relative, content);
  };

  add('README.md', '# Bench monorepo\n\nA generated monorepo for the repository-scale benchmark of mcp-model-input.\n');
  add('package.json', JSON.stringify({ name: 'bench-monorepo', private: true, workspaces: ['packages/*'] }, null, 2));
  add('.gitignore', ['node_modules/', 'dist/', '*.log', '/coverage/', '.cache/'].join('\n') + '\n');
  add('.summarizeignore', ['docs/archive/', '*.generated.ts'].join('\n') + '\n');
  add('docs/guide.md', '# Guide\n\nHow the packages fit together.\n');

  // About 3% of the budget is ignored output: node_modules and build directories.
  const ignoredBudget = Math.floor(count * 0.03);
  for (let i = 0; i < ignoredBudget / 2; i++)
    add(`node_modules/dep${i % 50}/lib/file${i}.js`, `module.exports = ${i};\n`);

  const packages = Math.max(1, Math.round(count / 1000));
  const perPackage = Math.max(4, Math.floor((count - files.size) / packages));
  for (let p = 0; p < packages && files.size < count; p++) {
    const pkg = `packages/pkg-${String(p).padStart(3, '0')}`;
    add(`${pkg}/package.json`, JSON.stringify({ name: `@bench/pkg-${p}`, version: '1.0.0', main: 'src/index.ts' }));
    add(`${pkg}/README.md`, `# pkg-${p}\n\nPackage ${p} of the bench monorepo.\n`);
    add(`${pkg}/src/index.ts`, `export * from './mod-00/index.js';\n`);
    add(`${pkg}/.gitignore`, ['*.snap', '!keep.snap', '/local-only.txt', 'cache/', '!important.log'].join('\n') + '\n');
    if (p % 10 === 0) add(`${pkg}/.ignore`, 'generated/\n');
    add(`${pkg}/local-only.txt`, 'anchored: ignored here only\n');
    add(`${pkg}/src/local-only.txt`, 'kept: the anchored pattern does not match here\n');
    add(`${pkg}/important.log`, 'kept by a negation\n');
    add(`${pkg}/dist/index.js`, 'compiled\n');
    add(`${pkg}/cache/c.json`, '{}\n');
    add(`${pkg}/generated/schema.ts`, 'export {};\n');
    const start = files.size;
    for (let i = 0; files.size < count && files.size - start < perPackage; i++) {
      const mod = `mod-${String(i % 12).padStart(2, '0')}`;
      const sub = `sub-${String(Math.floor(i / 12) % 8)}`;
      const roll = next();
      if (roll < 0.01) {
        add(
          `${pkg}/assets/${mod}/image${i}.png`,
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, i & 0xff]),
        );
      } else if (roll < 0.015) {
        add(`${pkg}/data/${mod}/blob${i}.dat`, Buffer.from([i & 0xff, 0, 1, 2, 3]));
      } else if (roll < 0.03) {
        add(`${pkg}/test/${mod}/case${i}.test.ts`, sourceText(`${pkg}/test`, i, next));
      } else if (roll < 0.035) {
        add(`${pkg}/src/${mod}/__snapshots__/s${i}.snap`, 'snapshot\n');
      } else if (roll < 0.04) {
        add(`${pkg}/build-${i}.log`, 'log\n');
      } else {
        const ext = EXTENSIONS[Math.floor(next() * EXTENSIONS.length)] ?? 'ts';
        const file = `${pkg}/src/${mod}/${sub}/file${i}.${ext}`;
        add(file, sourceText(file, i, next));
      }
    }
  }
  for (let i = 0; files.size < count; i++) add(`docs/archive/old${i}.md`, `# Old note ${i}\n`);

  // A few files stay untracked: written after the first commit. Ignore files are always committed: a tracked file
  // that a later ignore rule matches is listed by git but not by the walker (git knows the index; the walker does not).
  const untracked = [...files.keys()]
    .filter((relative, index) => index % 97 === 50 && !path.posix.basename(relative).startsWith('.'))
    .slice(0, Math.ceil(count / 100));
  const later = new Map(untracked.map((relative) => [relative, files.get(relative) ?? '']));
  for (const relative of untracked) files.delete(relative);

  await mkdir(root, { recursive: true });
  await writeAll(root, files);
  git(root, ['init', '-q'], 0);
  git(root, ['add', '-A'], 0);
  git(root, ['commit', '-q', '-m', 'import'], 0);
  const tracked = [...files.keys()].filter((relative) => relative.endsWith('.ts') && relative.includes('/src/'));
  let commits = 1;
  for (let c = 0; c < 5; c++) {
    const touched = Array.from(
      { length: 3 },
      (_, k) => tracked[(c * 7919 + k * 104_729) % tracked.length] ?? 'README.md',
    );
    for (const relative of touched)
      await writeFile(path.join(root, relative), `// changed in commit ${c}\n`, { flag: 'a' });
    git(root, ['commit', '-q', '-a', '-m', `change ${c}`], c + 1);
    commits++;
  }
  await writeAll(root, later);
  return { root, written: files.size + later.size, commits };
}

/**
 * The cached tree of `count` files under `dataDir` (generated when missing or from an older version). A marker
 * file written last tells a finished tree from an interrupted one.
 */
export async function ensureLargeRepo(dataDir: string, count: number): Promise<GeneratedRepo & { cached: boolean }> {
  const root = path.join(dataDir, `repo-${count}`);
  const marker = path.join(dataDir, `repo-${count}.json`);
  if (existsSync(marker)) {
    const saved = JSON.parse(await readFile(marker, 'utf8')) as GeneratedRepo & { version: number };
    if (saved.version === FIXTURE_VERSION && existsSync(root)) return { ...saved, root, cached: true };
  }
  await rm(marker, { force: true });
  await rm(root, { recursive: true, force: true });
  const generated = await generateLargeRepo(root, count);
  await writeFile(marker, JSON.stringify({ ...generated, version: FIXTURE_VERSION }));
  return { ...generated, cached: false };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dir, countText] = process.argv.slice(2);
  if (dir === undefined) {
    console.error('usage: npx tsx scripts/generateLargeRepo.ts DIR [COUNT]');
    process.exit(2);
  }
  const generated = await generateLargeRepo(path.resolve(dir), countText === undefined ? undefined : Number(countText));
  console.log(JSON.stringify(generated));
}
