/**
 * The bounded store of legacy (2025-11-25) HTTP sessions. Memory does not grow with abandoned
 * sessions: at most `maxSessions` are held; a session with no request in flight and no traffic for
 * `idleMs` is closed by `sweep` (run on a timer, and before a new session is refused for room);
 * `close` ends one on DELETE. A session belongs to the owner that opened it: to anyone else it
 * does not exist. One principal holds at most `maxPerOwner` sessions (the principal a session counts for is its
 * owner unless `add` names another), and no session outlives `maxLifetimeMs`, busy or not.
 *
 * Fair under pressure: when the store is full, a newcomer still gets in if some session has had no request in
 * flight and no traffic for `graceMs`. The one closed for it is the least recently used such session of the
 * principal holding the most sessions — only if that principal holds more than the newcomer does.
 */
export interface Closable {
  close(): Promise<void>;
}

export interface SessionStoreOptions {
  maxSessions: number;
  idleMs: number;
  /** Sessions one owner may hold (default: no limit below `maxSessions`). */
  maxPerOwner?: number;
  /** A session older than this is closed, traffic or not (default: no limit). */
  maxLifetimeMs?: number;
  /**
   * When the store is full, a session idle this long may be closed to make room for a principal holding fewer
   * (default: never, only `idleMs` frees room).
   */
  graceMs?: number;
  now?: () => number;
}

/** Whether a new session of an owner fits: yes, not in the store (`full`), or not in the owner's quota. */
export type Room = 'ok' | 'full' | 'owner_full';

export interface SessionStore<T extends Closable> {
  readonly size: number;
  /** True when another session fits, after closing idle ones if the store was full. */
  hasRoom(): Promise<boolean>;
  /**
   * Whether a session of `principal` fits, after closing idle and expired ones if needed — and, when the store is
   * full, one idle past the grace of the principal holding the most.
   */
  roomFor(principal: string): Promise<Room>;
  /**
   * Adds a session of `owner` (who may use it), counted for `principal` (default: the owner); false (and nothing
   * added) when the store or the principal's quota is full.
   */
  add(id: string, owner: string, value: T, principal?: string): boolean;
  /** The session if it exists and belongs to `owner`; counts as traffic. */
  get(id: string, owner: string): T | undefined;
  /** Marks a request of the session in flight; the returned function ends it (once). */
  hold(id: string): () => void;
  /** Removes a session and closes it. */
  close(id: string): Promise<void>;
  /** Closes every idle session; resolves with how many. */
  sweep(): Promise<number>;
  closeAll(): Promise<void>;
}

interface Entry<T> {
  value: T;
  owner: string;
  principal: string;
  created: number;
  lastSeen: number;
  inFlight: number;
}

export function createSessionStore<T extends Closable>(options: SessionStoreOptions): SessionStore<T> {
  const now = options.now ?? Date.now;
  const maxPerOwner = options.maxPerOwner ?? Number.POSITIVE_INFINITY;
  const maxLifetimeMs = options.maxLifetimeMs ?? Number.POSITIVE_INFINITY;
  const entries = new Map<string, Entry<T>>();
  const expired = (entry: Entry<T>): boolean => now() - entry.created >= maxLifetimeMs;
  const graceMs = options.graceMs ?? Number.POSITIVE_INFINITY;
  const ownedBy = (principal: string): number => {
    let count = 0;
    for (const entry of entries.values()) if (entry.principal === principal && !expired(entry)) count++;
    return count;
  };

  const close = async (id: string): Promise<void> => {
    const entry = entries.get(id);
    if (entry === undefined) return;
    entries.delete(id);
    await entry.value.close().catch(() => {});
  };

  const sweep = async (): Promise<number> => {
    const cutoff = now() - options.idleMs;
    const idle = [...entries].filter(
      ([, entry]) => (entry.inFlight === 0 && entry.lastSeen <= cutoff) || expired(entry),
    );
    await Promise.all(idle.map(([id]) => close(id)));
    return idle.length;
  };

  /**
   * In a full store, closes the least recently used session idle past the grace of the principal holding the most
   * sessions, if that principal holds more than `principal`; whether one was closed.
   */
  const evictFor = async (principal: string): Promise<boolean> => {
    const cutoff = now() - graceMs;
    const counts = new Map<string, number>();
    for (const entry of entries.values()) counts.set(entry.principal, (counts.get(entry.principal) ?? 0) + 1);
    const own = counts.get(principal) ?? 0;
    let victim: [string, Entry<T>] | undefined;
    let victimCount = own;
    for (const [id, entry] of entries) {
      if (entry.inFlight > 0 || entry.lastSeen > cutoff) continue;
      const count = counts.get(entry.principal) ?? 0;
      const older = victim === undefined || entry.lastSeen < victim[1].lastSeen;
      if (count > victimCount || (count === victimCount && victim !== undefined && older)) {
        victim = [id, entry];
        victimCount = count;
      }
    }
    if (victim === undefined) return false;
    await close(victim[0]);
    return true;
  };

  return {
    get size() {
      return entries.size;
    },
    hasRoom: async () => {
      if (entries.size >= options.maxSessions) await sweep();
      return entries.size < options.maxSessions;
    },
    roomFor: async (principal) => {
      if (entries.size >= options.maxSessions || ownedBy(principal) >= maxPerOwner) await sweep();
      if (entries.size >= options.maxSessions && ownedBy(principal) < maxPerOwner) await evictFor(principal);
      // A full store is the server's answer (503) even to an owner at its quota; the quota answers 429 otherwise.
      if (entries.size >= options.maxSessions) return 'full';
      return ownedBy(principal) >= maxPerOwner ? 'owner_full' : 'ok';
    },
    add: (id, owner, value, principal = owner) => {
      if (entries.size >= options.maxSessions || entries.has(id) || ownedBy(principal) >= maxPerOwner) return false;
      const at = now();
      entries.set(id, { value, owner, principal, created: at, lastSeen: at, inFlight: 0 });
      return true;
    },
    get: (id, owner) => {
      const entry = entries.get(id);
      if (entry === undefined || entry.owner !== owner) return undefined;
      if (expired(entry)) {
        void close(id);
        return undefined;
      }
      entry.lastSeen = now();
      return entry.value;
    },
    hold: (id) => {
      const entry = entries.get(id);
      if (entry === undefined) return () => {};
      entry.inFlight += 1;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        entry.inFlight -= 1;
        entry.lastSeen = now();
      };
    },
    close,
    sweep,
    closeAll: async () => {
      await Promise.all([...entries.keys()].map((id) => close(id)));
    },
  };
}
