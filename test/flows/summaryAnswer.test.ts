/**
 * The summary answer as models write it: a preface that announces it, a fence around all of it (with or without a
 * language), fences inside it that must stay, and answers that only repeat the prompt.
 */
import { describe, expect, it } from 'vitest';

import { buildSummaryRequest } from '../../src/flows/summarizeRepo/prompts.js';
import { checkSummaryText, unwrapSummary } from '../../src/flows/summarizeRepo/summaryAnswer.js';

const BODY = [
  '# tinycsv',
  '',
  'A tiny streaming CSV parser for Node.js, written in TypeScript.',
  '',
  '## Getting started',
  '',
  '```sh',
  'npm install tinycsv',
  '```',
  '',
  'Execution starts at `src/cli.ts`.',
].join('\n');

describe('unwrapSummary', () => {
  it.each([
    ['a preface line', `Here is the summary:\n\n${BODY}`],
    ['a chatty preface', `Sure! Here's a concise summary of the repository for a developer audience:\n\n${BODY}`],
    ['a bare "Summary:" line', `Summary:\n${BODY}`],
    ['one fence without a language', `\`\`\`\n${BODY}\n\`\`\``],
    ['one fence with a language', `\`\`\`markdown\n${BODY}\n\`\`\``],
    ['a preface, then a fence', `Here is the summary of tinycsv:\n\n\`\`\`md\n${BODY}\n\`\`\`\n`],
    ['a fence, then a preface inside it', `\`\`\`markdown\nHere is the summary:\n\n${BODY}\n\`\`\``],
    ['a longer fence of tildes', `~~~~text\n${BODY}\n~~~~`],
    ['CRLF line ends', `\`\`\`markdown\r\n${BODY.replaceAll('\n', '\r\n')}\r\n\`\`\`\r\n`],
  ])('%s is taken off; the nested sh fence stays', (_name, answer) => {
    expect(unwrapSummary(answer)).toBe(BODY);
  });

  it.each([
    ['a summary that is only a code block in another language', '```sh\nnpm install tinycsv\n```'],
    ['two separate blocks with prose between', '```\nnpm i\n```\nthen\n```\nnpm test\n```'],
    ['a fence followed by a remark', `\`\`\`markdown\n${BODY}\n\`\`\`\nLet me know if you need more.`],
    ['a heading called Summary', `## Summary\n\n${BODY}`],
    ['a first line that is content', 'Here is the summary of what tinycsv does: it parses CSV.\nMore.'],
    ['a preface alone', 'Here is the summary:'],
    ['a fence whose inner fence is never closed', '```markdown\n# t\n```sh\nnpm i\n```'],
  ])('%s is kept as it is', (_name, answer) => {
    expect(unwrapSummary(answer)).toBe(answer.trim());
  });
});

describe('checkSummaryText', () => {
  it('returns the unwrapped summary', () => {
    expect(checkSummaryText(`Here is the summary:\n\`\`\`markdown\n${BODY}\n\`\`\``)).toEqual({
      kind: 'summary',
      text: BODY,
    });
  });

  it('an empty fence is an empty summary', () => {
    expect(checkSummaryText('```markdown\n\n```')).toMatchObject({ kind: 'unusable' });
  });

  it('an answer that repeats the summary prompt (instructions and excerpts) is unusable', () => {
    const params = buildSummaryRequest({
      repoName: 'tinycsv',
      audience: 'developer',
      files: [
        {
          path: 'README.md',
          content: '# tinycsv\n',
          size: 10,
          bytesShown: 10,
          truncated: false,
          encoding: 'utf8',
        } as never,
      ],
    });
    const prompt = (params.messages[0]?.content as { text: string }).text;
    expect(checkSummaryText(prompt)).toEqual({
      kind: 'unusable',
      reason: expect.stringContaining('repeats the prompt'),
    });
    // The excerpts alone, or the instruction quoted inside a fence, are an echo too.
    expect(checkSummaryText(prompt.slice(prompt.indexOf('<<<FILE')))).toMatchObject({ kind: 'unusable' });
    expect(checkSummaryText(`\`\`\`\n${prompt}\n\`\`\``)).toMatchObject({ kind: 'unusable' });
  });
});
