/** A tiny concurrency limiter for leaf filesystem operations (never wrap work that itself waits on the limiter). */
export type Limiter = <T>(task: () => Promise<T>) => Promise<T>;

export function createLimiter(maxConcurrent: number): Limiter {
  const max = Math.max(1, Math.floor(maxConcurrent));
  let active = 0;
  const waiting: (() => void)[] = [];

  const release = (): void => {
    active--;
    const next = waiting.shift();
    if (next) next();
  };

  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await task();
    } finally {
      release();
    }
  };
}
