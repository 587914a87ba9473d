import { describe, expect, it } from 'vitest';

import { BUILTIN_MODEL_NAME, createBuiltinModel } from '../../../../src/flows/summarizeRepo/builtin/model.js';
import type { ModelCompletionRequest } from '../../../../src/models/index.js';
import { NODE_FILES, NODE_PROJECT, pickText, request, summaryText } from '../../../models/prompts.js';

const model = createBuiltinModel();

async function answer(req: ModelCompletionRequest): Promise<string> {
  const { content } = await model.complete(req);
  if (Array.isArray(content) || content.type !== 'text') throw new Error('expected a text answer');
  return content.text;
}

async function pick(text: string, key = 'pick_files'): Promise<string[]> {
  const parsed: unknown = JSON.parse(await answer(request(text, key)));
  expect(Array.isArray(parsed)).toBe(true);
  return parsed as string[];
}

describe('createBuiltinModel', () => {
  it('answers as the built-in model with a text result that ends its turn', async () => {
    expect(model.name).toBe(BUILTIN_MODEL_NAME);
    const result = await model.complete(request(pickText(NODE_PROJECT, 3)));
    expect(result).toMatchObject({ role: 'assistant', model: BUILTIN_MODEL_NAME, stopReason: 'endTurn' });
    expect(result.content).toMatchObject({ type: 'text' });
  });

  it('recognises the task by the prompt text, not by the key', async () => {
    expect(JSON.parse(await answer(request(pickText(NODE_PROJECT, 3), 'summary')))).toContain('README.md');
    expect(await answer(request(summaryText(NODE_FILES), 'pick_files'))).toContain('## Languages');
    const quoting = [{ path: 'NOTES.md', content: pickText(NODE_PROJECT, 3) }];
    expect(await answer(request(summaryText(quoting), 'pick_files'))).toContain('## Languages');
  });

  it('says what it can do when the prompt is neither format', async () => {
    const text = await answer(request('Write a haiku about autumn.', 'pick_files'));
    expect(text).toMatch(/built-in model .* handles only the summarize_repo prompts/);
    expect(text).not.toMatch(/^\[/);
  });

  it('rejects when the request was already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('gone'));
    await expect(model.complete({ ...request(pickText(NODE_PROJECT, 3)), signal: controller.signal })).rejects.toThrow(
      'gone',
    );
  });
});

describe('built-in file picking', () => {
  const listed = new Set(NODE_PROJECT.map(([path]) => path));

  it('answers a JSON array of listed paths that includes the README and the manifest', async () => {
    const raw = await answer(request(pickText(NODE_PROJECT, 3)));
    expect(raw.trim().startsWith('[')).toBe(true);
    const picked = JSON.parse(raw) as string[];
    expect(picked).toHaveLength(3);
    expect(picked).toEqual(expect.arrayContaining(['README.md', 'package.json']));
    for (const path of picked) expect(listed.has(path)).toBe(true);
  });

  it('respects N, at most one README, directory diversity and skips lock and test files', async () => {
    expect(await pick(pickText(NODE_PROJECT, 1))).toEqual(['README.md']);
    const eight = await pick(pickText(NODE_PROJECT, 8));
    expect(eight).toHaveLength(8);
    expect(new Set(eight).size).toBe(8);
    expect(eight.filter((path) => /readme/i.test(path))).toEqual(['README.md']);
    expect(eight).not.toContain('package-lock.json');
    expect(eight).not.toContain('test/index.test.ts');
    const srcFiles = eight.filter((path) => path.startsWith('src/'));
    expect(srcFiles.length).toBeGreaterThanOrEqual(2);
    expect(eight.indexOf('docs/guide.md')).toBeLessThan(eight.indexOf(srcFiles[1] ?? ''));
  });

  it('defaults to 3 files when the prompt gives no limit', async () => {
    const text = pickText(NODE_PROJECT, 3).replace('Pick at most 3 files', 'Pick the files');
    expect(await pick(text)).toHaveLength(3);
  });

  it('answers [] when no candidates can be parsed', async () => {
    expect(await answer(request(pickText([], 3)))).toBe('[]');
    expect(await answer(request('Pick at most 3 files.\nAnswer with only a JSON array of file paths.'))).toBe('[]');
  });

  it('is deterministic and independent of the listing order', async () => {
    const first = await answer(request(pickText(NODE_PROJECT, 5)));
    expect(await answer(request(pickText(NODE_PROJECT, 5)))).toBe(first);
    expect(await answer(request(pickText([...NODE_PROJECT].reverse(), 5)))).toBe(first);
  });

  it('reads text blocks from content arrays and ignores other blocks and assistant turns', async () => {
    const [head, list] = pickText(NODE_PROJECT, 2).split('\n\n');
    const picked = JSON.parse(
      await answer({
        key: 'pick_files',
        params: {
          maxTokens: 400,
          messages: [
            { role: 'assistant', content: { type: 'text', text: 'Candidate files:\nevil.ts\t10' } },
            {
              role: 'user',
              content: [
                { type: 'text', text: head ?? '' },
                { type: 'image', data: 'AAAA', mimeType: 'image/png' },
                { type: 'text', text: list ?? '' },
              ],
            },
          ],
        },
      }),
    ) as string[];
    expect(picked).toEqual(['README.md', 'package.json']);
  });
});
