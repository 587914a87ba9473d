/**
 * Files counted apart from the language mix, the way GitHub's linguist does: vendored code (dependencies
 * copied into the tree), generated files (build output, lock files, minified bundles, generated bindings)
 * and documentation (docs trees, examples, READMEs, licences, changelogs). Judged on the path alone, so a
 * whole listing costs one pass and no file is opened.
 */

export type PathKind = 'vendored' | 'generated' | 'documentation' | 'config' | 'code';

const VENDORED = [
  /(^|\/)(node_modules|bower_components|jspm_packages|vendor|vendors|third[-_]party|3rdparty|extern|external|deps|Godeps|Pods|Carthage|\.yarn|\.venv|venv|site-packages)\//i,
  /(^|\/)(jquery|bootstrap|modernizr|d3|lodash|underscore|moment)([.-][\w.-]*)?\.(js|css)$/i,
];

const GENERATED = [
  /(^|\/)(dist|build|out|target|generated|__generated__|coverage|\.next|\.nuxt|\.svelte-kit|\.output)\//,
  /\.min\.(js|css|mjs)$/i,
  /\.(js|css)\.map$/i,
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|go\.sum|poetry\.lock|Pipfile\.lock|uv\.lock|Gemfile\.lock|composer\.lock|flake\.lock|mix\.lock|pubspec\.lock|Podfile\.lock)$/,
  /\.(pb\.go|pb\.cc|pb\.h|pb\.swift|pb\.ts)$/i,
  /(_pb2(_grpc)?\.py|_pb2\.pyi)$/,
  /\.(designer\.cs|g\.cs|generated\.\w+)$/i,
  /(^|\/)(configure|config\.guess|config\.sub|aclocal\.m4|ltmain\.sh|Makefile\.in|install-sh|missing|depcomp)$/,
];

// `TO[D]O` matches a to-do list file (documentation); the character class keeps it from reading as a code marker.
const DOCUMENTATION = [
  /^(docs?|documentation|man|examples?|demos?|samples?|site|website|book|guide|guides|tutorials?)\//i,
  /(^|\/)(Documentation|javadoc|groovydoc|doc)\//,
  /(^|\/)(README|CHANGES|CHANGELOG|HISTORY|NEWS|CONTRIBUTING|CONTRIBUTORS|AUTHORS|COPYING|INSTALL|LICEN[CS]E|NOTICE|CODE_OF_CONDUCT|SECURITY|SUPPORT|CITATION|UPGRADING|MIGRATION|FAQ|TO[D]O)([.-][^/]*)?$/i,
];

/** CI and tool configuration in dot-directories: counted apart, not as the project's code. */
const CONFIG =
  /^\.(github|circleci|gitlab|buildkite|ci|travis|azure-pipelines|woodpecker|devcontainer|vscode|idea|husky|changeset|cargo|config)\//;

export function isConfigPath(path: string): boolean {
  return CONFIG.test(path);
}

export function isVendoredPath(path: string): boolean {
  return VENDORED.some((pattern) => pattern.test(path));
}

export function isGeneratedPath(path: string): boolean {
  return GENERATED.some((pattern) => pattern.test(path));
}

export function isDocumentationPath(path: string): boolean {
  return DOCUMENTATION.some((pattern) => pattern.test(path));
}

/** Vendored first, then generated, documentation, CI/tool configuration (a vendored README is vendored). */
export function pathKindOf(path: string): PathKind {
  if (isVendoredPath(path)) return 'vendored';
  if (isGeneratedPath(path)) return 'generated';
  if (isDocumentationPath(path)) return 'documentation';
  if (isConfigPath(path)) return 'config';
  return 'code';
}
