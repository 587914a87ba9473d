/** The pick answer as models write it (pickList.ts) and the summary check (summaryAnswer.ts). */
import { describe, expect, it } from 'vitest';

import { findPickList, normalisePickPath } from '../../src/flows/summarizeRepo/pickList.js';
import { checkSummaryText } from '../../src/flows/summarizeRepo/summaryAnswer.js';

const list = (text: string) => {
  const found = findPickList(text);
  if (found.kind !== 'list') throw new Error(`refused: ${found.reason}`);
  return found.entries;
};
const refusal = (text: string) => {
  const found = findPickList(text);
  if (found.kind !== 'unusable') throw new Error(`accepted: ${JSON.stringify(found.entries)}`);
  return found.reason;
};

describe('findPickList', () => {
  it.each([
    ['a bare array', '["README.md","package.json"]'],
    ['a fenced array', '```json\n["README.md", "package.json"]\n```'],
    ['an unlabelled fence', '```\n["README.md", "package.json"]\n```'],
    ['prose before', 'Here are the files I picked:\n["README.md","package.json"]'],
    ['prose around', 'I picked ["README.md", "package.json"] because they describe it.'],
    ['a fence inside prose', 'Sure!\n```json\n[\n  "README.md",\n  "package.json"\n]\n```\nThat should cover it.'],
    ['the same array twice', 'Answer: ["README.md","package.json"]\n\nFinal: ["README.md", "package.json"]'],
    ['a bracketed aside first', 'My pick [as asked]: ["README.md", "package.json"]'],
    ['an unbalanced quote in the prose', 'The "main" [entry: ["README.md", "package.json"]'],
  ])('accepts %s', (_name, text) => {
    expect(list(text)).toEqual(['README.md', 'package.json']);
  });

  it('normalises every path: whitespace, quotes, backticks, backslashes, leading ./', () => {
    expect(list('["  ./README.md ", "\'docs\\\\guide.md\'", "`src/index.ts`", "././a/b.ts", ".\\\\c.ts"]')).toEqual([
      'README.md',
      'docs/guide.md',
      'src/index.ts',
      'a/b.ts',
      'c.ts',
    ]);
    expect(normalisePickPath('"\'README.md\'"')).toBe('README.md');
    // Single backslashes are not JSON escapes: read as the Windows separators they are.
    expect(list('Picked: ["docs\\guide.md", "src\\cli.ts"]')).toEqual(['docs/guide.md', 'src/cli.ts']);
    expect(normalisePickPath('../x')).toBe('../x'); // confinement is the listing's job, not the parser's
  });

  it('a bare array keeps entries that are not strings, to be reported as dropped', () => {
    expect(list('["README.md", 7, null, {"a":1}]')).toEqual([
      'README.md',
      { notAPath: '7' },
      { notAPath: 'null' },
      { notAPath: '{"a":1}' },
    ]);
  });

  it.each([
    ['an object', '{"files": ["README.md"]}', 'the answer is JSON but an object'],
    ['a fenced object', '```json\n{"files": ["README.md"]}\n```', 'the answer is JSON but an object'],
    ['a JSON string', '"README.md"', 'the answer is JSON but a string'],
    ['a number', '3', 'the answer is JSON but a number'],
    ['null', 'null', 'the answer is JSON but null'],
  ])('refuses valid JSON of another shape: %s', (_name, text, reason) => {
    expect(refusal(text)).toContain(reason);
  });

  it.each([
    ['two different arrays', 'Either ["README.md"] or ["package.json"].', 'more than one JSON array'],
    ['a fence and a different array', '```json\n["README.md"]\n```\nor maybe ["src/index.ts"]', 'more than one'],
    ['no array', 'I would read the README first.', 'no JSON array of file paths'],
    ['only an array of numbers', 'Files [1, 2] look good.', 'no JSON array of file paths'],
    ['only an empty array', 'Nothing to pick: []', 'no JSON array of file paths'],
    ['single-quoted entries', "['README.md']", 'no JSON array of file paths'],
    ['an empty answer', '', 'the answer is empty'],
    ['a blank answer', ' \n\t', 'the answer is empty'],
  ])('refuses %s', (_name, text, reason) => {
    expect(refusal(text)).toContain(reason);
  });

  it('a nested array in prose: the inner array of strings is the list', () => {
    expect(list('Result: [["README.md", "package.json"]] done')).toEqual(['README.md', 'package.json']);
  });

  it('hostile input of 256 KiB ends with an answer (bounded work per character)', () => {
    expect(findPickList('["[",'.repeat(50_000)).kind).toBe('unusable');
    expect(findPickList('['.repeat(256 * 1024)).kind).toBe('unusable');
    const many = `${'["a"] '.repeat(40_000)}`;
    expect(findPickList(many)).toEqual({ kind: 'list', entries: ['a'] });
  });
});

describe('checkSummaryText', () => {
  it('accepts any non-empty prose, trimmed', () => {
    expect(checkSummaryText('  Sample Widget turns CSV files into charts.\n')).toEqual({
      kind: 'summary',
      text: 'Sample Widget turns CSV files into charts.',
    });
    expect(checkSummaryText('I cannot stress enough how small this CLI is. '.repeat(20)).kind).toBe('summary');
    expect(checkSummaryText('I can summarize it: a CLI.').kind).toBe('summary');
  });

  it.each([
    ['', 'the summary is empty'],
    [' \n\t ', 'the summary is empty'],
    ["I'm sorry, but I can't help with that.", 'refusal'],
    ['I cannot summarize this repository.', 'refusal'],
    ['Sorry, I can’t do that.', 'refusal'],
    ['Unfortunately, I am unable to comply.', 'refusal'],
    ['As an AI language model, I do not read files.', 'refusal'],
  ])('refuses %j', (text, reason) => {
    const checked = checkSummaryText(text);
    expect(checked.kind).toBe('unusable');
    expect(checked.kind === 'unusable' && checked.reason).toContain(reason);
  });
});
