/**
 * A loader that runs `load` at its first call and keeps the promise, so a module (or what is built from it) is
 * imported once per process; a load that fails is tried again by the next call instead of failing forever.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
