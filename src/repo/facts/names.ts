/**
 * A project's short name from what a manifest declares: the last segment of a Go module path (`/v8` aside),
 * an npm name without its scope, a composer name without its vendor, without a workspace root's suffix
 * (`gson-parent` -> `gson`, `@vitejs/vite-monorepo` -> `vite`).
 */
const ROOT_SUFFIX = /[-_. ](parent|monorepo|mono|root|workspace|workspaces|project|all|build)$/i;

export function shortProjectName(declared: string): string {
  const segments = declared
    .trim()
    .split('/')
    .filter((segment) => segment !== '' && !/^v\d+$/.test(segment));
  const last = segments[segments.length - 1] ?? declared.trim();
  const stripped = last.replace(/^@/, '').replace(ROOT_SUFFIX, '');
  return stripped === '' ? last : stripped;
}

/** For comparisons: lower case, letters, digits, `+` and `#` only. */
export function nameKey(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}+#]/gu, '');
}
