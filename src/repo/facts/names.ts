/**
 * A project's short name from what a manifest declares: the last segment of a Go module path (`/v8` aside),
 * an npm name without its scope, a composer name without its vendor, without a workspace root's suffix
 * (`gson-parent` -> `gson`, `@vitejs/vite-monorepo` -> `vite`, `@vitest/monorepo` -> `vitest`).
 */
const ROOT_SUFFIX = /[-_. ](parent|monorepo|mono|root|workspace|workspaces|project|all|build)$/i;
const ROOT_WORD = /^(parent|monorepo|mono|root|workspace|workspaces)$/i;

export function shortProjectName(declared: string): string {
  const segments = declared
    .trim()
    .split('/')
    .filter((segment) => segment !== '' && !/^v\d+$/.test(segment));
  const last = segments[segments.length - 1] ?? declared.trim();
  // `@vitest/monorepo`: the scope names the project when the name is only a root word.
  const scope = segments.length > 1 ? segments[segments.length - 2]?.replace(/^@/, '') : undefined;
  if (ROOT_WORD.test(last) && scope !== undefined && scope !== '') return scope;
  const stripped = last.replace(/^@/, '').replace(ROOT_SUFFIX, '');
  return stripped === '' ? last : stripped;
}

/** For comparisons: lower case, letters, digits, `+` and `#` only. */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}+#]/gu, '');
}
