/**
 * The protocol revisions this project speaks, named once. `2026-07-28` is the stateless revision
 * (per-request `_meta` envelope, MRTR); `2025-11-25` is the sessionful one the legacy adapter serves
 * while sampling is deprecated.
 */
export const MODERN_REVISION = '2026-07-28' as const;
export const LEGACY_REVISION = '2025-11-25' as const;

/** The revisions the stateless path accepts in `_meta` (the -32022 `supported` list). */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_REVISION];

/**
 * Whether a revision string names 2026-07-28 or later (dates compare as strings). Such traffic is
 * never 2025-era, whatever else it carries (the SDK's `isLegacyRequest` draws the same line).
 */
export function namesModernRevision(version: string | null | undefined): boolean {
  return typeof version === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(version) && version >= MODERN_REVISION;
}
