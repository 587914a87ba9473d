/**
 * The bounded store of legacy (2025-11-25) HTTP sessions. Memory does not grow with abandoned
 * sessions: at most `maxSessions` are held; a session with no request in flight and no traffic for
 * `idleMs` is closed by `sweep` (run on a timer, and before a new session is refused for room);
 * `close` ends one on DELETE. A session belongs to the principal that opened it: to anyone else it
 * does not exist.
 */
export interface Closable {
  close(): Promise<void>;
}

export interface SessionStoreOptions {
  maxSessions: number;
  idleMs: number;
  now?: () => number;
}

export interface SessionStore<T extends Closable> {
  readonly size: number;
  /** True when another session fits, after closing idle ones if the store was full. */
  hasRoom(): Promise<boolean>;
  /** Adds a session; false (and nothing added) when the store is full. */
  add(id: string, owner: string, value: T): boolean;
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
  lastSeen: number;
  inFlight: number;
}

export function createSessionStore<T extends Closable>(options: SessionStoreOptions): SessionStore<T> {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry<T>>();

  const close = async (id: string): Promise<void> => {
    const entry = entries.get(id);
    if (entry === undefined) return;
    entries.delete(id);
    await entry.value.close().catch(() => {});
  };

  const sweep = async (): Promise<number> => {
    const cutoff = now() - options.idleMs;
    const idle = [...entries].filter(([, entry]) => entry.inFlight === 0 && entry.lastSeen <= cutoff);
    await Promise.all(idle.map(([id]) => close(id)));
    return idle.length;
  };

  return {
    get size() {
      return entries.size;
    },
    hasRoom: async () => {
      if (entries.size >= options.maxSessions) await sweep();
      return entries.size < options.maxSessions;
    },
    add: (id, owner, value) => {
      if (entries.size >= options.maxSessions || entries.has(id)) return false;
      entries.set(id, { value, owner, lastSeen: now(), inFlight: 0 });
      return true;
    },
    get: (id, owner) => {
      const entry = entries.get(id);
      if (entry === undefined || entry.owner !== owner) return undefined;
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
