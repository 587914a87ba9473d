/**
 * The journal's own rules (kit/journal.ts): a question's digest depends on its JSON value only, and an entry brought
 * back from the store stays spilled when the state is sealed again, without being written again.
 */
import { describe, expect, it } from 'vitest';

import { questionDigest, restoreJournal, spillJournal, type KitState } from '../../src/kit/journal.js';
import { createMemoryStore } from '../../src/state/stores/index.js';

describe('questionDigest', () => {
  it('is the same for the same JSON value, whatever the key order or members JSON leaves out', () => {
    const a = { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }], maxTokens: 10 };
    const b = { maxTokens: 10, extra: undefined, messages: [{ content: { text: 'hi', type: 'text' }, role: 'user' }] };
    expect(questionDigest('s', 'step', a)).toBe(questionDigest('s', 'step', b));
    expect(questionDigest('s', 'step', a)).toBe(questionDigest('s', 'step', JSON.parse(JSON.stringify(a))));
  });

  it('tells apart values, kinds, keys, types and orders that JSON tells apart', () => {
    const base = questionDigest('s', 'step', { n: [1, 2] });
    expect(questionDigest('s', 'step', { n: [2, 1] })).not.toBe(base);
    expect(questionDigest('s', 'step', { n: ['1', '2'] })).not.toBe(base);
    expect(questionDigest('e', 'step', { n: [1, 2] })).not.toBe(base);
    expect(questionDigest('s', 'other', { n: [1, 2] })).not.toBe(base);
    // Length prefixes: no two splits of the same characters collide.
    expect(questionDigest('s', 'ab', 'c')).not.toBe(questionDigest('s', 'a', 'bc'));
  });

  it('refuses a question nested beyond any protocol message (or a cycle)', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => questionDigest('s', 'step', cycle)).toThrow(/nested too deeply/);
  });
});

describe('spilled entries', () => {
  it('are written once: brought back, they are sealed again as their digest alone', async () => {
    const store = createMemoryStore();
    const writes: string[] = [];
    const counting = {
      ...store,
      keep: (key: string, value: string, at: number) => (writes.push(key), store.keep!(key, value, at)),
      recall: (key: string) => store.recall!(key),
    };
    const state: KitState = { j: [{ t: 'o', k: 'big', d: 'x', v: 'y'.repeat(10_000) }] };
    const sealed = await spillJournal(state, 4096, counting, Date.now() + 60_000);
    expect(writes).toHaveLength(1);
    expect(sealed.j[0]).not.toHaveProperty('v');
    const restored = await restoreJournal(sealed, counting);
    expect(restored.j[0]?.v).toBe('y'.repeat(10_000));
    const again = await spillJournal(
      { ...restored, j: [...restored.j, { t: 'o', k: 'small', d: 'z', v: 1 }] },
      4096,
      counting,
      Date.now() + 60_000,
    );
    expect(writes).toHaveLength(1);
    expect(again.j[0]).toEqual({ t: 'o', k: 'big', d: 'x', r: sealed.j[0]?.r });
  });
});
