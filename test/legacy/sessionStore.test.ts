/** The bounded legacy session store: count, idle expiry with an injected clock, owners, in-flight work. */
import { describe, expect, it } from 'vitest';

import { createSessionStore } from '../../src/legacy/sessionStore.js';

function fakeSession() {
  const session = { closed: 0, close: async () => void (session.closed += 1) };
  return session;
}

function storeWith(maxSessions: number, idleMs = 1000) {
  const clock = { now: 0 };
  const store = createSessionStore<ReturnType<typeof fakeSession>>({ maxSessions, idleMs, now: () => clock.now });
  return { store, clock };
}

describe('the legacy session store', () => {
  it('holds at most maxSessions; an abandoned session is closed once idle and makes room', async () => {
    const { store, clock } = storeWith(2);
    const [a, b, c] = [fakeSession(), fakeSession(), fakeSession()];
    expect(store.add('a', 'alice', a)).toBe(true);
    expect(store.add('b', 'alice', b)).toBe(true);
    expect(store.add('c', 'alice', c)).toBe(false);
    expect(await store.hasRoom()).toBe(false);
    expect(store.size).toBe(2);

    clock.now = 999;
    store.get('b', 'alice'); // traffic on b
    clock.now = 1500;
    expect(await store.hasRoom()).toBe(true); // a was idle for 1500 ms: closed
    expect(a.closed).toBe(1);
    expect(b.closed).toBe(0);
    expect(store.get('a', 'alice')).toBeUndefined();
    expect(store.add('c', 'alice', c)).toBe(true);
    expect(store.size).toBe(2);
  });

  it('memory stays bounded however many sessions are abandoned', async () => {
    const { store, clock } = storeWith(5);
    let opened = 0;
    const sessions: Array<ReturnType<typeof fakeSession>> = [];
    for (let round = 0; round < 40; round++) {
      clock.now += 400;
      if (!(await store.hasRoom())) continue;
      const session = fakeSession();
      sessions.push(session);
      expect(store.add(`s${round}`, 'anyone', session)).toBe(true);
      opened += 1;
      expect(store.size).toBeLessThanOrEqual(5);
    }
    expect(opened).toBeGreaterThan(5);
    clock.now += 1000;
    const left = store.size;
    expect(await store.sweep()).toBe(left);
    expect(store.size).toBe(0);
    expect(sessions.every((session) => session.closed === 1)).toBe(true);
  });

  it('a session with a request in flight is never idle', async () => {
    const { store, clock } = storeWith(1);
    store.add('a', 'alice', fakeSession());
    const release = store.hold('a');
    clock.now = 10_000;
    expect(await store.sweep()).toBe(0);
    release();
    release(); // ends once
    clock.now = 10_999;
    expect(await store.sweep()).toBe(0);
    clock.now = 11_000;
    expect(await store.sweep()).toBe(1);
  });

  it('a session exists only for the principal that opened it; close is idempotent', async () => {
    const { store } = storeWith(3);
    const session = fakeSession();
    store.add('a', 'alice', session);
    expect(store.get('a', 'mallory')).toBeUndefined();
    expect(store.get('a', 'alice')).toBe(session);
    await store.close('a');
    await store.close('a');
    expect(session.closed).toBe(1);
    expect(store.size).toBe(0);
  });
});

describe('the legacy session store per owner', () => {
  it('bounds each owner, answers full before owner_full, and ends sessions at their lifetime', async () => {
    const clock = { now: 0 };
    const store = createSessionStore<ReturnType<typeof fakeSession>>({
      maxSessions: 3,
      idleMs: 10_000,
      maxPerOwner: 2,
      maxLifetimeMs: 5_000,
      now: () => clock.now,
    });
    const sessions = [fakeSession(), fakeSession(), fakeSession()];
    expect(store.add('a1', 'alice', sessions[0]!)).toBe(true);
    expect(store.add('a2', 'alice', sessions[1]!)).toBe(true);
    expect(await store.roomFor('alice')).toBe('owner_full');
    expect(store.add('a3', 'alice', fakeSession())).toBe(false);
    expect(await store.roomFor('')).toBe('ok');
    expect(store.add('b1', '', sessions[2]!)).toBe(true);
    expect(await store.roomFor('bob')).toBe('full');
    expect(await store.roomFor('alice')).toBe('full');

    clock.now = 4_000;
    store.get('a1', 'alice'); // traffic does not extend a lifetime
    clock.now = 5_000;
    expect(store.get('a1', 'alice')).toBeUndefined();
    expect(await store.roomFor('alice')).toBe('ok');
    expect(await store.sweep()).toBe(2); // the busy-or-not expired ones, on the leg's timer
    expect(sessions.every((session) => session.closed === 1)).toBe(true);
    expect(store.size).toBe(0);
  });

  it('full: a session idle past the grace goes to a principal holding fewer, never to the one holding the most', async () => {
    const clock = { now: 0 };
    const store = createSessionStore<ReturnType<typeof fakeSession>>({
      maxSessions: 3,
      idleMs: 60_000,
      graceMs: 30_000,
      now: () => clock.now,
    });
    const [a1, a2, b1] = [fakeSession(), fakeSession(), fakeSession()];
    store.add('b1', 'bob', b1);
    store.add('a1', 'alice', a1);
    store.add('a2', 'alice', a2);
    clock.now = 29_000;
    expect(await store.roomFor('carol')).toBe('full'); // nobody idle past the grace yet
    clock.now = 40_000;
    // Alice holds the most; bob's idle session is older, but taking it would not be fair to him.
    expect(await store.roomFor('alice')).toBe('full');
    expect(store.size).toBe(3);
    const release = store.hold('a1'); // a session with a request in flight is never taken
    expect(await store.roomFor('carol')).toBe('ok');
    expect(a2.closed).toBe(1);
    expect(a1.closed + b1.closed).toBe(0);
    release();
    // Counted for another principal than its owner: the owner uses it, the principal's quota pays for it.
    expect(store.add('c1', 'carol', fakeSession(), 'carol/1')).toBe(true);
    expect(store.get('c1', 'carol')).toBeDefined();
  });
});
