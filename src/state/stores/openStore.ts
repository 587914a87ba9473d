/** `serve --store URL`: which shared store a URL names. */
import { ModelInputError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import { createMemoryStore } from './memoryStore.js';
import { createRedisStore } from './redisStore.js';
import type { SharedStore } from './store.js';

/** `memory:` (the default: this process) or `redis://…` / `rediss://…` (a fleet). */
export function openStore(url: string | undefined, logger: Logger): SharedStore {
  if (url === undefined || url === 'memory:' || url === 'memory') return createMemoryStore();
  let scheme: string;
  try {
    scheme = new URL(url).protocol;
  } catch {
    throw new ModelInputError('usage', `--store expects memory: or redis://host:port, got an unparsable URL`);
  }
  if (scheme === 'redis:' || scheme === 'rediss:') return createRedisStore({ url, logger });
  throw new ModelInputError('usage', `--store expects memory: or redis://host:port, not ${scheme}`);
}
