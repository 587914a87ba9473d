/**
 * The scripted model: texts and tool turns per input key, in order (the last repeating), unique
 * tool_use ids, whether it declares tool use, and the script guard the file loaders use.
 */
import { describe, expect, it } from 'vitest';

import { createScriptedModel, isScriptedAnswers } from '../../src/models/scripted.js';

const params = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'go' } }], maxTokens: 50 };

describe('createScriptedModel', () => {
  it('answers a tool turn with tool_use blocks, unique ids and stopReason toolUse, then the final text', async () => {
    const model = createScriptedModel({
      explore: [
        {
          text: 'Looking around.',
          toolUse: [
            { name: 'list_directory', input: { path: '.' } },
            { name: 'read_file', input: { path: 'README.md' } },
          ],
        },
        { toolUse: [{ name: 'read_file', input: { path: 'package.json' } }] },
        'A small CLI.',
      ],
    });
    expect(model.usesTools).toBe(true);
    const first = await model.complete({ key: 'explore', params });
    const second = await model.complete({ key: 'explore', params });
    const third = await model.complete({ key: 'explore', params });
    expect(first).toEqual({
      role: 'assistant',
      model: 'mcp-model-input/scripted',
      stopReason: 'toolUse',
      content: [
        { type: 'text', text: 'Looking around.' },
        { type: 'tool_use', id: 'toolu_scripted_1', name: 'list_directory', input: { path: '.' } },
        { type: 'tool_use', id: 'toolu_scripted_2', name: 'read_file', input: { path: 'README.md' } },
      ],
    });
    expect(second.content).toEqual([
      { type: 'tool_use', id: 'toolu_scripted_3', name: 'read_file', input: { path: 'package.json' } },
    ]);
    expect(third).toMatchObject({ content: { type: 'text', text: 'A small CLI.' }, stopReason: 'endTurn' });
    expect(model.calls.map((call) => call.key)).toEqual(['explore', 'explore', 'explore']);
  });

  it('keeps a scripted id as given (a test can script a model that repeats one)', async () => {
    const model = createScriptedModel({
      k: {
        toolUse: [
          { name: 'search', id: 'same' },
          { name: 'search', id: 'same' },
        ],
      },
    });
    const answer = await model.complete({ key: 'k', params });
    expect(answer.content).toEqual([
      { type: 'tool_use', id: 'same', name: 'search', input: {} },
      { type: 'tool_use', id: 'same', name: 'search', input: {} },
    ]);
  });

  it('declares tool use only when a tool turn is scripted, unless told', () => {
    expect(createScriptedModel({ k: 'text' }).usesTools).toBe(false);
    expect(createScriptedModel({ k: 'text' }, { usesTools: true }).usesTools).toBe(true);
    expect(createScriptedModel({ k: { toolUse: [{ name: 'x' }] } }, { usesTools: false }).usesTools).toBe(false);
  });
});

describe('isScriptedAnswers', () => {
  it.each([
    [{ a: 'x', b: ['y', { toolUse: [{ name: 'read_file', input: { path: 'a' } }] }] }, true],
    [{ a: { text: 'why', toolUse: [{ name: 'n', id: 'i' }] } }, true],
    [{ a: 3 }, false],
    [{ a: { toolUse: [] } }, false],
    [{ a: { toolUse: [{ input: {} }] } }, false],
    [{ a: { toolUse: [{ name: 'n', input: 'path' }] } }, false],
    [['x'], false],
  ])('%j -> %s', (value, ok) => {
    expect(isScriptedAnswers(value)).toBe(ok);
  });
});
