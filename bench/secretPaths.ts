/**
 * The coverage table docs/security.md points to: each format of the credential corpus (test/repo/secrets/formats.ts) on
 * each path (test/helpers/secretPaths.ts: built-in, provider, MRTR pick, MRTR explore, legacy live sampling) —
 * `redacted` when its line reached the model and its value did not, `not shown` when the line never reached it, and
 * `LEAKED` when the value did. The kind is the marker its line gets. Run: `npx tsx bench/secretPaths.ts`.
 */
import { redactText } from '../src/repo/secrets/index.js';
import { makeTree } from '../test/helpers/fixtureRepo.js';
import { runPath, SECRET_PATHS, type PathRun } from '../test/helpers/secretPaths.js';
import { credentialFormats, forbiddenOf, formatFiles, labelOf } from '../test/repo/secrets/formats.js';

const fixture = await makeTree(
  { 'README.md': '# Formats\n\nConfiguration samples.\n', ...formatFiles() },
  'mmi-formats-',
);
try {
  const repo = {
    root: fixture.root,
    files: Object.keys(formatFiles()),
    keyFile: Object.keys(formatFiles())[0]!,
    searchDir: 'conf',
  };
  const runs: PathRun[] = [];
  for (const path of SECRET_PATHS) runs.push(await runPath(path, repo));
  console.log(`| format | marker | ${SECRET_PATHS.join(' | ')} |`);
  console.log(`| --- | --- | ${SECRET_PATHS.map(() => '---').join(' | ')} |`);
  for (const format of credentialFormats()) {
    const kinds = [...(await redactText(format.line)).kinds.keys()].join(', ');
    const cells = SECRET_PATHS.map((path, index) => {
      const run = runs[index]!;
      if (forbiddenOf(format).some((value) => run.prompts.includes(value) || run.output.includes(value)))
        return 'LEAKED';
      if (path === 'builtin') return 'absent';
      return run.prompts.includes(labelOf(format.id)) ? 'redacted' : 'not shown';
    });
    console.log(`| ${format.id} | ${kinds} | ${cells.join(' | ')} |`);
  }
} finally {
  await fixture.cleanup();
}
