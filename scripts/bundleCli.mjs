// The second step of `npm run build`: bundles the command-line program that `tsc` emitted (dist/cli.js and what it
// imports) into dist/cli.js plus lazily loaded chunks in dist/cli-chunks/, so that starting it resolves and compiles
// a few files instead of about a thousand (linguist's data alone is 800 modules, zod about 100). The library entries
// (dist/index.js, dist/entries/…) stay as tsc wrote them. A command's modules are still loaded only when it runs:
// every dynamic import() becomes its own chunk.
//
// Which modules each output carries is written to dist/cli-chunks/modules.json.
//
// Packages that are heavy and loaded only at first need, or that find their own files at run time, stay outside the
// bundle and load from node_modules as before (EXTERNAL). Run it again only after tsc: it refuses to bundle a bundle.
import { build } from 'esbuild';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new globalThis.URL('..', import.meta.url));
const entry = `${root}dist/cli.js`;
const MARKER = '// bundled by scripts/bundleCli.mjs';
const EXTERNAL = [
  'gpt-tokenizer', // loaded by path on the tokenizer's worker thread (src/repo/tokenizerThread.ts)
  'openai',
  '@anthropic-ai/sdk',
  'ioredis',
  '@clack/prompts',
  'yaml',
  'ajv',
  'ajv-formats',
  'prom-client',
  'ts-morph', // the TypeScript compiler (about 10 MB): loaded only by `migrate` and `plan --from-source`
];

if (readFileSync(entry, 'utf8').includes(MARKER)) {
  throw new Error('dist/cli.js is already a bundle: run `npm run build` (tsc first)');
}
const { version } = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
rmSync(`${root}dist/cli-chunks`, { recursive: true, force: true });

const { metafile } = await build({
  absWorkingDir: root,
  metafile: true,
  entryPoints: [entry],
  outdir: `${root}dist`,
  allowOverwrite: true,
  entryNames: '[name]',
  chunkNames: 'cli-chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  // CommonJS packages inside an ES module bundle call require() for Node's built-ins.
  banner: {
    js: `${MARKER}\nimport { createRequire as __bundleRequire } from 'node:module';\nconst require = __bundleRequire(import.meta.url);`,
  },
  plugins: [
    {
      // version.js reads ../package.json beside itself; in a chunk that path would be wrong, so the bundle carries
      // the version as a constant.
      name: 'version-constant',
      setup(builder) {
        builder.onLoad({ filter: /[\\/]dist[\\/]version\.js$/ }, () => ({
          contents: `export const VERSION = ${JSON.stringify(version)};`,
          loader: 'js',
        }));
      },
    },
  ],
});

// Which modules each output file carries (paths from the project root: dist/… and node_modules/…), for the test that
// checks what a command loads (test/cli/lazyLoading.test.ts). Not part of the package (package.json `files`).
const modules = Object.fromEntries(
  Object.entries(metafile.outputs).map(([output, { inputs }]) => [output.replace(/^dist\//, ''), Object.keys(inputs)]),
);
writeFileSync(`${root}dist/cli-chunks/modules.json`, `${JSON.stringify(modules, null, 1)}\n`);
