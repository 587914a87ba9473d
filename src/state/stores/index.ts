export { createMemoryStore } from './memoryStore.js';
export type { MemoryStoreOptions } from './memoryStore.js';
export { openStore } from './openStore.js';
export { createRedisStore, redactStoreUrl } from './redisStore.js';
export type { RedisStoreOptions } from './redisStore.js';
export type { LimiterOptions, LimitOutcome, PointLimiter, SharedStore } from './store.js';
export { isStoreUnavailableError, StoreUnavailableError } from './storeUnavailableError.js';
