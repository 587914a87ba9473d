import { mkdtemp, mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface FixtureRepo {
  root: string;
  cleanup(): Promise<void>;
}

/** Writes `files` (relative path -> content) into a fresh temporary directory. */
export async function makeTree(files: Record<string, string | Buffer>, prefix = 'mmi-fixture-'): Promise<FixtureRepo> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return { root, cleanup: () => rm(root, { recursive: true, force: true }) };
}

/** A small Node project with ignored, binary and escaping entries next to the real files. */
export async function makeSampleRepo(): Promise<FixtureRepo & { outside: FixtureRepo }> {
  const outside = await makeTree({ 'secret.txt': 'outside the root\n' }, 'mmi-outside-');
  const repo = await makeTree({
    'README.md': '# Sample Widget\n\nSample Widget turns CSV files into charts for the command line.\n',
    'package.json': JSON.stringify(
      { name: 'sample-widget', description: 'CSV to charts', main: 'src/index.ts', bin: { widget: 'src/cli.ts' } },
      null,
      2,
    ),
    'src/index.ts': 'export function chart(csv: string): string {\n  return csv;\n}\n',
    'src/cli.ts': "import { chart } from './index.js';\nconsole.log(chart(process.argv[2] ?? ''));\n",
    'docs/guide.md': '# Guide\n\nRun `widget data.csv`.\n',
    '.gitignore': 'secret.env\nbuild/\n',
    'secret.env': 'TOKEN=do-not-read\n',
    'build/out.js': 'compiled\n',
    'logo.png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
    'packages/core/README.md': '# core\n\nThe core package.\n',
    'packages/core/index.js': 'module.exports = 1;\n',
  });
  await symlink(join(outside.root, 'secret.txt'), join(repo.root, 'escape.txt'));
  return {
    root: repo.root,
    outside,
    cleanup: async () => {
      await repo.cleanup();
      await outside.cleanup();
    },
  };
}
